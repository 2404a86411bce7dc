package protocol

import (
	"fmt"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func pos(line, char uint32) Position { return Position{Line: line, Character: char} }

func TestChooseEncoding(t *testing.T) {
	tests := []struct {
		offered []string
		want    Encoding
	}{
		{nil, UTF16},
		{[]string{}, UTF16},
		{[]string{"utf-16"}, UTF16},
		{[]string{"utf-32", "utf-16"}, UTF16},
		{[]string{"utf-16", "utf-8"}, UTF8},
		{[]string{"utf-8"}, UTF8},
		{[]string{"UTF-8"}, UTF16}, // kinds are case-sensitive strings
	}
	for _, tt := range tests {
		if got := ChooseEncoding(tt.offered); got != tt.want {
			t.Errorf("ChooseEncoding(%q) = %q, want %q", tt.offered, got, tt.want)
		}
	}
}

// "aé€😀b": a (1 byte), é (2), € (3), 😀 (4, two UTF-16 units), b (1).
const mixed = "aé€😀b"

func TestMapperPositionMultiByte(t *testing.T) {
	m := NewMapper([]byte(mixed + "\n" + mixed))
	// byte offset → character in each encoding, on line 0.
	tests := []struct {
		offset       int
		u8, u16, u32 uint32
		comment      string
	}{
		{0, 0, 0, 0, "start"},
		{1, 1, 1, 1, "before é"},
		{2, 1, 1, 1, "inside é rounds down"},
		{3, 3, 2, 2, "before €"},
		{4, 3, 2, 2, "inside €"},
		{5, 3, 2, 2, "inside €"},
		{6, 6, 3, 3, "before 😀"},
		{8, 6, 3, 3, "inside 😀"},
		{9, 6, 3, 3, "inside 😀"},
		{10, 10, 5, 4, "before b"},
		{11, 11, 6, 5, "line end"},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			enc  Encoding
			want uint32
		}{{UTF8, tt.u8}, {UTF16, tt.u16}, {UTF32, tt.u32}} {
			if got := m.Position(tt.offset, c.enc); got != pos(0, c.want) {
				t.Errorf("%s: Position(%d, %s) = %v, want 0:%d", tt.comment, tt.offset, c.enc, got, c.want)
			}
			// The same on the second line.
			if got := m.Position(12+tt.offset, c.enc); got != pos(1, c.want) {
				t.Errorf("%s: Position(%d, %s) = %v, want 1:%d", tt.comment, 12+tt.offset, c.enc, got, c.want)
			}
		}
	}
}

func TestMapperOffsetMultiByte(t *testing.T) {
	m := NewMapper([]byte(mixed + "\n" + mixed))
	tests := []struct {
		enc  Encoding
		char uint32
		want int
	}{
		{UTF16, 0, 0}, {UTF16, 1, 1}, {UTF16, 2, 3}, {UTF16, 3, 6},
		{UTF16, 4, 6}, // between the two halves of the surrogate pair: rounds down
		{UTF16, 5, 10}, {UTF16, 6, 11},
		{UTF16, 7, 11}, {UTF16, 1000, 11}, // past the line end: the line end
		{UTF8, 1, 1}, {UTF8, 2, 1}, {UTF8, 3, 3}, {UTF8, 5, 3}, {UTF8, 6, 6}, {UTF8, 9, 6}, {UTF8, 10, 10}, {UTF8, 11, 11}, {UTF8, 12, 11},
		{UTF32, 3, 6}, {UTF32, 4, 10}, {UTF32, 5, 11}, {UTF32, 6, 11},
		{"", 4, 6}, // no encoding negotiated: utf-16
	}
	for _, tt := range tests {
		for line, base := range []int{0, 12} {
			got, err := m.Offset(pos(uint32(line), tt.char), tt.enc)
			if err != nil || got != base+tt.want {
				t.Errorf("Offset(%d:%d, %q) = %d, %v; want %d", line, tt.char, tt.enc, got, err, base+tt.want)
			}
		}
	}
	if _, err := m.Offset(pos(0, 0), "utf-7"); err == nil {
		t.Error("unknown encoding accepted")
	}
}

