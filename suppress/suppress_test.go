package suppress

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

var catalogue = []*diag.Rule{
	{Code: "GL006", Name: "yaml-thing", Analyzer: "core", Severity: diag.Error},
	{Code: "GL101", Name: "undeclared-workers", Analyzer: "workers", Severity: diag.Error},
	{Code: "GL102", Name: "late-worker-refusal", Analyzer: "workers", Severity: diag.Error},
	{Code: "GL201", Name: "go-thing", Analyzer: "goworkers", Severity: diag.Error},
	{Code: "GL202", Name: "go-other", Analyzer: "goworkers", Severity: diag.Error},
	core.SuppressionWithoutReason, core.UnusedSuppression, core.MalformedSuppression,
	core.SyntaxError, core.UnreadableFile, core.InvalidConfig, core.DuplicateConfigKey, core.GoLoadError, core.InternalError,
}

func lookup(key string) *diag.Rule {
	for _, r := range catalogue {
		if r.Code == key || r.Name == key {
			return r
		}
	}
	return nil
}

// finding makes a diagnostic of code at path:line, column 1.
func finding(spec string) diag.Diagnostic {
	var p, code string
	var n int
	at, code, _ := strings.Cut(spec, " ")
	i := strings.LastIndexByte(at, ':')
	p = at[:i]
	fmt.Sscan(at[i+1:], &n)
	pos := diag.Pos{Line: n, Col: 1}
	return lookup(code).New(p, pos, pos, "finding")
}

func show(ds []diag.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d:%d %s", d.Path, d.Start.Line, d.Start.Col, d.Code))
	}
	return out
}

type tc struct {
	name  string
	files map[string]string
	ds    []string // "path:line CODE"
	scan  []string
	want  []string // "path:line:col CODE", sorted
	msg   string   // a part of the message of the one GL009/GL010, if any
}

func run(t *testing.T, cases []tc) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ds []diag.Diagnostic
			for _, s := range c.ds {
				ds = append(ds, finding(s))
			}
			read := func(p string) ([]byte, error) {
				s, ok := c.files[p]
				if !ok {
					return nil, os.ErrNotExist
				}
				return []byte(s), nil
			}
			got := Apply(ds, c.scan, read, lookup)
			want := c.want
			if want == nil {
				want = []string{}
			}
			if g := show(got); !reflect.DeepEqual(g, want) {
				t.Fatalf("got  %q\nwant %q\n%s", g, want, msgs(got))
			}
			if c.msg != "" {
				found := false
				for _, d := range got {
					if isSelfCode(d.Code) && strings.Contains(withHelp(d), c.msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no GL009/GL010 message contains %q:\n%s", c.msg, msgs(got))
				}
			}
		})
	}
}

// withHelp is a diagnostic's message and, when it has one, " help: " and its
// help, as the gymtest expectations read it.
func withHelp(d diag.Diagnostic) string {
	if d.Help == "" {
		return d.Message
	}
	return d.Message + " help: " + d.Help
}

func msgs(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s:%d:%d-%d:%d %s %s\n", d.Path, d.Start.Line, d.Start.Col, d.End.Line, d.End.Col, d.Code, withHelp(d))
	}
	return b.String()
}

