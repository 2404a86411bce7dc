package facts

import (
	"sort"
	"strings"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// attrValue is one thing an attribute of a server is given: a value
// assigned to `self.X` in a method, or a class-body attribute with its
// annotation.
type attrValue struct {
	Module     *pyscan.Module
	Value      pyscan.Expr
	Annotation pyscan.Expr
}

// attrs indexes what the server's code assigns to its receiver's
// attributes, and the class-body attributes of its repository ancestry,
// by attribute path (".X").
func (f *Facts) attrs(server gym.ClassRef) map[string][]attrValue {
	sf := f.server(server)
	sf.attrsOnce.Do(func() {
		sf.attrs = map[string][]attrValue{}
		mro, _ := f.v.MRO(server)
		for _, a := range mro {
			if a.Kind != gym.Own || a.Class.Class == nil {
				continue
			}
			for _, at := range a.Class.Class.Attrs {
				sf.attrs["."+at.Name] = append(sf.attrs["."+at.Name], attrValue{Module: a.Class.Module, Value: at.Value, Annotation: at.Annotation})
			}
		}
		for _, fn := range f.StateOf(server).Funcs() {
			if fn.Recv == "" {
				continue
			}
			walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
				var targets []pyscan.Expr
				var value, annot pyscan.Expr
				switch n := n.(type) {
				case *pyscan.Assign:
					targets, value = n.Targets, n.Value
				case *pyscan.AnnAssign:
					targets, value, annot = []pyscan.Expr{n.Target}, n.Value, n.Annotation
				default:
					return
				}
				for _, t := range targets {
					a, ok := t.(*pyscan.Attribute)
					if !ok {
						continue
					}
					if r, ok := a.Value.(*pyscan.Name); ok && r.Id == fn.Recv {
						sf.attrs["."+a.Attr] = append(sf.attrs["."+a.Attr], attrValue{Module: fn.Module, Value: value, Annotation: annot})
					}
				}
			})
		}
	})
	return sf.attrs
}

