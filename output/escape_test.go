package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

// hostile are names a repository can give its files and config keys: a
// line feed that would forge a finding line, escape sequences that set
// the terminal's title or clear it, a C1 control, and the bidirectional
// overrides of "Trojan source".
var hostile = []struct{ name, in, want string }{
	{"line feed", "dir\nx.py:9:9: GL999 forged", `dir\nx.py:9:9: GL999 forged`},
	{"carriage return", "a\rb", `a\rb`},
	{"OSC title", "a\x1b]0;owned\x07b", `a\x1b]0;owned\x07b`},
	{"clear screen", "\x1b[2Jk", `\x1b[2Jk`},
	{"C1 CSI", "a\u009bb", `a\x9bb`},
	{"RLO", "x\u202eyp.exe", `x\u202eyp.exe`},
	{"isolates", "\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`},
	{"marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
	{"separators", "a\u2028b\u2029", `a\u2028b\u2029`},
	{"tab kept", "a\tb", "a\tb"},
	{"ordinary", "resources_servers/é/app.py", "resources_servers/é/app.py"},
}

func TestVisible(t *testing.T) {
	for _, tc := range hostile {
		if got := Visible(tc.in); got != tc.want {
			t.Errorf("%s: Visible(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// terminalSafe reports what of out a terminal would act on.
func terminalSafe(t *testing.T, format, out string, lines int) {
	t.Helper()
	if n := strings.Count(out, "\n"); n != lines {
		t.Errorf("%s: %d lines, want %d:\n%s", format, n, lines, out)
	}
	for _, bad := range []string{"\x1b", "\r", "\u009b", "\u202e", "\u2066", "\u200f", "\u2028"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s: output holds %q:\n%q", format, bad, out)
		}
	}
}

// TestTextEscapes: a finding is one line of the text format whatever its
// path and message hold, and nothing in them reaches the terminal.
func TestTextEscapes(t *testing.T) {
	var ds []diag.Diagnostic
	for _, tc := range hostile[:9] {
		ds = append(ds, diag.Diagnostic{Path: tc.in + "/app.py", Start: diag.Pos{Line: 1, Col: 1}, Code: "GL101",
			Message: "server " + tc.in + " has no app"})
	}
	var b bytes.Buffer
	if err := Write(&b, "text", ds, Options{}); err != nil {
		t.Fatal(err)
	}
	terminalSafe(t, "text", b.String(), len(ds))
	if first := strings.SplitN(b.String(), "\n", 2)[0]; first != `dir\nx.py:9:9: GL999 forged/app.py:1:1: GL101 server dir\nx.py:9:9: GL999 forged has no app` {
		t.Errorf("first line: %q", first)
	}
	// Display's result is escaped too.
	b.Reset()
	if err := Write(&b, "text", ds[:1], Options{Display: func(p string) string { return "../\x1b[2J" + p }}); err != nil {
		t.Fatal(err)
	}
	terminalSafe(t, "text with Display", b.String(), 1)
}

// TestFullEscapes: the full format escapes paths (the finding's and the
// related positions'), messages, and the source line, whose caret still
// lines up under the escaped text.
func TestFullEscapes(t *testing.T) {
	src := func(string) ([]byte, error) {
		return []byte("if access_level != \"user\u202e \u2066// check\u2069 \u2066\":\n"), nil
	}
	ds := []diag.Diagnostic{{Path: "a\nb\x1b[2J.py", Start: diag.Pos{Line: 1, Col: 35}, End: diag.Pos{Line: 1, Col: 40},
		Code: "GL101", Severity: diag.Error, Message: "m\x1b]0;t\x07",
		Related: []diag.Related{{Path: "c\u202e.yaml", Start: diag.Pos{Line: 1, Col: 1}, Message: "here\u2028"}},
		Fixes:   []diag.Fix{{Message: "fix \x1b[31m"}}}}
	var b bytes.Buffer
	if err := Write(&b, "full", ds, Options{Source: src}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	terminalSafe(t, "full", out, 9)
	// The caret is under "check": 24 bytes, two escapes of 6 columns,
	// a space and "// " before it.
	want := "a\\nb\\x1b[2J.py:1:35: GL101 [error] m\\x1b]0;t\\x07\n" +
		"  |\n" +
		"1 | if access_level != \"user\\u202e \\u2066// check\\u2069 \\u2066\":\n" +
		"  | " + strings.Repeat(" ", 24+6+1+6+3) + "^^^^^\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant it to start with\n%s", out, want)
	}
	if !strings.Contains(out, "= related: c\\u202e.yaml:1:1: here\\u2028\n") || !strings.Contains(out, "= fix: fix \\x1b[31m (") {
		t.Errorf("related or fix not escaped:\n%s", out)
	}
}

// TestGitHubEscapes: the annotation's message keeps its line breaks (as
// %0A) and loses its escape sequences; the file property is the path.
func TestGitHubEscapes(t *testing.T) {
	ds := []diag.Diagnostic{{Path: "a\u202eb.py", Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2},
		Code: "GL101", Severity: diag.Error, Message: "key \x1b[2J\u202e", Help: "h"}}
	var b bytes.Buffer
	if err := Write(&b, "github", ds, Options{}); err != nil {
		t.Fatal(err)
	}
	line := strings.SplitN(b.String(), "\n", 2)[0]
	if want := "::error file=a\u202eb.py,line=1,col=1,endLine=1,endColumn=2,title=GL101::key \\x1b[2J\\u202e%0Ahelp: h"; line != want {
		t.Errorf("got  %q\nwant %q", line, want)
	}
}
