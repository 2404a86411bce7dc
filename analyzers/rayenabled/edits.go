package rayenabled

import (
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// What the fixes of GL201 and GL205 need to place and remove a statement
// of a class body: the layout of the lines around it (indentation, line
// endings, blank and comment lines), read from the model's offsets and
// comment spans. Text goes into fixes; decisions come from the model.

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

// blank reports whether the line that starts at ls holds nothing but
// white space.
func blank(m *pyscan.Module, ls int32) bool {
	return ls+int32(len(m.Indent(ls))+len(m.LineEnding(ls))) == m.LineEndsAfter(ls)
}

// blankOrComment reports whether the line that starts at ls holds nothing
// but white space, or white space and a comment.
func blankOrComment(m *pyscan.Module, ls int32) bool {
	if blank(m, ls) {
		return true
	}
	p := ls + int32(len(m.Indent(ls)))
	for _, c := range m.Comments {
		if c.Start == p {
			return true
		}
		if c.Start > p {
			break
		}
	}
	return false
}

// trailingComment returns the end of a comment that follows offset off on
// its line, or off when there is none.
func trailingComment(m *pyscan.Module, off int32) int32 {
	end := m.LineEndsAfter(off)
	for _, c := range m.Comments {
		if c.Start >= off && c.Start < end {
			return c.End
		}
		if c.Start >= end {
			break
		}
	}
	return off
}

// isDocstring reports whether s is a string literal used as a statement
// (the docstring when it is the first of a body).
func isDocstring(s pyscan.Stmt) bool {
	es, ok := s.(*pyscan.ExprStmt)
	if !ok {
		return false
	}
	_, ok = pyscan.Str(es.Value)
	return ok
}

// isPlaceholder reports whether s is `pass` or `...`, a statement that
// only keeps a body from being empty.
func isPlaceholder(s pyscan.Stmt) bool {
	switch s := s.(type) {
	case *pyscan.Pass:
		return true
	case *pyscan.ExprStmt:
		return pyscan.IsConst(s.Value, pyscan.ConstEllipsis)
	}
	return false
}
