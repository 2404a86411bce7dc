package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/pyscan"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// LostSessionScored is rule GL306.
var LostSessionScored = &diag.Rule{
	Code: "GL306", Name: "lost-session-scored", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.LostSession},
	Summary: "A stateful server's verify answers a missing session with a reward or an exception instead of lost_session_verification(...).",
	Doc:     ruleDoc("GL306"),
}

func runLostSessionScored(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.VerifyMethod) {
		ss := sessionState(h.f, h.server.Class)
		if len(ss) == 0 {
			continue
		}
		out = append(out, lostSessionScored(h, ss)...)
	}
	return out
}

// lostSessionScored returns the GL306 findings of one verify.
func lostSessionScored(h hook, ss map[*facts.Container]bool) []diag.Diagnostic {
	f := h.f
	v := f.View()
	fn := h.fn
	m := fn.Module
	var out []diag.Diagnostic
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, st []pyscan.Node) bool {
		switch n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Return, *pyscan.Raise:
		default:
			return true
		}
		stack := append([]pyscan.Node{fn.Fn}, st...)
		ctx := pyscan.ContextOf(stack)
		switch n := n.(type) {
		case *pyscan.Return:
			if n.Value == nil || !carriesReward(n.Value) || mentionsLost(f, fn, n.Value) {
				return true
			}
			miss, ok := missingAt(h, fn, ss, stack, ctx)
			if !ok {
				return true
			}
			start, end := gym.Range(m, n.Span)
			d := LostSessionScored.New(m.Path, start, end, fmt.Sprintf(
				"%s.verify returns a reward when %s, not a masked sample",
				h.owner().Name, miss.describe(m)))
			d.Help = fmt.Sprintf("answer it with a masked sample instead, `return %s`", lostFix(m, n.Value))
			if lacks(v, contract.LostSession) != "" {
				d.Help = "answer it with a masked sample instead: " + lostHelpFor(v)
			}
			d.Related = append(miss.related(m), stateRelated(h, miss.look.Container)...)
			d.Related = append(d.Related, h.inherited(contract.VerifyMethod)...)
			d.Fixes = scoredReturnFix(f, fn, n)
			out = append(out, d)
		case *pyscan.Raise:
			if len(ctx.Tries) > 0 {
				return true
			}
			miss, ok := missingAt(h, fn, ss, stack, ctx)
			if !ok {
				return true
			}
			start, end := gym.Range(m, n.Span)
			d := LostSessionScored.New(m.Path, start, end, fmt.Sprintf(
				"%s.verify raises %s when %s, instead of masking the sample",
				h.owner().Name, raiseWhat(f, fn, n), miss.describe(m)))
			d.Help = lostHelpFor(v)
			d.Related = append(miss.related(m), stateRelated(h, miss.look.Container)...)
			d.Related = append(d.Related, h.inherited(contract.VerifyMethod)...)
			d.Fixes = scoredRaiseFix(f, fn, n)
			out = append(out, d)
		}
		return true
	})
	// Helpers of the server that raise when the state is missing, called
	// from verify outside any try statement.
	reported := map[*facts.Func]bool{}
	for _, c := range f.Calls(h.server.Class, fn) {
		if c.How != facts.CallSelf || c.Target == nil || c.Target == fn || reported[c.Target] || len(c.Ctx().Tries) > 0 || c.Target.Module.SyntaxError != nil {
			continue
		}
		hf := c.Target
		hm := hf.Module
		present := shownPresent(h, fn, ss, c.Call)
		pyscan.InspectBody(hf.Fn.Body, func(n pyscan.Node, st []pyscan.Node) bool {
			if reported[hf] {
				return false
			}
			switch n.(type) {
			case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
				return false
			}
			r, ok := n.(*pyscan.Raise)
			if !ok {
				return true
			}
			stack := append([]pyscan.Node{hf.Fn}, st...)
			miss, ok := missingAt(h, hf, ss, stack, pyscan.ContextOf(stack))
			if !ok || present[miss.look.Container] {
				return true
			}
			reported[hf] = true
			start, end := gym.Range(m, c.Call.Span)
			d := LostSessionScored.New(m.Path, start, end, fmt.Sprintf(
				"%s.verify calls %s, which raises %s when %s",
				h.owner().Name, hf.Name(), raiseWhat(f, hf, r), miss.describe(hm)))
			d.Help = "in verify, test for the missing state first; " + lostHelpFor(v)
			d.Related = append([]diag.Related{gym.Related(hm, r.Span, hf.Name()+" raises here")}, miss.related(hm)...)
			d.Related = append(d.Related, stateRelated(h, miss.look.Container)...)
			d.Related = append(d.Related, h.inherited(contract.VerifyMethod)...)
			out = append(out, d)
			return false
		})
	}
	return out
}

