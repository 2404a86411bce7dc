package sessions

import "github.com/gymlint/gymlint/diag"

// SeedWithoutClose is rule GL302.
var SeedWithoutClose = &diag.Rule{
	Code: "GL302", Name: "seed-without-close", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A resources server keeps per-session state in seed_session but has no close_resources_session override.",
	Doc: `## What it does
Reports a resources server whose ` + "`seed_session`" + ` override stores per-session state (see below) while
neither the server class nor an ancestor defined in the repository overrides
` + "`close_resources_session`" + `. Servers that share one seed override are reported once, at the class that
defines it, naming the servers that lack a close. A close override shadowed by the framework's
default (a mixin listed after the framework base) does not count, and the message says so. A method
with another name that looks like a close (` + "`close_session`" + `, ` + "`close`" + `, ` + "`end_session`" + `, ...) is named in the
message: the Environment Server never calls it.

**Per-session state** is a write ` + "`self.X[k] = v`" + ` (also ` + "`+=`" + `, ` + "`self.X.setdefault(k, ...)`" + `,
` + "`self.X.__setitem__(k, v)`" + `, and the same on a module-level dictionary) where the key is the session's id
(` + "`request.session[SESSION_ID_KEY]`" + `, ` + "`body.resources_session_id`" + `, or a local assigned from one of them), a
field of the request body, or an id the seed mints (` + "`str(uuid.uuid4())`" + `). Writes in helpers whose key is
a parameter are not followed.

## Why it matters
` + "`/close_session`" + ` is served by ` + "`close_resources_session`" + `, whose default keeps no state: with it, the server
never releases what the seed stored (memory, sandboxes, containers grow with every episode) and never
fences the closed session, so a late or retried seed creates it again.

## Example
` + "```python" + `
class CounterServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body: SeedRequest):
        self.counters[request.session[SESSION_ID_KEY]] = body.initial
        return BaseSeedSessionResponse()
` + "```" + `

## How to fix
Override ` + "`close_resources_session`" + `: release the state by ` + "`body.resources_session_id`" + ` (the cookie may be
missing), fence the session, and raise when releasing fails.
` + "```python" + `
    async def close_resources_session(self, body: ResourcesCloseSessionRequest) -> ResourcesCloseSessionResponse:
        self.counters.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)
` + "```" + `
where ` + "`self._fences = ResourcesSessionFences(self.config.session_close_retry_window_seconds)`" + `, and the seed
starts with ` + "`self._fences.raise_if_fenced(body.resources_session_id)`" + `.`,
}

// CloseWithoutFence is rule GL303.
var CloseWithoutFence = &diag.Rule{
	Code: "GL303", Name: "close-without-fence", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A close_resources_session override releases state but never fences the session.",
	Doc: `## What it does
Reports a resources server's ` + "`close_resources_session`" + ` override that releases state, or belongs to a
server that keeps per-session state (as GL302 defines it), but never calls
` + "`ResourcesSessionFences.fence`" + `. The close is read together with what it reaches: the methods of the
server it calls as ` + "`self.m(...)`" + `, the definitions ` + "`super().m(...)`" + ` reaches in the repository, and
functions of the repository's modules it calls by name.

**Releasing** is ` + "`del self.X[k]`" + `, ` + "`self.X.pop(...)`" + ` (also ` + "`popitem`" + `, ` + "`clear`" + `, ` + "`discard`" + `, ` + "`remove`" + `,
` + "`__delitem__`" + `) on a container of the server, or a call whose name says it releases something
(` + "`close`" + `, ` + "`stop`" + `, ` + "`kill`" + `, ` + "`terminate`" + `, ` + "`shutdown`" + `, ` + "`release`" + `, ` + "`delete`" + `, ` + "`destroy`" + `, ` + "`cleanup`" + `,
` + "`teardown`" + `, ` + "`dispose`" + ` in its last name). A **fence** is a call ` + "`<x>.fence(...)`" + ` in a class that refers to
the framework's ` + "`ResourcesSessionFences`" + ` (it or a repository ancestor imports, constructs or annotates
with it), or ` + "`ResourcesSessionFences.fence(...)`" + ` itself.

## Why it matters
A seed can arrive after the close: a retry of a seed whose reply was lost, or a reply that raced the
close. Without a fence the server creates the session again, and nothing will ever close it.

## Example
` + "```python" + `
    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)
` + "```" + `

## How to fix
After releasing, fence the session for the close retry window, and refuse fenced seeds:
` + "```python" + `
    def model_post_init(self, context):
        self._fences = ResourcesSessionFences(self.config.session_close_retry_window_seconds)

    async def seed_session(self, request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        ...

    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)
` + "```",
}

