package workers

import (
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The pieces the fixes of GL101, GL102 and GL103 are made of: a method
// appended to a class body, a statement's whole lines, the refusal call
// and its import. Each is computed from the model (spans, the indentation
// and line endings of the lines around them); source text is only copied
// into fix texts, never used to decide.

// methodLine is one line of a method a fix appends to a class: its depth
// below the def line (the def itself is 0) and its text.
type methodLine struct {
	depth int
	text  string
	// str, when set, follows text as a Python string literal in the
	// module's quotes (pyfix.String).
	str string
}

// stubLines is the override GL101 offers: a TODO reason, for a person to
// replace.
func stubLines() []methodLine {
	return []methodLine{
		{depth: 0, text: "def " + Method + "(self) -> str | None:"},
		{depth: 1, text: "return ", str: overrideReason},
	}
}

// appendMethodEdits appends a method to the body of class cls, one blank
// line after its last statement, in the class body's indentation
// (pyfix.AppendToClass).
func appendMethodEdits(v *gym.View, cls gym.ClassRef, lines []methodLine) ([]diag.TextEdit, bool) {
	if cls.Module == nil || v.IsFrameworkModule(cls.Module.Name) {
		return nil, false
	}
	block := make([]string, len(lines))
	for i, l := range lines {
		block[i] = strings.Repeat("\t", l.depth) + l.text
		if l.str != "" {
			block[i] += pyfix.String(cls.Module, l.str)
		}
	}
	return pyfix.AppendToClass(cls.Module, cls.Class, block, true)
}

// stmtLines returns the whole lines of body[i], [start, end): from the
// start of the line of s.Start (the statement's, or its first
// decorator's) to after the line ending of its last line, when only
// indentation precedes it and no statement of the body follows it on that
// line (`a; b`); a comment after it goes with it.
func stmtLines(m *pyscan.Module, body []pyscan.Stmt, i int, s pyscan.Span) (start, end int32, ok bool) {
	if _, ok := indentBefore(m, s.Start); !ok {
		return 0, 0, false
	}
	end = m.LineEndsAfter(s.End)
	if i+1 < len(body) && body[i+1].Range().Start < end {
		return 0, 0, false
	}
	return m.LineStart(s.Start), end, true
}

// stmtIndex is the index in body of the statement that s spans (s may
// start before it, at its first decorator), or -1.
func stmtIndex(body []pyscan.Stmt, s pyscan.Span) int {
	for i, b := range body {
		if s.Contains(b.Range()) && b.Range().End == s.End {
			return i
		}
	}
	return -1
}

// removeStmtEdit removes the whole lines of the statement of body that s
// spans; the only statement of a body becomes `pass`. The blank lines
// that separated it from the statement before go too, when a blank line
// or the end of the body follows it.
func removeStmtEdit(m *pyscan.Module, body []pyscan.Stmt, s pyscan.Span) (diag.TextEdit, bool) {
	i := stmtIndex(body, s)
	if i < 0 {
		return diag.TextEdit{}, false
	}
	start, end, ok := stmtLines(m, body, i, s)
	if !ok {
		return diag.TextEdit{}, false
	}
	if len(body) == 1 {
		return diag.TextEdit{Path: m.Path, Start: gym.Pos(m, s.Start), End: gym.Pos(m, s.End), NewText: "pass"}, true
	}
	if i > 0 {
		gap := m.LineEndsAfter(body[i-1].Range().End)
		after := m.LineEndsAfter(end)
		blankAfter := i+1 == len(body) ||
			end < after && body[i+1].Range().Start >= after && !m.HasComment(pyscan.Span{Start: end, End: after})
		if gap < start && !m.HasComment(pyscan.Span{Start: gap, End: start}) && blankAfter {
			start = gap
		}
	}
	if m.LineEnding(s.End) == "" && start > 0 {
		// The last line of a file without a final line ending: remove the
		// line ending before it instead, so that the file still ends
		// without one.
		start -= int32(len(m.NewlineBefore(start)))
	}
	return diag.TextEdit{Path: m.Path, Start: gym.Pos(m, start), End: gym.Pos(m, end)}, true
}

// docstring reports whether a statement is a docstring (a string literal
// on its own).
func docstring(s pyscan.Stmt) bool {
	e, ok := s.(*pyscan.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.Value.(*pyscan.Constant)
	return ok && c.Kind == pyscan.ConstStr
}

// bodyAfterDoc is a body without its docstring.
func bodyAfterDoc(body []pyscan.Stmt) []pyscan.Stmt {
	if len(body) > 0 && docstring(body[0]) {
		return body[1:]
	}
	return body
}

// refusalName returns how method fn of class cls can call the framework's
// refuse_unsupported_num_workers, and the edit that imports it when the
// module does not (pyfix.ImportFramework); false when fn binds that name
// itself, or the module binds it only under a condition (`if
// TYPE_CHECKING:`), or to something else.
func refusalName(v *gym.View, fn *facts.Func, cls *pyscan.Class) (string, []diag.TextEdit, bool) {
	name := contract.RefuseWorkersFunc
	m := fn.Module
	if facts.Of(v).IsLocal(fn, name) {
		return "", nil, false
	}
	if b := m.Binding(name); b != nil && !b.Where.InMainGuard && b.Where.Conditional {
		return "", nil, false
	}
	return pyfix.ImportFramework(v, m, name, topLevelStart(m, cls.Span.Start))
}

// topLevelStart is the start of the module-level statement that holds
// offset off.
func topLevelStart(m *pyscan.Module, off int32) int32 {
	for _, s := range m.Body {
		if r := s.Range(); r.Start <= off && off < r.End {
			return r.Start
		}
	}
	return off
}

// dedupFixEdits returns the edits of one fix without repeats (an edit
// made twice counts once), and false when two of them conflict.
func dedupFixEdits(edits []diag.TextEdit) ([]diag.TextEdit, bool) {
	var out []diag.TextEdit
	for _, e := range edits {
		dup := false
		for _, o := range out {
			if o.Path == e.Path && o.Same(e) {
				dup = true
				break
			}
			if o.Path == e.Path && o.Conflicts(e) {
				return nil, false
			}
		}
		if !dup {
			out = append(out, e)
		}
	}
	return out, true
}

// isName reports whether e is the name id.
func isName(e pyscan.Expr, id string) bool {
	n, ok := e.(*pyscan.Name)
	return ok && n.Id == id
}