func TestPython(t *testing.T) {
	f := func(s string) map[string]string { return map[string]string{"a.py": s} }
	run(t, []tc{
		{name: "same line",
			files: f("class A(B):  # gymlint: ignore[GL101] started by a factory\n    pass\n"),
			ds:    []string{"a.py:1 GL101"}},
		{name: "line above",
			files: f("# gymlint: ignore[GL101] started by a factory\nclass A(B):\n    pass\n"),
			ds:    []string{"a.py:2 GL101"}},
		{name: "line above, indented, under stacked comments",
			files: f("def f():\n    # gymlint: ignore[GL101] reason one\n    # gymlint: ignore[GL102] reason two\n    # an explanation\n    x = 1\n"),
			ds:    []string{"a.py:5 GL101", "a.py:5 GL102"}},
		{name: "a trailing suppression does not cover the next line",
			files: f("x = 1  # gymlint: ignore[GL101] reason\nclass A(B): pass\n"),
			ds:    []string{"a.py:2 GL101"},
			want:  []string{"a.py:1:8 GL010", "a.py:2:1 GL101"},
			msg:   "unused suppression: nothing on line 1 reports GL101 help: remove the suppression"},
		{name: "a blank line ends the line above",
			files: f("# gymlint: ignore[GL101] reason\n\nclass A(B): pass\n"),
			ds:    []string{"a.py:3 GL101"},
			want:  []string{"a.py:1:1 GL010", "a.py:3:1 GL101"}},
		{name: "file level in the leading comment block",
			files: f("#!/usr/bin/env python\n# Copyright\n\n# gymlint: ignore-file[GL101,GL102] built by a factory\nimport x\n\nclass A(B): pass\nclass C(B): pass\n"),
			ds:    []string{"a.py:7 GL101", "a.py:8 GL101", "a.py:8 GL102"}},
		{name: "file level after code is misplaced",
			files: f("import x\n# gymlint: ignore-file[GL101] reason\nclass A(B): pass\n"),
			ds:    []string{"a.py:3 GL101"},
			want:  []string{"a.py:2:1 GL010", "a.py:3:1 GL101"},
			msg:   "comes after the first line of code, so it suppresses nothing help: move it into the comment block at the top of the file"},
		{name: "file level after a docstring is misplaced",
			files: f("\"\"\"Doc.\n\n# gymlint: ignore-file[GL101] inside the docstring\n\"\"\"\n# gymlint: ignore-file[GL101] reason\nclass A(B): pass\n"),
			ds:    []string{"a.py:6 GL101"},
			want:  []string{"a.py:5:1 GL010", "a.py:6:1 GL101"}},
		// A lone "\r" ends a line, as for CPython and pyscan's positions.
		{name: "lone CR, line above",
			files: f("import os\r# gymlint: ignore[GL101] reason\rclass A(B):\r    pass\r"),
			ds:    []string{"a.py:3 GL101"}},
		{name: "lone CR, same line",
			files: f("x = 1\r\ny = 2\rclass A(B):  # gymlint: ignore[GL101] reason\r    pass"),
			ds:    []string{"a.py:3 GL101"}},
		{name: "lone CR, the line after is not covered",
			files: f("# gymlint: ignore[GL101] reason\rx = 1\rclass A(B): pass\r"),
			ds:    []string{"a.py:3 GL101"},
			want:  []string{"a.py:1:1 GL010", "a.py:3:1 GL101"}},
		{name: "several codes",
			files: f("class A(B):  # gymlint: ignore[GL101, GL102] reason\n    pass\n"),
			ds:    []string{"a.py:1 GL101", "a.py:1 GL102"}},
		{name: "several codes, one unused",
			files: f("class A(B):  # gymlint: ignore[GL101,GL102] reason\n    pass\n"),
			ds:    []string{"a.py:1 GL101"},
			want:  []string{"a.py:1:14 GL010"},
			msg:   "suppression partly unused: nothing on line 1 reports GL102 help: remove GL102 from the suppression"},
		{name: "names instead of codes",
			files: f("# gymlint: ignore[undeclared-workers,GL102] reason\nclass A(B): pass\n"),
			ds:    []string{"a.py:2 GL101", "a.py:2 GL102"}},
		{name: "missing reason: GL009 and the finding stays",
			files: f("class A(B):  # gymlint: ignore[GL101]\n    pass\n"),
			ds:    []string{"a.py:1 GL101"},
			want:  []string{"a.py:1:1 GL101", "a.py:1:14 GL009"},
			msg:   "gives no reason, so it suppresses nothing help: add a reason after the codes: # gymlint: ignore[GL101] <why this is fine>"},
		{name: "missing reason in a file suppression",
			files: f("# gymlint: ignore-file[GL101]  \nclass A(B): pass\n"),
			ds:    []string{"a.py:2 GL101"},
			want:  []string{"a.py:1:1 GL009", "a.py:2:1 GL101"},
			msg:   "# gymlint: ignore-file[GL101] <why this is fine>"},
		{name: "ignore without codes",
			files: f("# gymlint: ignore because it is fine\nclass A(B): pass\n"),
			ds:    []string{"a.py:2 GL101"},
			want:  []string{"a.py:1:1 GL009", "a.py:2:1 GL101"},
			msg:   "names no rule"},
		{name: "ignore with empty brackets",
			files: f("class A(B):  # gymlint: ignore[] reason\n"),
			ds:    []string{"a.py:1 GL101"},
			want:  []string{"a.py:1:1 GL101", "a.py:1:14 GL009"}},
		{name: "unused in a scanned file without findings",
			files: f("# gymlint: ignore[GL101] reason\nx = 1\n"),
			scan:  []string{"a.py"},
			want:  []string{"a.py:1:1 GL010"},
			msg:   "unused suppression: nothing on line 2 reports GL101 help: remove the suppression"},
		{name: "unused file suppression",
			files: f("# gymlint: ignore-file[GL101] reason\nx = 1\n"),
			scan:  []string{"a.py"},
			want:  []string{"a.py:1:1 GL010"},
			msg:   "nothing in this file reports GL101"},
		{name: "a code that names no rule",
			files: f("class A(B):  # gymlint: ignore[GL101,GL999] reason\n"),
			ds:    []string{"a.py:1 GL101"},
			want:  []string{"a.py:1:14 GL010"},
			msg:   "suppression partly unused: GL999 is not a gymlint rule code or name help: remove GL999 from the suppression"},
		{name: "GL009 and GL010 cannot be suppressed",
			files: f("class A(B):  # gymlint: ignore[GL101] # gymlint: ignore[GL009,unused-suppression] silence it\n"),
			ds:    []string{"a.py:1 GL101"},
			want:  []string{"a.py:1:1 GL101", "a.py:1:14 GL009", "a.py:1:39 GL010"},
			msg:   "cannot be suppressed inline"},
		{name: "directive inside a string",
			files: f("s = \"# gymlint: ignore[GL101] reason\"\nt = '# gymlint: ignore[GL101] reason'\n"),
			ds:    []string{"a.py:1 GL101", "a.py:2 GL101"},
			want:  []string{"a.py:1:1 GL101", "a.py:2:1 GL101"}},
		{name: "directive inside a triple-quoted string",
			files: f("s = '''\n# gymlint: ignore[GL101] reason\n'''\nclass A(B): pass\n"),
			ds:    []string{"a.py:3 GL101", "a.py:4 GL101"},
			want:  []string{"a.py:3:1 GL101", "a.py:4:1 GL101"}},
		{name: "strings with escapes and hashes before the comment",
			files: f("s = \"a \\\" # b\" + 'c # d'  # gymlint: ignore[GL101] reason\n"),
			ds:    []string{"a.py:1 GL101"}},
		{name: "after another comment, before another comment",
			files: f("import x  # noqa: F401  # gymlint: ignore[GL101] see issue #12  # type: ignore\n"),
			ds:    []string{"a.py:1 GL101"}},
		{name: "other gymlint directives are not suppressions",
			files: f("# gymlint: something[GL101] reason\nclass A(B): pass\n"),
			ds:    []string{"a.py:2 GL101"},
			want:  []string{"a.py:2:1 GL101"}},
		{name: "two suppressions covering one finding are both used",
			files: f("# gymlint: ignore-file[GL101] reason\n# gymlint: ignore[GL101] reason\nclass A(B): pass\n"),
			ds:    []string{"a.py:3 GL101"}},
		{name: "unreadable file keeps its findings",
			files: map[string]string{},
			ds:    []string{"b.py:1 GL101"},
			scan:  []string{"c.py"},
			want:  []string{"b.py:1:1 GL101"}},
		{name: "CRLF",
			files: f("# gymlint: ignore[GL101] reason\r\nclass A(B): pass\r\nx = 1  # gymlint: ignore[GL102]\r\n"),
			ds:    []string{"a.py:2 GL101", "a.py:3 GL102"},
			want:  []string{"a.py:3:1 GL102", "a.py:3:8 GL009"}},
		{name: "files of other types have no suppressions",
			files: map[string]string{"pyproject.toml": "x = 1  # gymlint: ignore[GL101] reason\n"},
			ds:    []string{"pyproject.toml:1 GL101"},
			scan:  []string{"pyproject.toml"},
			want:  []string{"pyproject.toml:1:1 GL101"}},
	})
}

