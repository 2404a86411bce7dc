package gym

import (
	"maps"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/pyscan"
)

// AncestorKind classifies a class in an MRO.
type AncestorKind int

// Kinds of ancestor.
const (
	// Own: a class defined in the repository outside the framework package.
	Own AncestorKind = iota
	// FrameworkServer: a framework class that is (or derives from) a
	// framework server base. It carries the framework's defaults, so it
	// shadows any class that comes after it in the MRO.
	FrameworkServer
	// Framework: another class of the framework package (a mixin).
	Framework
	// Foreign: a class from outside the repository and the framework.
	Foreign
	// Unresolved: a base gymlint could not resolve.
	Unresolved
)

// Ancestor is one entry of a method resolution order.
type Ancestor struct {
	Kind AncestorKind
	// Class is set for classes defined in the repository (Own, and
	// framework classes when the framework is part of the repository).
	Class ClassRef
	// Name is the class's dotted name (for External and Unresolved, the
	// name as written or resolved).
	Name string

	// An Unresolved base is identified by where it is written.
	mod *pyscan.Module
	at  int32
}

// classify turns a resolved base into an ancestor.
func (v *View) classify(sym Symbol, written string) Ancestor {
	switch sym.Kind {
	case RepoClass:
		ref := ClassRef{Module: sym.Module, Class: sym.Class}
		if v.IsFrameworkModule(sym.Module.Name) {
			if v.frameworkServer(ref) {
				return Ancestor{Kind: FrameworkServer, Class: ref, Name: sym.Dotted}
			}
			return Ancestor{Kind: Framework, Class: ref, Name: sym.Dotted}
		}
		return Ancestor{Kind: Own, Class: ref, Name: sym.Dotted}
	case External:
		if i := strings.LastIndexByte(sym.Dotted, '.'); i >= 0 && v.IsFrameworkModule(sym.Dotted[:i]) {
			if v.serverBases[sym.Dotted[i+1:]] {
				return Ancestor{Kind: FrameworkServer, Name: sym.Dotted}
			}
			return Ancestor{Kind: Framework, Name: sym.Dotted}
		}
		return Ancestor{Kind: Foreign, Name: sym.Dotted}
	case Builtin:
		// object, Exception, dict: Python's own classes, which define
		// nothing the rules look up.
		if pyBuiltins[strings.TrimPrefix(sym.Dotted, "builtins.")] {
			return Ancestor{Kind: Foreign, Name: sym.Dotted}
		}
	}
	return Ancestor{Kind: Unresolved, Name: written}
}

// frameworkServer reports whether a framework class defined in the
// repository is a server base: named as one, or deriving from one through
// framework classes, at most maxInheritanceDepth levels up. The answer is
// kept per class.
func (v *View) frameworkServer(ref ClassRef) bool {
	st := &v.classes
	st.basesMu.Lock()
	is, ok := st.fw[ref.Class]
	st.basesMu.Unlock()
	if ok {
		return is
	}
	is, certain := v.frameworkServerSearch(ref, 0, map[*pyscan.Class]bool{})
	if certain {
		st.basesMu.Lock()
		if st.fw == nil {
			st.fw = map[*pyscan.Class]bool{}
		}
		st.fw[ref.Class] = is
		st.basesMu.Unlock()
	}
	return is
}

// frameworkServerSearch is frameworkServer's search; certain is false when
// the answer depends on where the search started (it met a class it was
// already in, or the depth bound).
func (v *View) frameworkServerSearch(ref ClassRef, depth int, visiting map[*pyscan.Class]bool) (is, certain bool) {
	if v.serverBases[ref.Class.Name] {
		return true, true
	}
	st := &v.classes
	st.basesMu.Lock()
	known, ok := st.fw[ref.Class]
	st.basesMu.Unlock()
	if ok {
		return known, true
	}
	if depth > maxInheritanceDepth || visiting[ref.Class] {
		return false, false
	}
	visiting[ref.Class] = true
	defer delete(visiting, ref.Class)
	certain = true
	for _, b := range ref.Class.Bases {
		name := BaseName(b)
		if name == "" {
			continue
		}
		s := v.Resolve(ref.Module, name)
		switch s.Kind {
		case RepoClass:
			if !v.IsFrameworkModule(s.Module.Name) {
				continue
			}
			is, c := v.frameworkServerSearch(ClassRef{s.Module, s.Class}, depth+1, visiting)
			if is {
				return true, true
			}
			certain = certain && c
		case External:
			if i := strings.LastIndexByte(s.Dotted, '.'); i >= 0 && v.IsFrameworkModule(s.Dotted[:i]) && v.serverBases[s.Dotted[i+1:]] {
				return true, true
			}
		}
	}
	return false, certain
}

