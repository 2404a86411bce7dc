package workers

import (
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// GL101's two suggested fixes, both unsafe (which one is right is the
// author's call): a module-level app in an elif branch of the __main__
// guard, and an override of the refusal method with a TODO reason. Their
// edits are computed from the model: where the guard's body and the class
// body end, the module's import insertion point, the indentation and line
// endings of the lines around them.

const (
	appFixMessage      = "Add a module-level app (the server is safe with several workers)"
	overrideFixMessage = "Override multiple_workers_unsupported_reason() to refuse several workers"
	overrideReason     = "TODO: say why this server cannot run with several workers"
)

// undeclaredFixes returns the fixes of a GL101 diagnostic about the
// servers of entrypoint m that have neither an app nor an override:
// missing, the first of which the message names.
func undeclaredFixes(v *gym.View, m *pyscan.Module, missing []*gym.Server) []diag.Fix {
	var fixes []diag.Fix
	if len(missing) == 1 {
		// One app can start one server only.
		if f, ok := appFix(v, m, missing[0]); ok {
			fixes = append(fixes, f)
		}
	}
	if f, ok := overrideFix(v, missing); ok {
		fixes = append(fixes, f)
	}
	return fixes
}

// appFix adds the module-level app in an elif branch of the __main__ guard
// whose body starts s.
func appFix(v *gym.View, m *pyscan.Module, s *gym.Server) (diag.Fix, bool) {
	c := s.Call
	if c == nil {
		return diag.Fix{}, false
	}
	a, ok := c.Func.(*pyscan.Attribute)
	if !ok || a.Attr != contract.RunWebserverMethod {
		return diag.Fix{}, false
	}
	recv := pyscan.Dotted(a.Value)
	if recv == "" {
		return diag.Fix{}, false
	}
	var g *pyscan.MainGuard
	for _, mg := range m.MainGuards {
		if mg.Body.Contains(c.Span) {
			g = mg
		}
	}
	if g == nil {
		return diag.Fix{}, false
	}
	guardIndent, ok := indentBefore(m, g.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	bodyIndent, ok := indentBefore(m, g.Body.Start)
	if !ok {
		// `if __name__ == "__main__": X.run_webserver()` on one line.
		bodyIndent = guardIndent + indentUnit(guardIndent)
	}
	at, prefix, nl := lineAfter(m, g.Body.End)
	text := prefix + guardIndent + "elif " + contract.EntrypointFunc + "(__file__):" + nl +
		bodyIndent + contract.ModuleApp + " = " + recv + "." + contract.RunWebserverMethod + "()" + nl
	edits := []diag.TextEdit{{Path: m.Path, Start: at, End: at, NewText: text}}
	if b := m.Binding(contract.EntrypointFunc); b == nil || b.Where.InMainGuard {
		p, ok := m.ImportInsertion(g.Span.Start)
		if !ok {
			return diag.Fix{}, false
		}
		ip := gym.Pos(m, p)
		edits = append([]diag.TextEdit{{Path: m.Path, Start: ip, End: ip,
			NewText: "from " + v.Options.Framework.ImportOf(contract.EntrypointFunc, v.Options.FrameworkPackage) + " import " + contract.EntrypointFunc + m.NewlineBefore(p)}}, edits...)
	}
	return diag.Fix{Message: appFixMessage, Edits: edits, Applicability: diag.Unsafe}, true
}

// overrideFix adds the override to each class of missing, once per class.
func overrideFix(v *gym.View, missing []*gym.Server) (diag.Fix, bool) {
	var edits []diag.TextEdit
	seen := map[*pyscan.Class]bool{}
	for _, s := range missing {
		cls := s.Class
		if seen[cls.Class] {
			continue
		}
		seen[cls.Class] = true
		es, ok := overrideEdits(v, cls)
		if !ok {
			return diag.Fix{}, false
		}
		edits = append(edits, es...)
	}
	if len(edits) == 0 {
		return diag.Fix{}, false
	}
	return diag.Fix{Message: overrideFixMessage, Edits: edits, Applicability: diag.Unsafe}, true
}

// overrideEdits appends the override to the body of one class.
func overrideEdits(v *gym.View, cls gym.ClassRef) ([]diag.TextEdit, bool) {
	m, c := cls.Module, cls.Class
	if m == nil || c == nil || m.SyntaxError != nil || v.IsFrameworkModule(m.Name) || c.BodySpan.IsZero() {
		return nil, false
	}
	classIndent, ok := indentBefore(m, c.Span.Start)
	if !ok {
		return nil, false
	}
	var edits []diag.TextEdit
	bodyIndent, ok := indentBefore(m, c.BodySpan.Start)
	if !ok {
		// `class S(Base): pass`: move the body to its own line, and drop
		// the blanks between the colon and it.
		ls := m.LineStart(c.BodySpan.Start)
		head := m.SpanText(pyscan.Span{Start: ls, End: c.BodySpan.Start})
		gap := ls + int32(len(strings.TrimRight(head, " \t")))
		bodyIndent = classIndent + indentUnit(classIndent)
		edits = append(edits, diag.TextEdit{Path: m.Path, Start: gym.Pos(m, gap), End: gym.Pos(m, c.BodySpan.Start),
			NewText: m.NewlineAt(c.BodySpan.End) + bodyIndent})
	}
	unit := indentUnit(classIndent)
	if u, ok := strings.CutPrefix(bodyIndent, classIndent); ok && u != "" {
		unit = u
	}
	at, prefix, nl := lineAfter(m, c.BodySpan.End)
	text := prefix + nl +
		bodyIndent + "def " + Method + "(self) -> str | None:" + nl +
		bodyIndent + unit + `return "` + overrideReason + `"` + nl
	edits = append(edits, diag.TextEdit{Path: m.Path, Start: at, End: at, NewText: text})
	return edits, true
}

// indentBefore returns the white space between the start of off's line
// and off, or false when anything else precedes off on its line.
func indentBefore(m *pyscan.Module, off int32) (string, bool) {
	if ind := m.Indent(off); m.LineStart(off)+int32(len(ind)) == off {
		return ind, true
	}
	return "", false
}

// indentUnit is one level of indentation where nothing shows the file's:
// a tab in a tab-indented block, else four spaces.
func indentUnit(indent string) string {
	if strings.Contains(indent, "\t") {
		return "\t"
	}
	return "    "
}

// lineAfter returns where the line after off's line starts, for inserting
// whole lines there, and that line's ending. At the end of a file whose
// last line has no line ending, it returns the end of the file and the
// line ending to write first (prefix).
func lineAfter(m *pyscan.Module, off int32) (at diag.Pos, prefix, nl string) {
	at = gym.Pos(m, m.LineEndsAfter(off))
	if nl = m.LineEnding(off); nl == "" {
		nl = m.Newline()
		return at, nl, nl
	}
	return at, "", nl
}
