// Package workers is the workers analyzer: it checks that every server can
// be started with several uvicorn workers, or refuses them with a reason.
//
// Its rules, each in its own file with its full documentation (what it
// does, why it matters, an example, how to fix) in the rule's Doc, which
// docs/rules.md renders:
//
//   - GL101 undeclared-workers (this file)
//   - GL102 late-worker-refusal (laterefusal.go)
//   - GL103 legacy-worker-refusal (legacy.go)
//   - GL104 refused-num-workers (conflict.go)
//   - GL105 unrouted-session-state (unrouted.go)
//   - GL106 unreachable-app (deadapp.go)
//
// refusal.go holds the analysis they share: how a server's
// multiple_workers_unsupported_reason() answers, always, never or under a
// condition on its config, and Status for the `gymlint servers` inventory.
// The model they read (entrypoints, server classes, their MRO) is built by
// package gym.
package workers

import (
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// Method is the name of the refusal method.
const Method = "multiple_workers_unsupported_reason"

// UndeclaredWorkers is rule GL101.
var UndeclaredWorkers = &diag.Rule{
	Code: "GL101", Name: "undeclared-workers", Analyzer: "workers", Severity: diag.Error,
	Summary: "A server has neither a module-level app nor a multiple_workers_unsupported_reason() override.",
	Doc: `## What it does
Reports each server entrypoint that has neither a module-level ` + "`app`" + ` nor an override of
` + "`multiple_workers_unsupported_reason()`" + ` on its server class or on an ancestor class defined in the
repository (outside the framework package).

## Why it matters
When a config sets ` + "`num_workers`" + ` above 1, NeMo Gym runs ` + "`uvicorn.run(\"module:app\", workers=N)`" + `: each worker
process imports the entrypoint and looks up ` + "`app`" + ` in it. A server must either be safe with several
workers and expose a module-level ` + "`app`" + `, or say why it is not, so that ` + "`run_webserver`" + ` refuses
` + "`num_workers > 1`" + ` with that reason before uvicorn starts and a dry run reports it. A server with neither
fails late, at startup or in a training run.

` + "`app`" + ` counts when uvicorn sees it on import: bound at module scope, including inside top-level
if/elif/else/try/with/for bodies and the elif/else branches of ` + "`if __name__ == \"__main__\":`" + `, but not in
that guard's own body, nor in a function, class, lambda or comprehension. The override counts on the
server class or a repository ancestor (mixins included) in Python's method resolution order: a mixin
listed after a framework server base is shadowed by the framework's default, which never counts.
A module that a config names but that defines no server class (a library) is reported too unless it
is exempt.

## Example
` + "```python" + `
class EchoServer(SimpleResourcesServer):
    async def verify(self, body): ...

if __name__ == "__main__":
    EchoServer.run_webserver()
` + "```" + `

## How to fix
If the server is safe with several workers (it keeps no per-session state in process memory, or
keeps it where session routing reaches it), give it a module-level ` + "`app`" + `:
` + "```python" + `
if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
` + "```" + `
Otherwise override the method and return the reason:
` + "```python" + `
class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Episodes are kept in this process's memory by the env_id in the request body."
` + "```" + `
An editor offers both changes as code actions (with the import of ` + "`is_nemo_gym_fastapi_entrypoint`" + `, and a TODO
reason to replace); ` + "`gymlint --fix`" + ` applies neither, since which one is right is the author's call.
A module that starts no server (a base-class module a config names) belongs in ` + "`exempt:`" + ` of
` + "`.gymlint.yaml`" + `, with the reason.`,
}

// maxRelatedConfigs bounds how many naming configs a diagnostic lists.
const maxRelatedConfigs = 5

// Checks are the rules of this analyzer.
// TRANSITION: the rules move onto the typed model; until then none runs.
var Checks = []gym.Check{}
