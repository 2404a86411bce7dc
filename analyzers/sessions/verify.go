package sessions

import "github.com/gymlint/gymlint/diag"

// LostSessionScored is rule GL306.
var LostSessionScored = &diag.Rule{
	Code: "GL306", Name: "lost-session-scored", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A stateful server's verify answers a missing session with a reward or an exception instead of lost_session_verification(...).",
	Doc: `## What it does
Reports, in the ` + "`verify`" + ` of a stateful resources server (one that keeps per-session state, see the
package notes), a ` + "`return`" + ` or ` + "`raise`" + ` that runs when the session's state is missing and does not
answer with the framework's ` + "`lost_session_verification(...)`" + `:

- a ` + "`return`" + ` whose value carries a reward (a ` + "`reward=`" + ` keyword or a ` + "`\"reward\":`" + ` key), 0 or otherwise, and
  calls no ` + "`lost_session_verification`" + `;
- any ` + "`raise`" + ` (an ` + "`HTTPException`" + `, a ` + "`KeyError`" + `, even ` + "`ResourcesSessionLostError`" + `, which is for tool calls);
- a call of a helper method of the server (` + "`self._get_state(...)`" + `, not inside a ` + "`try`" + `) that raises when
  the state is missing, reported at the call.

A statement runs *when the state is missing* when an enclosing ` + "`if`" + `/` + "`elif`" + ` test (or the ` + "`else`" + ` of one)
shows it, for a per-session container ` + "`self.X`" + ` the server writes:
` + "`k not in self.X`" + `, ` + "`self.X.get(k) is None`" + `, ` + "`not self.X.get(k)`" + `, ` + "`not state`" + ` or ` + "`state is None`" + ` where every
assignment of the local ` + "`state`" + ` in the function is ` + "`self.X.get(k)`" + `, the ` + "`else`" + ` of ` + "`k in self.X`" + ` or of
` + "`if state:`" + `, and any of these joined with ` + "`or`" + `/` + "`and`" + `; or the statement is in an ` + "`except KeyError`" + `
handler of a ` + "`try`" + ` whose body reads ` + "`self.X[k]`" + ` and no other subscript. A verify that falls through to a
common return with a default reward is not recognised here (GL307 still reports a verify that never
refers to ` + "`lost_session_verification`" + `).

## Why it matters
A session the server no longer holds (never seeded, closed, lost in a restart) has no state to
measure. A reward of 0 reads as a policy that solved nothing and trains on it; an exception becomes
HTTP 4xx or 5xx, and a 5xx dispatches the whole episode again. ` + "`lost_session_verification(reason)`" + ` returns
the verify fields of a masked sample (` + "`mask_sample=True`" + `, reward 0, ` + "`failure_kind`" + ` ` + "`session_lost`" + `), which keeps the
episode out of the score and logs why.

## Example
` + "```python" + `
class CounterServer(SimpleResourcesServer):
    async def verify(self, request: Request, body: CounterVerifyRequest):
        session_id = request.session[SESSION_ID_KEY]
        if session_id not in self.counters:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)   # reported
        ...
` + "```" + `

## How to fix
Merge the lost-session fields over the request's:
` + "```python" + `
from nemo_gym.base_resources_server import lost_session_verification

        if session_id not in self.counters:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("counter session is gone")))
` + "```",
}

// VerifyIgnoresLostSession is rule GL307.
var VerifyIgnoresLostSession = &diag.Rule{
	Code: "GL307", Name: "verify-ignores-lost-session", Analyzer: Analyzer, Severity: diag.Warning,
	Summary: "A stateful server's verify reads per-session state but never refers to lost_session_verification.",
	Doc: `## What it does
Reports the ` + "`verify`" + ` of a stateful resources server (its own, or the one it inherits from a class
defined in the repository) when:

- the server writes per-session state (see the package notes) in a method other than ` + "`verify`" + `;
- ` + "`verify`" + `, or a method of the server it calls (` + "`self.m(...)`" + `, followed transitively), reads that
  state (` + "`self.X[k]`" + `, ` + "`self.X.get(k)`" + `, ` + "`k in self.X`" + `, ` + "`self.X`" + ` as a value, and in ` + "`verify`" + ` itself a
  ` + "`pop`" + ` whose value it uses, ` + "`details = self.X.pop(k, {\"reward\": 0.0})`" + `). A ` + "`pop`" + ` or ` + "`del`" + ` statement
  alone only releases the state and does not count, nor do the reads of a helper that pops or
  deletes the container (it releases it) or whose name says it ends the session (` + "`_cleanup_session`" + `);
- and none of them refers to the framework's ` + "`lost_session_verification`" + ` (called or named, through
  imports and aliases).

A ` + "`verify`" + ` that always raises ` + "`NotImplementedError`" + ` (a server that scores elsewhere, such as a
Gymnasium-style ` + "`/step`" + `) is not reported, nor is a verify that GL306 already reports (one defect, one
finding), nor the framework's abstract default.

## Why it matters
When the session's state is gone (never seeded, closed, lost in a restart), a verify that reads it
either fails (a ` + "`KeyError`" + ` becomes HTTP 500, and the episode is dispatched again) or scores what is left,
usually 0, as if the policy had solved nothing. The contract asks a stateful verify to answer a
session it no longer holds with ` + "`lost_session_verification(reason)`" + `, a masked sample.

## Example
` + "```python" + `
class CounterServer(SimpleResourcesServer):
    async def verify(self, request: Request, body: CounterVerifyRequest):   # reported
        session_id = request.session[SESSION_ID_KEY]
        reward = 0.0
        if session_id in self.counters:
            reward = float(self.counters[session_id] == body.expected)
        return BaseVerifyResponse(**body.model_dump(), reward=reward)
` + "```" + `

## How to fix
Answer the missing session first:
` + "```python" + `
        if session_id not in self.counters:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("counter session is gone")))
` + "```",
}

// lostSessionName is the framework's lost-session helper.
const lostSessionName = "lost_session_verification"

// maxStateRelated bounds how many writes of the state a message lists as
// related positions.
const maxStateRelated = 3

// maxCondLen bounds the tests that absent reads.
const maxCondLen = 2000
