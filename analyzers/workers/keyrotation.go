package workers

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// PerWorkerKeyRotation is rule GL117.
var PerWorkerKeyRotation = &diag.Rule{
	Code: "GL117", Name: "per-worker-key-rotation", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server that accepts several workers rotates through its configured API keys by a cursor in its own memory.",
	Doc:     ruleDoc("GL117"),
}

// keyRotationCheck is GL117's hazard check: a served function picks a
// credential from the configured keys by a cursor the server keeps in
// memory and served code moves only on a condition, a failover
// (facts.Rotations). Each worker holds its
// own cursor, so the workers do not share the rotation the seed's critpt
// row says every request must share.
func keyRotationCheck(v *gym.View, e *gym.Entrypoint, server gym.ClassRef) []Hazard {
	fx := facts.Of(v)
	var out []Hazard
	for _, r := range fx.Rotations(server, servedFuncs(fx, server)) {
		m := r.Func.Module
		start, end := gym.Range(m, r.Pick.Range())
		cond := fx.ConfigCondition(server, r.Func, r.Pick)
		msg := fmt.Sprintf("%s picks a key of %s by the cursor %s.%s, which each worker keeps and moves alone: several workers do not share the rotation, so a key one worker found rate-limited is still used by the others",
			r.Func.Name(), clipText(r.List), r.Func.Recv, r.Cursor)
		related := []diag.Related{gym.Related(r.AdvanceFunc.Module, r.Advance.Range(), "the cursor moves on here, in this worker's memory only")}
		out = append(out, Hazard{
			Rule: PerWorkerKeyRotation, Path: m.Path, Start: start, End: end,
			Message: msg,
			Help: hazardHelp(server.Class.Name, "keep the rotation where every worker sees it (a shared store), or give each worker its own keys",
				guardText(cond), "It rotates API keys by a cursor in this process's memory, so the workers do not share the rotation."),
			Unconditional: len(cond) == 0, Cond: cond,
			Related: related,
		})
	}
	return out
}
