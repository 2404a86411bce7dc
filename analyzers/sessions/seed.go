package sessions

import "github.com/gymlint/gymlint/diag"

// PlainExceptionInSeed is rule GL301.
var PlainExceptionInSeed = &diag.Rule{
	Code: "GL301", Name: "plain-exception-in-seed", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A seed_session override raises a plain exception for bad input, which becomes HTTP 500 and is retried.",
	Doc: `## What it does
Reports a ` + "`raise`" + ` or ` + "`assert`" + ` statement directly in the body of a resources server's ` + "`seed_session`" + `
override (the definition that wins on the server class or an ancestor defined in the repository)
that signals input no retry can fix:

- ` + "`ValueError`" + `, ` + "`TypeError`" + `, ` + "`KeyError`" + `, ` + "`IndexError`" + `, ` + "`LookupError`" + ` or ` + "`AssertionError`" + `, raised by name or
  called, or a class of the repository that derives from one of them and not from ` + "`HTTPException`" + `;
- an ` + "`assert`" + ` statement;
- a pydantic ` + "`ValidationError`" + ` (from ` + "`pydantic`" + ` or ` + "`pydantic_core`" + `), raised, or re-raised by a bare ` + "`raise`" + ` or
  ` + "`raise e`" + ` in an ` + "`except`" + ` clause that catches only such exceptions (for example ` + "`except ValidationError:`" + `);
- ` + "`HTTPException`" + ` (FastAPI's or Starlette's) whose ` + "`status_code`" + ` (keyword or first argument) is a 5xx
  literal or a ` + "`status.HTTP_5xx_...`" + ` constant, except 502, 503 and 504, which say that something
  upstream is unavailable (a retry may fix that).

A raise inside a ` + "`try`" + ` body whose handler catches the exception (its type, a base of it such as
` + "`LookupError`" + ` or ` + "`Exception`" + `, or a bare ` + "`except`" + `) is left to that handler. Exceptions a retry may fix
(` + "`RuntimeError`" + `, ` + "`ConnectionError`" + `, ` + "`TimeoutError`" + `, ` + "`OSError`" + `, anything else), a bare ` + "`raise`" + ` in
` + "`except Exception:`" + `, the framework's ` + "`ResourcesSeedRejectedError`" + ` and ` + "`ResourcesSessionConflictError`" + `, and
raises in helpers that the seed calls are not reported. A function named ` + "`seed_session`" + ` outside a
resources server class is not an override.

## Why it matters
FastAPI answers a plain exception with HTTP 500. An Environment Server treats a 5xx from
` + "`/seed_session`" + ` as a failure a retry may fix and dispatches the whole episode again, with the same
input, which fails the same way: the episode burns its retries, and the log shows a server error
instead of the reason. A terminal 4xx fails the episode once, with the message.

## Example
` + "```python" + `
class ToolServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body: ToolSeedRequest):
        if not 0 <= body.task_idx < len(self.tasks):
            raise ValueError(f"task_idx={body.task_idx} out of range")
        ...
` + "```" + `

## How to fix
Raise ` + "`ResourcesSeedRejectedError(detail)`" + ` (HTTP 422) for input that fails validation, or
` + "`ResourcesSessionConflictError(detail)`" + ` (HTTP 409) for a session id bound to another episode or task, or
a session that already closed. Both are also ` + "`ValueError`" + `s, so direct callers that catch ` + "`ValueError`" + `
keep working. Keep a 5xx (or ` + "`RuntimeError`" + `) for failures a retry may fix, such as an unavailable
sandbox provider.
` + "```python" + `
from nemo_gym.base_resources_server import ResourcesSeedRejectedError

        if not 0 <= body.task_idx < len(self.tasks):
            raise ResourcesSeedRejectedError(f"task_idx={body.task_idx} out of range")
` + "```",
}
