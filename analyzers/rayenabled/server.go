package rayenabled

import (
	"fmt"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The facts the rules share, about every server of every entrypoint,
// computed once per view (View.Shared), in two layers: what the server's
// declaration is (declsOf), which GL204 alone needs and which reads no
// module beyond the entrypoint; and what the search for Ray use and the
// walk of the entrypoint add (usesOf), which the other rules and Status
// read. Each rule decides from these facts itself.

// serverDecl is the declaration facts of one server of an entrypoint.
type serverDecl struct {
	v *gym.View
	e *gym.Entrypoint
	s gym.Server
	// checked is set when the rules report on the server: its entrypoint
	// parses and is not exempt (a module that starts no server).
	checked bool
	// own is the ray_enabled binding in the body of the server class when
	// the class is defined in the entrypoint, where the server supervisor
	// reads it; nil otherwise.
	own *ownDecl
}

// needsComplete reports whether a rule asks if the search for the server's
// Ray use read everything (search.complete): GL205, about a checked
// server whose own body declares ray_enabled = True.
func (sv *serverDecl) needsComplete() bool {
	return sv.checked && sv.own != nil && isTrue(sv.own.attr.Value)
}

// serverUse is a server's facts with what the search for Ray use and the
// walk of the entrypoint find.
type serverUse struct {
	*serverDecl
	found search // the search for the server's Ray use
	// For a checked server only:
	sets      []runtimeSet   // the entrypoint's runtime sets of ray_enabled
	sites     []site         // where the entrypoint declares or sets ray_enabled for the server outside its class body
	inherited *inheritedDecl // the declaration the server class has from another module, or nil
}

// ownOf is the own declaration of server s of entrypoint e (see
// serverDecl.own).
func ownOf(e *gym.Entrypoint, s gym.Server) *ownDecl {
	if s.Class.Module != e.Module {
		return nil
	}
	return ownDeclOf(s.Class.Class)
}

// decls are the declaration facts of a view's servers: every server of
// every entrypoint that parses, in the order of the entrypoints.
type decls struct {
	list []*serverDecl
}

// declsKey keeps a view's decls (gym.View.Shared).
type declsKey struct{}

func declsOf(v *gym.View) *decls {
	return v.Shared(declsKey{}, func() any {
		ss := &decls{}
		for _, e := range v.Entrypoints {
			if e.Module == nil {
				continue
			}
			checked := e.Module.SyntaxError == nil && e.Exemption == nil
			for _, s := range e.Servers {
				ss.list = append(ss.list, &serverDecl{v: v, e: e, s: s, checked: checked, own: ownOf(e, s)})
			}
		}
		return ss
	}).(*decls)
}

// uses are the facts of a view's servers with their Ray use, in the order
// of declsOf, and the scanner that found it.
type uses struct {
	scanner *scanner
	list    []*serverUse
}

// usesKey keeps a view's uses (gym.View.Shared), so that the rules and
// Status share one search.
type usesKey struct{}

// usesOf searches every server's Ray use, in parallel.
func usesOf(v *gym.View) *uses {
	return v.Shared(usesKey{}, func() any {
		ss := declsOf(v).list
		u := &uses{scanner: newScanner(v), list: make([]*serverUse, len(ss))}
		v.Parallel(len(ss), func(i int) { u.list[i] = u.scanner.use(ss[i]) })
		return u
	}).(*uses)
}

// use finds the Ray use facts of one server.
func (sc *scanner) use(sv *serverDecl) *serverUse {
	m := sv.e.Module
	u := &serverUse{serverDecl: sv, found: sc.search(m, sv.s.Class, sv.needsComplete())}
	if !sv.checked {
		return u
	}
	u.sets = sc.module(m, true).sets
	u.sites = sitesOf(sv, u.sets)
	u.inherited = inheritedOf(sv)
	return u
}

// report is a rule's findings: find's, for every checked server in
// order, the first at each place only (two servers of one entrypoint may
// find the same declaration), sorted.
func report[S interface{ isChecked() bool }](list []S, find func(S) []diag.Diagnostic) []diag.Diagnostic {
	type place struct {
		path   string
		offset int
	}
	var out []diag.Diagnostic
	seen := map[place]bool{}
	for _, sv := range list {
		if !sv.isChecked() {
			continue
		}
		for _, d := range find(sv) {
			if k := (place{d.Path, d.Start.Offset}); !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	diag.Sort(out)
	return out
}

func (sv *serverDecl) isChecked() bool { return sv.checked }

// inheritedDecl is a ray_enabled declaration that a server class has
// from a class of the repository in another module than the entrypoint.
type inheritedDecl struct {
	from gym.ClassRef // the class that declares it (the server class itself when it is defined elsewhere)
	attr *pyscan.ClassAttr
}

// inheritedOf finds the first repository class in the server class's MRO
// that declares ray_enabled: its declaration when it is in another module
// than the entrypoint and does not set the literal False; nil otherwise.
func inheritedOf(sv *serverDecl) *inheritedDecl {
	mro, _ := sv.v.MRO(sv.s.Class)
	for _, a := range mro {
		if a.Kind != gym.Own {
			continue
		}
		at := a.Class.Class.Attr(Attr)
		if at == nil {
			continue
		}
		if a.Class.Module == sv.m() || isFalse(at.Value) {
			return nil
		}
		return &inheritedDecl{from: a.Class, attr: at}
	}
	return nil
}

// site is a place of the entrypoint, outside the body of the server
// class, that declares or sets ray_enabled for the server: a declaration
// on a class that is no server of the entrypoint (class and attr), or a
// runtime set that is not another server class's (set).
type site struct {
	class *pyscan.Class
	attr  *pyscan.ClassAttr
	set   *runtimeSet
}

// sitesOf lists a server's sites in the entrypoint: the declarations on
// its classes that are no server and do not set the literal False (an
// annotation alone included), in the order of the classes; then those of
// the entrypoint's runtime sets (sets) that belong to no other server
// class of the entrypoint, in source order.
func sitesOf(sv *serverDecl, sets []runtimeSet) []site {
	m := sv.m()
	servers := map[*pyscan.Class]bool{}
	for _, s := range sv.e.Servers {
		if s.Class.Module == m {
			servers[s.Class.Class] = true
		}
	}
	var out []site
	for _, c := range m.Classes {
		if c == sv.s.Class.Class || servers[c] {
			continue
		}
		at := c.Attr(Attr)
		if at == nil || at.Value == nil && at.Annotation == nil || isFalse(at.Value) {
			continue
		}
		out = append(out, site{class: c, attr: at})
	}
	for i := range sets {
		if o := sets[i].owner; o == nil || o == sv.s.Class.Class || !servers[o] {
			out = append(out, site{set: &sets[i]})
		}
	}
	return out
}

// How the rules name and place a server in their messages.

func (sv *serverDecl) m() *pyscan.Module { return sv.e.Module }

func (sv *serverDecl) name() string { return sv.s.Class.Class.Name }

func (sv *serverDecl) inEntry() bool { return sv.s.Class.Module == sv.e.Module }

func (sv *serverDecl) entryPath() string { return sv.e.Module.Path }

// subject names the server class in messages; the entrypoint is where
// they are reported, so only a definition elsewhere is named.
func (sv *serverDecl) subject() string {
	if sv.inEntry() {
		return fmt.Sprintf("server class %s", sv.name())
	}
	return fmt.Sprintf("server class %s (defined in %s)", sv.name(), sv.s.Class.Module.Path)
}

// classRange is where a diagnostic about the server class goes: its name
// in the entrypoint, or the run_webserver() call that starts a class
// defined elsewhere.
func (sv *serverDecl) classRange() (start, end diag.Pos) {
	if !sv.inEntry() && sv.s.Call != nil {
		return gym.Range(sv.m(), sv.s.Call.Span)
	}
	return gym.Range(sv.s.Class.Module, sv.s.Class.Class.NameSpan)
}

// classRelated points at the server class when it is defined in another
// module.
func (sv *serverDecl) classRelated() []diag.Related {
	if sv.inEntry() {
		return nil
	}
	return []diag.Related{gym.Related(sv.s.Class.Module, sv.s.Class.Class.NameSpan, "server class "+sv.name()+" is defined here")}
}

// useRelated points at the server's Ray use, when there is one.
func (u *serverUse) useRelated() []diag.Related {
	if r := u.found.related(); r != nil {
		return []diag.Related{*r}
	}
	return nil
}

// helped is d with its help set.
func helped(d diag.Diagnostic, help string) diag.Diagnostic {
	d.Help = help
	return d
}