func TestMapperLineEnds(t *testing.T) {
	// Lines: "ab" (LF) "cd" (CRLF) "e" (lone CR) "" (CRLF) "€" (no end).
	content := "ab\ncd\r\ne\r\r\n€"
	m := NewMapper([]byte(content))
	if m.LineCount() != 5 {
		t.Fatalf("LineCount = %d, want 5", m.LineCount())
	}
	tests := []struct {
		offset int
		want   Position
	}{
		{0, pos(0, 0)}, {2, pos(0, 2)}, // before the LF: end of line 0
		{3, pos(1, 0)}, {5, pos(1, 2)},
		{6, pos(1, 2)}, // between CR and LF: still the end of line 1
		{7, pos(2, 0)}, {8, pos(2, 1)},
		{9, pos(3, 0)}, // after the lone CR: empty line 3
		{10, pos(3, 0)},
		{11, pos(4, 0)}, {14, pos(4, 1)},
		{-5, pos(0, 0)}, {1000, pos(4, 1)}, // clamped
	}
	for _, tt := range tests {
		if got := m.Position(tt.offset, UTF16); got != tt.want {
			t.Errorf("Position(%d) = %v, want %v", tt.offset, got, tt.want)
		}
	}
	offsets := []struct {
		p    Position
		want int
	}{
		{pos(0, 0), 0}, {pos(0, 2), 2}, {pos(0, 3), 2}, {pos(0, 99), 2},
		{pos(1, 2), 5}, {pos(1, 3), 5}, // never between CR and LF
		{pos(2, 1), 8}, {pos(2, 2), 8},
		{pos(3, 0), 9}, {pos(3, 5), 9},
		{pos(4, 0), 11}, {pos(4, 1), 14}, {pos(4, 2), 14},
		{pos(5, 0), 14}, {pos(1<<31, 7), 14}, // past the last line: end of document
	}
	for _, tt := range offsets {
		if got, err := m.Offset(tt.p, UTF16); err != nil || got != tt.want {
			t.Errorf("Offset(%v) = %d, %v; want %d", tt.p, got, err, tt.want)
		}
	}
}

func TestMapperTrailingNewline(t *testing.T) {
	m := NewMapper([]byte("x\n"))
	if m.LineCount() != 2 {
		t.Fatalf("LineCount = %d, want 2", m.LineCount())
	}
	if got := m.Position(2, UTF16); got != pos(1, 0) {
		t.Errorf("Position(EOF) = %v, want 1:0", got)
	}
	empty := NewMapper(nil)
	if got := empty.Position(3, UTF8); got != pos(0, 0) {
		t.Errorf("empty Position = %v", got)
	}
	if got, err := empty.Offset(pos(0, 4), UTF8); got != 0 || err != nil {
		t.Errorf("empty Offset = %d, %v", got, err)
	}
}

func TestMapperInvalidUTF8(t *testing.T) {
	// \xff and \xc3 (a truncated é) are one unit each; \xed\xa0\x80 is an
	// encoded surrogate, invalid in UTF-8: three units.
	content := "a\xffb\xc3c\xed\xa0\x80d"
	m := NewMapper([]byte(content))
	for _, enc := range []Encoding{UTF16, UTF32} {
		for off := 0; off <= len(content); off++ {
			p := m.Position(off, enc)
			if p != pos(0, uint32(off)) {
				t.Errorf("%s: Position(%d) = %v, want 0:%d", enc, off, p, off)
			}
			if got, _ := m.Offset(p, enc); got != off {
				t.Errorf("%s: Offset(%v) = %d, want %d", enc, p, got, off)
			}
		}
	}
}

