//go:build ignore

package sessions

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: LostSessionKeywordSpread, Run: runLostSessionKeywordSpread})
}

func runLostSessionKeywordSpread(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, m := range resourcesModules(v) {
		src, err := v.Source(m.Path)
		if err != nil {
			continue
		}
		ctx := gym.ClassRef{Module: m}
		check := func(calls []*pyscan.Call) {
			for _, c := range calls {
				if d, ok := spreadFinding(v, ctx, src, c, calls); ok {
					out = append(out, d)
				}
			}
		}
		check(m.Calls)
		var walk func(fns []*pyscan.Function)
		walk = func(fns []*pyscan.Function) {
			for _, fn := range fns {
				check(fn.Calls)
				walk(fn.Nested)
			}
		}
		walk(m.Functions)
		for _, cl := range m.Classes {
			walk(cl.Methods)
		}
	}
	return out
}

// resourcesModules returns the repository modules of the resources
// servers, each once and without syntax errors: the entrypoints that
// start one, the modules they import (module-scope imports, transitively),
// and the modules that define the server classes and their repository
// ancestors. Framework modules are left out.
func resourcesModules(v *gym.View) []*pyscan.Module {
	var out []*pyscan.Module
	seen := map[string]bool{}
	add := func(m *pyscan.Module) {
		if m == nil || seen[m.Path] || m.SyntaxError != nil || v.IsFrameworkModule(m.Name) {
			return
		}
		seen[m.Path] = true
		out = append(out, m)
	}
	servers := ResourcesServers(v)
	isRes := map[*pyscan.Class]bool{}
	for _, s := range servers {
		isRes[s.Class.Class] = true
	}
	graph := v.NewImportGraph()
	for _, e := range v.Entrypoints {
		has := false
		for _, s := range e.Servers {
			if isRes[s.Class.Class] {
				has = true
			}
		}
		if !has || e.Module == nil || e.Exemption != nil {
			continue
		}
		for _, imp := range graph.Closure(e.Module) {
			add(imp.Module)
		}
	}
	for _, s := range servers {
		mro, _ := v.MRO(s.Class)
		for _, a := range mro {
			if a.Kind == gym.Own && a.Class.Module != nil {
				add(a.Class.Module)
			}
		}
	}
	return out
}

// spreadFinding reports a call whose `**` arguments include
// lost_session_verification(...) next to another `**` argument.
func spreadFinding(v *gym.View, ctx gym.ClassRef, src []byte, c *pyscan.Call, calls []*pyscan.Call) (diag.Diagnostic, bool) {
	var splats []pyscan.Expr
	lost := -1
	for _, kw := range c.Kwargs {
		if kw.Name != "" {
			continue
		}
		if lost < 0 && isLostSplat(v, ctx, kw.Value, calls) {
			lost = len(splats)
		}
		splats = append(splats, kw.Value)
	}
	if lost < 0 || len(splats) < 2 {
		return diag.Diagnostic{}, false
	}
	m := ctx.Module
	first, last := splats[0], splats[len(splats)-1]
	others := make([]string, 0, len(splats)-1)
	var otherText []string
	for i, s := range splats {
		if i != lost {
			others = append(others, splatOperand(s.Text))
			otherText = append(otherText, oneLine(s.Text))
		}
	}
	lostOp := splatOperand(splats[lost].Text)
	merged := "**(" + strings.Join(others, " | ") + " | " + lostOp + ")"
	callee := c.Callee.Text
	if c.Callee.Dotted != "" {
		callee = c.Callee.Dotted
	}
	msg := fmt.Sprintf(
		"%s(...) spreads %s next to %s as keyword arguments: when %s already carries reward, mask_sample, failure_kind or failure_reason, the call raises TypeError (multiple values for keyword argument) and the verify fails with HTTP 500 instead of masking the sample; merge the mappings so the lost-session fields win: `%s(%s)`",
		clip(callee, 60), clip(splats[lost].Text, 80), strings.Join(clipAll(otherText, 60), ", "), clip(strings.Join(others, " | "), 60),
		clip(callee, 60), clip(merged, 120))
	start, end := Span(pyscan.Span{Start: first.Span.Start, End: last.Span.End})
	d := LostSessionKeywordSpread.New(m.Path, start, end, msg)
	if contiguous(src, splats) {
		d.Fixes = []diag.Fix{{
			Message: "Merge the spread mappings, the lost-session fields last",
			Edits: []diag.TextEdit{{
				Path: m.Path, Start: start, End: end, NewText: merged,
			}},
		}}
	}
	return d, true
}

func clipAll(ss []string, n int) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clip(s, n)
	}
	return out
}

// isLostSplat reports whether a `**` argument spreads a call of
// lost_session_verification: the call is one of calls, and only the
// stars and white space precede it in the argument.
func isLostSplat(v *gym.View, ctx gym.ClassRef, splat pyscan.Expr, calls []*pyscan.Call) bool {
	for _, c := range calls {
		if c.Span.End.Offset != splat.Span.End.Offset || c.Span.Start.Offset <= splat.Span.Start.Offset {
			continue
		}
		prefix := splat.Text[:c.Span.Start.Offset-splat.Span.Start.Offset]
		if strings.TrimSpace(strings.TrimPrefix(prefix, "**")) != "" {
			continue
		}
		return FrameworkCall(v, ctx, c, lostSessionName)
	}
	return false
}

// splatOperand returns the operand of a `**x` argument, in parentheses
// unless it is a plain name, attribute, call, subscript or display.
func splatOperand(text string) string {
	op := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "**"))
	if primary(op) {
		return op
	}
	return "(" + op + ")"
}

// primary reports whether an expression binds tighter than `|`: outside
// brackets and strings it has only identifier characters and dots.
func primary(e string) bool {
	ok := e != ""
	scanTop(e, func(i int) bool {
		if c := e[i]; !isIdentByte(c) && c != '.' {
			ok = false
			return false
		}
		return true
	})
	return ok && !startsWithKeyword(e)
}

// startsWithKeyword reports whether an expression starts with a keyword
// that makes it bind looser than `|` (await binds tighter, but is kept in
// parentheses for clarity).
var keywordStart = regexp.MustCompile(`^(?:not|lambda|await|yield)\b`)

func startsWithKeyword(e string) bool { return keywordStart.MatchString(e) }

// contiguous reports whether only commas and white space separate the
// `**` arguments in the source, so that one edit can replace them.
func contiguous(src []byte, splats []pyscan.Expr) bool {
	for i := 1; i < len(splats); i++ {
		a, b := splats[i-1].Span.End.Offset, splats[i].Span.Start.Offset
		if a > b || b > len(src) {
			return false
		}
		gap := strings.TrimSpace(string(src[a:b]))
		if gap != "," {
			return false
		}
	}
	return true
}
