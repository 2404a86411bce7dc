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

import "github.com/gymlint/gymlint/gym"

// Analyzer is the analyzer name every rule of this package carries.
const Analyzer = "sessions"

// The names of the contract's methods.
const (
	SeedMethod   = "seed_session"
	CloseMethod  = "close_resources_session"
	VerifyMethod = "verify"
)

// Checks are the rules of this analyzer.
// TRANSITION: the rules move onto the typed model; until then none runs.
var Checks = []gym.Check{}