// TestMapperAgainstUTF16 checks the mapper against a direct computation
// with unicode/utf16 on every rune boundary of a varied text.
func TestMapperAgainstUTF16(t *testing.T) {
	text := "def f(x):\r\n    return \"é€😀\" + x  # 👍🏽 ok\n\tpass\rz"
	m := NewMapper([]byte(text))
	line, lineStart := 0, 0
	for off := 0; off <= len(text); {
		prefix := text[lineStart:off]
		want16 := uint32(len(utf16.Encode([]rune(prefix))))
		want32 := uint32(utf8.RuneCountInString(prefix))
		if got := m.Position(off, UTF16); got != pos(uint32(line), want16) {
			t.Errorf("utf-16 Position(%d) = %v, want %d:%d", off, got, line, want16)
		}
		if got := m.Position(off, UTF32); got != pos(uint32(line), want32) {
			t.Errorf("utf-32 Position(%d) = %v, want %d:%d", off, got, line, want32)
		}
		if got := m.Position(off, UTF8); got != pos(uint32(line), uint32(len(prefix))) {
			t.Errorf("utf-8 Position(%d) = %v, want %d:%d", off, got, line, len(prefix))
		}
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			if back, _ := m.Offset(m.Position(off, enc), enc); back != off {
				t.Errorf("%s: Offset(Position(%d)) = %d", enc, off, back)
			}
		}
		if off == len(text) {
			break
		}
		switch text[off] {
		case '\n':
			off++
			line, lineStart = line+1, off
		case '\r':
			off++
			if off < len(text) && text[off] == '\n' {
				off++
			}
			line, lineStart = line+1, off
		default:
			_, size := utf8.DecodeRuneInString(text[off:])
			off += size
		}
	}
}

func TestPositionLC(t *testing.T) {
	m := NewMapper([]byte("x = 1\nyé = \"😀\" # c\r\n\nlast"))
	tests := []struct {
		line, col int
		enc       Encoding
		want      Position
	}{
		{1, 1, UTF16, pos(0, 0)},
		{1, 5, UTF16, pos(0, 4)},
		{1, 6, UTF16, pos(0, 5)},    // just past the last character
		{1, 40, UTF16, pos(0, 5)},   // clamped to the line end
		{2, 2, UTF16, pos(1, 1)},    // é
		{2, 4, UTF16, pos(1, 2)},    // byte after é
		{2, 3, UTF16, pos(1, 1)},    // inside é: rounds down
		{2, 8, UTF16, pos(1, 6)},    // 😀 starts at byte 7 (0-based)
		{2, 12, UTF16, pos(1, 8)},   // after 😀: two units
		{2, 12, UTF8, pos(1, 11)},   // utf-8: the byte column minus one
		{2, 12, UTF32, pos(1, 7)},   // utf-32: one unit for 😀
		{2, 100, UTF16, pos(1, 13)}, // end of line, before CRLF
		{3, 1, UTF16, pos(2, 0)},
		{3, 9, UTF16, pos(2, 0)},
		{4, 3, UTF8, pos(3, 2)},
		{0, 5, UTF16, pos(0, 0)}, // line before the first
		{-1, -1, UTF16, pos(0, 0)},
		{2, 0, UTF16, pos(1, 0)}, // column before the first
		{5, 1, UTF16, pos(3, 4)}, // line after the last: end of document
		{99, 99, UTF8, pos(3, 4)},
	}
	for _, tt := range tests {
		if got := m.PositionLC(tt.line, tt.col, tt.enc); got != tt.want {
			t.Errorf("PositionLC(%d, %d, %s) = %v, want %v", tt.line, tt.col, tt.enc, got, tt.want)
		}
	}
}

func TestMapperRange(t *testing.T) {
	m := NewMapper([]byte("a😀b"))
	if got, want := m.Range(1, 5, UTF16), (Range{Start: pos(0, 1), End: pos(0, 3)}); got != want {
		t.Errorf("Range = %v, want %v", got, want)
	}
}

func change(sl, sc, el, ec uint32, text string) TextDocumentContentChangeEvent {
	return TextDocumentContentChangeEvent{Range: &Range{Start: pos(sl, sc), End: pos(el, ec)}, Text: text}
}