// CloseSwallowsFailure is rule GL304.
var CloseSwallowsFailure = &diag.Rule{
	Code: "GL304", Name: "close-swallows-failure", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A close_resources_session override catches the failure of releasing state and does not re-raise.",
	Doc: `## What it does
Reports an ` + "`except`" + ` clause in a resources server's ` + "`close_resources_session`" + ` override (or in what it
reaches, as in GL303) whose ` + "`try`" + ` body calls something that releases a resource (a call whose last name
says ` + "`close`" + `, ` + "`stop`" + `, ` + "`kill`" + `, ` + "`terminate`" + `, ` + "`shutdown`" + `, ` + "`release`" + `, ` + "`delete`" + `, ` + "`destroy`" + `, ` + "`cleanup`" + `,
` + "`teardown`" + ` or ` + "`dispose`" + `) and whose own statements contain no ` + "`raise`" + `: it logs, passes, or returns.
Also ` + "`with contextlib.suppress(...)`" + ` around such a call.

These stay silent: a handler with any ` + "`raise`" + ` statement (a close that logs and re-raises, or raises
another exception); a handler that catches only "already gone" errors (` + "`KeyError`" + `, ` + "`LookupError`" + `,
` + "`IndexError`" + `, ` + "`FileNotFoundError`" + `, ` + "`ProcessLookupError`" + `, or a class named ` + "`NotFound`" + ` or
` + "`NotFoundError`" + `), which a close must tolerate to be idempotent; and a function that raises after the
` + "`try`" + ` statement (for example once it has tried every release and collected the failures). Removing a
key from a dictionary is not a release that can fail this way.

## Why it matters
The Environment Server records the session closed when ` + "`/close_session`" + ` answers 2xx, and retries the
close only when it fails. A close that swallows the failure leaks the resource (a sandbox, a
container, a process) for good.

## Example
` + "```python" + `
    async def close_resources_session(self, body):
        sandbox = self.sandboxes.pop(body.resources_session_id, None)
        if sandbox is not None:
            try:
                await sandbox.kill()
            except Exception:
                logger.exception("could not kill the sandbox")
        ...
` + "```" + `

## How to fix
Re-raise after logging, so that the close fails and is retried:
` + "```python" + `
            except Exception:
                logger.exception("could not kill the sandbox")
                raise
` + "```" + `
Put the state back (or keep it) until the release succeeds, so that the retried close finds it.`,
}

// CloseKeyedByCookie is rule GL305.
var CloseKeyedByCookie = &diag.Rule{
	Code: "GL305", Name: "close-keyed-by-cookie", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A close_resources_session override finds the session through the session cookie only, not body.resources_session_id.",
	Doc: `## What it does
Reports a resources server's ` + "`close_resources_session`" + ` override that reads the session cookie's id
(` + "`request.session[SESSION_ID_KEY]`" + `, ` + "`request.session[\"session_id\"]`" + ` or ` + "`request.session.get(...)`" + `) while
neither it nor what it reaches (as in GL303) mentions ` + "`resources_session_id`" + ` anywhere. The finding is
at the first cookie read.

## Why it matters
An Environment Server closes a session whose seed reply was lost too, and that close carries no
session cookie. An app built without session routing (under a TestClient) also gives the close a new
random id. Only ` + "`body.resources_session_id`" + ` names the session in every case, so a close keyed by the
cookie misses exactly the sessions most likely to leak.

## Example
` + "```python" + `
    async def close_resources_session(self, request: Request, body: ResourcesCloseSessionRequest):
        self.envs.pop(request.session[SESSION_ID_KEY], None)
        ...
` + "```" + `

## How to fix
Release by the body's id (it names the same session as the cookie when both are present):
` + "```python" + `
        self.envs.pop(body.resources_session_id, None)
` + "```",
}

// maxRelated bounds the related positions of one kind in a diagnostic.
const maxRelated = 3

// maxReach bounds how many functions Reach follows.
const maxReach = 32