func TestYAML(t *testing.T) {
	f := func(s string) map[string]string { return map[string]string{"c.yaml": s} }
	run(t, []tc{
		{name: "same line",
			files: f("srv:\n  entrypoint: app.py  # gymlint: ignore[GL006] started by hand\n"),
			ds:    []string{"c.yaml:2 GL006"}},
		{name: "line above",
			files: f("srv:\n  # gymlint: ignore[GL006] started by hand\n  entrypoint: app.py\n"),
			ds:    []string{"c.yaml:3 GL006"}},
		{name: "file level before ---",
			files: f("# gymlint: ignore-file[yaml-thing] reason\n---\na: 1\nb: 2\n"),
			ds:    []string{"c.yaml:3 GL006", "c.yaml:4 GL006"}},
		{name: "file level after ---",
			files: f("---\n# gymlint: ignore-file[GL006] reason\na: 1\n"),
			ds:    []string{"c.yaml:3 GL006"}},
		{name: "several codes and names",
			files: map[string]string{"c.yml": "a: 1  # gymlint: ignore[GL006,undeclared-workers] reason\n"},
			ds:    []string{"c.yml:1 GL006", "c.yml:1 GL101"}},
		{name: "missing reason",
			files: f("a: 1  # gymlint: ignore[GL006]\n"),
			ds:    []string{"c.yaml:1 GL006"},
			want:  []string{"c.yaml:1:1 GL006", "c.yaml:1:7 GL009"}},
		{name: "unused",
			files: f("# gymlint: ignore[GL006] reason\na: 1\n"),
			scan:  []string{"c.yaml"},
			want:  []string{"c.yaml:1:1 GL010"},
			msg:   "nothing on line 2 reports GL006"},
		{name: "directive inside quoted scalars",
			files: f("a: \"# gymlint: ignore[GL006] reason\"\nb: '# gymlint: ignore[GL006] it''s'\nc: [x, \"# gymlint: ignore[GL006] r\"]\n"),
			ds:    []string{"c.yaml:1 GL006", "c.yaml:2 GL006", "c.yaml:3 GL006"},
			want:  []string{"c.yaml:1:1 GL006", "c.yaml:2:1 GL006", "c.yaml:3:1 GL006"}},
		{name: "a # inside a plain scalar is not a comment",
			files: f("a: x#gymlint: ignore[GL006] reason\n"),
			ds:    []string{"c.yaml:1 GL006"},
			want:  []string{"c.yaml:1:1 GL006"}},
		{name: "an apostrophe inside a plain scalar is not a quote",
			files: f("a: it's fine  # gymlint: ignore[GL006] reason\n"),
			ds:    []string{"c.yaml:1 GL006"}},
		{name: "directive inside a block scalar",
			files: f("a: |\n  # gymlint: ignore[GL006] reason\n  text\nb: 1  # gymlint: ignore[GL006] reason\n"),
			ds:    []string{"c.yaml:3 GL006", "c.yaml:4 GL006"},
			want:  []string{"c.yaml:3:1 GL006"}},
		{name: "CRLF",
			files: f("# gymlint: ignore[GL006] reason\r\na: 1\r\nb: 2  # gymlint: ignore[GL006] reason\r\n"),
			ds:    []string{"c.yaml:2 GL006"},
			want:  []string{"c.yaml:3:7 GL010"}},
	})
}