// shownPresent are the state containers that a node of verify's own
// body holds present: a test of an if that holds it shows it (`if sid in
// self.sessions:`), or the test of an if before it that leaves verify
// shows it missing (`if sid not in self.sessions: return masked()`). A
// helper that raises when one of those is missing does not raise there.
func shownPresent(h hook, fn *facts.Func, ss map[*facts.Container]bool, n pyscan.Node) map[*facts.Container]bool {
	wanted := func(c *facts.Container) bool { return ss[c] }
	var out map[*facts.Container]bool
	for _, g := range append(h.f.ContextAt(fn, n).Guards, h.f.ExitGuardsAt(fn, n)...) {
		if l := h.f.Guard(h.server.Class, fn, g, wanted); l.Shows == facts.ShowsPresent && l.Container != nil {
			if out == nil {
				out = map[*facts.Container]bool{}
			}
			out[l.Container] = true
		}
	}
	return out
}

// scoredFixTitle is the title of GL306's and GL307's fixes.
const scoredFixTitle = "Answer the lost session with a masked sample (lost_session_verification)"

// scoredReturnFix is GL306's fix of a verify's return of a reward for a
// lost session, `return Resp(**body.model_dump(), reward=0.0)`: the same
// call with the lost-session fields in place of its own (withLostFields),
// `return Resp(**(body.model_dump() | lost_session_verification("session is gone")))`.
// None where the framework has no lost_session_verification, or the call
// is not of that shape.
func scoredReturnFix(f *facts.Facts, fn *facts.Func, r *pyscan.Return) []diag.Fix {
	m := fn.Module
	c, ok := r.Value.(*pyscan.Call)
	if !ok || m.SyntaxError != nil || pyscan.Dotted(c.Func) == "" || c.Keyword(contract.RewardField) == nil ||
		lacks(f.View(), contract.LostSession) != "" {
		return nil
	}
	name, imp, ok := pyfix.ImportFramework(f.View(), m, contract.LostSessionFunc, r.Span.Start)
	if !ok {
		return nil
	}
	// The reason the call gave, if it gave one.
	reason := pyfix.String(m, lostReason)
	if fr := c.Keyword("failure_reason"); fr != nil {
		if r := messageOf(f, m, fr); r != "" {
			reason = r
		}
	}
	span, text, ok := withLostFields(f, fn, c, name+"("+reason+")")
	if !ok {
		return nil
	}
	return []diag.Fix{{Message: scoredFixTitle, Edits: append(imp, pyfix.Replace(m, span, text)), Applicability: diag.Unsafe}}
}

// scoredRaiseFix is GL306's fix of a verify's raise for a lost session:
// `return` the masked sample instead (maskedSample), with the exception's
// message as the reason.
func scoredRaiseFix(f *facts.Facts, fn *facts.Func, r *pyscan.Raise) []diag.Fix {
	m := fn.Module
	if m.SyntaxError != nil || m.HasComment(r.Span) {
		return nil
	}
	reason := ""
	if r.Exc != nil {
		reason = messageOf(f, m, r.Exc)
	}
	if reason == "" {
		reason = pyfix.String(m, lostReason)
	}
	text, imp, ok := maskedSample(f, fn, reason, r.Span.Start)
	if !ok {
		return nil
	}
	return []diag.Fix{{Message: scoredFixTitle, Edits: append(imp, pyfix.Replace(m, r.Span, "return "+text)), Applicability: diag.Unsafe}}
}
