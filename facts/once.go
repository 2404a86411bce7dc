package facts

import (
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// This file answers two questions the hazard rules about values made once
// per worker ask (GL109, GL113):
//
//   - what a name or attribute chain written in a function denotes outside
//     the repository ("random.Random", "numpy.random.default_rng",
//     "time.monotonic"), through the module's imports, unless its first
//     name is a local of the function (ExternalName);
//   - which code runs only at start-up (StartupOnly: Startup less what a
//     route or scoring also runs);
//   - which attributes of a server are set once per worker: assigned
//     `self.X = value` only in that code or lazily once (under a test
//     that it is unset), or given a class-body default, and never
//     assigned by the rest of the server's code (OnceAttrs), and where
//     code reads them (AttrReads).

// ExternalName returns the absolute dotted name that e, a name or an
// attribute chain of names used in fn (nil for module scope of m),
// denotes when it is outside the repository's own code, as the module's
// imports bind it ("random.seed" for `random.seed` after `import random`,
// "numpy.random.default_rng" for `np.random.default_rng` after
// `import numpy as np`; a name of the framework package, installed or in
// the repository, "nemo_gym.server_utils.request"), or "": a local's
// chain (but for an import in fn's own body, `import subprocess` inside
// the method), a name of the repository's other code, a builtin, anything
// gymlint does not follow.
func (f *Facts) ExternalName(m *pyscan.Module, fn *Func, e pyscan.Expr) string {
	d := pyscan.Dotted(e)
	if d == "" {
		return ""
	}
	if fn != nil {
		m = fn.Module
		if f.isLocal(fn, rootName(d)) {
			// A local: only an import in fn's own body names a library.
			return f.localImportName(m, fn, d)
		}
	}
	s := f.v.Resolve(m, d)
	switch s.Kind {
	case gym.External:
		return s.Dotted
	case gym.RepoFunction, gym.RepoClass, gym.RepoValue, gym.Member:
		// The framework is a library even when the repository holds it.
		if s.Module != nil && f.v.IsFrameworkModule(s.Module.Name) {
			return s.Dotted
		}
	}
	return ""
}

// CalleeName is ExternalName of a call's callee.
func (f *Facts) CalleeName(m *pyscan.Module, fn *Func, c *pyscan.Call) string {
	return f.ExternalName(m, fn, c.Func)
}

// AttrSet is one value a server attribute is given.
type AttrSet struct {
	// Attr is the attribute's name (X of self.X).
	Attr string
	// Func is the function that assigns it, nil for a class-body default.
	Func *Func
	// Module is the module of the assignment or the class body.
	Module *pyscan.Module
	// At is the assignment (or the class attribute's statement span, see
	// Span), Value the value given: for a class-body default made by
	// `Field(default_factory=lambda: E)` or `PrivateAttr(default=E)`, E.
	At    pyscan.Node
	Span  pyscan.Span
	Value pyscan.Expr
	// Guards are the if/elif tests around the assignment in Func's own
	// body, outermost first.
	Guards []pyscan.Guard
}

// OnceAttrs returns the attributes of a server set once per worker at
// start-up: every assignment `self.X = value` (also annotated, and each
// name of a chained or tuple target whose value is known) in the server's
// own code (its winning methods and what they reach) is in start-up code
// that no route or scoring code also runs (Startup, less what the routes
// and Scoring reach) or is a lazy first assignment (see lazyOnce), or X only has a
// class-body default in the server's repository ancestry. An attribute any
// other code assigns (a snapshot re-taken per request, a per-request
// generator), or augments, is left out. The result is in the order of the
// server's methods, class-body defaults first.
//
// It is computed once per server; the result must not be modified.
func (f *Facts) OnceAttrs(server gym.ClassRef) []AttrSet {
	return f.once.get(server.Class, func() []AttrSet { return f.onceAttrs(server) })
}

func (f *Facts) onceAttrs(server gym.ClassRef) []AttrSet {
	startup := f.StartupOnly(server)
	var sets []AttrSet
	other := map[string]bool{}
	seen := map[*Func]bool{}
	visit := func(fn *Func) {
		if seen[fn] || fn.Recv == "" {
			return
		}
		seen[fn] = true
		walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
			var targets []pyscan.Expr
			var value pyscan.Expr
			aug := false
			switch n := n.(type) {
			case *pyscan.Assign:
				targets, value = n.Targets, n.Value
			case *pyscan.AnnAssign:
				if n.Value == nil {
					return
				}
				targets, value = []pyscan.Expr{n.Target}, n.Value
			case *pyscan.AugAssign:
				targets, aug = []pyscan.Expr{n.Target}, true
			default:
				return
			}
			guards := pyscan.ContextOf(stack).Guards
			for _, t := range targets {
				recvAttrs(fn, t, value, func(attr string, v pyscan.Expr) {
					if aug || !startup[fn] && !f.lazyOnce(server, fn, guards, startup) {
						other[attr] = true
						return
					}
					sets = append(sets, AttrSet{Attr: attr, Func: fn, Module: fn.Module, At: n, Span: n.Range(), Value: v, Guards: guards})
				})
			}
		})
	}
	for _, m := range f.Methods(server) {
		for _, r := range f.Reach(server, m) {
			visit(r.Func)
		}
	}
	var out []AttrSet
	mro, _ := f.v.MRO(server)
	defaults := map[string]bool{}
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Class == nil {
			continue
		}
		for _, at := range a.Class.Class.Attrs {
			if at.Value == nil || defaults[at.Name] || other[at.Name] {
				continue
			}
			defaults[at.Name] = true
			out = append(out, AttrSet{Attr: at.Name, Module: a.Class.Module, Span: at.StmtSpan, Value: defaultValue(at.Value)})
		}
	}
	for _, s := range sets {
		if !other[s.Attr] {
			out = append(out, s)
		}
	}
	return out
}

