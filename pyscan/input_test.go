package pyscan

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestBracketContinuation: a line inside brackets indented less than its
// statement is valid Python (CPython ignores line breaks inside brackets);
// tree-sitter-python's scanner takes it for a dedent after a token that no
// closing bracket can follow, and without the rewrite of input.go the
// file had a syntax error (at 2:5 here; a whole file at 1:1 in CPython's
// Lib/test/test_compile.py).
func TestBracketContinuation(t *testing.T) {
	src := py(`
		def f():
			(bar.
		baz)
			x = [1 +
		2,  # two
		  3]
			return g(a=
		x)
		class S(Base):
			async def run(self):
				return {"k":
			4}
	`)
	m := parseSrc(t, src)
	if m.SyntaxError != nil {
		t.Fatalf("syntax error %+v at %s", *m.SyntaxError, lc(m, m.SyntaxError.Span.Start))
	}
	if len(m.Functions) != 1 || len(m.Classes) != 1 || len(m.Body) != 2 {
		t.Fatalf("%d functions, %d classes, %d statements", len(m.Functions), len(m.Classes), len(m.Body))
	}
	f := m.Functions[0]
	var got []string
	for _, s := range f.Body {
		got = append(got, lc(m, s.Range().Start)+" "+strings.ReplaceAll(m.Text(s), "\n", `\n`))
	}
	checkLines(t, "f's body", got, []string{
		"2:5 (bar.\\nbaz)",
		"4:5 x = [1 +\\n2,  # two\\n  3]",
		"7:5 return g(a=\\nx)",
	})
	if a, ok := f.Body[0].(*ExprStmt).Value.(*Attribute); !ok || a.Attr != "baz" || Dotted(a) != "bar.baz" {
		t.Errorf("(bar.\\nbaz) is %s", dump(f.Body[0]))
	}
	// The comment inside the brackets, which the rewrite blanked out for
	// tree-sitter, is still in the model, in order.
	var comments []string
	for _, c := range m.Comments {
		comments = append(comments, lc(m, c.Start)+" "+m.SpanText(c))
	}
	checkLines(t, "comments", comments, []string{"5:5 # two"})
	if n := len(m.Classes[0].Methods); n != 1 {
		t.Errorf("%d methods", n)
	}

	// A file that is broken elsewhere keeps its error where it is.
	broken := src + "def g(:\n    pass\n"
	bm := parseSrc(t, broken)
	if bm.SyntaxError == nil || lc(bm, bm.SyntaxError.Span.Start) != "13:7" {
		t.Errorf("broken file: %+v", bm.SyntaxError)
	}
	// A file whose rewrite errs at the same place keeps the parse of its
	// own text: the error does not run on to the end of the joined text.
	unclosed := "class S:\n    async def verify(self, body):\n        expected = sum(\n            1 for n in body.numbers if n > body.limit\n" +
		"        distance = abs(int(body.text or 0) - expected)\n        return Response(text=body.text, reward=1.0 / (1 + distance))\n" +
		"\n\nif __name__ == \"__main__\":\n    S.run_webserver()\n"
	if um := parseSrc(t, unclosed); um.SyntaxError == nil || lc(um, um.SyntaxError.Span.Start) != "3:9" || lc(um, um.SyntaxError.Span.End) != "9:27" {
		t.Errorf("unclosed bracket: %+v", um.SyntaxError)
	}
	// A layout error the walker finds is still found.
	if m := parseSrc(t, "def f():\n    (a.\nb)\n      c = 1\n"); m.SyntaxError == nil || lc(m, m.SyntaxError.Span.Start) != "4:7" {
		t.Errorf("unexpected indent after a continuation: %+v", m.SyntaxError)
	}
}

