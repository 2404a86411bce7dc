package workers

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// CrossRequestWait is rule GL112.
var CrossRequestWait = &diag.Rule{
	Code: "GL112", Name: "cross-request-wait", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server that accepts several workers groups requests in memory by a request-body field and waits for the group to fill.",
	Doc: `## What it does
Reports a route of a server that accepts several workers (see GL105), or a method of it that
start-up code does not run (a route may call it by a computed name, as
` + "`getattr(self, f\"_score_{body.benchmark}\")`" + `; GL105 counts such methods too), that adds to an entry of the
server's in-memory state looked up by a request-body field, and then waits for that entry: the shape
of batching or grouping across requests.

- the **entry** is a lookup of a container of the server's state (as GL105 reads it: an attribute
  ` + "`self.X`" + ` or a module-level dictionary) by a key that is a field of the request body (` + "`body.group`" + `,
  ` + "`body.prompt_id`" + `, traced through locals and parameters as GL105 does), directly (` + "`self.groups[body.group]`" + `)
  or through a local assigned it (` + "`group = self.groups[body.group]`" + `);
- the **add** is ` + "`append`" + `, ` + "`appendleft`" + `, ` + "`extend`" + `, ` + "`add`" + `, ` + "`put`" + ` or ` + "`put_nowait`" + ` on the entry or on an
  attribute of it (` + "`group.rewards.append(r)`" + `, ` + "`self.groups[k].append((body, fut))`" + `);
- the **wait** comes later in the same function: ` + "`await group.event.wait()`" + ` (a ` + "`wait`" + ` method of the entry
  or of an attribute of it: an event, a condition), ` + "`await group.future`" + `, or ` + "`await fut`" + ` of a future the
  add put into the entry, also inside ` + "`asyncio.wait_for(...)`" + ` or ` + "`asyncio.shield(...)`" + `.

A container that some code keys by the routed session's id is not reported, nor a cache (a
get-or-create that never waits), nor a list local to the request. A pool that is not keyed (one
server-level list of pending calls flushed when full, as the seed's critpt) is not reported: with
several workers each worker flushes its own, smaller batches, which changes how calls are grouped but
leaves no request waiting for a group that cannot fill.

GL105 reports state written by one route and read by another under a body field; when the state is a
group this rule reports (a request waits for it), GL112 reports it and GL105 does not.

## Why it matters
With ` + "`num_workers > 1`" + ` the requests of one group (the rollouts of a prompt, the rows of a benchmark
group) are spread over the workers: session routing follows the session, not the group. Each
worker sees part of the group, its entry never fills, and its requests wait until they time out.

## Example
` + "```python" + `
class GroupServer(SimpleResourcesServer):
    groups: dict = Field(default_factory=lambda: defaultdict(Group))

    async def verify(self, body):
        group = self.groups[body.group_id]
        group.rewards.append(score(body))
        if len(group.rewards) == body.group_size:
            group.event.set()
        else:
            await group.event.wait()      # reported: the group may be split across workers
` + "```" + `

## How to fix
Compute the group's result where the whole group is seen (after the rollouts, in
` + "`aggregate_metrics`" + `), or refuse several workers: override ` + "`multiple_workers_unsupported_reason()`" + ` to return
why, under the configuration that groups (` + "`when self.config.group_rewards`" + `).`,
}

// groupWaits are the group waits of a server's routes that are keyed by
// a request-body field, in a container no code keys by the session.
func groupWaits(v *gym.View, server gym.ClassRef) []facts.GroupWait {
	fx := facts.Of(v)
	var out []facts.GroupWait
	for _, fn := range servedFuncs(fx, server) {
		for _, w := range fx.GroupWaits(server, fn) {
			if w.Lookup.KeyOf.Kind != facts.KeyBody || sessionKeyed(w.Lookup.Container) {
				continue
			}
			out = append(out, w)
		}
	}
	return out
}

// servedFuncs are the functions of a server that may serve a request, each
// once: what its routes reach, then each other winning method that
// start-up code does not reach, and what it reaches (a method no route
// names may still be called by one, as getattr(self, f"_score_{name}")
// does; GL105 counts such a method as a route of its own too).
func servedFuncs(fx *facts.Facts, server gym.ClassRef) []*facts.Func {
	var out []*facts.Func
	seen := map[*facts.Func]bool{}
	add := func(start *facts.Func) {
		for _, re := range fx.Reach(server, start) {
			if !seen[re.Func] && re.Func.Module.SyntaxError == nil {
				seen[re.Func] = true
				out = append(out, re.Func)
			}
		}
	}
	for _, r := range fx.Routes(server) {
		if !r.Shadowed {
			add(r.Handler)
		}
	}
	for _, m := range fx.Methods(server) {
		if !seen[m] && !fx.InStartup(server, m) {
			add(m)
		}
	}
	return out
}

// sessionKeyed reports whether some access of c is keyed by the session.
func sessionKeyed(c *facts.Container) bool {
	for _, a := range c.Accesses {
		if a.KeyOf.Kind == facts.KeySession {
			return true
		}
	}
	return false
}

// groupWaitContainers are the containers GL112 reports for a server, which
// GL105 leaves to it.
func groupWaitContainers(v *gym.View, server gym.ClassRef) map[*facts.Container]bool {
	out := map[*facts.Container]bool{}
	for _, w := range groupWaits(v, server) {
		out[w.Lookup.Container] = true
	}
	return out
}

// checkGroupWait finds the cross-request waits of a server.
func checkGroupWait(v *gym.View, e *gym.Entrypoint, server gym.ClassRef) []Hazard {
	var out []Hazard
	for _, w := range groupWaits(v, server) {
		m := w.Func.Module
		c := w.Lookup.Container
		key := m.Text(w.Lookup.Key)
		msg := fmt.Sprintf("%s waits for its group in %s, keyed by the body field %s, to fill: a group split across workers never completes",
			w.Func.Name(), c.Name, w.Lookup.KeyOf.Field)
		reason := fmt.Sprintf("It waits in memory for every request of a group, keyed by %s in the request body, so a group split across workers never completes.", w.Lookup.KeyOf.Field)
		fix := "compute the group's result where the whole group is seen (aggregate_metrics)"
		start, end := gym.Range(m, w.Wait.Range())
		out = append(out, Hazard{
			Rule: CrossRequestWait, Path: m.Path, Start: start, End: end,
			Message: msg,
			Help:    hazardHelp(server.Class.Name, fix, "", reason),
			Related: []diag.Related{gym.Related(m, w.Add.Range(), fmt.Sprintf("the request adds itself to %s[%s] here", c.Name, key))},
		})
	}
	return out
}
