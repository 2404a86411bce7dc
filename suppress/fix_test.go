package suppress

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

func TestFix(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    string
		content string
		line    int    // where the finding starts
		code    string // GL101 if ""
		want    string // the content after the fix; "" for no fix
	}{
		{
			name:    "python, indented code line",
			path:    "srv/app.py",
			content: "class A(Base):\n    def f(self):\n        return 1\n",
			line:    2,
			want:    "class A(Base):\n    # gymlint: ignore[GL101] <why this is fine>\n    def f(self):\n        return 1\n",
		},
		{
			name:    "python, first line of the file",
			path:    "srv/app.py",
			content: "import os\n",
			line:    1,
			want:    "# gymlint: ignore[GL101] <why this is fine>\nimport os\n",
		},
		{
			name:    "python, a comment first line: a trailing comment",
			path:    "srv/app.py",
			content: "# Copyright\nimport os\n",
			line:    1,
			want:    "# Copyright  # gymlint: ignore[GL101] <why this is fine>\nimport os\n",
		},
		{
			name:    "python, a shebang first line: no fix",
			path:    "srv/app.py",
			content: "#!/usr/bin/env python\nimport os\n",
			line:    1,
		},
		{
			name:    "python, byte order mark: it stays first",
			path:    "srv/app.py",
			content: "\ufeffimport os\n",
			line:    1,
			// Apply takes a comment after the mark for a trailing one
			// (covering its own line only), so it is one.
			want: "\ufeffimport os  # gymlint: ignore[GL101] <why this is fine>\n",
		},
		{
			name:    "python, CRLF, tab indentation",
			path:    "srv/app.py",
			content: "class A(Base):\r\n\tx = 1\r\n",
			line:    2,
			want:    "class A(Base):\r\n\t# gymlint: ignore[GL101] <why this is fine>\r\n\tx = 1\r\n",
		},
		{
			name:    "python, lone CR",
			path:    "srv/app.py",
			content: "import os\rclass A(Base):\r    x = 1\r",
			line:    3,
			want:    "import os\rclass A(Base):\r    # gymlint: ignore[GL101] <why this is fine>\r    x = 1\r",
		},
		{
			name:    "python, last line without a line ending in a CRLF file",
			path:    "srv/app.py",
			content: "import os\r\nx = 1",
			line:    2,
			want:    "import os\r\n# gymlint: ignore[GL101] <why this is fine>\r\nx = 1",
		},
		{
			name:    "python, the line where a multi-line string starts",
			path:    "srv/app.py",
			content: "x = 1\n    \nclass A:\n    y = \"\"\"first\n    second\n    \"\"\"\n",
			line:    4,
			want:    "x = 1\n    \nclass A:\n    # gymlint: ignore[GL101] <why this is fine>\n    y = \"\"\"first\n    second\n    \"\"\"\n",
		},
		{
			name:    "python, a line inside a multi-line string: no fix",
			path:    "srv/app.py",
			content: "class A:\n    y = \"\"\"first\n    second # not a comment\n    third\"\"\"\n",
			line:    3,
		},
		{
			name:    "python, the line where a multi-line string ends: a trailing comment",
			path:    "srv/app.py",
			content: "class A:\n    y = \"\"\"first\n    second\"\"\"\n",
			line:    3,
			want:    "class A:\n    y = \"\"\"first\n    second\"\"\"  # gymlint: ignore[GL101] <why this is fine>\n",
		},
		{
			name:    "python, a line continued from the line above: a trailing comment",
			path:    "srv/app.py",
			content: "x = 1 + \\\n    f()\n",
			line:    2,
			want:    "x = 1 + \\\n    f()  # gymlint: ignore[GL101] <why this is fine>\n",
		},
		{
			name:    "python, a line inside brackets",
			path:    "srv/app.py",
			content: "x = f(\n    a,\n    b,\n)\n",
			line:    3,
			want:    "x = f(\n    a,\n    # gymlint: ignore[GL101] <why this is fine>\n    b,\n)\n",
		},
		{
			name:    "python, a blank line",
			path:    "srv/app.py",
			content: "x = 1\n\ny = 2\n",
			line:    2,
			want:    "x = 1\n# gymlint: ignore[GL101] <why this is fine>\ny = 2\n",
		},
		{
			name:    "python, empty file",
			path:    "srv/app.py",
			content: "",
			line:    1,
			want:    "# gymlint: ignore[GL101] <why this is fine>",
		},
		{
			name:    "python, under another suppression",
			path:    "srv/app.py",
			content: "# gymlint: ignore[GL102] reason\nclass A(Base):\n    pass\n",
			line:    2,
			want:    "# gymlint: ignore[GL102] reason\n# gymlint: ignore[GL101] <why this is fine>\nclass A(Base):\n    pass\n",
		},
		{
			name:    "yaml, indented key",
			path:    "srv/configs/srv.yaml",
			content: "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n",
			line:    4,
			code:    "GL006",
			want:    "srv:\n  resources_servers:\n    srv:\n      # gymlint: ignore[GL006] <why this is fine>\n      entrypoint: app.py\n",
		},
		{
			name:    "yaml, CRLF",
			path:    "srv/configs/srv.yml",
			content: "srv:\r\n  x: 1\r\n",
			line:    2,
			code:    "GL006",
			want:    "srv:\r\n  # gymlint: ignore[GL006] <why this is fine>\r\n  x: 1\r\n",
		},
		{
			name:    "yaml, a line inside a block scalar: no fix",
			path:    "srv/configs/srv.yaml",
			content: "srv:\n  description: |\n    text\n    more text\n",
			line:    3,
			code:    "GL006",
		},
		{
			name:    "go, indented statement",
			path:    "cmd/srv/main.go",
			content: "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n",
			line:    4,
			code:    "GL201",
			want:    "package main\n\nfunc main() {\n\t//gymlint:ignore GL201 <why this is fine>\n\tx := 1\n\t_ = x\n}\n",
		},
		{
			name:    "go, CRLF",
			path:    "cmd/srv/main.go",
			content: "package main\r\n\r\nvar x = 1\r\n",
			line:    3,
			code:    "GL201",
			want:    "package main\r\n\r\n//gymlint:ignore GL201 <why this is fine>\r\nvar x = 1\r\n",
		},
		{
			name:    "go, a line inside a raw string: no fix",
			path:    "cmd/srv/main.go",
			content: "package main\n\nvar s = `first\n  second\nthird`\n",
			line:    4,
			code:    "GL201",
		},
		{
			name:    "GL009 cannot be suppressed",
			path:    "srv/app.py",
			content: "x = 1  # gymlint: ignore[GL101]\n",
			line:    1,
			code:    "GL009",
		},
		{
			name:    "GL010 cannot be suppressed",
			path:    "srv/app.py",
			content: "x = 1  # gymlint: ignore[GL101] why\n",
			line:    1,
			code:    "GL010",
		},
		{
			name:    "a file of another language",
			path:    "srv/pyproject.toml",
			content: "[project]\n",
			line:    1,
		},
		{
			name:    "a line after the end of the file",
			path:    "srv/app.py",
			content: "x = 1\n",
			line:    3,
		},
		{
			name:    "line 0",
			path:    "srv/app.py",
			content: "x = 1\n",
			line:    0,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := tc.code
			if code == "" {
				code = "GL101"
			}
			r := lookup(code)
			p := diag.Pos{Line: tc.line, Col: 1}
			d := r.New(tc.path, p, p, "finding")
			fix, ok := Fix(d, []byte(tc.content))
			if ok != (tc.want != "") {
				t.Fatalf("fix offered: %v, want %v (%+v)", ok, tc.want != "", fix)
			}
			if !ok {
				return
			}
			if fix.Applicability != diag.Unsafe || fix.Message == "" || len(fix.Edits) != 1 {
				t.Fatalf("fix %+v: want one edit, unsafe, with a message", fix)
			}
			e := fix.Edits[0]
			if e.Path != tc.path {
				t.Errorf("edit of %s, want %s", e.Path, tc.path)
			}
			for _, p := range []diag.Pos{e.Start, e.End} {
				if p.Offset < 0 || p.Offset > len(tc.content) {
					t.Fatalf("edit position %+v outside the file", p)
				}
				// Lines end at "\n", and at a lone "\r" except in Go.
				before := tc.content[:p.Offset]
				if !strings.HasSuffix(tc.path, ".go") {
					before = strings.ReplaceAll(strings.ReplaceAll(before, "\r\n", "\n"), "\r", "\n")
				}
				line := strings.Count(before, "\n") + 1
				col := len(before) - (strings.LastIndexByte(before, '\n') + 1) + 1
				if p.Line != line || p.Col != col {
					t.Errorf("edit position %+v: offset %d is %d:%d", p, p.Offset, line, col)
				}
			}
			got := tc.content[:e.Start.Offset] + e.NewText + tc.content[e.End.Offset:]
			if got != tc.want {
				t.Fatalf("after the fix:\n%q\nwant\n%q", got, tc.want)
			}
			// Apply suppresses the finding, where it now starts, and reports
			// nothing about the new suppression (on line tc.line).
			if strings.HasSuffix(e.NewText, "\n") || strings.HasSuffix(e.NewText, "\r") {
				d.Start.Line++
				d.End.Line++
			}
			read := func(p string) ([]byte, error) {
				if p != tc.path {
					return nil, os.ErrNotExist
				}
				return []byte(got), nil
			}
			for _, l := range Apply([]diag.Diagnostic{d}, nil, read, lookup) {
				if l.Code == code || isSelfCode(l.Code) && l.Start.Line == tc.line {
					t.Fatalf("after the fix, Apply leaves %s:%d %s %s", l.Path, l.Start.Line, l.Code, l.Message)
				}
			}
			// Before it, the finding stands.
			before := func(string) ([]byte, error) { return []byte(tc.content), nil }
			orig := r.New(tc.path, p, p, "finding")
			if left := Apply([]diag.Diagnostic{orig}, nil, before, lookup); len(left) == 0 {
				t.Fatalf("the finding was suppressed before the fix")
			}
		})
	}
}