// AttrClasses returns the framework classes ("ResourcesSessionFences")
// that a receiver attribute of the server is given: constructed
// (`self._fences = ResourcesSessionFences(...)`), annotated
// (`_locks: ResourcesSessionLocks`), or made by a default factory
// (`PrivateAttr(default_factory=ResourcesSessionLocks)`).
func (f *Facts) AttrClasses(server gym.ClassRef, attr string) []string {
	var out []string
	for _, av := range f.attrs(server)[attr] {
		if n := f.classOfExpr(av.Module, av.Annotation); n != "" {
			out = append(out, n)
		}
		if n := f.classOfExpr(av.Module, av.Value); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// classOfExpr names the framework class an annotation or value denotes or
// constructs: `C`, `C[T]`, `C(...)`, `Optional[C]`,
// `PrivateAttr(default_factory=C)`, `Field(default_factory=C)`.
func (f *Facts) classOfExpr(m *pyscan.Module, e pyscan.Expr) string {
	switch x := e.(type) {
	case nil:
		return ""
	case *pyscan.Subscript:
		if n := f.classOfExpr(m, x.Value); n != "" {
			return n
		}
		// Optional[C], ClassVar[C]
		return f.classOfExpr(m, x.Index)
	case *pyscan.Call:
		if df := x.Keyword("default_factory"); df != nil {
			return f.classOfExpr(m, df)
		}
		return f.classOfExpr(m, x.Func)
	case *pyscan.Name, *pyscan.Attribute:
		return f.v.FrameworkNameOf(m, x)
	case *pyscan.BinOp:
		// C | None
		if n := f.classOfExpr(m, x.Left); n != "" {
			return n
		}
		return f.classOfExpr(m, x.Right)
	}
	return ""
}

// FrameworkMethod returns the framework method a call runs
// ("ResourcesSessionFences.fence"), or "": the callee itself
// (`ResourcesSessionFences.fence(self._fences, ...)`, through imports and
// aliases), or a method called on a value of a framework class: a
// receiver attribute that the server's code gives an instance of it
// (AttrClasses), a local bound to one, or, when what the receiver holds
// is not known, any receiver of a class that refers to the framework class
// (it or a repository ancestor imports, constructs or annotates with it).
func (f *Facts) FrameworkMethod(server gym.ClassRef, fn *Func, c *pyscan.Call) string {
	callee := pyscan.Dotted(c.Func)
	if callee != "" && !f.isLocal(fn, rootName(callee)) {
		if n := f.v.FrameworkName(fn.Module, callee); strings.Contains(n, ".") {
			return n
		}
	}
	a, ok := c.Func.(*pyscan.Attribute)
	if !ok {
		return ""
	}
	for _, cls := range f.valueClasses(server, fn, a.Value, 0) {
		return cls + "." + a.Attr
	}
	return ""
}

// IsFrameworkMethod reports whether a call runs the framework method
// name ("ResourcesSessionFences.fence"). When what the receiver holds is
// not known, a class that refers to the framework class is taken to call
// its method by that name (see FrameworkMethod).
func (f *Facts) IsFrameworkMethod(server gym.ClassRef, fn *Func, c *pyscan.Call, name string) bool {
	if f.FrameworkMethod(server, fn, c) == name {
		return true
	}
	i := strings.LastIndexByte(name, '.')
	a, ok := c.Func.(*pyscan.Attribute)
	if i < 0 || !ok || a.Attr != name[i+1:] {
		return false
	}
	if pyscan.Dotted(a.Value) == "" {
		return false
	}
	if len(f.valueClasses(server, fn, a.Value, 0)) > 0 {
		return false // known to hold something else
	}
	return f.knowsClass(server, fn, name[:i])
}

// valueClasses returns the framework classes a value may be an instance
// of, as far as the server's code shows.
func (f *Facts) valueClasses(server gym.ClassRef, fn *Func, e pyscan.Expr, depth int) []string {
	if depth > 3 {
		return nil
	}
	d := pyscan.Dotted(e)
	if d == "" {
		return nil
	}
	first := rootName(d)
	if fn.Recv != "" && first == fn.Recv && len(d) > len(first) && server.Class != nil {
		return f.AttrClasses(server, d[len(first):])
	}
	if d == first {
		var out []string
		for _, v := range f.Values(fn, first) {
			switch {
			case v.Param != nil:
				if n := f.classOfExpr(fn.Module, v.Param.Annotation); n != "" {
					out = append(out, n)
				}
			case v.Expr != nil && !v.Aug:
				if n := f.classOfExpr(v.Func.Module, v.Expr); n != "" {
					out = append(out, n)
				} else {
					out = append(out, f.valueClasses(server, v.Func, v.Expr, depth+1)...)
				}
			}
		}
		return out
	}
	return nil
}

// knowsClass reports whether the server (or, outside a server, fn's
// module) refers to the framework class cls: the module of the server or
// of any of its repository ancestors imports it, or one of their class
// attributes or methods constructs or annotates with it.
func (f *Facts) knowsClass(server gym.ClassRef, fn *Func, cls string) bool {
	var classes []gym.ClassRef
	if server.Class != nil {
		mro, _ := f.v.MRO(server)
		for _, a := range mro {
			if a.Kind == gym.Own && a.Class.Class != nil {
				classes = append(classes, a.Class)
			}
		}
	}
	if len(classes) == 0 {
		classes = []gym.ClassRef{{Module: fn.Module}}
	}
	mods := map[*pyscan.Module]bool{}
	for _, k := range classes {
		m := k.Module
		if !mods[m] {
			mods[m] = true
			for _, imp := range m.Imports {
				if imp.Bound != "" && imp.ModuleScope && f.v.FrameworkName(m, imp.Bound) == cls {
					return true
				}
			}
		}
		if k.Class == nil {
			continue
		}
		for _, at := range k.Class.Attrs {
			if f.classOfExpr(m, at.Annotation) == cls || f.classOfExpr(m, at.Value) == cls {
				return true
			}
		}
		for _, meth := range k.Class.Methods {
			mf := f.Method(m, k.Class, meth)
			for _, c := range f.Calls(gym.ClassRef{}, mf) {
				if d := pyscan.Dotted(c.Call.Func); d != "" && f.v.FrameworkName(m, d) == cls {
					return true
				}
			}
		}
	}
	return false
}

// AttrHolding returns the receiver attribute path (".\_locks", the first
// in sorted order) that the server's code gives an instance of the
// framework class cls (see AttrClasses), or "".
func (f *Facts) AttrHolding(server gym.ClassRef, cls string) string {
	attrs := f.attrs(server)
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, c := range f.AttrClasses(server, k) {
			if c == cls {
				return k
			}
		}
	}
	return ""
}
