package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// StateNotRetired is rule GL317.
var StateNotRetired = &diag.Rule{
	Code: "GL317", Name: "state-not-retired", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CheckpointHooks},
	Summary: "A resources server keeps per-session state but its retire_session_state does not release it, or it has none.",
	Doc:     ruleDoc("GL317"),
}

func runStateNotRetired(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	done := map[*facts.Func]bool{}
	for _, s := range ResourcesServers(v) {
		state := f.SessionState(s.Class)
		if len(state) == 0 {
			continue
		}
		w := state[0].Writes[0]
		retire := f.Override(s.Class, contract.RetireMethod)
		if retire == nil {
			if d := v.Lookup(s.Class, contract.RetireMethod); d.Uncertain || d.Found() {
				continue
			}
			msg := fmt.Sprintf("%s keeps per-session state (%s) but has no retire_session_state override to release it", s.Class.Class.Name, where(w))
			start, end := gym.Range(s.Class.Module, s.Class.Class.NameSpan)
			d := StateNotRetired.New(s.Class.Module.Path, start, end, msg)
			d.Help = "override retire_session_state(self, session_id) and release the session's state there, as the close does (" + w.Container.Name + ".pop(session_id, None))"
			for _, sc := range state {
				d.Related = append(d.Related, writesRelated(sc.Writes)...)
			}
			if len(d.Related) > maxRelated {
				d.Related = d.Related[:maxRelated]
			}
			out = append(out, d)
			continue
		}
		if done[retire] || retire.Module.SyntaxError != nil {
			continue
		}
		done[retire] = true
		h := hook{f: f, server: s, fn: retire}
		reach := f.Reach(s.Class, retire)
		if len(releases(h, reach)) > 0 || handsOn(f, s.Class, reach) {
			continue
		}
		msg := fmt.Sprintf("%s.retire_session_state releases nothing, but %s keeps per-session state (%s)", retire.Class.Name, s.Class.Class.Name, where(w))
		start, end := gym.Range(retire.Module, retire.Fn.NameSpan)
		d := StateNotRetired.New(retire.Module.Path, start, end, msg)
		d.Help = "release the session's state by the session_id it is given, as the close does (" + w.Container.Name + ".pop(session_id, None))"
		d.Related = append(d.Related, h.inherited(contract.RetireMethod)...)
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

// handsOn reports whether a function of reach calls a method of an object
// the server holds (`self.pool.forget(...)`, `self.x.y.z(...)`) that
// gymlint cannot resolve, other than a container of the server's state:
// it may release the state there.
func handsOn(f *facts.Facts, server gym.ClassRef, reach []facts.Reached) bool {
	for _, r := range reach {
		if r.Func.Recv == "" {
			continue
		}
		for _, c := range f.Calls(server, r.Func) {
			if c.Target != nil || c.How == facts.CallFramework {
				continue
			}
			a, ok := c.Call.Func.(*pyscan.Attribute)
			if !ok || f.ContainerOf(server, r.Func, a.Value) != nil {
				continue
			}
			depth, x := 0, a.Value
			for {
				at, ok := x.(*pyscan.Attribute)
				if !ok {
					break
				}
				x, depth = at.Value, depth+1
			}
			if n, ok := x.(*pyscan.Name); ok && n.Id == r.Func.Recv && depth > 0 {
				return true
			}
		}
	}
	return false
}
