package facts

import (
	"github.com/gymlint/gymlint/pyscan"
)

// Value is one thing a local name may hold.
type Value struct {
	// Expr is the assigned expression; nil when it is not known (a for
	// target, an element of an unpacked call, a caught exception, an
	// import).
	Expr pyscan.Expr
	// Param is set when the name is a parameter of Func.
	Param *pyscan.Param
	// Func is the function whose body binds the name: the one asked
	// about, or an enclosing function whose local a closure reads.
	Func *Func
	// Enter is set for `with Expr as name`: the name holds what
	// Expr.__enter__() returns.
	Enter bool
	// Aug is set for an augmented assignment `name op= Expr`.
	Aug bool
	// Def is set when the name is bound to a nested def or class.
	Def *pyscan.Function
	// Iter is set for a plain-name for target: the name holds an element
	// of Iter.
	Iter pyscan.Expr
	// At is the node that binds the name.
	At pyscan.Node
}

// locals indexes the names a function's own body binds.
type locals struct {
	binds   map[string][]Value
	globals map[string]bool // declared global or nonlocal: not locals
}

// Values returns what a local name may hold where fn uses it: every
// binding of the name in fn's own body, flow-insensitively and in source
// order (assignments, element-wise through tuple unpacking of a tuple
// value, annotated and augmented assignments, walrus, `with ... as`, for
// targets, except-as names, imports, nested defs), or the parameter. A
// name fn neither binds nor has as a parameter is looked up in the
// enclosing functions (a closure's variable); nil when none binds it: it
// is a module-scope or builtin name.
func (f *Facts) Values(fn *Func, name string) []Value {
	for cur := fn; cur != nil; cur = cur.Outer {
		l := f.localsOf(cur)
		if l.globals[name] {
			return nil
		}
		if vs := l.binds[name]; len(vs) > 0 {
			return vs
		}
	}
	return nil
}

// isLocal reports whether name is a parameter or local of fn (or of a
// function enclosing it).
func (f *Facts) isLocal(fn *Func, name string) bool { return len(f.Values(fn, name)) > 0 }

// IsLocal reports whether a name used in fn is a parameter or local of fn
// or of an enclosing function, rather than a module-scope or builtin name.
func (f *Facts) IsLocal(fn *Func, name string) bool { return f.isLocal(fn, name) }

// nestedDef returns the function a name denotes when fn (or an enclosing
// function) binds it to a nested def, and nothing else binds it.
func (f *Facts) nestedDef(fn *Func, name string) *Func {
	vs := f.Values(fn, name)
	if len(vs) != 1 || vs[0].Def == nil {
		return nil
	}
	return f.Nested(vs[0].Func, vs[0].Def)
}

// NestedDef is the nested function a name denotes in fn, or nil.
func (f *Facts) NestedDef(fn *Func, name string) *Func { return f.nestedDef(fn, name) }

func (f *Facts) localsOf(fn *Func) *locals {
	return f.locals.get(fn, func() *locals { return f.bindings(fn) })
}

// bindings indexes the names fn's own body binds (see Values).
func (f *Facts) bindings(fn *Func) *locals {
	l := &locals{binds: map[string][]Value{}, globals: map[string]bool{}}
	add := func(name string, v Value) {
		v.Func = fn
		l.binds[name] = append(l.binds[name], v)
	}
	for _, p := range fn.Fn.Params {
		p := p
		add(p.Name, Value{Param: p, At: p})
	}
	var target func(t pyscan.Expr, value pyscan.Expr, known bool, at pyscan.Node, aug bool)
	target = func(t pyscan.Expr, value pyscan.Expr, known bool, at pyscan.Node, aug bool) {
		switch t := t.(type) {
		case *pyscan.Name:
			v := Value{At: at, Aug: aug}
			if known {
				v.Expr = value
			}
			add(t.Id, v)
		case *pyscan.Tuple:
			unpack(t.Elts, value, known, at, target)
		case *pyscan.List:
			unpack(t.Elts, value, known, at, target)
		case *pyscan.Starred:
			target(t.Value, nil, false, at, false)
		}
	}
	// Nested defs and classes bind their names in the body; walkOwn does
	// not visit them, so look at the statements directly.
	var defs func(body []pyscan.Stmt)
	defs = func(body []pyscan.Stmt) {
		for _, s := range body {
			switch s := s.(type) {
			case *pyscan.Function:
				add(s.Name, Value{Def: s, At: s})
			case *pyscan.Class:
				add(s.Name, Value{At: s})
			case *pyscan.If:
				defs(s.Body)
				defs(s.Else)
			case *pyscan.For:
				defs(s.Body)
				defs(s.Else)
			case *pyscan.While:
				defs(s.Body)
				defs(s.Else)
			case *pyscan.With:
				defs(s.Body)
			case *pyscan.Try:
				defs(s.Body)
				for _, h := range s.Handlers {
					defs(h.Body)
				}
				defs(s.Else)
				defs(s.Finally)
			case *pyscan.Match:
				for _, c := range s.Cases {
					defs(c.Body)
				}
			}
		}
	}
	defs(fn.Fn.Body)
	walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
		switch n := n.(type) {
		case *pyscan.Assign:
			for _, t := range n.Targets {
				target(t, n.Value, true, n, false)
			}
		case *pyscan.AnnAssign:
			if n.Value != nil {
				target(n.Target, n.Value, true, n, false)
			}
		case *pyscan.AugAssign:
			target(n.Target, n.Value, true, n, true)
		case *pyscan.For:
			if nm, ok := n.Target.(*pyscan.Name); ok {
				add(nm.Id, Value{Iter: n.Iter, At: n})
				break
			}
			target(n.Target, nil, false, n, false)
		case *pyscan.With:
			for _, it := range n.Items {
				if it.Target == nil {
					continue
				}
				if nm, ok := it.Target.(*pyscan.Name); ok {
					add(nm.Id, Value{Expr: it.Context, Enter: true, At: n})
					continue
				}
				target(it.Target, nil, false, n, false)
			}
		case *pyscan.NamedExpr:
			add(n.Target.Id, Value{Expr: n.Value, At: n})
		case *pyscan.Handler:
			if n.Name != "" {
				add(n.Name, Value{At: n})
			}
		case *pyscan.ImportStmt:
			for _, imp := range n.Names {
				if imp.Bound != "" {
					add(imp.Bound, Value{At: n})
				}
			}
		case *pyscan.Global:
			for _, name := range n.Names {
				l.globals[name] = true
			}
		}
	})
	for name := range l.globals {
		delete(l.binds, name)
	}
	return l
}

// unpack binds the elements of a target tuple or list to the elements of
// a tuple or list value of the same length, or to unknown values.
func unpack(elts []pyscan.Expr, value pyscan.Expr, known bool, at pyscan.Node, target func(pyscan.Expr, pyscan.Expr, bool, pyscan.Node, bool)) {
	var vals []pyscan.Expr
	if known {
		switch v := value.(type) {
		case *pyscan.Tuple:
			vals = v.Elts
		case *pyscan.List:
			vals = v.Elts
		}
	}
	pairwise := len(vals) == len(elts)
	for _, e := range vals {
		if _, star := e.(*pyscan.Starred); star {
			pairwise = false
		}
	}
	for _, e := range elts {
		if _, star := e.(*pyscan.Starred); star {
			pairwise = false
		}
	}
	for i, e := range elts {
		if pairwise {
			target(e, vals[i], true, at, false)
		} else {
			target(e, nil, false, at, false)
		}
	}
}
