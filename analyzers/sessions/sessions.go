// Package sessions is the sessions analyzer: it checks that Python
// resources servers keep the resources-server session contract of NeMo
// Gym. An Environment Server seeds a session (/seed_session, the server's
// seed_session override), calls tools, verifies (/verify) and closes it
// (/close_session, the server's close_resources_session override). A seed
// refuses input no retry can fix with ResourcesSeedRejectedError (422) or
// ResourcesSessionConflictError (409); a close releases the state by
// body.resources_session_id, fences the session (ResourcesSessionFences)
// and raises when releasing fails; a tool call for a session the server
// no longer holds raises ResourcesSessionLostError (404), and its verify
// answers with lost_session_verification(...); seed and close hold
// ResourcesSessionLocks.locked(id) across awaits.
//
// Its rules, each in its own file with its full documentation (what it
// does, why it matters, an example, how to fix) in the rule's Doc, which
// docs/rules.md renders:
//
//   - GL301 plain-exception-in-seed (seed.go)
//   - GL302 seed-without-close (close.go)
//   - GL303 close-without-fence (close.go)
//   - GL304 close-swallows-failure (close.go)
//   - GL305 close-keyed-by-cookie (close.go)
//   - GL306 lost-session-scored, GL307 verify-ignores-lost-session (verify.go)
//   - GL308 lost-session-keyword-spread (spread.go)
//   - GL309 lost-session-as-observation (routes.go)
//   - GL310 unserialized-seed-close (locks.go)
//
// The analysis the rules share is here and in names.go and state.go:
//
//   - Resources servers (ResourcesServers): the server classes of the
//     entrypoints whose method resolution order reaches the framework's
//     SimpleResourcesServer or BaseResourcesServer (directly, or through a
//     framework class deriving from them, such as a framework Gymnasium
//     server). Agents and models are not checked.
//   - Overrides (Override): a method of the server class or of an ancestor
//     defined in the repository outside the framework, the definition that
//     wins in the method resolution order. A function named seed_session
//     outside a server class is not an override.
//   - Framework names (Framework, FrameworkCall): the contract's names are
//     matched as the framework exports them, through imports, aliases and
//     re-exports, whether the framework package is part of the scanned
//     repository or installed elsewhere.
//   - Reach: a method together with what it reaches through self.m(...),
//     super().m(...) and calls of the repository's module functions.
//   - Per-session state (States): a server is stateful when it stores
//     something per session in a container (self.X[k] = v and the like)
//     keyed by the session id (the session cookie's
//     request.session[SESSION_ID_KEY], or body.resources_session_id), by
//     another request-body field, or by an id its seed mints and hands
//     back, in a seed_session override or another method of the server.
//     An empty result means the server is not stateful, as far as the code
//     shows.
//
// The model comes from packages gym and pyscan; rules never walk syntax
// trees. Go servers get their own analyzers (issue 5).
package sessions

import (
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Analyzer is the analyzer name every rule of this package carries.
const Analyzer = "sessions"

// The names of the contract's methods.
const (
	SeedMethod   = "seed_session"
	CloseMethod  = "close_resources_session"
	VerifyMethod = "verify"
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