func TestGo(t *testing.T) {
	f := func(s string) map[string]string { return map[string]string{"m.go": s} }
	run(t, []tc{
		{name: "same line",
			files: f("package p\n\nvar x = 1 //gymlint:ignore GL201 set once at init\n"),
			ds:    []string{"m.go:3 GL201"}},
		{name: "line above",
			files: f("package p\n\nfunc f() {\n\t//gymlint:ignore GL201 set once at init\n\tx := 1\n\t_ = x\n}\n"),
			ds:    []string{"m.go:5 GL201"}},
		{name: "file level",
			files: f("package p\n\nvar x = 1\n\n//gymlint:file-ignore GL201,go-other generated code\nvar y = 2\n"),
			ds:    []string{"m.go:3 GL201", "m.go:6 GL202"}},
		{name: "several codes and names",
			files: f("package p\n\n//gymlint:ignore go-thing,GL202 reason\nvar x = 1\n"),
			ds:    []string{"m.go:4 GL201", "m.go:4 GL202"}},
		{name: "missing reason",
			files: f("package p\n\nvar x = 1 //gymlint:ignore GL201\n"),
			ds:    []string{"m.go:3 GL201"},
			want:  []string{"m.go:3:1 GL201", "m.go:3:11 GL009"},
			msg:   "help: add a reason after the codes: //gymlint:ignore GL201 <why this is fine>"},
		{name: "no codes",
			files: f("package p\n\n//gymlint:ignore\nvar x = 1\n"),
			ds:    []string{"m.go:4 GL201"},
			want:  []string{"m.go:3:1 GL009", "m.go:4:1 GL201"}},
		{name: "unused",
			files: f("package p\n\n//gymlint:ignore GL201 reason\nvar x = 1\n"),
			scan:  []string{"m.go"},
			want:  []string{"m.go:3:1 GL010"},
			msg:   "unused suppression: nothing on line 4 reports GL201 help: remove the suppression"},
		{name: "directive inside strings and block comments",
			files: f("package p\n\nvar s = \"//gymlint:ignore GL201 reason\"\nvar r = `\n//gymlint:ignore GL201 reason\n`\n/*gymlint:ignore GL201 reason */\nvar y = 1\n"),
			ds:    []string{"m.go:3 GL201", "m.go:6 GL201", "m.go:8 GL201"},
			want:  []string{"m.go:3:1 GL201", "m.go:6:1 GL201", "m.go:8:1 GL201"}},
		{name: "not at the start of the comment: not a suppression; malformed ones are GL013",
			files: f("package p\n\n// gymlint:ignore GL201 reason\n//nolint //gymlint:ignore GL201 reason\n//gymlint:ignored GL201 reason\nvar x = 1\n"),
			ds:    []string{"m.go:6 GL201"},
			want:  []string{"m.go:3:1 GL013", "m.go:5:1 GL013", "m.go:6:1 GL201"}},
		{name: "CRLF",
			files: f("package p\r\n\r\n//gymlint:ignore GL201 reason\r\nvar x = 1\r\nvar y = 2 //gymlint:ignore GL202\r\n"),
			ds:    []string{"m.go:4 GL201", "m.go:5 GL202"},
			want:  []string{"m.go:5:1 GL202", "m.go:5:11 GL009"}},
	})
}