func TestApplyChanges(t *testing.T) {
	tests := []struct {
		name    string
		content string
		enc     Encoding
		changes []TextDocumentContentChangeEvent
		want    string
	}{
		{"no changes", "abc", UTF16, nil, "abc"},
		{"insert", "abc", UTF16, []TextDocumentContentChangeEvent{change(0, 1, 0, 1, "XY")}, "aXYbc"},
		{"delete", "abc", UTF16, []TextDocumentContentChangeEvent{change(0, 1, 0, 2, "")}, "ac"},
		{"full replacement", "abc", UTF16, []TextDocumentContentChangeEvent{{Text: "new\n"}}, "new\n"},
		{
			"spanning lines", "line one\nline two\r\nline three\n", UTF16,
			[]TextDocumentContentChangeEvent{change(0, 5, 2, 4, "ONE/TWO/")},
			"line ONE/TWO/ three\n",
		},
		{
			"sequential edits see previous ones", "a\nb\nc", UTF16,
			[]TextDocumentContentChangeEvent{
				change(0, 1, 0, 1, "\nnew"), // a / new / b / c
				change(2, 0, 2, 1, "B"),     // line 2 is now "b"
				change(3, 0, 3, 1, "C"),
			},
			"a\nnew\nB\nC",
		},
		{
			"emoji utf-16", "x = \"😀😀\"\ny", UTF16,
			// Replace the second 😀 (units 7..9) with é.
			[]TextDocumentContentChangeEvent{change(0, 7, 0, 9, "é")},
			"x = \"😀é\"\ny",
		},
		{
			"emoji utf-8", "x = \"😀😀\"\ny", UTF8,
			[]TextDocumentContentChangeEvent{change(0, 9, 0, 13, "é")},
			"x = \"😀é\"\ny",
		},
		{
			"emoji utf-32", "x = \"😀😀\"\ny", UTF32,
			[]TextDocumentContentChangeEvent{change(0, 6, 0, 7, "é")},
			"x = \"😀é\"\ny",
		},
		{
			"emoji then multi-line delete", "€😀\nab😀\ncd", UTF16,
			[]TextDocumentContentChangeEvent{
				change(1, 2, 1, 4, "!"), // ab!
				change(0, 1, 2, 1, ""),  // € + d
			},
			"€d",
		},
		{
			"inside a surrogate pair rounds down", "😀z", UTF16,
			[]TextDocumentContentChangeEvent{change(0, 1, 0, 1, "|")},
			"|😀z",
		},
		{
			"full replacement then incremental", "old", UTF16,
			[]TextDocumentContentChangeEvent{{Text: "é\n"}, change(1, 0, 1, 0, "x")},
			"é\nx",
		},
		{
			"append past the end", "ab\n", UTF16,
			[]TextDocumentContentChangeEvent{change(5, 0, 5, 0, "tail")},
			"ab\ntail",
		},
		{
			"character past the line end", "ab\ncd", UTF16,
			[]TextDocumentContentChangeEvent{change(0, 10, 0, 10, "!")},
			"ab!\ncd",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.content)
			got, err := ApplyChanges(in, tt.changes, tt.enc)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if string(in) != tt.content {
				t.Errorf("input modified to %q", in)
			}
		})
	}

	if _, err := ApplyChanges([]byte("abc"), []TextDocumentContentChangeEvent{change(0, 2, 0, 1, "")}, UTF16); err == nil {
		t.Error("reversed range accepted")
	}
	if _, err := ApplyChanges([]byte("abc"), nil, "latin-1"); err == nil {
		t.Error("unknown encoding accepted")
	}
}

// TestApplyChangesSimulatedTyping replays an editor typing a text one
// character at a time with UTF-16 positions and compares with the text.
func TestApplyChangesSimulatedTyping(t *testing.T) {
	text := "é€😀\r\nx😀y\rz\n"
	var doc []byte
	var line, char uint32
	for _, r := range text {
		ev := change(line, char, line, char, string(r))
		var err error
		doc, err = ApplyChanges(doc, []TextDocumentContentChangeEvent{ev}, UTF16)
		if err != nil {
			t.Fatal(err)
		}
		p := NewMapper(doc).Position(len(doc), UTF16)
		line, char = p.Line, p.Character
	}
	if string(doc) != text {
		t.Errorf("typed %q, want %q", doc, text)
	}
	if want := fmt.Sprint(pos(3, 0)); fmt.Sprint(pos(line, char)) != want {
		t.Errorf("cursor at %d:%d, want %s", line, char, want)
	}
}
