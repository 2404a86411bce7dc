package output

import (
	"errors"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

func TestFull(t *testing.T) {
	files := map[string]string{
		"app.py":  "import ray\n\n\nclass S(Base):\n\tdef f(self):  # é\n\t\treturn ray.get(x)\n",
		"c.yaml":  "s:\n  resources_servers:\n    s:\n      entrypoint: app.py\n",
		"bad.py":  "x = '\x1b[31mred'\n",
		"gone.py": "",
	}
	src := func(p string) ([]byte, error) {
		if p == "gone.py" {
			return nil, errors.New("no such file")
		}
		return []byte(files[p]), nil
	}
	ds := []diag.Diagnostic{
		{Path: "app.py", Start: diag.Pos{Line: 4, Col: 7}, End: diag.Pos{Line: 4, Col: 8}, Code: "GL101", Severity: diag.Error, Message: "server S has no app",
			Related: []diag.Related{{Path: "c.yaml", Start: diag.Pos{Line: 4, Col: 19}, End: diag.Pos{Line: 4, Col: 25}, Message: "named here"}},
			Fixes:   []diag.Fix{{Message: "add an app", Applicability: diag.Unsafe}, {Message: "remove it"}}},
		{Path: "app.py", Start: diag.Pos{Line: 6, Col: 10}, End: diag.Pos{Line: 6, Col: 20}, Code: "GL201", Severity: diag.Warning, Message: "uses Ray"},
		{Path: "app.py", Start: diag.Pos{Line: 5, Col: 2}, End: diag.Pos{Line: 6, Col: 3}, Code: "GL999", Severity: diag.Info, Message: "two\nlines"},
		{Path: "bad.py", Start: diag.Pos{Line: 1, Col: 5}, End: diag.Pos{Line: 1, Col: 17}, Code: "GL001", Severity: diag.Error, Message: "m"},
		{Path: "gone.py", Start: diag.Pos{Line: 3, Col: 1}, Code: "GL002", Severity: diag.Error, Message: "unreadable"},
	}
	var b strings.Builder
	if err := Full(&b, ds, Options{Source: src, Display: func(p string) string { return "sub/" + p }}); err != nil {
		t.Fatal(err)
	}
	want := "sub/app.py:4:7: GL101 [error] server S has no app\n" +
		"  |\n" +
		"4 | class S(Base):\n" +
		"  |       ^\n" +
		"  = related: sub/c.yaml:4:19: named here\n" +
		"      |\n" +
		"    4 |       entrypoint: app.py\n" +
		"      |                   ^^^^^^\n" +
		"  = fix: add an app (unsafe fix: review it; gymlint --fix --unsafe-fixes applies it)\n" +
		"  = fix: remove it (safe fix: gymlint --fix applies it)\n" +
		"\n" +
		"sub/app.py:6:10: GL201 [warning] uses Ray\n" +
		"  |\n" +
		"6 | \t\treturn ray.get(x)\n" +
		"  | \t\t       ^^^^^^^^^^\n" +
		"\n" +
		"sub/app.py:5:2: GL999 [info] two\\nlines\n" +
		"  |\n" +
		"5 | \tdef f(self):  # é\n" +
		"  | \t^^^^^^^^^^^^^^^^^ (and 1 more line)\n" +
		"\n" +
		"sub/bad.py:1:5: GL001 [error] m\n" +
		"  |\n" +
		"1 | x = '\\x1b[31mred'\n" +
		"  |     ^^^^^^^^^^^^^\n" +
		"\n" +
		"sub/gone.py:3:1: GL002 [error] unreadable\n"
	if got := b.String(); got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("line %d: got %q, want %q", i+1, gl[i], wl[i])
			}
		}
		if len(gl) != len(wl) {
			t.Errorf("got %d lines, want %d:\n%s", len(gl), len(wl), got)
		}
	}
	b.Reset()
	if err := Full(&b, ds[:1], Options{Source: src, Color: true}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "\x1b[1m\x1b[31mGL101\x1b[0m") || !strings.Contains(out, "\x1b[1m\x1b[31m^\x1b[0m") {
		t.Errorf("colour: %q", out)
	}
}
