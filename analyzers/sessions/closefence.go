package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
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
		out = append(out, d)
	}
	return out
}
