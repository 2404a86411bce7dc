// Package rayenabled is the rayenabled analyzer: it checks that every server
// that uses Ray declares `ray_enabled = True` where the server supervisor
// reads it, on the server class in the entrypoint's own source, in a form
// that it can read and that pydantic accepts, and that no server declares
// it for nothing.
//
// Its rules, each in its own file (the rule, its run function, then its
// helpers), with its documentation (what it does, why it matters, an
// example, how to fix) in docs/CODE.md beside it, which `gymlint explain`
// prints and docs/rules.md renders:
//
//   - GL201 undeclared-ray (undeclared.go, with its fixes, error): the
//     server uses Ray, the entrypoint does not declare it;
//   - GL202 inherited-ray-enabled (inherited.go, error): the declaration is
//     inherited from a class in another module;
//   - GL203 unreadable-ray-enabled (unreadable.go, error): the declaration
//     cannot be read from source (a computed value, set in a function or
//     with setattr, on a class of the entrypoint that is not the server);
//   - GL204 unannotated-ray-enabled (unannotated.go, with its fix, error): a
//     bare `ray_enabled = ...`, which pydantic rejects at import;
//   - GL205 unneeded-ray-enabled (unneeded.go, with the reading of the
//     server's configs and its fix, warning): declared, but no Ray use
//     found.
//
// Status (this file) gives what the analyzer knows of one server, for the
// `gymlint servers` inventory.
//
// What the rules share is facts, in server.go, about every server of every
// entrypoint, computed once per view (View.Shared): the server class's own
// declaration (declsOf), and, from a search of every server in parallel,
// its Ray use, the entrypoint's runtime sets of ray_enabled, the places of
// the entrypoint that set it for the server outside its class body, and
// the declaration it inherits from another module (usesOf). Each rule
// decides from them; where the declarations exclude one another (the
// class's own declaration first, then the other places of the entrypoint,
// then an inherited one), each rule's condition says so. GL204 asks only
// for the declarations, so that when it runs alone the servers' import
// closures are not parsed. Entrypoints that do not parse and exempt ones
// (a module that starts no server) get no diagnostics; Status still
// answers for their servers.
//
// The facts come from pyscan's typed model, the view's resolver and MRO,
// and package facts (the functions, their locals and receivers), never
// source text: use.go finds Ray use, walking each module of a server's
// import closure once; decl.go reads the declaration in a class body and
// the places that set ray_enabled at run time; edits.go reads the layout
// of the lines around a class body's statements for the fixes of GL201
// and GL205, from the model's offsets and comment spans.
//
// The rayenabled analyzer has no Go counterpart, and needs none: Ray is a
// Python runtime, and the supervisor reads `ray_enabled` only from Python
// entrypoints. Native Go servers are checked by the goworkers and
// gosessions analyzers (go/analysis), which have no Ray rule.
package rayenabled

import (
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// Attr is the class attribute the supervisor reads.
const Attr = "ray_enabled"

// fix is the declaration every message asks for.
const fix = "`ray_enabled: ClassVar[bool] = True`"

// Checks are the rules of this analyzer, in code order.
var Checks = []gym.Check{
	{Rule: UndeclaredRay, Run: runUndeclaredRay},
	{Rule: InheritedRayEnabled, Run: runInheritedRayEnabled},
	{Rule: UnreadableRayEnabled, Run: runUnreadableRayEnabled},
	{Rule: UnannotatedRayEnabled, Run: runUnannotatedRayEnabled},
	{Rule: UnneededRayEnabled, Run: runUnneededRayEnabled},
}

// RayStatus is what gymlint knows of one server's Ray needs.
type RayStatus struct {
	Declared bool          // ray_enabled = True readable on the server class in the entrypoint
	Needed   bool          // Ray use found (see GL201)
	Use      *diag.Related // the first use found, when Needed
}

// Status returns what gymlint knows of a server's Ray needs. s is one of
// the Servers of one of v's entrypoints; a server that is not is analysed
// as if its class's module were its entrypoint.
func Status(v *gym.View, s gym.Server) RayStatus {
	u := usesOf(v)
	for _, r := range u.list {
		if r.s.Class.Class == s.Class.Class && r.s.Call == s.Call {
			return statusOf(r.own, r.found)
		}
	}
	if s.Class.Module == nil || s.Class.Class == nil {
		return RayStatus{}
	}
	e := &gym.Entrypoint{Path: s.Class.Module.Path, Module: s.Class.Module, Servers: []gym.Server{s}}
	return statusOf(ownOf(e, s), u.scanner.search(e.Module, s.Class, false))
}

// statusOf is the status of a server with this own declaration and this
// search for Ray use.
func statusOf(own *ownDecl, found search) RayStatus {
	return RayStatus{Declared: own != nil && isTrue(own.attr.Value), Needed: found.use != nil, Use: found.related()}
}