// TestPositions checks the offsets and ends of GL009/GL010.
func TestPositions(t *testing.T) {
	files := map[string]string{
		"a.py":   "x = 1\r\ny = 2  # gymlint: ignore[GL101]   # other\r\n",
		"m.go":   "package p\r\n\r\nvar y = 2 //gymlint:ignore GL202\r\n",
		"c.yaml": "a: 1\nb: 2  # gymlint: ignore[GL006] reason\n",
	}
	read := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no")
	}
	got := Apply(nil, []string{"a.py", "m.go", "c.yaml"}, read, lookup)
	type span struct {
		path       string
		start, end diag.Pos
	}
	var spans []span
	for _, d := range got {
		spans = append(spans, span{d.Path, d.Start, d.End})
	}
	want := []span{
		{"a.py", diag.Pos{Offset: 14, Line: 2, Col: 8}, diag.Pos{Offset: 38, Line: 2, Col: 32}},
		{"c.yaml", diag.Pos{Offset: 11, Line: 2, Col: 7}, diag.Pos{Offset: 42, Line: 2, Col: 38}},
		{"m.go", diag.Pos{Offset: 23, Line: 3, Col: 11}, diag.Pos{Offset: 45, Line: 3, Col: 33}},
	}
	if !reflect.DeepEqual(spans, want) {
		t.Errorf("got  %+v\nwant %+v\n%s", spans, want, msgs(got))
	}
	for _, d := range got {
		if s := files[d.Path]; s[d.Start.Offset] != '#' && s[d.Start.Offset] != '/' || strings.ContainsAny(s[d.Start.Offset:d.End.Offset], "\r\n") {
			t.Errorf("%s: span %q", d.Path, s[d.Start.Offset:d.End.Offset])
		}
	}
}

