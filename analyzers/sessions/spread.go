package sessions

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// LostSessionKeywordSpread is rule GL308.
var LostSessionKeywordSpread = &diag.Rule{
	Code: "GL308", Name: "lost-session-keyword-spread", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.LostSession},
	Summary: "lost_session_verification(...) is spread as keyword arguments next to another mapping, which raises TypeError when that mapping carries a reward.",
	Doc:     ruleDoc("GL308"),
}

func runLostSessionKeywordSpread(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	for _, m := range resourcesModules(v) {
		// The module's own scope, and each function in it, by the names
		// bound there (a local named like the framework's function is not
		// it).
		check := func(fn *facts.Func, c *pyscan.Call) {
			if d, ok := spreadFinding(f, m, fn, c); ok {
				out = append(out, d)
			}
		}
		f.EachCall(m, check)
	}
	return out
}

// spreadFinding reports a call whose ** arguments include
// lost_session_verification(...) next to another ** argument.
func spreadFinding(f *facts.Facts, m *pyscan.Module, fn *facts.Func, c *pyscan.Call) (diag.Diagnostic, bool) {
	var splats []int // indexes into c.Args
	lost := -1
	for i, a := range c.Args {
		if a.Kind != pyscan.StarStarArg {
			continue
		}
		if lc, ok := a.Value.(*pyscan.Call); ok && lost < 0 && isLostCall(f, m, fn, lc) {
			lost = len(splats)
		}
		splats = append(splats, i)
	}
	if lost < 0 || len(splats) < 2 {
		return diag.Diagnostic{}, false
	}
	var others, otherText []string
	for i, ai := range splats {
		if i != lost {
			others = append(others, splatOperand(m, c.Args[ai].Value))
			otherText = append(otherText, oneLine(m.SpanText(c.Args[ai].Span)))
		}
	}
	lostArg := c.Args[splats[lost]]
	lostOp := splatOperand(m, lostArg.Value)
	merged := "**(" + strings.Join(others, " | ") + " | " + lostOp + ")"
	callee := m.Text(c.Func)
	if d := pyscan.Dotted(c.Func); d != "" {
		callee = d
	}
	// The lost-session call in full when it is short, else by its callee.
	lostText := oneLine(m.SpanText(lostArg.Span))
	if lc, ok := lostArg.Value.(*pyscan.Call); ok && len(lostText) > 50 {
		lostText = "**" + clip(m.Text(lc.Func), 60) + "(...)"
	}
	lostText = clip(lostText, 80)
	msg := fmt.Sprintf(
		"%s(...) spreads %s next to %s, a TypeError when %s also carries reward, mask_sample, failure_kind or failure_reason",
		clip(callee, 60), lostText, strings.Join(clipAll(otherText, 60), ", "), clip(strings.Join(others, " | "), 60))
	first, last := c.Args[splats[0]].Span, c.Args[splats[len(splats)-1]].Span
	whole := pyscan.Span{Start: first.Start, End: last.End}
	start, end := gym.Range(m, whole)
	d := LostSessionKeywordSpread.New(m.Path, start, end, msg)
	d.Help = fmt.Sprintf("merge the mappings so the lost-session fields win: `%s(%s)`", clip(callee, 60), clip(merged, 120))
	if contiguous(m, c, splats) {
		// The fix keeps each operand's text as written (a string's spaces, a
		// comment inside a call that spans lines); the message and help
		// above show them on one line.
		var kept []string
		for i, ai := range splats {
			if i != lost {
				kept = append(kept, splatSource(m, c.Args[ai].Value))
			}
		}
		kept = append(kept, splatSource(m, lostArg.Value))
		app := diag.Safe
		for i, ai := range splats {
			if i != lost && !knownDict(f, m, fn, c.Args[ai].Value, 0) {
				app = diag.Unsafe
			}
		}
		d.Fixes = []diag.Fix{{
			Message:       "Merge the spread mappings, the lost-session fields last",
			Edits:         []diag.TextEdit{{Path: m.Path, Start: start, End: end, NewText: "**(" + strings.Join(kept, " | ") + ")"}},
			Applicability: app,
		}}
	}
	return d, true
}

// isLostCall reports whether a call is of the framework's
// lost_session_verification, named at the scope of fn (or of the module).
func isLostCall(f *facts.Facts, m *pyscan.Module, fn *facts.Func, c *pyscan.Call) bool {
	d := pyscan.Dotted(c.Func)
	if d == "" {
		return false
	}
	if fn != nil {
		first, _, _ := strings.Cut(d, ".")
		if f.IsLocal(fn, first) {
			return false
		}
	}
	return f.View().FrameworkName(m, d) == contract.LostSessionFunc
}

func clipAll(ss []string, n int) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clip(s, n)
	}
	return out
}

// splatOperand returns the source of a ** operand on one line, in
// parentheses unless it binds tighter than `|` (a name, attribute, call,
// subscript, literal or display): what a message shows.
func splatOperand(m *pyscan.Module, e pyscan.Expr) string { return operand(oneLine(m.Text(e)), e) }

// splatSource is splatOperand as written, for a fix's text: the lines,
// spaces and comments of the operand are kept.
func splatSource(m *pyscan.Module, e pyscan.Expr) string { return operand(m.Text(e), e) }

// operand puts t, the text of e, in parentheses unless e binds tighter
// than `|`.
func operand(t string, e pyscan.Expr) string {
	switch e.(type) {
	case *pyscan.Name, *pyscan.Attribute, *pyscan.Call, *pyscan.Subscript, *pyscan.Constant,
		*pyscan.FString, *pyscan.List, *pyscan.Tuple, *pyscan.Set, *pyscan.Dict, *pyscan.Comprehension:
		return t
	}
	return "(" + t + ")"
}

// contiguous reports whether the ** arguments are next to each other,
// with no other argument and no comment between them, so that one edit can
// replace them.
func contiguous(m *pyscan.Module, c *pyscan.Call, splats []int) bool {
	for i := 1; i < len(splats); i++ {
		if splats[i] != splats[i-1]+1 {
			return false
		}
		if m.HasComment(pyscan.Span{Start: c.Args[splats[i-1]].Span.End, End: c.Args[splats[i]].Span.Start}) {
			return false
		}
	}
	return true
}