// StartupOnly is the start-up code of a server (Startup) that nothing
// else runs: not a route's handler nor what a route reaches (a handler
// that setup_webserver registers is in Startup, through the reference),
// nor scoring code.
func (f *Facts) StartupOnly(server gym.ClassRef) map[*Func]bool {
	out := map[*Func]bool{}
	for _, r := range f.Startup(server) {
		out[r.Func] = true
	}
	for _, rt := range f.Routes(server) {
		if rt.Handler == nil {
			continue
		}
		for _, r := range f.Reach(server, rt.Handler) {
			delete(out, r.Func)
		}
	}
	for _, r := range f.Scoring(server) {
		delete(out, r.Func)
	}
	return out
}

// defaultValue is what a class-body default gives each instance: E of
// `Field(default=E)`, `PrivateAttr(default_factory=lambda: E)` and the
// like, or the value itself.
func defaultValue(e pyscan.Expr) pyscan.Expr {
	c, ok := e.(*pyscan.Call)
	if !ok {
		return e
	}
	if df := c.Keyword("default_factory"); df != nil {
		if l, ok := df.(*pyscan.Lambda); ok && len(l.Params) == 0 {
			return l.Body
		}
		return nil // a factory gymlint does not read
	}
	if d := c.Keyword("default"); d != nil {
		return d
	}
	return e
}

// recvAttrs calls add for each receiver attribute an assignment target
// sets (`self.X`), with its value when known (element-wise through a tuple
// value of the same length).
func recvAttrs(fn *Func, t, value pyscan.Expr, add func(attr string, v pyscan.Expr)) {
	switch t := t.(type) {
	case *pyscan.Attribute:
		if r, ok := t.Value.(*pyscan.Name); ok && r.Id == fn.Recv {
			add(t.Attr, value)
		}
	case *pyscan.Tuple:
		recvElts(fn, t.Elts, value, add)
	case *pyscan.List:
		recvElts(fn, t.Elts, value, add)
	}
}

func recvElts(fn *Func, elts []pyscan.Expr, value pyscan.Expr, add func(string, pyscan.Expr)) {
	var vals []pyscan.Expr
	switch v := value.(type) {
	case *pyscan.Tuple:
		vals = v.Elts
	case *pyscan.List:
		vals = v.Elts
	}
	for i, e := range elts {
		var v pyscan.Expr
		if len(vals) == len(elts) {
			v = vals[i]
		}
		recvAttrs(fn, e, v, add)
	}
}

// AttrRead is a read of a receiver attribute in a function.
type AttrRead struct {
	Attr string
	Func *Func
	// Expr is the `self.X` attribute, Stack the nodes from the function
	// down to it (walkOwn's stack, Expr last).
	Expr  *pyscan.Attribute
	Stack []pyscan.Node
}

// AttrReads returns the reads of the receiver's attributes in the own
// bodies of funcs, in order: `self.X` that is not an assignment target,
// and `alias` where alias is a local every binding of which is `self.X`
// (reported at the alias's use, with Expr the aliased `self.X`).
func (f *Facts) AttrReads(funcs []Reached) []AttrRead {
	var out []AttrRead
	for _, r := range funcs {
		fn := r.Func
		if fn.Recv == "" {
			continue
		}
		walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
			switch n := n.(type) {
			case *pyscan.Attribute:
				rv, ok := n.Value.(*pyscan.Name)
				if !ok || rv.Id != fn.Recv || isTarget(stack) {
					return
				}
				out = append(out, AttrRead{Attr: n.Attr, Func: fn, Expr: n, Stack: append([]pyscan.Node(nil), stack...)})
			case *pyscan.Name:
				if isTarget(stack) {
					return
				}
				if a := f.recvAlias(fn, n.Id); a != nil {
					out = append(out, AttrRead{Attr: a.Attr, Func: fn, Expr: a, Stack: append([]pyscan.Node(nil), stack...)})
				}
			}
		})
	}
	return out
}

