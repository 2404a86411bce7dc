package workers

import "github.com/gymlint/gymlint/diag"

// LegacyWorkerRefusal is rule GL103.
var LegacyWorkerRefusal = &diag.Rule{
	Code: "GL103", Name: "legacy-worker-refusal", Analyzer: "workers", Severity: diag.Warning,
	Summary: "A server refuses several workers in its own way (num_workers: Literal[1], a validator, model_post_init) instead of through multiple_workers_unsupported_reason().",
	Doc: `## What it does
Reports each check that refuses several workers outside ` + "`multiple_workers_unsupported_reason()`" + `:

- a class attribute ` + "`num_workers`" + ` annotated ` + "`Literal[1]`" + ` (also ` + "`typing.Literal[1]`" + `, ` + "`Optional[Literal[1]]`" + `,
  ` + "`Literal[1] | None`" + `);
- a pydantic validator that raises on the worker count: a method decorated
  ` + "`@field_validator(...)`" + ` or ` + "`@validator(...)`" + ` that names ` + "`\"num_workers\"`" + ` and raises or asserts under
  an ` + "`if`" + ` whose test mentions ` + "`num_workers`" + ` or the validated value (the method's value parameter;
  only when ` + "`num_workers`" + ` is the one field it validates), or an assert that mentions them; or a method
  decorated ` + "`@model_validator(...)`" + ` or ` + "`@root_validator(...)`" + ` that raises under an ` + "`if`" + ` whose test mentions
  ` + "`num_workers`" + `, or asserts something that mentions it;
- a ` + "`model_post_init`" + ` that raises under an ` + "`if`" + ` whose test mentions ` + "`num_workers`" + `, or asserts something
  that mentions it.

Each validator and each ` + "`model_post_init`" + ` is reported once, at its first such raise. The classes checked
are those of each server entrypoint: every class the entrypoint module defines, the server class's
ancestors defined in the repository, and the class its ` + "`config:`" + ` annotation names (on the server
class or a repository ancestor) with that class's repository ancestors. Classes of the framework
package are never checked. A validator on another field, or a ` + "`Literal[1]`" + ` on another field, is not
reported.

## Why it matters
` + "`run_webserver`" + ` refuses ` + "`num_workers > 1`" + ` with the reason ` + "`multiple_workers_unsupported_reason()`" + ` returns,
before uvicorn starts and before a dry run returns. A server that refuses in its own way fails
differently from every other server (a pydantic validation error, an exception from
` + "`model_post_init`" + `), and a dry run does not report it, because the framework does not know that the
server refuses.

## Example
` + "```python" + `
class QuizConfig(BaseResourcesServerConfig):
    num_workers: Literal[1] = 1     # reported

class QuizServer(SimpleResourcesServer):
    config: QuizConfig
` + "```" + `

## How to fix
Return the same condition's reason from the method, and remove the check:
` + "```python" + `
class QuizServer(SimpleResourcesServer):
    config: QuizConfig

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Quiz state is kept in this process's memory by the quiz id in the request body."
` + "```" + `
A check that applies only in some configurations becomes a method that returns the reason under
that condition and ` + "`None`" + ` otherwise.`,
}

const legacyNumWorkers = "num_workers"