// TestBracketText checks the rewrite itself: which line breaks are inside
// brackets, as CPython's tokenizer reads strings, f-strings and comments.
func TestBracketText(t *testing.T) {
	const block = "if a:\n  "
	if _, _, dedent := bracketText([]byte("x = (a,\nb)\n")); dedent {
		t.Errorf("a continuation at module level is no dedent")
	}
	for _, tc := range []struct {
		in, out string
		dedent  bool
	}{
		{"x = (a,\nb)\n", "x = (a, b)\n", true},
		{"x = (a,\n    b)\n", "x = (a,     b)\n", false},
		{"x = (a,\n  b)\n", "x = (a,   b)\n", false},
		{"x = (a,\n b)\n", "x = (a,  b)\n", true},
		// Strings: brackets and line breaks in them are text.
		{"x = '(' + \"[\" + '''\n(''' + r'\\' + b'\\'(' \ny = 1\n", "x = '(' + \"[\" + '''\n(''' + r'\\' + b'\\'(' \ny = 1\n", false},
		{"x = ('''a\n''' +\nb)\n", "x = ('''a\n''' + b)\n", true},
		// An unterminated string ends at its line's end.
		{"x = 'abc\n  y = (1,\n2)\n", "x = 'abc\n  y = (1, 2)\n", true},
		// Comments inside brackets are blanked out; outside, kept.
		{"x = (1,  # c (\n2)  # d\n", "x = (1," + strings.Repeat(" ", 8) + "2)  # d\n", true},
		// A backslash continuation inside brackets, and CRLF.
		{"x = (1 + \\\r\n2)\r\ny = 3\r\n", "x = (1 +    2)\r\ny = 3\r\n", true},
		// A backslash continuation outside brackets continues the statement.
		{"x = 1 + \\\n  (2,\n 3)\n", "x = 1 + \\\n  (2,  3)\n", true},
		// f-strings: fields are code, their specifications text, and a
		// field may hold the f-string's own quotes (Python 3.12).
		{"x = (f'{a}(' +\nb)\n", "x = (f'{a}(' + b)\n", true},
		{"x = f'{a:(}' + (\nb)\n", "x = f'{a:(}' + ( b)\n", true},
		{"x = f\"{d[\"k\"]:>{w}}\" + (\nb)\n", "x = f\"{d[\"k\"]:>{w}}\" + ( b)\n", true},
		{"x = f'''{(a +\nb)}'''\n", "x = f'''{(a + b)}'''\n", true},
		{"x = f'{{(}}' + (\nb)\n", "x = f'{{(}}' + ( b)\n", true},
		{"x = rf'\\{a}(' + (\nb)\n", "x = rf'\\{a}(' + ( b)\n", true},
		{"x = f'{a!r}' + (\nb)\n", "x = f'{a!r}' + ( b)\n", true},
		// A prefix is only a prefix when the whole word is one.
		{"x = (ur'(',\nb)\n", "x = (ur'(', b)\n", true},
		// Blank and comment-only lines say nothing about indentation.
		{"x = (1,\n\n# c\n  2)\n", "x = (1," + strings.Repeat(" ", 8) + "2)\n", false},
	} {
		// Inside a block (indented by 2), dedent says whether a line
		// inside brackets is indented less than its statement.
		if out, _, _ := bracketText([]byte(tc.in)); string(out) != tc.out {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, out, tc.out)
		}
		out, comments, dedent := bracketText([]byte(block + tc.in))
		if string(out) != block+tc.out || dedent != tc.dedent {
			t.Errorf("%q in a block:\n got %q dedent=%v\nwant %q dedent=%v", tc.in, out, dedent, block+tc.out, tc.dedent)
		}
		for i := range comments {
			comments[i].Start -= int32(len(block))
			comments[i].End -= int32(len(block))
		}
		out = out[len(block):]
		if len(out) != len(tc.in) {
			t.Errorf("%q: the rewrite changed the length", tc.in)
		}
		for _, c := range comments {
			if tc.in[c.Start] != '#' || strings.ContainsAny(tc.in[c.Start:c.End], "\n") || strings.TrimSpace(string(out[c.Start:c.End])) != "" {
				t.Errorf("%q: comment %q", tc.in, tc.in[c.Start:c.End])
			}
		}
	}
}

