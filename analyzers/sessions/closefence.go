package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// CloseWithoutFence is rule GL303.
var CloseWithoutFence = &diag.Rule{
	Code: "GL303", Name: "close-without-fence", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CloseSession},
	Summary: "A close_resources_session override releases state but never fences the session.",
	Doc:     ruleDoc("GL303"),
}

func runCloseWithoutFence(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.CloseMethod) {
		f := h.f
		reach := f.Reach(h.server.Class, h.fn)
		rels := releases(h, reach)
		state := f.SessionState(h.server.Class)
		if len(rels) == 0 && len(state) == 0 {
			continue
		}
		if len(f.Fences(h.server.Class, h.fn)) > 0 {
			continue
		}
		var what string
		if len(rels) > 0 {
			what = "releases the session's state (" + rels[0].what + ")"
		} else {
			what = "belongs to a server that keeps per-session state (" + where(state[0].Writes[0]) + ")"
		}
		msg := fmt.Sprintf("%s.close_resources_session %s but never fences the session", h.owner().Name, what)
		start, end := gym.Range(h.fn.Module, h.fn.Fn.NameSpan)
		d := CloseWithoutFence.New(h.fn.Module.Path, start, end, msg)
		d.Help = fenceHelp(v, "after releasing, call fence(body.resources_session_id, record) on a ResourcesSessionFences built with the config's session_close_retry_window_seconds, and start seed_session with raise_if_fenced", "after releasing, ")
		for i, r := range rels {
			if i == maxRelated {
				break
			}
			d.Related = append(d.Related, gym.Related(r.in.Module, r.node.Range(), "the state is released here"+via(h, r.in)))
		}
		for _, sc := range state {
			d.Related = append(d.Related, writesRelated(sc.Writes)...)
		}
		if len(d.Related) > 2*maxRelated {
			d.Related = d.Related[:2*maxRelated]
		}
		if fix, ok := closeFenceFix(v, h, reach, rels); ok {
			d.Fixes = []diag.Fix{fix}
		}
		out = append(out, d)
	}
	return out
}

// closeFenceFixMessage is GL303's fix.
const closeFenceFixMessage = "Fence the session after the close releases it, and refuse fenced seeds"

// closeFenceFix fences the session in the close, after the last statement
// of its body that releases state (inside the lock's block when it
// releases there), with the close's request: `self._fences.fence(
// body.resources_session_id, body.episode_id)`; starts the seed with
// `self._fences.raise_if_fenced(body.resources_session_id)` (seedFenceCheck);
// and builds the fences in model_post_init when the server has none
// (fenceSetup). It is unsafe: from then on a late or retried seed of a
// closed session is refused with 409 instead of creating it again.
//
// No fix when the framework has no ResourcesSessionFences, when nothing
// in the close is seen releasing (fencing a session whose state is kept
// would make it unreachable), when the close or the seed does not take
// the framework's request alone (its body may have no
// resources_session_id), when the seed is not defined beside the close
// (one class of one module: the edits of a fix stay in one file), when a
// return before the release would skip the fence, or when the seed's
// check would open a race GL310 reports.
func closeFenceFix(v *gym.View, h hook, reach []facts.Reached, rels []release) (diag.Fix, bool) {
	f, cl := h.f, h.fn
	cls := cl.Owner()
	if lacks(v, contract.SessionFences) != "" || len(rels) == 0 || cl.Outer != nil || cl.Recv == "" || !editable(v, cls) {
		return diag.Fix{}, false
	}
	seed := f.Override(h.server.Class, contract.SeedMethod)
	if seed == nil || seed.Class != cl.Class || seed.Module != cl.Module {
		return diag.Fix{}, false
	}
	body := requestParam(f, cl, contract.CloseRequestClass)
	if body == nil {
		return diag.Fix{}, false
	}
	stmts, after, ok := lastRelease(cl, reach, rels)
	if !ok {
		return diag.Fix{}, false
	}
	var names []string
	if fencesNeeded(f, h.server.Class) {
		names = append(names, contract.SessionFencesClass)
	}
	written, edits, ok := pyfix.ImportFrameworkNames(v, cl.Module, names, cls.Class.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	path, method, setup, ok := fenceSetup(v, f, h.server.Class, cls, written[contract.SessionFencesClass])
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(edits, setup...)
	check, ok := seedFenceCheck(hook{f: f, server: h.server, fn: seed}, path)
	if !ok {
		return diag.Fix{}, false
	}
	m := cl.Module
	fence, ok := linesAfter(m, stmts, after, []string{cl.Recv + path + ".fence(" + body.Name + "." + contract.SessionIDField + ", " + body.Name + "." + contract.EpisodeIDField + ")"})
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(edits, check...)
	edits = append(edits, fence)
	if method != nil {
		es, ok := pyfix.AppendToClass(m, cls.Class, method, true)
		if !ok {
			return diag.Fix{}, false
		}
		edits = append(edits, es...)
	}
	return diag.Fix{Message: closeFenceFixMessage, Edits: joinInserts(edits), Applicability: diag.Unsafe}, true
}

// lastRelease returns the statement of the close's body after which the
// session is released, as a body and an index in it: the last statement
// that holds a release, or the call of a helper that releases (descending
// into the block of a with statement that holds them all, the session's
// lock). false when a return comes before it or it is a return or raise
// itself, or when no release is in the close's own body.
func lastRelease(cl *facts.Func, reach []facts.Reached, rels []release) ([]pyscan.Stmt, int, bool) {
	first := map[*facts.Func]*facts.Call{}
	for _, r := range reach {
		if len(r.Via) > 0 && first[r.Func] == nil {
			first[r.Func] = r.Via[0]
		}
	}
	var at []int32
	for _, x := range rels {
		switch {
		case x.in == cl:
			at = append(at, x.node.Range().Start)
		case first[x.in] != nil && first[x.in].In == cl:
			at = append(at, first[x.in].Call.Span.Start)
		}
	}
	if len(at) == 0 {
		return nil, 0, false
	}
	body := cl.Fn.Body
	for {
		idx := -1
		for i, s := range body {
			for _, a := range at {
				if s.Range().Start <= a && a < s.Range().End {
					idx = i
				}
			}
		}
		if idx < 0 || returns(body[:idx+1]) {
			return nil, 0, false
		}
		switch last := body[idx].(type) {
		case *pyscan.Return, *pyscan.Raise:
			return nil, 0, false
		case *pyscan.With:
			inside := true
			for _, a := range at {
				if !last.BodySpan.Contains(pyscan.Span{Start: a, End: a}) {
					inside = false
				}
			}
			if inside {
				body = last.Body
				continue
			}
		}
		return body, idx, true
	}
}

// returns reports whether a return statement is among the statements
// (nested blocks included, nested functions and classes not).
func returns(body []pyscan.Stmt) bool {
	found := false
	pyscan.InspectBody(body, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Return:
			found = true
		}
		return !found
	})
	return found
}