// TestUnusedFix: GL010's fix removes the unused suppression, or the unused
// codes from it, leaves the code and the other comments on the line as
// they were, and leaves no trailing white space; after it, Apply reports
// no GL010 and keeps the same findings.
func TestUnusedFix(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    string
		content string
		ds      []string // findings, "line CODE"
		ran     func(string) bool
		want    string // "" for no fix
	}{
		{name: "python, trailing", path: "a.py",
			content: "x = 1  # gymlint: ignore[GL101] the app is built by a factory\ny = 2\n",
			want:    "x = 1\ny = 2\n"},
		{name: "python, own line above indented code, CRLF", path: "a.py",
			content: "def f():\r\n    # gymlint: ignore[GL101] reason\r\n    x = 1\r\n",
			want:    "def f():\r\n    x = 1\r\n"},
		{name: "python, after a noqa", path: "a.py",
			content: "import x  # noqa: F401  # gymlint: ignore[GL101] reason\n",
			want:    "import x  # noqa: F401\n"},
		{name: "python, before another comment", path: "a.py",
			content: "x = 1  # gymlint: ignore[GL101] reason  # type: ignore\n",
			want:    "x = 1  # type: ignore\n"},
		{name: "python, own line before another comment", path: "a.py",
			content: "# gymlint: ignore[GL101] reason  # see below\nx = 1\n",
			want:    "# see below\nx = 1\n"},
		{name: "python, last line without a line ending", path: "a.py",
			content: "x = 1\n# gymlint: ignore[GL101] reason",
			want:    "x = 1\n"},
		{name: "python, lone CR", path: "a.py",
			content: "x = 1\r# gymlint: ignore[GL101] reason\ry = 2\r",
			want:    "x = 1\ry = 2\r"},
		{name: "python, unused file suppression", path: "a.py",
			content: "#!/usr/bin/env python\n# gymlint: ignore-file[GL101] reason\nimport x\n",
			want:    "#!/usr/bin/env python\nimport x\n"},
		{name: "python, one of two codes unused", path: "a.py",
			content: "class A(B):  # gymlint: ignore[GL101, GL102] reason\n    pass\n",
			ds:      []string{"1 GL101"},
			want:    "class A(B):  # gymlint: ignore[GL101] reason\n    pass\n"},
		{name: "python, an unknown code and a self code", path: "a.py",
			content: "class A(B):  # gymlint: ignore[GL999,GL101,GL010] reason\n",
			ds:      []string{"1 GL101"},
			want:    "class A(B):  # gymlint: ignore[GL101] reason\n"},
		{name: "python, the code of a rule that did not run stays", path: "a.py",
			content: "x = 1  # gymlint: ignore[GL102,GL101] reason\n",
			ran:     func(c string) bool { return c != "GL101" },
			want:    "x = 1  # gymlint: ignore[GL101] reason\n"},
		{name: "python, a misplaced ignore-file: no fix (move it)", path: "a.py",
			content: "import x\n# gymlint: ignore-file[GL101] reason\n"},
		{name: "yaml, trailing", path: "c.yaml",
			content: "srv:\n  entrypoint: app.py  # gymlint: ignore[GL006] reason\n",
			want:    "srv:\n  entrypoint: app.py\n"},
		{name: "yaml, own line", path: "c.yaml",
			content: "srv:\n  # gymlint: ignore[GL006] reason\n  entrypoint: app.py\n",
			want:    "srv:\n  entrypoint: app.py\n"},
		{name: "go, trailing", path: "m.go",
			content: "package p\n\nvar x = 1 //gymlint:ignore GL201 reason\n",
			want:    "package p\n\nvar x = 1\n"},
		{name: "go, own line, CRLF", path: "m.go",
			content: "package p\r\n\r\n\t//gymlint:ignore GL201 reason\r\nvar x = 1\r\n",
			want:    "package p\r\n\r\nvar x = 1\r\n"},
		{name: "go, one of two codes unused", path: "m.go",
			content: "package p\n\n//gymlint:file-ignore GL201,go-other generated\nvar x = 1\n",
			ds:      []string{"4 GL202"},
			want:    "package p\n\n//gymlint:file-ignore go-other generated\nvar x = 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ds []diag.Diagnostic
			for _, s := range tc.ds {
				ds = append(ds, finding(tc.path+":"+s))
			}
			content := tc.content
			read := func(string) ([]byte, error) { return []byte(content), nil }
			cfg := Config{Lookup: lookup, Ran: tc.ran}
			got := ApplyConfig(ds, []string{tc.path}, read, cfg)
			var unused []diag.Diagnostic
			for _, d := range got {
				if d.Code == core.UnusedSuppression.Code {
					unused = append(unused, d)
				}
			}
			if len(unused) != 1 {
				t.Fatalf("want one GL010, got\n%s", msgs(got))
			}
			fixes := unused[0].Fixes
			if tc.want == "" {
				if len(fixes) != 0 {
					t.Fatalf("want no fix, got %+v", fixes)
				}
				return
			}
			if len(fixes) != 1 || !fixes[0].IsSafe() || fixes[0].Applicability != diag.Safe || fixes[0].Message == "" || len(fixes[0].Edits) != 1 {
				t.Fatalf("want one safe fix with one edit and a message, got %+v", fixes)
			}
			e := fixes[0].Edits[0]
			checkPositions(t, tc.path, tc.content, e)
			after := tc.content[:e.Start.Offset] + e.NewText + tc.content[e.End.Offset:]
			if after != tc.want {
				t.Fatalf("after the fix:\n%q\nwant\n%q", after, tc.want)
			}
			content = after
			again := ApplyConfig(ds, []string{tc.path}, read, cfg)
			if g, w := show(again), show(without(got, core.UnusedSuppression.Code)); !reflect.DeepEqual(g, w) {
				t.Errorf("after the fix, Apply gives %q, want %q\n%s", g, w, msgs(again))
			}
		})
	}
}

func without(ds []diag.Diagnostic, code string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Code != code {
			out = append(out, d)
		}
	}
	return out
}

// checkPositions checks that an edit's lines and columns agree with its
// offsets in content.
func checkPositions(t *testing.T, path, content string, e diag.TextEdit) {
	t.Helper()
	if e.Path != path {
		t.Errorf("edit of %s, want %s", e.Path, path)
	}
	for _, p := range []diag.Pos{e.Start, e.End} {
		if p.Offset < 0 || p.Offset > len(content) {
			t.Fatalf("edit position %+v outside the file", p)
		}
		before := content[:p.Offset]
		if !strings.HasSuffix(path, ".go") {
			before = strings.ReplaceAll(strings.ReplaceAll(before, "\r\n", "\n"), "\r", "\n")
		}
		line := strings.Count(before, "\n") + 1
		col := len(before) - (strings.LastIndexByte(before, '\n') + 1) + 1
		if p.Line != line || p.Col != col {
			t.Errorf("edit position %+v: offset %d is %d:%d", p, p.Offset, line, col)
		}
	}
}
