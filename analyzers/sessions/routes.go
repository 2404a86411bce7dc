package sessions

import "github.com/gymlint/gymlint/diag"

// LostSessionAsObservation is rule GL309.
var LostSessionAsObservation = &diag.Rule{
	Code: "GL309", Name: "lost-session-as-observation", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A tool route answers a missing session with an observation or an HTTP 4xx other than 404 instead of raising ResourcesSessionLostError.",
	Doc: `## What it does
Reports, in a tool route of a stateful resources server (one that keeps per-session state, see the
package notes), a statement that runs when the session's state is missing (the tests GL306
recognises: ` + "`k not in self.X`" + `, ` + "`self.X.get(k) is None`" + `, ` + "`not state`" + ` after ` + "`state = self.X.get(k)`" + `, ...) and
answers instead of raising the framework's ` + "`ResourcesSessionLostError`" + `:

- a ` + "`raise HTTPException(...)`" + ` (FastAPI's or Starlette's) with a literal 4xx status other than 404;
- a ` + "`return`" + ` of a value other than ` + "`None`" + ` (an observation, an error string, a response model); a
  returned response whose ` + "`status_code=`" + ` is 404 is left alone.

A branch that also creates the state (` + "`self.X[k] = ...`" + ` under the same test, or any
` + "`self.X.setdefault(...)`" + ` in the method) is a lazy start, not a lost session, and is not reported.

The **tool routes** are the methods of the server class and its repository ancestors (the definitions
that win in the method resolution order) that are:

- registered as routes: ` + "`app.post(\"/x\")(self.m)`" + ` (any HTTP method, also wrapped:
  ` + "`app.post(\"/x\")(wrap(self.m))`" + `) or ` + "`app.add_api_route(\"/x\", self.m)`" + `; a route built by a factory method,
  ` + "`app.add_api_route(\"/x\", self.make_handler(name))`" + `, makes the functions nested in the factory routes;
- or referred to by no other method of the server (served by a mechanism gymlint does not see);
- and every method a route reaches through ` + "`self.m(...)`" + ` or ` + "`self.m`" + ` (helpers such as ` + "`_get_state`" + `).

Never tool routes, nor followed: the framework's session and lifecycle methods (` + "`seed_session`" + `,
` + "`verify`" + `, ` + "`close_resources_session`" + `, ` + "`aggregate_metrics`" + `, ` + "`setup_webserver`" + `, ` + "`model_post_init`" + `, ...),
and methods whose name says that they start or end a session (a word ` + "`seed`" + `, ` + "`reset`" + `, ` + "`init`" + `, ` + "`close`" + `,
` + "`end`" + `, ` + "`discard`" + `, ` + "`release`" + `, ` + "`cleanup`" + `, ` + "`teardown`" + ` or ` + "`shutdown`" + ` in it): closing a missing
session must succeed, and a reset creates it. A helper reached only from ` + "`verify`" + ` is GL306's.

## Why it matters
A tool call for a session the server no longer holds (never seeded, closed, lost in a restart) can
do nothing useful. An observation that says so (` + "`\"Session not initialized\"`" + `) or an HTTP 400 reaches
the model as an ordinary tool result, and the episode goes on, then scores as if the policy had
failed. ` + "`ResourcesSessionLostError`" + ` answers HTTP 404 with a ` + "`failure_kind`" + ` that harnesses and logs recognise,
and the verify of the session answers with a masked sample.

## Example
` + "```python" + `
    async def route_tool_call(self, tool_name: str, body: ToolCallRequest, request: Request):
        session_id = request.session[SESSION_ID_KEY]
        if session_id not in self.session_id_to_env:
            raise HTTPException(status_code=400, detail="Session not initialized.")   # reported
` + "```" + `

## How to fix
` + "```python" + `
from nemo_gym.base_resources_server import ResourcesSessionLostError

        if session_id not in self.session_id_to_env:
            raise ResourcesSessionLostError("session is not seeded or was closed")
` + "```",
}