func TestRules(t *testing.T) {
	for _, r := range Rules {
		for _, part := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
			if !strings.Contains(r.Doc, part) {
				t.Errorf("%s: doc lacks %q", r.Code, part)
			}
		}
		if r.Analyzer != "core" || r.Severity != diag.Warning || r.Summary == "" {
			t.Errorf("%s: %+v", r.Code, r)
		}
	}
}

// TestNilLookup: without a catalogue, codes and names match literally and
// none is called unknown.
func TestNilLookup(t *testing.T) {
	read := func(string) ([]byte, error) {
		return []byte("# gymlint: ignore[undeclared-workers,GL999] reason\nclass A(B): pass\n"), nil
	}
	got := Apply([]diag.Diagnostic{finding("a.py:2 GL101")}, nil, read, nil)
	if len(got) != 1 || got[0].Code != "GL010" || !strings.Contains(got[0].Message, "nothing on line 2 reports GL999") {
		t.Errorf("got\n%s", msgs(got))
	}
}

// TestOddInputs: truncated and malformed text never panics.
func TestOddInputs(t *testing.T) {
	inputs := []string{"", "#", "# gymlint:", "# gymlint: ignore", "# gymlint: ignore[", "# gymlint: ignore-file[GL101",
		"s = '\\", "s = \"\"\"", "x = 'a' # gymlint: ignore[ , ] r", "a: \"\\", "a: |", "a: '", "//gymlint:ignore", "//gymlint:file-ignore  ",
		"package p\n`", "package p\n/*", "\r", "\n\n\r\n#\r", "\xff\xfe# gymlint: ignore[GL101] r",
		"# GYMLINT", "# gymlint :", "# gymlint ignor", "# gymlint: ignor(GL101", "# gymlint: ignore:", "# noqa:", "# noqa: GL", "# noqa: gl1,", "# NOQA: GL101",
		"//GYMLINT:", "// gymlint: ignore[", "//gymlint:ignore-file", "//gymlint:ignore=", "//gymlint : i", "# gymlint: ignore GL101,", "# gymlint: i"}
	for _, in := range inputs {
		for _, ext := range []string{".py", ".yaml", ".go"} {
			read := func(string) ([]byte, error) { return []byte(in), nil }
			Apply([]diag.Diagnostic{finding("f" + ext + ":1 GL101"), finding("f" + ext + ":0 GL101"), finding("f" + ext + ":99 GL101")}, []string{"f" + ext}, read, lookup)
		}
	}
}

// TestRulesThatDidNotRun: a suppression of a rule the configuration
// disables is not unused (its finding may be there), but its codes of
// rules that ran and found nothing still are.
func TestRulesThatDidNotRun(t *testing.T) {
	files := map[string][]byte{
		"a.py": []byte("x = 1  # gymlint: ignore[GL101] the app is built by a factory\ny = 2  # gymlint: ignore[GL102,GL101] both fine here\n"),
	}
	read := func(p string) ([]byte, error) { return files[p], nil }
	ran := func(code string) bool { return code != "GL101" }
	got := ApplyConfig(nil, []string{"a.py"}, read, Config{Lookup: lookup, Ran: ran})
	if len(got) != 1 || got[0].Code != "GL010" || got[0].Start.Line != 2 || got[0].Help != "remove GL102 from the suppression" {
		t.Fatalf("got %v %q, want one GL010 on line 2 for GL102 alone", show(got), msgs(got))
	}
	if got := Apply(nil, []string{"a.py"}, read, lookup); len(got) != 2 {
		t.Errorf("without Ran: got %v, want both suppressions unused", show(got))
	}
}

