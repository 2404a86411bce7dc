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
	Doc:     ruleDoc("GL319"),
}

func runPartialSessionRestore(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.RestoreMethod) {
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
			d.Related = append(d.Related, h.inherited(contract.RestoreMethod)...)
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