// Bases returns the direct bases of a class, classified. Bases that are not
// names (calls, keyword-only) are Unresolved; `Generic[T]` and `Base[A, B]`
// are looked up by their unsubscripted name. The slice is the caller's.
func (v *View) Bases(c ClassRef) []Ancestor {
	return append([]Ancestor(nil), v.bases(c)...)
}

func (v *View) computeBases(c ClassRef) []Ancestor {
	out := make([]Ancestor, 0, len(c.Class.Bases))
	for _, b := range c.Class.Bases {
		name := BaseName(b)
		var a Ancestor
		if name == "" {
			a = Ancestor{Kind: Unresolved, Name: c.Module.Text(b)}
		} else {
			a = v.classify(v.Resolve(c.Module, name), name)
		}
		if a.Kind == Unresolved {
			a.mod, a.at = c.Module, b.Range().Start
		}
		out = append(out, a)
	}
	return out
}

// BaseName is the name a base class is looked up by: the name or
// attribute chain, unsubscripted (`Base[A, B]` gives "Base"); "" for a
// call or anything else.
func BaseName(b pyscan.Expr) string {
	if s, ok := b.(*pyscan.Subscript); ok {
		b = s.Value
	}
	return pyscan.Dotted(b)
}

// MRO returns the method resolution order of a repository class, computed
// with C3 linearisation over the repository's classes. Framework, foreign
// and unresolved classes end their branch: gymlint does not look inside
// them. ok is false when there is no MRO to give: C3 fails (Python would
// refuse the class), the hierarchy is cyclic, or it is beyond gymlint's
// bounds (more than maxInheritanceDepth levels of repository classes, an
// MRO longer than maxMROLength); the order returned is then depth-first,
// without repeats and within those bounds.
func (v *View) MRO(c ClassRef) (mro []Ancestor, ok bool) {
	s, exceeded := v.ancestryOf(c)
	if exceeded || s.cyclic {
		return v.depthFirst(c), false
	}
	st := &v.classes
	st.mroMu.Lock()
	defer st.mroMu.Unlock()
	e := v.c3(c)
	mro = make([]Ancestor, len(e.ids))
	for i, id := range e.ids {
		mro[i] = st.table[id]
	}
	return mro, e.status == mroOK
}

// IsServerClass reports whether a repository class's ancestry reaches a
// framework server base. Framework classes themselves are not server
// classes of the repository, and neither is a class whose ancestry is
// beyond gymlint's bounds (Entrypoint.Undecided lists those of an
// entrypoint).
func (v *View) IsServerClass(c ClassRef) bool {
	if v.IsFrameworkModule(c.Module.Name) {
		return false
	}
	s, exceeded := v.ancestryOf(c)
	return !exceeded && s.server
}

// Definition is where a class attribute or method is found through an MRO.
type Definition struct {
	// Class is the repository class that defines the name; its Class is nil
	// when the name was not found on a repository class before a framework
	// server class.
	Class ClassRef
	// Method is set when the definition is a def; Attr when it is a
	// class-body binding.
	Method *pyscan.Function
	Attr   *pyscan.ClassAttr
	// ShadowedBy is set when a framework server class comes first in the
	// MRO: the framework's own definition wins over Shadowed.
	ShadowedBy *Ancestor
	Shadowed   *Definition
	// Uncertain is set when the MRO passes through classes gymlint could
	// not resolve or through a module with syntax errors before a
	// definition was found, so the answer may be wrong.
	Uncertain bool
}

// Found reports whether the name is defined by a repository class that wins
// over the framework's default.
func (d Definition) Found() bool { return d.Class.Class != nil && d.ShadowedBy == nil }

