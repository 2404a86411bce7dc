package pyfix

import (
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/pyscan"
)

func parse(t *testing.T, src string) *pyscan.Module {
	t.Helper()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	m := p.Parse("srv/app.py", []byte(src))
	if m.SyntaxError != nil {
		t.Fatalf("%q: %v", src, m.SyntaxError)
	}
	return m
}

// apply applies edits (sorted here) to src.
func apply(src string, edits []diag.TextEdit) string {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b diag.TextEdit) int { return a.Start.Offset - b.Start.Offset })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.Start.Offset])
		b.WriteString(e.NewText)
		last = e.End.Offset
	}
	b.WriteString(src[last:])
	return b.String()
}

func TestAppendToClass(t *testing.T) {
	block := []string{"def reason(self) -> str | None:", "\treturn \"why\""}
	for _, tc := range []struct{ name, src, want string }{
		{"spaces", "class S(B):\n    x = 1\n\nrun()\n",
			"class S(B):\n    x = 1\n\n    def reason(self) -> str | None:\n        return \"why\"\n\nrun()\n"},
		{"two-space indentation", "class S(B):\n  x = 1\n",
			"class S(B):\n  x = 1\n\n  def reason(self) -> str | None:\n    return \"why\"\n"},
		{"tabs and CRLF", "class S(B):\r\n\tx = 1\r\n",
			"class S(B):\r\n\tx = 1\r\n\r\n\tdef reason(self) -> str | None:\r\n\t\treturn \"why\"\r\n"},
		{"body on the class's line", "class S(B): pass\n",
			"class S(B):\n    pass\n\n    def reason(self) -> str | None:\n        return \"why\"\n"},
		{"a body that is only pass", "class S(B):\n    pass\n\nrun()\n",
			"class S(B):\n    def reason(self) -> str | None:\n        return \"why\"\n\nrun()\n"},
		{"a pass with a comment stays", "class S(B):\n    pass  # nothing yet\n",
			"class S(B):\n    pass  # nothing yet\n\n    def reason(self) -> str | None:\n        return \"why\"\n"},
		{"no final line ending", "class S(B):\n    x = 1",
			"class S(B):\n    x = 1\n\n    def reason(self) -> str | None:\n        return \"why\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parse(t, tc.src)
			edits, ok := AppendToClass(m, m.Classes[0], block, true)
			if !ok {
				t.Fatal("no edits")
			}
			if got := apply(tc.src, edits); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestInsertFirst(t *testing.T) {
	block := []string{"refuse(self)"}
	for _, tc := range []struct{ name, src, want string }{
		{"first statement", "def f(self):\n    setup()\n", "def f(self):\n    refuse(self)\n    setup()\n"},
		{"after the docstring", "def f(self):\n\t\"\"\"Doc.\"\"\"\n\tsetup()\n", "def f(self):\n\t\"\"\"Doc.\"\"\"\n\trefuse(self)\n\tsetup()\n"},
		{"only a docstring", "def f(self):\n    \"\"\"Doc.\"\"\"\n", "def f(self):\n    \"\"\"Doc.\"\"\"\n    refuse(self)\n"},
		{"body on the def's line", "def f(self): setup()\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parse(t, tc.src)
			e, ok := InsertFirst(m, "", m.Functions[0].Body, block)
			if tc.want == "" {
				if ok {
					t.Fatalf("got %+v, want none", e)
				}
				return
			}
			if !ok {
				t.Fatal("no edit")
			}
			if got := apply(tc.src, []diag.TextEdit{e}); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestDeleteLines(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a statement", "class S:\n    a = 1\n    b = 2\n", "class S:\n    b = 2\n"},
		{"with a comment after it", "class S:\n    a = 1  # why\n    b = 2\n", "class S:\n    b = 2\n"},
		{"sharing its line", "class S:\n    a = 1; b = 2\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parse(t, tc.src)
			e, ok := DeleteLines(m, m.Classes[0].Body[0].Range())
			if tc.want == "" {
				if ok {
					t.Fatalf("got %+v, want none", e)
				}
				return
			}
			if got := apply(tc.src, []diag.TextEdit{e}); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	if got := String(parse(t, "x = 'a'\n"), `it's a "test"\`); got != `'it\'s a "test"\\'` {
		t.Errorf("single: %s", got)
	}
	if got := String(parse(t, "x = \"a\"\n"), "say \"hi\"\n"); got != `"say \"hi\"\n"` {
		t.Errorf("double: %s", got)
	}
}
