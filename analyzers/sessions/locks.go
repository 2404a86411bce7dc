package sessions

import "github.com/gymlint/gymlint/diag"

// UnserializedSeedClose is rule GL310.
var UnserializedSeedClose = &diag.Rule{
	Code: "GL310", Name: "unserialized-seed-close", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "A seed or close override awaits between reading and writing the session's record without holding ResourcesSessionLocks.locked(id).",
	Doc: `## What it does
Reports a ` + "`seed_session`" + ` or ` + "`close_resources_session`" + ` override of a stateful resources server (see the
package notes) that, in its own body:

1. reads the session's record in a per-session container ` + "`self.X`" + `: ` + "`self.X[k]`" + `, ` + "`self.X.get(k)`" + `,
   ` + "`k in self.X`" + `, ` + "`self.X.pop(k)`" + ` (which takes the record), the read of an augmented assignment
   ` + "`self.X[k] += ...`" + `, or the session's fence, ` + "`ResourcesSessionFences.raise_if_fenced(k)`" + ` or ` + "`.get(k)`" + `,
   which stands for every container;
2. then awaits (an ` + "`await`" + ` that ends after the read starts: ` + "`await self.X[k].close()`" + ` reads, then awaits);
3. then writes the record of the same container under the same key: ` + "`self.X[k] = v`" + ` (after its value,
   so ` + "`self.X[k] = await make()`" + ` counts), ` + "`del self.X[k]`" + `, ` + "`self.X.pop(k)`" + `, ` + "`self.X.setdefault(k, v)`" + `;

without holding a lock across the three: an ` + "`async with`" + ` (or ` + "`with`" + `) whose context expression is the
framework's ` + "`ResourcesSessionLocks.locked(id)`" + ` (matched through imports and aliases, on any receiver of
a class that knows ` + "`ResourcesSessionLocks`" + `), or whose text names a lock (contains ` + "`lock`" + `: a server-wide
` + "`asyncio.Lock`" + ` also serializes, so gymlint does not second-guess it). The keys are the same when their
texts are, or when both are the session's id (the cookie's ` + "`request.session[SESSION_ID_KEY]`" + ` or
` + "`body.resources_session_id`" + `, also through locals). Writes in helper methods are not followed. One finding
per override and container, at the first await.

## Why it matters
An Environment Server may send a close while the seed of the same session is still running (a
timed-out seed it gave up on), or a retried seed while the first one runs. Each await lets the other
request run: a close that finds nothing to release reports the session closed and the seed then
creates it, leaking it past the fence; two seeds both find the session missing and both create it,
one overwriting the other. ` + "`ResourcesSessionLocks.locked(resources_session_id)`" + ` makes a seed and a close
for one session take turns.

## Example
` + "```python" + `
    async def seed_session(self, body: ResourcesSeedSessionRequest):
        sid = body.resources_session_id
        if sid in self.sandboxes:
            return ResourcesSeedSessionResponse(resources_session_id=sid)
        sandbox = await self.provider.create(body.task_data)     # reported
        self.sandboxes[sid] = sandbox
` + "```" + `

## How to fix
Hold the session's lock from the read to the write, in the seed and in the close:
` + "```python" + `
    _locks: ResourcesSessionLocks = PrivateAttr(default_factory=ResourcesSessionLocks)

    async def seed_session(self, body: ResourcesSeedSessionRequest):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            if sid in self.sandboxes:
                return ResourcesSeedSessionResponse(resources_session_id=sid)
            self.sandboxes[sid] = await self.provider.create(body.task_data)
` + "```",
}

const locksName = "ResourcesSessionLocks.locked"