// recvAlias is the receiver attribute a local always holds, or nil.
func (f *Facts) recvAlias(fn *Func, name string) *pyscan.Attribute {
	if name == fn.Recv {
		return nil
	}
	vs := f.Values(fn, name)
	if len(vs) == 0 {
		return nil
	}
	var got *pyscan.Attribute
	for _, v := range vs {
		a, ok := v.Expr.(*pyscan.Attribute)
		if !ok || v.Aug || v.Enter || v.Func != fn {
			return nil
		}
		r, ok := a.Value.(*pyscan.Name)
		if !ok || r.Id != fn.Recv || got != nil && got.Attr != a.Attr {
			return nil
		}
		got = a
	}
	return got
}

// isTarget reports whether the last node of a stack is (part of) an
// assignment's target, not a read.
func isTarget(stack []pyscan.Node) bool {
	if len(stack) < 2 {
		return false
	}
	n := stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *pyscan.Assign:
			for _, t := range p.Targets {
				if t == n {
					return true
				}
			}
			return false
		case *pyscan.AnnAssign:
			return p.Target == n
		case *pyscan.AugAssign:
			return false // a read too
		case *pyscan.Tuple, *pyscan.List, *pyscan.Starred:
			n = p
			continue
		}
		return false
	}
	return false
}

// lazyOnce reports whether an assignment in fn, a function that is not
// start-up code, runs at most once per worker: it is guarded in fn by a
// test that a receiver attribute fn assigns is unset (`if self.X is
// None:`, `if not self.X:`, the else of `if self.X is not None:`), or fn
// has callers and every call of it outside start-up code is so guarded in
// its caller (speed_bench's `if self._before is None: await
// self._take_before()`). An early return (`if self.X is not None:
// return`) is not read.
func (f *Facts) lazyOnce(server gym.ClassRef, fn *Func, guards []pyscan.Guard, startup map[*Func]bool) bool {
	assigned := ownRecvAttrs(fn)
	if unsetGuard(fn, guards, assigned) {
		return true
	}
	calls := f.Callers(server, fn)
	n := 0
	for _, c := range calls {
		if startup[c.In] {
			continue
		}
		n++
		if !unsetGuard(c.In, CallGuards(c), assigned) {
			return false
		}
	}
	return n > 0
}

// CallGuards are the if/elif tests that hold where a call is, in its
// function's own body, outermost first.
func CallGuards(c *Call) []pyscan.Guard {
	var out []pyscan.Guard
	walkOwn(c.In.Fn, func(n pyscan.Node, stack []pyscan.Node) {
		if n == pyscan.Node(c.Call) {
			out = pyscan.ContextOf(stack).Guards
		}
	})
	return out
}

// ownRecvAttrs are the receiver attributes fn's own body assigns.
func ownRecvAttrs(fn *Func) map[string]bool {
	out := map[string]bool{}
	if fn.Recv == "" {
		return out
	}
	walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
		var targets []pyscan.Expr
		switch n := n.(type) {
		case *pyscan.Assign:
			targets = n.Targets
		case *pyscan.AnnAssign:
			targets = []pyscan.Expr{n.Target}
		}
		for _, t := range targets {
			recvAttrs(fn, t, nil, func(attr string, _ pyscan.Expr) { out[attr] = true })
		}
	})
	return out
}

// unsetGuard reports whether a guard shows a receiver attribute of attrs
// unset (see lazyOnce); in an `and` test, any part may.
func unsetGuard(fn *Func, guards []pyscan.Guard, attrs map[string]bool) bool {
	for _, g := range guards {
		if unsetTest(fn, g.Test, !g.Negated, attrs) {
			return true
		}
	}
	return false
}

func unsetTest(fn *Func, e pyscan.Expr, holds bool, attrs map[string]bool) bool {
	recvAttr := func(e pyscan.Expr) bool {
		a, ok := e.(*pyscan.Attribute)
		if !ok {
			return false
		}
		r, ok := a.Value.(*pyscan.Name)
		return ok && r.Id == fn.Recv && attrs[a.Attr]
	}
	isNone := func(e pyscan.Expr) bool {
		k, ok := e.(*pyscan.Constant)
		return ok && k.Kind == pyscan.ConstNone
	}
	switch x := e.(type) {
	case *pyscan.UnaryOp:
		if x.Op == pyscan.Not {
			return unsetTest(fn, x.Operand, !holds, attrs)
		}
	case *pyscan.BoolOp:
		if x.Op == pyscan.And && holds {
			for _, v := range x.Values {
				if unsetTest(fn, v, true, attrs) {
					return true
				}
			}
		}
	case *pyscan.Compare:
		if len(x.Ops) == 1 && recvAttr(x.Left) && isNone(x.Comparators[0]) {
			switch x.Ops[0] {
			case pyscan.Is, pyscan.Eq:
				return holds
			case pyscan.IsNot, pyscan.NotEq:
				return !holds
			}
		}
	default:
		return recvAttr(e) && !holds
	}
	return false
}
