package configscan

import (
	"sort"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// lineIndex converts yaml.v3 positions (1-based line, 1-based column counted
// in characters) into byte positions in the original file.
//
// It splits lines exactly where yaml.v3 does: yaml.v3 follows libyaml and
// treats CR LF, a lone CR, LF, NEL (U+0085), LS (U+2028) and PS (U+2029) as
// line breaks. A UTF-8 byte order mark at the very start of the file is
// stripped by yaml.v3's reader before any position is counted, so line 1
// starts after it.
type lineIndex struct {
	data   []byte
	starts []int  // byte offset of the first byte of each line; starts[0] is line 1
	ascii  []bool // ascii[i]: line i+1 holds only ASCII bytes (byte column == character column)
	runes  map[int][]int32
}

func newLineIndex(data []byte) *lineIndex {
	lx := &lineIndex{data: data}
	start := 0
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		start = 3
	}
	lx.starts = append(lx.starts, start)
	ascii := true
	newLine := func(next int) {
		lx.ascii = append(lx.ascii, ascii)
		lx.starts = append(lx.starts, next)
		ascii = true
	}
	for i := start; i < len(data); {
		b := data[i]
		switch {
		case b == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i += 2
			} else {
				i++
			}
			newLine(i)
		case b == '\n':
			i++
			newLine(i)
		case b == 0xC2 && i+1 < len(data) && data[i+1] == 0x85: // NEL
			i += 2
			newLine(i)
		case b == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9): // LS, PS
			i += 3
			newLine(i)
		default:
			if b >= 0x80 {
				ascii = false
			}
			i++
		}
	}
	lx.ascii = append(lx.ascii, ascii)
	return lx
}

// lineEnd returns the offset just past line l (0-based index), breaks included.
func (lx *lineIndex) lineEnd(l int) int {
	if l+1 < len(lx.starts) {
		return lx.starts[l+1]
	}
	return len(lx.data)
}

// pos converts a yaml.v3 line and character column into a Pos with a byte
// column. Out-of-range input is clamped into the file, so the result always
// has Line >= 1, Col >= 1 and 0 <= Offset <= len(data).
func (lx *lineIndex) pos(line, col int) Pos {
	if line < 1 {
		line = 1
	}
	if line > len(lx.starts) {
		line = len(lx.starts)
	}
	if col < 1 {
		col = 1
	}
	l := line - 1
	start, end := lx.starts[l], lx.lineEnd(l)
	if start > len(lx.data) { // cannot happen, but keep the invariant obvious
		start = len(lx.data)
	}
	var n int // bytes from the line start to the character at col
	if lx.ascii[l] {
		n = col - 1
	} else {
		offs := lx.runeOffsets(l, start, end)
		if col-1 < len(offs) {
			n = int(offs[col-1])
		} else {
			n = end - start
		}
	}
	if start+n > end {
		n = end - start
	}
	return Pos{Offset: start + n, Line: line, Col: n + 1}
}

// runeOffsets returns, for a line holding non-ASCII text, the byte offset
// (relative to the line start) of every character, computed once per line so
// that converting many positions on one long line stays linear.
func (lx *lineIndex) runeOffsets(l, start, end int) []int32 {
	if offs, ok := lx.runes[l]; ok {
		return offs
	}
	var offs []int32
	for i := start; i < end; {
		offs = append(offs, int32(i-start))
		_, size := utf8.DecodeRune(lx.data[i:end])
		i += size
	}
	if lx.runes == nil {
		lx.runes = make(map[int][]int32)
	}
	lx.runes[l] = offs
	return offs
}

// offsetPos converts a byte offset into a Pos.
func (lx *lineIndex) offsetPos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(lx.data) {
		off = len(lx.data)
	}
	// The last line whose start is <= off.
	l := sort.Search(len(lx.starts), func(i int) bool { return lx.starts[i] > off }) - 1
	if l < 0 { // inside a leading byte order mark
		return Pos{Offset: off, Line: 1, Col: 1}
	}
	return Pos{Offset: off, Line: l + 1, Col: off - lx.starts[l] + 1}
}

// firstUnreadable returns the offset of the first byte sequence that yaml.v3's
// reader refuses (invalid UTF-8, or a character outside YAML's printable set,
// such as NUL), or -1 if there is none.
func firstUnreadable(data []byte) int {
	i := 0
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		i = 3
	}
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		switch {
		case r == 0x09, r == 0x0A, r == 0x0D,
			r >= 0x20 && r <= 0x7E,
			r == 0x85,
			r >= 0xA0 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
		default:
			return i
		}
		i += size
	}
	return -1
}

// scalarEnd finds where a scalar that starts at start ends, for a scalar
// written on one line: plain (its text), single- or double-quoted (through
// the closing quote). Otherwise it returns start. A scalar with an anchor
// or a tag starts at them (`&ep "app.py"`, `!!str 'app.py'`): they are
// stepped over, so that the end is the closing quote's, not the opening
// one's.
func (lx *lineIndex) scalarEnd(start Pos, n *yaml.Node) Pos {
	off := start.Offset
	if off < 0 || off >= len(lx.data) {
		return start
	}
	lineEnd := len(lx.data)
	if start.Line < len(lx.starts) {
		lineEnd = lx.starts[start.Line]
	}
	rest := lx.data[off:lineEnd]
	props := 0
	if n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		for props < len(rest) && (rest[props] == '&' || rest[props] == '!') {
			for props < len(rest) && rest[props] != ' ' && rest[props] != '\t' {
				props++
			}
			for props < len(rest) && (rest[props] == ' ' || rest[props] == '\t') {
				props++
			}
		}
		rest = rest[props:]
	}
	end := -1
	switch n.Style &^ yaml.TaggedStyle {
	case 0:
		if len(n.Value) > 0 && len(rest) >= len(n.Value) && string(rest[:len(n.Value)]) == n.Value {
			end = len(n.Value)
		}
	case yaml.DoubleQuotedStyle:
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\\' {
				i++
			} else if rest[i] == '"' {
				end = i + 1
				break
			}
		}
	case yaml.SingleQuotedStyle:
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\'' {
				if i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				end = i + 1
				break
			}
		}
	}
	if end <= 0 {
		return start
	}
	end += props
	return Pos{Offset: off + end, Line: start.Line, Col: start.Col + end}
}