// TestLoneCR: CPython ends lines at "\n", "\r\n" and a lone "\r"; so do
// pyscan's positions, and tree-sitter-python (which takes a lone "\r" for
// white space) parses the text with each lone "\r" made "\n".
func TestLoneCR(t *testing.T) {
	src := "import os\r# note\rx = 1\r\ndef f():\r    '''a\rb'''\r    return (1,\r2)\ry = 'é'; z = 3\n\rclass C: pass"
	m := parseSrc(t, src)
	if m.SyntaxError != nil {
		t.Fatalf("syntax error %+v at %s", *m.SyntaxError, lc(m, m.SyntaxError.Span.Start))
	}
	var got []string
	for _, s := range m.Body {
		got = append(got, fmt.Sprintf("%s-%s %s", lc(m, s.Range().Start), lc(m, s.Range().End), kindOf(s)))
	}
	checkLines(t, "statements", got, []string{
		"1:1-1:10 ImportStmt",
		"3:1-3:6 Assign",
		"4:1-8:3 Function",
		"9:1-9:9 Assign",
		"9:11-9:16 Assign",
		"11:1-11:14 Class",
	})
	if len(m.Imports) != 1 || m.Imports[0].Module != "os" || len(m.Comments) != 1 || m.SpanText(m.Comments[0]) != "# note" {
		t.Errorf("imports %v, comments %v", m.Imports, m.Comments)
	}
	doc, _ := Str(m.Functions[0].Body[0].(*ExprStmt).Value)
	if doc != "a\nb" {
		t.Errorf("docstring %q, want CPython's %q", doc, "a\nb")
	}
	y := int32(strings.Index(src, "y ="))
	for _, tc := range []struct {
		what      string
		got, want any
	}{
		{"LineStart(y)", m.LineStart(y), y},
		{"LineEndsAfter(0)", m.LineEndsAfter(0), int32(len("import os\r"))},
		{"LineEndsAfter(x)", m.LineEndsAfter(int32(strings.Index(src, "x ="))), int32(strings.Index(src, "def"))},
		{"LineEnding(0)", m.LineEnding(0), "\r"},
		{"LineEnding(x)", m.LineEnding(int32(strings.Index(src, "x ="))), "\r\n"},
		{"LineEnding(y)", m.LineEnding(y), "\n"},
		{"Newline", m.Newline(), "\r"},
		{"Indent of return", m.Indent(int32(strings.Index(src, "return"))), "    "},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	// A lone "\r" ends a comment, and a line continuation.
	if m := parseSrc(t, "x = 1 + \\\r2  # c\ry = x\r"); m.SyntaxError != nil || len(m.Body) != 2 || len(m.Bindings) != 2 {
		t.Errorf("continuation over a lone CR: %v, %d statements", m.SyntaxError, len(m.Body))
	}
	// A lone "\r" in a single-quoted string ends its line: CPython's error.
	if m := parseSrc(t, "x = 'a\rb'\r"); m.SyntaxError == nil {
		t.Errorf("a lone CR inside a one-line string: no syntax error")
	}
}

// TestRewrittenNotRetained: the parse of a rewritten text is not kept for
// an incremental parse (the tree is of another text), and the model is
// Parse's either way.
func TestRewrittenNotRetained(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	for _, src := range []string{
		"x = 1\ry = 2\r",
		"def f():\n    (bar.\nbaz)\n",
		"x = 1\n",
	} {
		m, r := p.ParseIncremental("m.py", []byte(src), nil)
		rewritten := strings.Contains(src, "\r") || strings.Contains(src, "bar")
		if (r == nil) != rewritten {
			t.Errorf("%q: retained %v", src, r != nil)
		}
		if want := p.Parse("m.py", []byte(src)); !reflect.DeepEqual(m, want) {
			t.Errorf("%q: ParseIncremental's model differs from Parse's", src)
		}
		// The next version parses from scratch, and alike.
		next := src + "z = 3\n"
		m2, r2 := p.ParseIncremental("m.py", []byte(next), r)
		r2.Close()
		if want := p.Parse("m.py", []byte(next)); !reflect.DeepEqual(m2, want) || m2.SyntaxError != nil {
			t.Errorf("%q: the next version's model differs from Parse's (%v)", next, m2.SyntaxError)
		}
	}
}
