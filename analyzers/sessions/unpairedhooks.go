package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// UnpairedCheckpointHooks is rule GL318.
var UnpairedCheckpointHooks = &diag.Rule{
	Code: "GL318", Name: "unpaired-checkpoint-hooks", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CheckpointHooks},
	Summary: "A resources server overrides export_session_states without restore_session_states, or the reverse.",
	Doc:     ruleDoc("GL318"),
}

func runUnpairedCheckpointHooks(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	done := map[*facts.Func]bool{}
	for _, s := range ResourcesServers(v) {
		export, restore := f.Override(s.Class, contract.ExportMethod), f.Override(s.Class, contract.RestoreMethod)
		if (export == nil) == (restore == nil) {
			continue
		}
		has, missing := export, contract.RestoreMethod
		if has == nil {
			has, missing = restore, contract.ExportMethod
		}
		if done[has] || has.Module.SyntaxError != nil {
			continue
		}
		if d := v.Lookup(s.Class, missing); d.Uncertain {
			continue
		}
		done[has] = true
		msg := fmt.Sprintf("%s overrides %s but not %s", has.Name(), has.Fn.Name, missing)
		if missing == contract.RestoreMethod {
			msg += ": the states it checkpoints are dropped on resume"
		} else {
			msg += ": checkpoints hold no state to restore"
		}
		start, end := gym.Range(has.Module, has.Fn.NameSpan)
		d := UnpairedCheckpointHooks.New(has.Module.Path, start, end, msg)
		d.Help = "override " + missing + " as the inverse of " + has.Fn.Name
		if missing == contract.RestoreMethod {
			d.Help += ": validate every state it is given, then install them all"
		}
		d.Related = append(d.Related, hook{f: f, server: s, fn: has}.inherited(has.Fn.Name)...)
		out = append(out, d)
	}
	return out
}