// TestNotAnalysed: in a file with a finding that says gymlint did not
// analyse it (GL001, GL002, GL003, GL008, GL011), no suppression of a rule
// is unused (its finding may be there once the file is analysed), while
// codes that name no rule or cannot be suppressed, and suppressions
// without a reason, are still reported. Any other finding (GL004 here)
// leaves the file analysed.
func TestNotAnalysed(t *testing.T) {
	const py = "# gymlint: ignore[GL101] built by a factory\nclass A(B):\n    def f(self, x:\n"
	const yml = "# gymlint: ignore[GL006] started by hand\nsrv:\n  entrypoint: app.py\n bad: [\n"
	const goSrc = "package p\n\n//gymlint:ignore GL201 set once at init\nvar x int = \"s\"\n"
	run(t, []tc{
		{name: "GL001 in a Python module",
			files: map[string]string{"a.py": py},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:3:1 GL001"}},
		{name: "GL002 in a Python module",
			files: map[string]string{"a.py": py},
			ds:    []string{"a.py:1 GL002"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:1:1 GL002"}},
		{name: "GL003 in a YAML file",
			files: map[string]string{"c.yaml": yml},
			ds:    []string{"c.yaml:4 GL003"},
			scan:  []string{"c.yaml"},
			want:  []string{"c.yaml:4:1 GL003"}},
		{name: "GL008 in a Go file",
			files: map[string]string{"m.go": goSrc},
			ds:    []string{"m.go:4 GL008"},
			scan:  []string{"m.go"},
			want:  []string{"m.go:4:1 GL008"}},
		{name: "GL011 in a Python module",
			files: map[string]string{"a.py": py},
			ds:    []string{"a.py:1 GL011"},
			want:  []string{"a.py:1:1 GL011"}},
		{name: "read for its finding alone, not scanned",
			files: map[string]string{"a.py": py},
			ds:    []string{"a.py:3 GL001"},
			want:  []string{"a.py:3:1 GL001"}},
		{name: "a file suppression too",
			files: map[string]string{"a.py": "# gymlint: ignore-file[GL101,GL102] generated\nclass A(B):\n    def f(self, x:\n"},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:3:1 GL001"}},
		{name: "a suppression of the finding itself is used",
			files: map[string]string{"a.py": "class A(B):\n    def f(self, x:  # gymlint: ignore[GL001] a template\n"},
			ds:    []string{"a.py:2 GL001"},
			scan:  []string{"a.py"}},
		{name: "only the file with the finding",
			files: map[string]string{"a.py": py, "b.py": py},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py", "b.py"},
			want:  []string{"a.py:3:1 GL001", "b.py:1:1 GL010"}},
		{name: "codes that name no rule are still reported",
			files: map[string]string{"a.py": "# gymlint: ignore[GL101,GL999] built by a factory\nclass A(B):\n    def f(self, x:\n"},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:1:1 GL010", "a.py:3:1 GL001"},
			msg:   "suppression partly unused: GL999 is not a gymlint rule code or name help: remove GL999 from the suppression"},
		{name: "GL010 cannot be suppressed, analysed or not",
			files: map[string]string{"a.py": "# gymlint: ignore[GL010] quiet\nclass A(B):\n    def f(self, x:\n"},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:1:1 GL010", "a.py:3:1 GL001"},
			msg:   "cannot be suppressed inline"},
		{name: "a suppression without a reason is still GL009",
			files: map[string]string{"a.py": "# gymlint: ignore[GL101]\nclass A(B):\n    def f(self, x:\n"},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:1:1 GL009", "a.py:3:1 GL001"}},
		{name: "a misplaced file suppression is still reported",
			files: map[string]string{"a.py": "import x\n# gymlint: ignore-file[GL101] reason\ndef f(:\n"},
			ds:    []string{"a.py:3 GL001"},
			scan:  []string{"a.py"},
			want:  []string{"a.py:2:1 GL010", "a.py:3:1 GL001"},
			msg:   "comes after the first line of code"},
		{name: "GL004 leaves the file analysed",
			files: map[string]string{"c.yaml": "# gymlint: ignore[GL006] started by hand\nsrv: 1\nsrv: 2\n"},
			ds:    []string{"c.yaml:3 GL004"},
			scan:  []string{"c.yaml"},
			want:  []string{"c.yaml:1:1 GL010", "c.yaml:3:1 GL004"}},
	})
}
