package workers

import "github.com/gymlint/gymlint/diag"

// RefuseFunc is the framework function that refuses a worker count the
// server does not support: refuse_unsupported_num_workers(server) raises
// with the reason multiple_workers_unsupported_reason() returns when the
// config asks for more than one worker.
const RefuseFunc = "refuse_unsupported_num_workers"

// LateWorkerRefusal is rule GL102.
var LateWorkerRefusal = &diag.Rule{
	Code: "GL102", Name: "late-worker-refusal", Analyzer: "workers", Severity: diag.Error,
	Summary: "A server that can refuse several workers does setup in model_post_init before refuse_unsupported_num_workers(self).",
	Doc: `## What it does
Reports the ` + "`model_post_init`" + ` of a server that can refuse several workers when it does work before
calling ` + "`refuse_unsupported_num_workers(self)`" + `, or does work and never calls it.

A server *can refuse* when the ` + "`multiple_workers_unsupported_reason()`" + ` that wins in its method
resolution order is defined in the repository (not the framework's default) and does not trivially
return ` + "`None`" + `: a body whose every return is ` + "`return None`" + `, a bare ` + "`return`" + `, no return at all, or
` + "`return super().multiple_workers_unsupported_reason()`" + ` reaching the framework's default, never
refuses. The ` + "`model_post_init`" + ` checked is the one that wins in the same order, and it must be defined
in the repository too.

*Work* is any call in the method's body, in source order, except:

- the refusal itself, ` + "`refuse_unsupported_num_workers(self)`" + `, called by that name, through a module
  (` + "`server_utils.refuse_unsupported_num_workers(self)`" + `) or under an imported alias;
- ` + "`super().model_post_init(...)`" + ` when the parent's ` + "`model_post_init`" + ` is the framework's; when it is a
  repository class's, that method is checked the same way, and the super call counts as the
  refusal if the parent refuses first, or as work if the parent does work first;
- logging: ` + "`logger.info(...)`" + ` and the like on a receiver named ` + "`logger`" + `, ` + "`log`" + `, ` + "`LOG`" + `, ` + "`LOGGER`" + `,
  ` + "`_logger`" + ` or ` + "`logging`" + ` (also through ` + "`self.`" + `), and ` + "`print(...)`" + `;
- building the exception of a ` + "`raise`" + ` statement (` + "`raise ValueError(...)`" + `);
- builtins that only compute values: ` + "`isinstance`" + `, ` + "`issubclass`" + `, ` + "`len`" + `, ` + "`str`" + `, ` + "`int`" + `, ` + "`float`" + `,
  ` + "`bool`" + `, ` + "`dict`" + `, ` + "`list`" + `, ` + "`set`" + `, ` + "`tuple`" + `, ` + "`frozenset`" + `, ` + "`range`" + `, ` + "`enumerate`" + `, ` + "`zip`" + `,
  ` + "`sorted`" + `, ` + "`reversed`" + `, ` + "`min`" + `, ` + "`max`" + `, ` + "`sum`" + `, ` + "`abs`" + `, ` + "`round`" + `, ` + "`any`" + `, ` + "`all`" + `, ` + "`repr`" + `,
  ` + "`format`" + `, ` + "`type`" + `.

Attribute stores of literals (` + "`self._count = 0`" + `) contain no call and are never work; a store whose value
is a call (` + "`self._data = load_rows()`" + `) is work because of the call. Calls inside nested functions are not
counted: those run later. A ` + "`model_post_init`" + ` that does no work is not reported, whether or not it calls
the refusal: ` + "`run_webserver`" + ` refuses right after it anyway.

## Why it matters
` + "`run_webserver`" + ` asks ` + "`multiple_workers_unsupported_reason()`" + ` only after it has built the server, and building
it runs ` + "`model_post_init`" + `. Setup there (installing a dependency, downloading data, loading a backend,
taking a metrics snapshot) then runs before the worker count is checked: a config with
` + "`num_workers: 2`" + ` spends that time, or fails on the setup with an unrelated error, instead of failing
at once with the reason the server gives.

## Example
` + "```python" + `
class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Deliverables are claimed in memory by the task id in the request body."

    def model_post_init(self, context):
        ensure_office_suite()          # reported: runs before the refusal
        refuse_unsupported_num_workers(self)
` + "```" + `

## How to fix
Call the refusal first:
` + "```python" + `
    def model_post_init(self, context):
        refuse_unsupported_num_workers(self)
        ensure_office_suite()
` + "```" + `
` + "`refuse_unsupported_num_workers`" + ` is in ` + "`nemo_gym.server_utils`" + `.`,
}

// mwPostInit is the pydantic hook that building a server runs.
const mwPostInit = "model_post_init"
