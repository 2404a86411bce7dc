package pyscan

import "strings"

// ImportInsertion returns where a new module-level import statement can be
// inserted, as the offset of the start of a line, so that it runs before
// the statement that starts at offset before: after the last import
// statement that ends before it at module scope and outside any compound
// statement (if, try, with, ...; so never inside an `if TYPE_CHECKING:`
// or a try/except ImportError); when there is none, after the module's
// docstring and `from __future__` imports (Prologue); when it has neither,
// at the line of its first statement, below the leading comments (a
// shebang, an encoding declaration, a licence) and a byte order mark. It
// reports false when there is no such line before offset before.
func (m *Module) ImportInsertion(before int32) (int32, bool) {
	src := m.text
	if int(before) > len(src) {
		before = int32(len(src))
	}
	anchor := int32(-1)
	for _, imp := range m.Imports {
		if !imp.ModuleScope || imp.Where != (Where{}) || imp.Span.End > before {
			continue
		}
		if imp.Span.End > anchor {
			anchor = imp.Span.End
		}
	}
	if anchor < 0 && m.Prologue != nil && m.Prologue.End <= before {
		anchor = m.Prologue.End
	}
	if anchor >= 0 {
		if int(anchor) > len(src) {
			return 0, false
		}
		// The next line, at CPython's line ends ("\n", "\r\n", a lone
		// "\r"), as the line index counts them.
		next := m.LineEndsAfter(anchor)
		if m.LineEnding(anchor) == "" || next > before {
			return 0, false
		}
		return next, true
	}
	// The first line that is neither blank nor a comment starts the first
	// statement.
	off := 0
	if strings.HasPrefix(src, "\ufeff") {
		off = 3
	}
	for off <= int(before) {
		end := int(m.LineEndsAfter(int32(off)))
		text := strings.TrimLeft(strings.TrimRight(src[off:end], "\r\n"), " \t\f")
		if len(text) > 0 && text[0] != '#' {
			return int32(off), true
		}
		if end == len(src) {
			break
		}
		off = end
	}
	return 0, false
}