// Lookup finds the definition of a method or class attribute in the MRO of
// a repository class, as Python would, stopping at the first framework
// server class (which carries the framework's default). Foreign and
// framework mixin classes are assumed not to define it.
func (v *View) Lookup(c ClassRef, name string) Definition {
	mro, ok := v.MRO(c)
	d := Definition{Uncertain: !ok}
	for i := range mro {
		a := mro[i]
		switch a.Kind {
		case Own:
			if a.Class.Module.SyntaxError != nil {
				d.Uncertain = true
			}
			m := a.Class.Class.Method(name)
			at := a.Class.Class.Attr(name)
			if m == nil && at == nil {
				continue
			}
			found := Definition{Class: a.Class, Method: m, Attr: at, Uncertain: d.Uncertain}
			if m != nil && at != nil {
				// The later statement in the class body wins.
				if m.Span.Start > at.StmtSpan.Start {
					found.Attr = nil
				} else {
					found.Method = nil
				}
			}
			if d.ShadowedBy != nil {
				d.Shadowed = &found
				return d
			}
			return found
		case FrameworkServer:
			if d.ShadowedBy == nil {
				d.ShadowedBy = &mro[i]
			}
		case Unresolved:
			if d.ShadowedBy == nil {
				d.Uncertain = true
			}
		}
	}
	return d
}

// ServerClasses returns the server classes of an entrypoint module: the
// class that `X.run_webserver()` is called on (in the module, or in a
// module-level function), or else the module's server classes that no
// other class of the module subclasses.
func (v *View) ServerClasses(m *pyscan.Module) []Server {
	for _, c := range ModuleCalls(m) {
		a, ok := c.Func.(*pyscan.Attribute)
		if !ok || a.Attr != contract.RunWebserverMethod {
			continue
		}
		recv := pyscan.Dotted(a.Value)
		if recv == "" {
			continue
		}
		s := v.Resolve(m, recv)
		if s.Kind == RepoClass {
			return []Server{{Class: ClassRef{Module: s.Module, Class: s.Class}, Call: c}}
		}
	}
	var servers []ClassRef
	for _, c := range m.Classes {
		ref := ClassRef{Module: m, Class: c}
		if v.IsServerClass(ref) {
			servers = append(servers, ref)
		}
	}
	subclassed := map[*pyscan.Class]bool{}
	for _, c := range m.Classes {
		for _, b := range v.bases(ClassRef{Module: m, Class: c}) {
			if b.Class.Module == m {
				subclassed[b.Class.Class] = true
			}
		}
	}
	var out []Server
	for _, s := range servers {
		if !subclassed[s.Class] {
			out = append(out, Server{Class: s})
		}
	}
	return out
}

// ModuleCalls returns, in source order, the calls that run at module
// scope of m (outside class bodies and module-scope lambdas) and those in
// its module-scope functions (their nested functions included): where a
// module starts its server.
func ModuleCalls(m *pyscan.Module) []*pyscan.Call {
	var out []*pyscan.Call
	pyscan.InspectBody(m.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Class:
			return false
		case *pyscan.Lambda:
			for _, s := range stack {
				if _, ok := s.(*pyscan.Function); ok {
					return true
				}
			}
			return false
		case *pyscan.Call:
			out = append(out, n)
		}
		return true
	})
	return out
}

// HasModuleApp returns the module-level binding of `app`
// (contract.ModuleApp) that uvicorn sees when it imports the module (not
// one inside the `__main__` guard's body), or nil.
func HasModuleApp(m *pyscan.Module) *pyscan.Binding {
	for _, b := range m.Bindings {
		if b.Name == contract.ModuleApp && !b.Where.InMainGuard {
			return b
		}
	}
	return nil
}

// Family returns, sorted, the repository's own classes (path#Name) in the
// method resolution orders of an entrypoint's server classes, the server
// classes included. Rules may say one thing of several entrypoints whose
// families meet (a parent class's per-session state, shared by their
// servers), so a language server that analyses a few entrypoints at a
// time analyses those together.
func (v *View) Family(e *Entrypoint) []string {
	set := map[string]bool{}
	for _, s := range e.Servers {
		if s.Class.Class == nil {
			continue
		}
		mro, _ := v.MRO(s.Class)
		for _, a := range mro {
			if a.Kind == Own && a.Class.Class != nil {
				set[a.Class.Module.Path+"#"+a.Class.Class.Name] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}
