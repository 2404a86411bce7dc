// Package rayenabled is the rayenabled analyzer: it checks that every server
// that uses Ray declares `ray_enabled = True` where the server supervisor
// reads it, on the server class in the entrypoint's own source, in a form
// that it can read and that pydantic accepts, and that no server declares
// it for nothing.
//
// Its rules, each documented in full (what it does, why it matters, an
// example, how to fix) in its Doc in rules.go, which `gymlint explain`
// prints and docs/rules.md renders:
//
//   - GL201 undeclared-ray (error): the server uses Ray, the entrypoint does
//     not declare it;
//   - GL202 inherited-ray-enabled (error): the declaration is inherited
//     from a class in another module;
//   - GL203 unreadable-ray-enabled (error): the declaration cannot be read
//     from source (a computed value, set in a function or with setattr, on
//     a class of the entrypoint that is not the server);
//   - GL204 unannotated-ray-enabled (error): a bare `ray_enabled = ...`,
//     which pydantic rejects at import;
//   - GL205 unneeded-ray-enabled (warning): declared, but no Ray use found.
//
// Status gives what the analyzer knows of one server, for the `gymlint
// servers` inventory.
//
// Every server of every entrypoint is analysed once per view, and the five
// rules share that analysis. Entrypoints that do not parse and exempt ones
// (a module that starts no server) get no diagnostics; Status still
// answers for their servers.
//
// The rayenabled analyzer has no Go counterpart, and needs none: Ray is a
// Python runtime, and the supervisor reads `ray_enabled` only from Python
// entrypoints. Native Go servers are checked by the goworkers and
// gosessions analyzers (go/analysis), which have no Ray rule.
package rayenabled

import "github.com/gymlint/gymlint/gym"

// Attr is the class attribute the supervisor reads.
const Attr = "ray_enabled"

// fix is the declaration every message asks for.
const fix = "`ray_enabled: ClassVar[bool] = True`"

// Checks are the rules of this analyzer.
// TRANSITION: the rules move onto the typed model; until then none runs.
var Checks = []gym.Check{}
