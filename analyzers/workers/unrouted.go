package workers

import "github.com/gymlint/gymlint/diag"

// UnroutedSessionState is rule GL105.
var UnroutedSessionState = &diag.Rule{
	Code: "GL105", Name: "unrouted-session-state", Analyzer: "workers", Severity: diag.Error,
	Summary: "A server that accepts several workers keeps per-episode state in memory keyed by a request-body field, which session routing does not follow.",
	Doc: `## What it does
Reports a server that accepts several workers but keeps per-episode state in process memory under a
key taken from the request body instead of from the session: a dictionary attribute ` + "`self.X`" + ` that
one request route writes and another reads, with the key a field of the request body.

It reports only what it can show from the code, and names both places. A server *accepts several
workers* when its entrypoint has a module-level ` + "`app`" + ` (as in rule GL101) and its
` + "`multiple_workers_unsupported_reason()`" + ` is the framework's default or an override that always returns
` + "`None`" + `; a server whose ancestry gymlint cannot fully resolve is skipped. Then, over the methods of the
server class and its ancestors defined in the repository (the definition that wins in the method
resolution order, and the ones it reaches through ` + "`super()`" + `):

- **Routes** are the methods the framework serves by name (` + "`seed_session`" + `, ` + "`verify`" + `, ` + "`aggregate_metrics`" + `,
  ` + "`run`" + `, ` + "`responses`" + `, ` + "`chat_completions`" + `, ` + "`messages`" + `) and every method a route registration names:
  ` + "`app.post(\"/step\")(self.step)`" + `, ` + "`app.add_api_route(\"/step\", self.step)`" + `, also wrapped
  (` + "`app.post(\"/verify\")(judge_failsafe(self.verify))`" + `). A method serves every route that reaches it
  through ` + "`self.m(...)`" + ` calls, ` + "`self.m`" + ` passed as a value, and ` + "`super()`" + ` calls. A method no route reaches is its
  own route, unless it is ` + "`__init__`" + `, ` + "`model_post_init`" + `, ` + "`setup_webserver`" + ` or only reached from them
  (start-up code runs in every worker).
- A **write** is ` + "`self.X[k] = v`" + ` or ` + "`self.X[k] += v`" + `; a **read** is ` + "`self.X[k]`" + `, ` + "`self.X.get(k)`" + `, ` + "`self.X.pop(k)`" + `,
  ` + "`self.X.setdefault(k, ...)`" + `, ` + "`del self.X[k]`" + ` or ` + "`self.X[k] += v`" + `. A read in a method that also assigns
  ` + "`self.X[...] = ...`" + ` is a get-or-create (a cache), not a lookup of another request's state, and does not
  count.
- A key is **from the body** when it is ` + "`body.<field>`" + ` (any depth, also inside ` + "`str(...)`" + ` or ` + "`int(...)`" + `) and
  ` + "`body`" + ` is a parameter of the method; a **local** key is a plain name. A key that mentions ` + "`session`" + `
  anywhere (the session cookie's id ` + "`request.session[SESSION_ID_KEY]`" + `, a local ` + "`session_id`" + `,
  ` + "`body.resources_session_id`" + `) or is the name ` + "`sid`" + ` comes **from the session**, and a dictionary with any
  such key is never reported.

A dictionary is reported when a write in one method and a read in another, served by different
routes, have from-the-body or local keys and at least one of the two keys is from the body. A
local key alone proves nothing (gymlint does not follow local variables), so it never suffices.
The finding is at the write; the read and the module-level ` + "`app`" + ` are related positions.

## Why it matters
With several workers, session routing sends each request of a session to the worker that holds it,
following the session cookie and ` + "`body.resources_session_id`" + `. It knows nothing of other body fields: a
request whose state is keyed by, say, ` + "`body.env_id`" + ` may reach a worker that never saw that id, and
the lookup fails (a ` + "`KeyError`" + `, an empty default, a lost reward).

## Example
` + "```python" + `
class MazeServer(SimpleResourcesServer):
    envs: dict[str, Maze] = Field(default_factory=dict)

    async def seed_session(self, request, body):
        env_id = str(uuid4())
        self.envs[env_id] = Maze()          # reported: written here ...
        return MazeSeedResponse(env_id=env_id)

    async def step(self, request, body):
        return self.envs[body.env_id].step(body.move)   # ... read here, by a body field

if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
` + "```" + `

## How to fix
Key the state by the session, which routing follows:
` + "```python" + `
    async def seed_session(self, request, body):
        self.envs[request.session[SESSION_ID_KEY]] = Maze()

    async def step(self, request, body):
        return self.envs[request.session[SESSION_ID_KEY]].step(body.move)
` + "```" + `
(or by ` + "`body.resources_session_id`" + ` where the caller sends it). If the client cannot carry the session,
refuse several workers instead: override ` + "`multiple_workers_unsupported_reason()`" + ` to return why.`,
}

const unroutedMaxReads = 3
