package sessions

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// PlainExceptionInCloseConflict is rule GL311.
var PlainExceptionInCloseConflict = &diag.Rule{
	Code: "GL311", Name: "plain-exception-in-close-conflict", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CloseSession, contract.SessionConflictError},
	Summary: "A close_resources_session override answers a close that names another episode with a plain exception (HTTP 500) instead of ResourcesSessionConflictError (409).",
	Doc:     ruleDoc("GL311"),
}

func runPlainExceptionInCloseConflict(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.CloseMethod) {
		f := h.f
		state := f.StateOf(h.server.Class)
		for _, r := range f.Escapes(h.server.Class, h.fn) {
			if r.Missing != nil || r.Validation != nil {
				continue
			}
			x := r.Exc
			plain := r.Assert || x.Name != "" && x.Framework == "" && (x.Status == 500 || x.IsHTTP() && x.Status >= 500)
			if !plain {
				continue
			}
			test, ok := conflictTest(f, h, r.In, state, r.Ctx.Guards)
			if !ok {
				continue
			}
			m := r.In.Module
			what := "an assert statement (AssertionError)"
			if r.Raise != nil {
				what = raiseWhat(f, r.In, r.Raise)
			}
			node := r.Node
			hm := h.fn.Module
			if len(r.Via) > 0 {
				node = r.Via[0].Call
			}
			start, end := gym.Range(hm, node.Range())
			answer := ": FastAPI answers it with HTTP 500"
			if !r.Assert && x.IsHTTP() {
				answer = ""
			}
			d := PlainExceptionInCloseConflict.New(hm.Path, start, end, fmt.Sprintf(
				"%s.close_resources_session%s raises %s when the close names another episode than the one recorded (`%s`)%s",
				h.owner().Name, via(h, r.In), what, clip(m.Text(test), 80), answer))
			d.Help = "raise " + conflictRaise(v) + " instead, which is not retried"
			d.Related = []diag.Related{gym.Related(m, test.Range(), "this test finds another episode")}
			if len(r.Via) > 0 {
				d.Related = append(d.Related, gym.Related(m, r.Node.Range(), r.In.Name()+" raises here"))
			}
			d.Related = append(d.Related, h.inherited(contract.CloseMethod)...)
			if fix, ok := conflictFix(v, r); ok {
				d.Fixes = []diag.Fix{fix}
			}
			out = append(out, d)
		}
	}
	return out
}

// conflictFix is GL311's fix: `raise ValueError(msg)` in the close's own
// body becomes `raise ResourcesSessionConflictError(msg)`, the class
// imported from the framework (pyfix.ImportFramework). Only for a raise of
// a builtin exception class called with one positional argument (the
// detail), and only when the framework has the class. It is safe for a
// ValueError, which the framework's class derives from (a caller that
// catches ValueError still does; the answer becomes the 409 the contract
// asks for), and unsafe for any other class, whose callers' handlers would
// no longer catch it.
func conflictFix(v *gym.View, r facts.Raised) (diag.Fix, bool) {
	if r.Raise == nil || len(r.Via) > 0 || lacks(v, contract.SessionConflictError) != "" {
		return diag.Fix{}, false
	}
	call, ok := r.Raise.Exc.(*pyscan.Call)
	if !ok || len(call.Args) != 1 || call.Args[0].Kind != pyscan.Positional {
		return diag.Fix{}, false
	}
	builtin, isBuiltin := strings.CutPrefix(r.Exc.Name, "builtins.")
	if !isBuiltin {
		return diag.Fix{}, false
	}
	m := r.In.Module
	before := r.In.Fn.Span.Start
	if r.In.Class != nil {
		before = r.In.Class.Span.Start
	}
	name, edits, ok := pyfix.ImportFramework(v, m, contract.SessionConflictErrorClass, before)
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(edits, pyfix.Replace(m, call.Func.Range(), name))
	applicability := diag.Unsafe
	if builtin == "ValueError" {
		applicability = diag.Safe
	}
	return diag.Fix{Message: "Raise " + contract.SessionConflictErrorClass + " (409)", Edits: edits, Applicability: applicability}, true
}
