package settings

import (
	"fmt"
	"slices"
	"strconv"
)

// maxTOMLDepth bounds how deeply the part of a TOML file that gymlint
// decodes may nest: the segments of a table header or a dotted key, plus
// the arrays and inline tables of a value. gymlint's own configuration
// needs at most five ([[tool.gymlint.per_path_ignores]] paths = [...]).
const maxTOMLDepth = 16

// tomlSelection says what selectTOML keeps of a TOML file: what lies in
// one of its tables (dotted names, as their segments: at most
// len(tomlKey.head) of them), and what may hold one of them.
type tomlSelection struct {
	tables [][]string
	// tooDeep is the error of a kept statement that nests deeper than
	// maxTOMLDepth.
	tooDeep string
}

// gymlintSelection selects gymlint's own configuration in a pyproject.toml.
var gymlintSelection = tomlSelection{
	tables:  [][]string{{"tool", "gymlint"}},
	tooDeep: fmt.Sprintf("tool.gymlint nests deeper than %d levels (tables, keys, arrays and inline tables); gymlint's configuration needs no more than five", maxTOMLDepth),
}

// selectGymlint is selectTOML of [tool.gymlint].
func selectGymlint(name string, data []byte) ([]byte, error) {
	return selectTOML(name, data, gymlintSelection)
}

// selectTOML returns a copy of a TOML file that keeps only what can belong
// to the tables of sel. For [tool.gymlint], that is the headers [tool],
// [tool.gymlint] and [tool.gymlint.*] ([[...]] too) with the keys under
// them that lie in tool.gymlint, and the keys tool.gymlint... (or
// tool = {...}) of the root table. Everything else becomes empty lines, so
// the copy has the same lines and, on every line it keeps, the same
// columns: errors the decoder reports in it are at the right place in the
// file.
//
// This is a linear scan that only finds where each statement of the file
// ends (strings, comments, brackets); it does not check the TOML. The
// decoder then reads what is kept, which is therefore small and shallow:
// the decoder's cost grows with the square of the nesting depth, so a deep
// value in another table costs nothing, and one in a selected table is an
// error (sel.tooDeep: deeper than maxTOMLDepth). A statement the scan
// cannot read is kept when it may belong to a selected table (a header, or
// a key under a kept header), so that the decoder reports it, and dropped
// otherwise. A string, array or inline table left open at the end of the
// file is an error wherever it is, since it may hide a selected table.
func selectTOML(name string, data []byte, sel tomlSelection) ([]byte, error) {
	s := &tomlScan{data: data, line: 1}
	out := make([]byte, 0, len(data))
	var table tomlKey // the current table; the root at first
	tableKept := false
	for {
		// Blank lines and comments between statements.
		prev := s.i
		s.skipBlank()
		if s.i >= len(data) {
			return appendNewlines(out, data[prev:]), nil
		}
		start, startLine := s.lineStart(), s.line
		out = appendNewlines(out, data[prev:start])
		keep := false
		depth := 0
		if data[s.i] == '[' {
			s.i++
			array := s.i < len(data) && data[s.i] == '['
			if array {
				s.i++
			}
			k, ok := s.key()
			if ok && s.expect(']') && (!array || s.expect(']')) && s.endOfLine() {
				table = k
				tableKept = sel.keeps(k, true)
				keep, depth = tableKept, k.n
			} else {
				// Unreadable: the decoder says what is wrong. The keys under
				// it are not kept, as their table is unknown.
				table, tableKept = tomlKey{unknown: true}, false
				keep, depth = true, 0
				s.toEOL()
			}
		} else {
			k, ok := s.key()
			full := table.join(k)
			if ok && s.expect('=') {
				vd, closed := s.value()
				if !closed && s.i >= len(data) {
					return nil, &Error{File: name, Line: startLine, Msg: "this value is not closed before the end of the file (a string, array or inline table is left open)"}
				}
				keep, depth = sel.keeps(full, false), full.n+vd
				if closed && !s.endOfLine() {
					s.toEOL()
				}
			} else {
				keep, depth = tableKept, 0
				s.toEOL()
			}
		}
		if keep && depth > maxTOMLDepth {
			return nil, &Error{File: name, Line: startLine, Msg: sel.tooDeep}
		}
		s.toNextLine()
		if keep {
			out = append(out, data[start:s.i]...)
		} else {
			out = appendNewlines(out, data[start:s.i])
		}
	}
}

// appendNewlines appends the newlines of b to out.
func appendNewlines(out, b []byte) []byte {
	for _, c := range b {
		if c == '\n' {
			out = append(out, '\n')
		}
	}
	return out
}

// tomlKey is a dotted key or table name: its first segments (all that
// decides whether it lies in a selected table) and how many segments it
// has.
type tomlKey struct {
	head    [5]string
	n       int
	unknown bool // the table of an unreadable header
}

func (k *tomlKey) add(seg string) {
	if k.n < len(k.head) {
		k.head[k.n] = seg
	}
	k.n++
}

// join is the key k inside table t.
func (t tomlKey) join(k tomlKey) tomlKey {
	out := t
	for i := 0; i < k.n && i < len(k.head); i++ {
		out.add(k.head[i])
	}
	if k.n > len(k.head) {
		out.n += k.n - len(k.head)
	}
	return out
}

