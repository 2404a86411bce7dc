//go:build ignore

package sessions

import (
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Checks are the rules of this analyzer. Each rule's file adds its own in
// an init function; lint sorts the catalogue by code.
var Checks []gym.Check

// resourcesBases are the framework classes that make a server a
// resources server.
var resourcesBases = map[string]bool{"SimpleResourcesServer": true, "BaseResourcesServer": true}

// ResourcesServers returns the resources-server classes of the view's
// entrypoints, each once, in entrypoint order. Entrypoints that are exempt,
// unreadable or have a syntax error are skipped, as are classes whose
// module has one.
func ResourcesServers(v *gym.View) []gym.Server {
	var out []gym.Server
	seen := map[*pyscan.Class]bool{}
	for _, e := range v.Entrypoints {
		if e.Exemption != nil || e.Module == nil || e.Module.SyntaxError != nil {
			continue
		}
		for _, s := range e.Servers {
			c := s.Class
			if c.Class == nil || seen[c.Class] || c.Module.SyntaxError != nil {
				continue
			}
			seen[c.Class] = true
			if IsResourcesServer(v, c) {
				out = append(out, s)
			}
		}
	}
	return out
}

// IsResourcesServer reports whether a repository class's method resolution
// order reaches a framework server class named SimpleResourcesServer or
// BaseResourcesServer, or a framework class defined in the repository that
// derives from one of them.
func IsResourcesServer(v *gym.View, c gym.ClassRef) bool {
	mro, _ := v.MRO(c)
	for _, a := range mro {
		if a.Kind == gym.FrameworkServer && frameworkResources(v, a, 0) {
			return true
		}
	}
	return false
}

func frameworkResources(v *gym.View, a gym.Ancestor, depth int) bool {
	name := a.Name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if resourcesBases[name] {
		return true
	}
	if a.Class.Class == nil || depth > 16 {
		return false
	}
	if resourcesBases[a.Class.Class.Name] {
		return true
	}
	for _, b := range v.Bases(a.Class) {
		if (b.Kind == gym.FrameworkServer || b.Kind == gym.Framework) && frameworkResources(v, b, depth+1) {
			return true
		}
	}
	return false
}

// Override returns the repository definition of a method that wins in the
// server's method resolution order, with the class that defines it, or
// ok=false when the framework's default (or nothing) wins, the winner is
// not a def, or the ancestry is uncertain.
func Override(v *gym.View, server gym.ClassRef, name string) (owner gym.ClassRef, fn *pyscan.Function, ok bool) {
	d := v.Lookup(server, name)
	if !d.Found() || d.Method == nil || d.Uncertain {
		return gym.ClassRef{}, nil, false
	}
	return d.Class, d.Method, true
}

// Methods returns the winning repository definitions of every method of
// the server class and its repository ancestors (outside the framework),
// in MRO order and source order within a class. Definitions shadowed by a
// later class in the MRO or by the framework are left out.
func Methods(v *gym.View, server gym.ClassRef) []Method {
	mro, _ := v.MRO(server)
	var out []Method
	seen := map[string]bool{}
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Class == nil {
			continue
		}
		for _, fn := range a.Class.Class.Methods {
			if seen[fn.Name] {
				continue
			}
			d := v.Lookup(server, fn.Name)
			if d.Found() && d.Method == fn {
				seen[fn.Name] = true
				out = append(out, Method{Class: a.Class, Func: fn})
			}
		}
	}
	return out
}

// Method is a method together with the class that defines it.
type Method struct {
	Class gym.ClassRef
	Func  *pyscan.Function
}

// Span converts a pyscan span to diagnostic positions.
func Span(s pyscan.Span) (diag.Pos, diag.Pos) { return gym.PyPos(s.Start), gym.PyPos(s.End) }

// RelatedAt is a related position at a span of a module.
func RelatedAt(m *pyscan.Module, s pyscan.Span, msg string) diag.Related {
	start, end := Span(s)
	return diag.Related{Path: m.Path, Start: start, End: end, Message: msg}
}

// Within reports whether span inner lies inside span outer.
func Within(inner, outer pyscan.Span) bool {
	return inner.Start.Offset >= outer.Start.Offset && inner.End.Offset <= outer.End.Offset
}
