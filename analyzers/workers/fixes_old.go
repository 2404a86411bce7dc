//go:build ignore

package workers

import (
	"bytes"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
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
// that starts s.
func appFix(v *gym.View, m *pyscan.Module, s *gym.Server) (diag.Fix, bool) {
	c := s.Call
	if c == nil || !c.Where.InMainGuard {
		return diag.Fix{}, false
	}
	recv, ok := strings.CutSuffix(c.Callee.Dotted, ".run_webserver")
	if !ok || recv == "" {
		return diag.Fix{}, false
	}
	var g *pyscan.MainGuard
	for _, mg := range m.MainGuards {
		if mg.Body.Start.Offset <= c.Span.Start.Offset && c.Span.End.Offset <= mg.Body.End.Offset {
			g = mg
		}
	}
	if g == nil {
		return diag.Fix{}, false
	}
	src, err := v.Source(m.Path)
	if err != nil || g.Span.End.Offset > len(src) {
		return diag.Fix{}, false
	}
	guardIndent, ok := indentBefore(src, g.Span.Start.Offset)
	if !ok {
		return diag.Fix{}, false
	}
	bodyIndent, ok := indentBefore(src, g.Body.Start.Offset)
	if !ok {
		// `if __name__ == "__main__": X.run_webserver()` on one line.
		bodyIndent = guardIndent + indentUnit(guardIndent)
	}
	at, prefix, nl := lineAfter(src, g.Body.End.Offset)
	text := prefix + guardIndent + "elif " + entrypointFunc + "(__file__):" + nl +
		bodyIndent + "app = " + recv + ".run_webserver()  # noqa: F401" + nl
	edits := []diag.TextEdit{{Path: m.Path, Start: at, End: at, NewText: text}}
	if b := m.Binding(entrypointFunc); b == nil || b.Where.InMainGuard {
		p, ok := m.ImportInsertion(src, g.Span.Start.Offset)
		if !ok {
			return diag.Fix{}, false
		}
		fw := v.Options.FrameworkPackage
		if fw == "" {
			fw = gym.DefaultFrameworkPackage
		}
		ip := gym.PyPos(p)
		edits = append([]diag.TextEdit{{Path: m.Path, Start: ip, End: ip,
			NewText: "from " + fw + ".server_utils import " + entrypointFunc + newlineBefore(src, p.Offset)}}, edits...)
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
	if m == nil || c == nil || m.SyntaxError != nil || v.IsFrameworkModule(m.Name) || c.Body.Start.Line == 0 {
		return nil, false
	}
	src, err := v.Source(m.Path)
	if err != nil || c.Body.End.Offset > len(src) {
		return nil, false
	}
	classIndent, ok := indentBefore(src, c.Span.Start.Offset)
	if !ok {
		return nil, false
	}
	var edits []diag.TextEdit
	bodyIndent, ok := indentBefore(src, c.Body.Start.Offset)
	if !ok {
		// `class S(Base): pass`: move the body to its own line.
		gap := c.Body.Start.Offset
		for gap > 0 && (src[gap-1] == ' ' || src[gap-1] == '\t') {
			gap--
		}
		if gap == 0 || src[gap-1] != ':' {
			return nil, false
		}
		bodyIndent = classIndent + indentUnit(classIndent)
		edits = append(edits, diag.TextEdit{Path: m.Path, Start: posAt(src, gap), End: gym.PyPos(c.Body.Start),
			NewText: newlineAt(src, c.Body.End.Offset) + bodyIndent})
	}
	unit := indentUnit(classIndent)
	if u, ok := strings.CutPrefix(bodyIndent, classIndent); ok && u != "" {
		unit = u
	}
	at, prefix, nl := lineAfter(src, c.Body.End.Offset)
	text := prefix + nl +
		bodyIndent + "def " + Method + "(self) -> str | None:" + nl +
		bodyIndent + unit + `return "` + overrideReason + `"` + nl
	edits = append(edits, diag.TextEdit{Path: m.Path, Start: at, End: at, NewText: text})
	return edits, true
}

// indentBefore returns the white space between the start of off's line and
// off, or false when anything else precedes off on its line.
func indentBefore(src []byte, off int) (string, bool) {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	if start == 0 && bytes.HasPrefix(src, []byte("\ufeff")) {
		start = 3
	}
	if start > off {
		return "", false
	}
	ws := src[start:off]
	if len(bytes.Trim(ws, " \t")) != 0 {
		return "", false
	}
	return string(ws), true
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
func lineAfter(src []byte, off int) (at diag.Pos, prefix, nl string) {
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		nl = fileNewline(src)
		return posAt(src, len(src)), nl, nl
	}
	return posAt(src, off+i+1), "", newlineAt(src, off)
}

// newlineAt returns the line ending of off's line ("\r\n" or "\n"); the
// file's for a last line without one.
func newlineAt(src []byte, off int) string {
	i := bytes.IndexByte(src[off:], '\n')
	switch {
	case i < 0:
		return fileNewline(src)
	case i > 0 && src[off+i-1] == '\r':
		return "\r\n"
	}
	return "\n"
}

// newlineBefore returns the line ending of the line before the line that
// starts at off; the file's for the first line.
func newlineBefore(src []byte, off int) string {
	if off >= 1 && src[off-1] == '\n' {
		if off >= 2 && src[off-2] == '\r' {
			return "\r\n"
		}
		return "\n"
	}
	return fileNewline(src)
}

// fileNewline is the line ending of the file's first line, "\n" when it
// has one line.
func fileNewline(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// posAt converts a byte offset of src to a position.
func posAt(src []byte, off int) diag.Pos {
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	return diag.Pos{Offset: off, Line: bytes.Count(src[:off], []byte{'\n'}) + 1, Col: off - lineStart + 1}
}
