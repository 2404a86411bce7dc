package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// PartialSessionRestore is rule GL319.
var PartialSessionRestore = &diag.Rule{
	Code: "GL319", Name: "partial-session-restore", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CheckpointHooks},
	Summary: "A restore_session_states override installs states one by one in a loop that can raise, so a failing state leaves a partial set installed.",
	Doc: `## What it does
Reports a ` + "`restore_session_states`" + ` override of a resources server (when the framework has the checkpoint
hooks) with a loop over the states it is given (a ` + "`for`" + ` whose iterable uses the states parameter) whose
body both

- installs a state: writes into a container of the server's per-session state (as GL302 defines it:
  ` + "`self.games[sid] = ...`" + `, ` + "`setdefault`" + `), in the override itself or in a repository function a call in the
  loop reaches; and
- can raise: an exception that escapes the override (as facts.Escapes reads it: a ` + "`raise`" + ` statement, a
  failing ` + "`assert`" + `, a pydantic validation such as ` + "`Model.model_validate(state)`" + `, or a repository function
  called there that raises), not caught by a ` + "`try`" + ` around it.

The order inside the body does not matter: validating before the write in the same loop still installs
the states of earlier iterations when a later one fails. Calls gymlint cannot resolve (a ` + "`validate`" + `
method of an object it cannot read) do not count as raising, nor do reads of the server's own state.

Not reported: validating every state in one loop (or a comprehension) and installing them in a second
loop or with one ` + "`update`" + `; a loop that installs but cannot raise; installing through a helper after the
validation loop.

## Why it matters
The framework restores a checkpoint by handing every saved state to ` + "`restore_session_states`" + ` and expects
all of them or none: the contract is "validate every state, then install all of them; never install a
partial set". A restore that fails half way leaves some sessions of the checkpoint installed and others
missing, and the resumed run then treats the installed ones as live while their siblings are lost.

## Example
` + "```python" + `
    async def restore_session_states(self, states):
        for sid, state in states.items():
            self.games[sid] = Game.model_validate(state)
` + "```" + `

## How to fix
Validate all the states first, then install them all:
` + "```python" + `
    async def restore_session_states(self, states):
        games = {sid: Game.model_validate(state) for sid, state in states.items()}
        self.games.update(games)
` + "```",
}

func runPartialSessionRestore(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, RestoreMethod) {
		f := h.f
		param := statesParam(h.fn.Fn)
		if param == "" {
			continue
		}
		state := sessionState(f, h.server.Class)
		if len(state) == 0 {
			continue
		}
		var raises []raiseAt
		for _, r := range f.Escapes(h.server.Class, h.fn) {
			if r.Missing != nil {
				continue
			}
			at := r.Node
			if len(r.Via) > 0 {
				at = r.Via[0].Call
			}
			raises = append(raises, raiseAt{node: at, r: r})
		}
		if len(raises) == 0 {
			continue
		}
		for _, loop := range statesLoops(h.fn.Fn, param) {
			body := blockSpan(loop.Body)
			w := loopInstall(f, h, state, body)
			if w == nil {
				continue
			}
			// The raise is the first in the body after the install, else
			// the first in the body.
			var ra *raiseAt
			for i := range raises {
				r := &raises[i]
				if !body.Contains(r.node.Range()) {
					continue
				}
				if ra == nil || (ra.node.Range().Start <= w.at.End && r.node.Range().Start > w.at.End) {
					ra = r
				}
			}
			if ra == nil {
				continue
			}
			m := h.fn.Module
			msg := fmt.Sprintf("%s.restore_session_states installs states one by one (%s) in a loop that can raise: a failing state leaves a partial set installed", h.owner().Name, w.what)
			start, end := gym.Range(m, loop.Span)
			d := PartialSessionRestore.New(m.Path, start, end, msg)
			d.Help = "validate every state first (into a local dict), then install them all after the loop (" + w.container + ".update(validated))"
			d.Related = append(d.Related, gym.Related(m, ra.node.Range(), "this can raise after earlier states were installed"))
			if w.in != h.fn {
				d.Related = append(d.Related, gym.Related(w.in.Module, w.node.Range(), "the state is installed here, in "+w.in.Name()))
			}
			d.Related = append(d.Related, h.inherited("restore_session_states")...)
			out = append(out, d)
			break
		}
	}
	return out
}

type raiseAt struct {
	node pyscan.Node
	r    facts.Raised
}

