package protocol

import (
	"fmt"
	"slices"
	"sort"
	"unicode/utf8"
)

// Encoding is a position encoding kind: the unit of Position.Character.
type Encoding string

// Position encodings. UTF16 is the one every client supports and the
// default when none was negotiated.
const (
	UTF8  Encoding = "utf-8"
	UTF16 Encoding = "utf-16"
	UTF32 Encoding = "utf-32"
)

// ChooseEncoding picks the server's position encoding from the client's
// general.positionEncodings: utf-8 when offered (gymlint's columns are byte
// offsets, so no conversion is needed), else utf-16, which the specification
// requires every client to support. utf-32 is never chosen.
func ChooseEncoding(offered []string) Encoding {
	if slices.Contains(offered, string(UTF8)) {
		return UTF8
	}
	return UTF16
}

// known reports whether e is a supported encoding; "" counts as UTF16.
func (e Encoding) known() bool {
	return e == "" || e == UTF8 || e == UTF16 || e == UTF32
}

// units returns the width of a rune of size bytes in encoding e. An invalid
// UTF-8 byte (r == utf8.RuneError, size 1) is one unit in every encoding, as
// if it were U+FFFD.
func (e Encoding) units(r rune, size int) int {
	switch e {
	case UTF8:
		return size
	case UTF32:
		return 1
	}
	if r >= 0x10000 {
		return 2 // a surrogate pair
	}
	return 1
}

// Mapper converts between byte offsets in one version of a document and
// LSP positions. Lines end at "\n", "\r\n" or a lone "\r", as in LSP; a
// document ending with a line terminator has a last, empty line.
type Mapper struct {
	content []byte
	starts  []int // byte offset of the start of each line; starts[0] == 0
}

// NewMapper returns a Mapper for content, which it keeps (the caller must
// not modify it afterwards).
func NewMapper(content []byte) *Mapper {
	starts := []int{0}
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return &Mapper{content: content, starts: starts}
}

// Content returns the content the Mapper was built for.
func (m *Mapper) Content() []byte { return m.content }

// LineCount returns the number of lines (at least 1).
func (m *Mapper) LineCount() int { return len(m.starts) }

// lineEnd returns the offset just before the terminator of line i.
func (m *Mapper) lineEnd(i int) int {
	if i+1 >= len(m.starts) {
		return len(m.content)
	}
	end := m.starts[i+1]
	start := m.starts[i]
	if end > start && m.content[end-1] == '\n' {
		end--
	}
	if end > start && m.content[end-1] == '\r' {
		end--
	}
	return end
}

// Position converts a byte offset to a position. An offset outside the
// content is clamped to it; an offset inside a line terminator maps to the
// end of its line; an offset inside a multi-byte UTF-8 sequence rounds down
// to the start of that character. An unknown encoding counts as UTF16.
func (m *Mapper) Position(offset int, enc Encoding) Position {
	offset = max(0, min(offset, len(m.content)))
	line := sort.Search(len(m.starts), func(i int) bool { return m.starts[i] > offset }) - 1
	start := m.starts[line]
	offset = min(offset, m.lineEnd(line))
	if !enc.known() {
		enc = UTF16
	}
	char := 0
	for i := start; i < offset; {
		r, size := utf8.DecodeRune(m.content[i:])
		if i+size > offset {
			break // offset is inside this character
		}
		char += enc.units(r, size)
		i += size
	}
	return Position{Line: uint32(line), Character: uint32(char)}
}

// Range converts the byte range [start, end) to an LSP range.
func (m *Mapper) Range(start, end int, enc Encoding) Range {
	return Range{Start: m.Position(start, enc), End: m.Position(end, enc)}
}

// Offset converts a position to a byte offset. As the specification says,
// a character past the end of its line means the end of the line (before
// its terminator). A line past the last one means the end of the document,
// as in the reference implementation (vscode-languageserver-textdocument);
// the specification leaves this case open. A character in the middle of a
// UTF-16 surrogate pair (or, in utf-8, of a multi-byte sequence) rounds down
// to the start of the character. The only error is an unknown encoding
// ("" means UTF16).
func (m *Mapper) Offset(p Position, enc Encoding) (int, error) {
	if !enc.known() {
		return 0, fmt.Errorf("unknown position encoding %q", enc)
	}
	if uint64(p.Line) >= uint64(len(m.starts)) {
		return len(m.content), nil
	}
	i := m.starts[p.Line]
	end := m.lineEnd(int(p.Line))
	want := int64(p.Character)
	var units int64
	for i < end {
		r, size := utf8.DecodeRune(m.content[i:end])
		w := int64(enc.units(r, size))
		if units+w > want {
			break
		}
		units += w
		i += size
	}
	return i, nil
}

// PositionLC converts a 1-based line and 1-based byte column, as gymlint
// diagnostics carry them, to a position. Out-of-range values are clamped: a
// line before the first means the start of the document, a line after the
// last means its end, a column past the end of the line means the end of the
// line. Lines are counted as LSP counts them (a lone "\r" ends a line).
func (m *Mapper) PositionLC(line, byteCol int, enc Encoding) Position {
	if line < 1 {
		return m.Position(0, enc)
	}
	if line > len(m.starts) {
		return m.Position(len(m.content), enc)
	}
	start := m.starts[line-1]
	end := m.lineEnd(line - 1)
	col := max(byteCol, 1) - 1
	return m.Position(start+min(col, end-start), enc)
}

// ApplyChanges applies textDocument/didChange content changes to content, in
// order. A change without a range replaces the whole content; a change with
// a range replaces that range, whose positions are resolved against the
// content as left by the previous changes. The input slice is not modified.
// A range whose end precedes its start is an error.
func ApplyChanges(content []byte, changes []TextDocumentContentChangeEvent, enc Encoding) ([]byte, error) {
	if !enc.known() {
		return nil, fmt.Errorf("unknown position encoding %q", enc)
	}
	for i, ch := range changes {
		if ch.Range == nil {
			content = []byte(ch.Text)
			continue
		}
		m := NewMapper(content)
		start, err := m.Offset(ch.Range.Start, enc)
		if err != nil {
			return nil, err
		}
		end, err := m.Offset(ch.Range.End, enc)
		if err != nil {
			return nil, err
		}
		if end < start {
			return nil, fmt.Errorf("content change %d: range end %d:%d is before its start %d:%d",
				i, ch.Range.End.Line, ch.Range.End.Character, ch.Range.Start.Line, ch.Range.Start.Character)
		}
		next := make([]byte, 0, len(content)-(end-start)+len(ch.Text))
		next = append(next, content[:start]...)
		next = append(next, ch.Text...)
		next = append(next, content[end:]...)
		content = next
	}
	if len(changes) == 0 {
		content = slices.Clone(content)
	}
	return content, nil
}
