package pyscan

import (
	"bytes"
	"sort"
)

// Span is the half-open byte range [Start, End) of a syntax item, as 0-based
// byte offsets into the module's text. Offsets fit in 32 bits: Parse refuses
// files of 2 GiB and more. Lines and columns are not stored; Module.Pos
// computes them from the module's line table, so that the model costs 8
// bytes per span.
type Span struct{ Start, End int32 }

// Range returns the span itself; every node of the model embeds a Span, so
// that Range is each node's span (see Node).
func (s Span) Range() Span { return s }

// Contains reports whether o lies inside s.
func (s Span) Contains(o Span) bool { return s.Start <= o.Start && o.End <= s.End }

// IsZero reports whether s is the zero Span.
func (s Span) IsZero() bool { return s == Span{} }

// Pos is a place in a file: a 0-based byte offset, with its 1-based line
// and 1-based byte column (as go/token and tree-sitter count them;
// conversion to UTF-16 columns happens at the edges: SARIF, LSP).
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// lineIndex maps byte offsets to 1-based lines and byte columns. Lines end
// at "\n", "\r\n" or a lone "\r", as CPython (and LSP) count them; the
// text tree-sitter parses has the same line ends (see sitterText).
type lineIndex []int32 // start offset of each line

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, len(src)/40+1)
	if bytes.IndexByte(src, '\r') < 0 { // the common case, as fast as it was
		for i, c := range src {
			if c == '\n' {
				idx = append(idx, int32(i+1))
			}
		}
		return idx
	}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
		case '\n':
		default:
			continue
		}
		idx = append(idx, int32(i+1))
	}
	return idx
}

// line returns the 0-based index of the line holding off.
func (l lineIndex) line(off int32) int {
	i := sort.Search(len(l), func(i int) bool { return l[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i
}

func (l lineIndex) pos(off int32) Pos {
	if len(l) == 0 {
		return Pos{Offset: int(off), Line: 1, Col: int(off) + 1}
	}
	i := l.line(off)
	return Pos{Offset: int(off), Line: i + 1, Col: int(off-l[i]) + 1}
}

// Pos returns the line and column of a byte offset of the module's text.
func (m *Module) Pos(off int32) Pos { return m.lines.pos(off) }

// Line returns the 1-based line of a byte offset of the module's text.
func (m *Module) Line(off int32) int { return m.lines.line(off) + 1 }

// LineStart returns the offset of the start of the line holding off.
func (m *Module) LineStart(off int32) int32 {
	if len(m.lines) == 0 {
		return 0
	}
	return m.lines[m.lines.line(off)]
}

// Indent returns the white space that starts the line holding off (for
// suggested fixes that insert lines).
func (m *Module) Indent(off int32) string {
	s := int(m.LineStart(off))
	e := s
	for e < len(m.text) && (m.text[e] == ' ' || m.text[e] == '\t') {
		e++
	}
	return m.text[s:e]
}

// LineEndsAfter returns the offset just after the end of the line holding
// off (after its "\n", "\r\n" or lone "\r"), or the end of the text on the
// last line.
func (m *Module) LineEndsAfter(off int32) int32 {
	if off < 0 || int(off) > len(m.text) || len(m.lines) == 0 {
		return int32(len(m.text))
	}
	if i := m.lines.line(off); i+1 < len(m.lines) {
		return m.lines[i+1]
	}
	return int32(len(m.text))
}

// Text returns the source of a node, a slice of the module's one copy of
// its text. Rules use it in messages and fix texts, never to decide.
func (m *Module) Text(n Node) string {
	if n == nil {
		return ""
	}
	return m.SpanText(n.Range())
}

// SpanText returns the source at a span.
func (m *Module) SpanText(s Span) string {
	if s.Start < 0 || s.Start > s.End || int(s.End) > len(m.text) {
		return ""
	}
	return m.text[s.Start:s.End]
}

// LineEnding returns the line ending of the line holding off as the file
// writes it, "\r\n", "\n" or "\r", or "" for a last line without one (for
// fix texts that insert lines to write them the same way).
func (m *Module) LineEnding(off int32) string {
	end := m.LineEndsAfter(off)
	start := m.LineStart(off)
	switch {
	case end > start && end-2 >= start && m.text[end-2:end] == "\r\n":
		return "\r\n"
	case end > start && m.text[end-1] == '\n':
		return "\n"
	case end > start && m.text[end-1] == '\r':
		return "\r"
	}
	return ""
}

// Newline returns the line ending the file uses: its first line's, "\n"
// when the file has one line.
func (m *Module) Newline() string {
	if nl := m.LineEnding(0); nl != "" {
		return nl
	}
	return "\n"
}

// NewlineAt returns the line ending of the line holding off, or the file's
// (Newline) for a last line without one.
func (m *Module) NewlineAt(off int32) string {
	if nl := m.LineEnding(off); nl != "" {
		return nl
	}
	return m.Newline()
}

// NewlineBefore returns the line ending of the line before the line that
// starts at off; the file's for the first line.
func (m *Module) NewlineBefore(off int32) string {
	if off > 0 {
		return m.NewlineAt(off - 1)
	}
	return m.Newline()
}