// install is a write of per-session state a restore loop makes.
type install struct {
	node      pyscan.Node
	at        pyscan.Span // where in the loop body: the write, or the call that reaches it
	in        *facts.Func
	what      string
	container string
}

// statesParam is the name of the states parameter of a
// restore_session_states definition: its first parameter after the
// receiver.
func statesParam(fn *pyscan.Function) string {
	ps := fn.Params
	if len(ps) < 2 {
		return ""
	}
	return ps[1].Name
}

// statesLoops are the for statements of fn's own body (not of nested
// functions) whose iterable uses the name param.
func statesLoops(fn *pyscan.Function, param string) []*pyscan.For {
	var out []*pyscan.For
	pyscan.InspectBody(fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.For:
			if usesName(n.Iter, param) {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// usesName reports whether e mentions the name id.
func usesName(e pyscan.Expr, id string) bool {
	found := false
	pyscan.Inspect(e, func(n pyscan.Node, _ []pyscan.Node) bool {
		if nm, ok := n.(*pyscan.Name); ok && nm.Id == id {
			found = true
		}
		return !found
	})
	return found
}

// blockSpan covers the statements of a block.
func blockSpan(b []pyscan.Stmt) pyscan.Span {
	if len(b) == 0 {
		return pyscan.Span{Start: -1, End: -1}
	}
	return pyscan.Span{Start: b[0].Range().Start, End: b[len(b)-1].Range().End}
}

// loopInstall finds a write of per-session state inside body: one of the
// restore itself, or one of a repository function a call inside body
// reaches.
func loopInstall(f *facts.Facts, h hook, state map[*facts.Container]bool, body pyscan.Span) *install {
	writes := func(in map[*facts.Func]bool, inBody bool) *install {
		for _, c := range f.StateOf(h.server.Class).Containers {
			if !state[c] {
				continue
			}
			for _, a := range c.Accesses {
				if !in[a.Func] || (a.Kind != facts.Write && a.Kind != facts.SetDefault && a.Kind != facts.AugWrite) {
					continue
				}
				if inBody && !body.Contains(a.Node.Range()) {
					continue
				}
				at := a.Node.Range()
				if a.Value != nil && a.Value.Range().End > at.End {
					at.End = a.Value.Range().End // the value is computed before the store
				}
				return &install{node: a.Node, at: at, in: a.Func, what: access(a), container: c.Name}
			}
		}
		return nil
	}
	if w := writes(map[*facts.Func]bool{h.fn: true}, true); w != nil {
		return w
	}
	for _, c := range f.Calls(h.server.Class, h.fn) {
		if c.Target == nil || !body.Contains(c.Call.Range()) {
			continue
		}
		in := map[*facts.Func]bool{}
		for _, r := range f.Reach(h.server.Class, c.Target) {
			in[r.Func] = true
		}
		if w := writes(in, false); w != nil {
			w.what = oneLine(h.fn.Module.Text(c.Call.Func)) + "(...)"
			w.at = c.Call.Range()
			return w
		}
	}
	return nil
}

// SessionEndedWithoutCheckpoint is rule GL320.
var SessionEndedWithoutCheckpoint = &diag.Rule{
	Code: "GL320", Name: "session-ended-without-checkpoint", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CheckpointHooks},
	Summary: "A route other than the close releases a session's state (it ends the session under another name) without calling checkpoint_session_ended.",
	Doc: `## What it does
Reports a route of a resources server (when the framework has the checkpoint hooks) other than the
framework's standard ones (` + "`seed_session`" + `, ` + "`verify`" + `, ` + "`close_resources_session`" + `,
` + "`aggregate_metrics`" + `) that releases a session's state, in its handler or what the handler reaches
(methods of the server, ` + "`super()`" + ` definitions of the repository, module functions, the close when the
route calls it): a removal keyed by the session (its id, or a session-like body field, as GL302 reads keys) from a container of the server's per-session state (` + "`del`" + `, ` + "`pop`" + `,
` + "`discard`" + `, ` + "`remove`" + `, as GL303 and GL317 read a release), while neither the handler nor anything it reaches
calls ` + "`checkpoint_session_ended`" + ` (on ` + "`self`" + `, through ` + "`super()`" + `, or on any object: a call of that name is
taken as the report, so a route that calls it is never reported).

A route that only reads or writes the state, one that clears a whole container, and one whose function
also writes the container (it replaces a stale or dead record and the session goes on) are not reported;
the last also gives up a route that updates a record and drops it in the same function.

## Why it matters
The framework's checkpoint participant learns that a session ended from the standard ` + "`/close_session`" + ` and
` + "`/verify`" + `. A protocol route that ends a session under another name, such as a terminal step that
releases its state, must report it with ` + "`checkpoint_session_ended(request)`" + `: otherwise the checkpoint
still counts the session as live, exports nothing for it and resumes it into a server that no longer
holds it.

## Example
` + "```python" + `
    async def step(self, request: Request, body: StepRequest):
        env = self.envs[body.session_id]
        done = env.step(body.action)
        if done:
            self.envs.pop(body.session_id, None)
        return {"done": done}
` + "```" + `

## How to fix
Report the end of the session where the route ends it:
` + "```python" + `
        if done:
            self.envs.pop(body.session_id, None)
            self.checkpoint_session_ended(request)
` + "```",
}

func runSessionEndedWithoutCheckpoint(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	done := map[*facts.Func]bool{}
	for _, s := range ResourcesServers(v) {
		state := sessionState(f, s.Class)
		if len(state) == 0 {
			continue
		}
		for _, r := range f.Routes(s.Class) {
			fn := r.Handler
			if r.Standard || r.Shadowed || fn == nil || done[fn] || fn.Module.SyntaxError != nil {
				continue
			}
			if fn.Recv != "" && (fn.Fn.Name == CloseMethod || fn.Fn.Name == RetireMethod) {
				continue
			}
			done[fn] = true
			h := hook{f: f, server: s, fn: fn}
			reach := f.Reach(s.Class, fn)
			var rel *release
			for _, x := range releases(h, reach) {
				if x.call != nil || (x.key.Kind != facts.KeySession && !x.key.SessionLike()) {
					continue
				}
				if sessionRemoval(state, x.node) && !rewrites(state, x) {
					x := x
					rel = &x
					break
				}
			}
			if rel == nil || callsEnded(f, s.Class, reach) {
				continue
			}
			name := fn.Name()
			msg := fmt.Sprintf("route %s ends a session (%s) but never calls checkpoint_session_ended", name, rel.what)
			if r.Path != "" {
				msg = fmt.Sprintf("route %s (%s) ends a session (%s) but never calls checkpoint_session_ended", r.Path, name, rel.what)
			}
			start, end := gym.Range(fn.Module, fn.Fn.NameSpan)
			d := SessionEndedWithoutCheckpoint.New(fn.Module.Path, start, end, msg)
			d.Help = "call self.checkpoint_session_ended(request) where the route ends the session, so the checkpoint stops counting it as live"
			d.Related = append(d.Related, gym.Related(rel.in.Module, rel.node.Range(), "the session's state is released here"+via(h, rel.in)))
			if r.Registration != nil && r.In != nil {
				d.Related = append(d.Related, gym.Related(r.In.Module, r.Registration.Range(), "the route is registered here"))
			}
			out = append(out, d)
		}
	}
	return out
}

// sessionRemoval reports whether node is a removal from a container of
// per-session state.
func sessionRemoval(state map[*facts.Container]bool, node pyscan.Node) bool {
	for c := range state {
		for _, a := range c.Accesses {
			if a.Node == node && (a.Kind == facts.Delete || a.Kind == facts.Pop || a.Kind == facts.Remove) && a.Key != nil {
				return true
			}
		}
	}
	return false
}

// callsEnded reports whether a function of reach calls
// checkpoint_session_ended: a call whose callee's last name is it.
func callsEnded(f *facts.Facts, server gym.ClassRef, reach []facts.Reached) bool {
	for _, r := range reach {
		if r.Func.Fn.Name == EndedMethod {
			return true
		}
		for _, c := range f.Calls(server, r.Func) {
			if lastName(c.Call.Func) == EndedMethod || (c.Target != nil && c.Target.Fn.Name == EndedMethod) {
				return true
			}
		}
	}
	return false
}

// rewrites reports whether the function of a release also writes the same
// container (before or after it): the route manages the record (replaces a
// stale or dead one) rather than ending the session. This gives up a route
// that updates a record and drops it in the same function on its terminal
// step, for precision.
func rewrites(state map[*facts.Container]bool, x release) bool {
	for c := range state {
		removes := false
		for _, a := range c.Accesses {
			if a.Node == x.node {
				removes = true
			}
		}
		if !removes {
			continue
		}
		for _, a := range c.Accesses {
			if a.Func == x.in && a.Kind.Writes() {
				return true
			}
		}
	}
	return false
}