// keeps reports whether k is one of the tables of sel or lies in one, or
// holds one (tool holds tool.gymlint: its value, as a header or an inline
// table, may hold it). The root table (no segments) is kept as a header.
func (sel tomlSelection) keeps(k tomlKey, header bool) bool {
	if k.unknown {
		return false
	}
	if k.n == 0 {
		return header
	}
	for _, t := range sel.tables {
		n := min(k.n, len(t))
		if slices.Equal(k.head[:n], t[:n]) {
			return true
		}
	}
	return false
}

// tomlScan walks the bytes of a TOML file.
type tomlScan struct {
	data []byte
	i    int
	line int
}

func (s *tomlScan) peek(off int) byte {
	if s.i+off < len(s.data) {
		return s.data[s.i+off]
	}
	return 0
}

func (s *tomlScan) skipSpace() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t') {
		s.i++
	}
}

// skipBlank skips whitespace, empty lines and comment lines.
func (s *tomlScan) skipBlank() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\r':
			s.i++
		case '\n':
			s.i++
			s.line++
		case '#':
			s.toEOL()
		default:
			return
		}
	}
}

// lineStart is the offset of the start of the current line.
func (s *tomlScan) lineStart() int {
	j := s.i
	for j > 0 && s.data[j-1] != '\n' {
		j--
	}
	return j
}

// toEOL moves to the next newline (or the end).
func (s *tomlScan) toEOL() {
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		s.i++
	}
}

// toNextLine moves past the next newline (or to the end).
func (s *tomlScan) toNextLine() {
	s.toEOL()
	if s.i < len(s.data) {
		s.i++
		s.line++
	}
}

// endOfLine skips spaces and a comment and reports whether the line ends
// there.
func (s *tomlScan) endOfLine() bool {
	s.skipSpace()
	if s.peek(0) == '#' {
		s.toEOL()
	}
	return s.i >= len(s.data) || s.data[s.i] == '\n' || s.data[s.i] == '\r' && s.peek(1) == '\n'
}

func (s *tomlScan) expect(c byte) bool {
	s.skipSpace()
	if s.peek(0) != c {
		return false
	}
	s.i++
	return true
}

func isBare(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// key reads a dotted key.
func (s *tomlScan) key() (tomlKey, bool) {
	var k tomlKey
	for {
		s.skipSpace()
		seg, ok := s.keySegment()
		if !ok {
			return k, false
		}
		k.add(seg)
		s.skipSpace()
		if s.peek(0) != '.' {
			return k, true
		}
		s.i++
	}
}

// keySegment reads a bare or quoted key segment on one line.
func (s *tomlScan) keySegment() (string, bool) {
	start := s.i
	switch s.peek(0) {
	case '"':
		s.i++
		escaped := false
		for s.i < len(s.data) && s.data[s.i] != '\n' {
			c := s.data[s.i]
			s.i++
			switch {
			case c == '\\':
				escaped = true
				if s.i < len(s.data) && s.data[s.i] != '\n' {
					s.i++ // the escaped character
				}
			case c == '"':
				raw := string(s.data[start:s.i])
				if !escaped {
					return raw[1 : len(raw)-1], true
				}
				if v, err := strconv.Unquote(raw); err == nil {
					return v, true
				}
				return raw, true // an escape Go does not know: matches no name gymlint looks for
			}
		}
		return "", false
	case '\'':
		s.i++
		for s.i < len(s.data) && s.data[s.i] != '\n' {
			if s.data[s.i] == '\'' {
				s.i++
				return string(s.data[start+1 : s.i-1]), true
			}
			s.i++
		}
		return "", false
	}
	for s.i < len(s.data) && isBare(s.data[s.i]) {
		s.i++
	}
	return string(s.data[start:s.i]), s.i > start
}

// value skips a value: strings, and arrays and inline tables (which may
// span lines) with what they hold. It returns how deeply brackets nest in
// it, and closed false when a string or bracket is still open where it
// stopped (the end of the file, or the end of a line for a one-line
// string).
func (s *tomlScan) value() (maxDepth int, closed bool) {
	depth := 0
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case depth == 0 && (c == '\n' || c == '#'):
			return maxDepth, true
		case c == '\n':
			s.i++
			s.line++
		case c == '#':
			s.toEOL()
		case c == '"' || c == '\'':
			if !s.str(c) {
				return maxDepth, false
			}
		case c == '[' || c == '{':
			depth++
			maxDepth = max(maxDepth, depth)
			s.i++
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			s.i++
			if depth == 0 {
				return maxDepth, true
			}
		default:
			s.i++
		}
	}
	return maxDepth, depth == 0
}

// str skips a string that starts with the quote q: one-line or multi-line,
// basic (") with escapes or literal ('). It reports false when the string
// is not closed.
func (s *tomlScan) str(q byte) bool {
	multi := s.peek(1) == q && s.peek(2) == q
	if !multi {
		s.i++
		for s.i < len(s.data) && s.data[s.i] != '\n' {
			c := s.data[s.i]
			s.i++
			if c == '\\' && q == '"' {
				if s.i < len(s.data) && s.data[s.i] != '\n' {
					s.i++
				}
			} else if c == q {
				return true
			}
		}
		return false
	}
	s.i += 3
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '\n':
			s.line++
			s.i++
		case c == '\\' && q == '"':
			s.i++
			if s.i < len(s.data) {
				if s.data[s.i] == '\n' {
					s.line++
				}
				s.i++
			}
		case c == q && s.peek(1) == q && s.peek(2) == q:
			s.i += 3
			// Up to two more quotes belong to the content: """a""""" is `a""`.
			for n := 0; n < 2 && s.peek(0) == q; n++ {
				s.i++
			}
			return true
		default:
			s.i++
		}
	}
	return false
}
