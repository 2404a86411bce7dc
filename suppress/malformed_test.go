package suppress

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

// TestMalformed: comments meant as suppressions but not written as ones
// are GL013, with the form to write; the fix rewrites them to it when they
// have a reason and every code names a rule, and then the finding is
// suppressed and nothing is reported.
func TestMalformed(t *testing.T) {
	for _, c := range []struct {
		name  string
		path  string
		text  string
		ds    []string // "line CODE"
		want  []string // "path:line:col CODE"
		msg   string   // part of the GL013's message
		fixed string   // the file after the GL013's fix; "" for no fix
	}{
		{name: "wrong case", path: "a.py",
			text: "class A(B):  # GYMLINT: IGNORE[gl101] started by a factory\n    pass\n",
			ds:   []string{"1 GL101"}, want: []string{"a.py:1:1 GL101", "a.py:1:14 GL013"},
			msg:   "(gymlint must be lower case, ignore must be lower case) help: write # gymlint: ignore[GL101] started by a factory",
			fixed: "class A(B):  # gymlint: ignore[GL101] started by a factory\n    pass\n"},
		{name: "misspelt directive", path: "a.py",
			text: "# gymlint: ignor[GL101] started by a factory\nclass A(B): pass\n",
			ds:   []string{"2 GL101"}, want: []string{"a.py:1:1 GL013", "a.py:2:1 GL101"},
			msg:   "the directive is ignore, not ignor",
			fixed: "# gymlint: ignore[GL101] started by a factory\nclass A(B): pass\n"},
		{name: "another linter's word", path: "a.py",
			text: "class A(B):  # gymlint: disable[undeclared-workers] started by a factory\n",
			ds:   []string{"1 GL101"}, want: []string{"a.py:1:1 GL101", "a.py:1:14 GL013"},
			fixed: "class A(B):  # gymlint: ignore[undeclared-workers] started by a factory\n"},
		{name: "missing brackets", path: "a.py",
			text: "# gymlint: ignore GL101,late-worker-refusal started by a factory\nclass A(B): pass\n",
			ds:   []string{"2 GL101", "2 GL102"}, want: []string{"a.py:1:1 GL013", "a.py:2:1 GL101", "a.py:2:1 GL102"},
			msg:   "(the codes go in [...]) help: write # gymlint: ignore[GL101,late-worker-refusal] started by a factory",
			fixed: "# gymlint: ignore[GL101,late-worker-refusal] started by a factory\nclass A(B): pass\n"},
		{name: "the Go spelling of ignore-file in Python", path: "a.py",
			text: "# gymlint: file-ignore[GL101] built by a factory\nclass A(B): pass\n",
			ds:   []string{"2 GL101"}, want: []string{"a.py:1:1 GL013", "a.py:2:1 GL101"},
			fixed: "# gymlint: ignore-file[GL101] built by a factory\nclass A(B): pass\n"},
		{name: "a colon before the codes, YAML", path: "c.yaml",
			text: "a: 1  # gymlint: ignore: [GL006] started by hand\n",
			ds:   []string{"1 GL006"}, want: []string{"c.yaml:1:1 GL006", "c.yaml:1:7 GL013"},
			msg:   "no : goes before the codes",
			fixed: "a: 1  # gymlint: ignore[GL006] started by hand\n"},
		{name: "no reason: the form has the placeholder, no fix", path: "a.py",
			text: "class A(B):  # GYMLINT: IGNORE[GL101]\n",
			ds:   []string{"1 GL101"}, want: []string{"a.py:1:1 GL101", "a.py:1:14 GL013"},
			msg: "help: write # gymlint: ignore[GL101] <why this is fine>"},
		{name: "noqa naming a gymlint code", path: "a.py",
			text: "class A(B):  # noqa: GL101 started by a factory\n",
			ds:   []string{"1 GL101"}, want: []string{"a.py:1:1 GL101", "a.py:1:14 GL013"},
			msg:   "# noqa does not suppress gymlint findings",
			fixed: "class A(B):  # gymlint: ignore[GL101] started by a factory\n"},
		{name: "noqa naming ruff's and gymlint's codes: no fix", path: "a.py",
			text: "import x  # NOQA: F401, gl101\n",
			ds:   []string{"1 GL101"}, want: []string{"a.py:1:1 GL101", "a.py:1:11 GL013"},
			msg: "only ruff's and flake8's help: write # noqa: F401  # gymlint: ignore[GL101] <why this is fine>"},
		{name: "noqa of other tools only: nothing", path: "a.py",
			text: "import x  # noqa: F401\nimport y  # noqa\n", ds: []string{"1 GL101"}, want: []string{"a.py:1:1 GL101"}},
		{name: "noqa in YAML is not read", path: "c.yaml",
			text: "a: 1  # noqa: GL006\n", ds: []string{"1 GL006"}, want: []string{"c.yaml:1:1 GL006"}},
		{name: "a miscased code of a good suppression: the others apply", path: "a.py",
			text: "class A(B):  # gymlint: ignore[gl101, GL102] reason\n",
			ds:   []string{"1 GL101", "1 GL102"}, want: []string{"a.py:1:1 GL101", "a.py:1:14 GL013"},
			msg:   "gl101 in another case names no rule, so this suppression does not suppress it (gl101 is GL101)",
			fixed: "class A(B):  # gymlint: ignore[GL101, GL102] reason\n"},
		{name: "a miscased rule name", path: "a.py",
			text: "class A(B):  # gymlint: ignore[Undeclared-Workers] reason\n",
			ds:   []string{"1 GL101"}, want: []string{"a.py:1:1 GL101", "a.py:1:14 GL013"},
			fixed: "class A(B):  # gymlint: ignore[undeclared-workers] reason\n"},
		{name: "prose that starts with gymlint: nothing", path: "a.py",
			text: "# gymlint: ignores are listed in the README\n# Gymlint: the server is started by hand\n# gymlint ignore this file\nx = 1\n",
			want: []string{}},
		{name: "a misspelt directive with codes that name no rule: nothing", path: "a.py",
			text: "# gymlint: ignor[GL999] reason\nx = 1\n", want: []string{}},
		{name: "ignore without codes is still GL009", path: "a.py",
			text: "# gymlint: ignore because it is fine\nclass A(B): pass\n",
			ds:   []string{"2 GL101"}, want: []string{"a.py:1:1 GL009", "a.py:2:1 GL101"}},
		{name: "go, Python's brackets", path: "m.go",
			text: "package p\n\n//gymlint:ignore[GL201] set once at init\nvar x = 1\n",
			ds:   []string{"4 GL201"}, want: []string{"m.go:3:1 GL013", "m.go:4:1 GL201"},
			msg:   "without brackets) help: write //gymlint:ignore GL201 set once at init",
			fixed: "package p\n\n//gymlint:ignore GL201 set once at init\nvar x = 1\n"},
		{name: "go, a space after // and after the colon, wrong case", path: "m.go",
			text: "package p\n\nvar x = 1 // GYMLINT: IGNORE gl201 set once at init\n",
			ds:   []string{"3 GL201"}, want: []string{"m.go:3:1 GL201", "m.go:3:11 GL013"},
			fixed: "package p\n\nvar x = 1 //gymlint:ignore GL201 set once at init\n"},
		{name: "go, Python's ignore-file", path: "m.go",
			text: "package p\n\n//gymlint:ignore-file GL201 generated\nvar x = 1\n",
			ds:   []string{"4 GL201"}, want: []string{"m.go:3:1 GL013", "m.go:4:1 GL201"},
			msg:   "the directive is file-ignore, not ignore-file",
			fixed: "package p\n\n//gymlint:file-ignore GL201 generated\nvar x = 1\n"},
		{name: "go, prose: nothing", path: "m.go",
			text: "package p\n\n// gymlint: see the README\n// gymlint:ignore this for now\nvar x = 1\n", want: []string{}},
		{name: "GL013 cannot be suppressed inline", path: "a.py",
			text: "x = 1  # gymlint: ignore[GL013] it is fine\n", want: []string{"a.py:1:8 GL010"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ds []diag.Diagnostic
			for _, s := range c.ds {
				ds = append(ds, finding(c.path+":"+s))
			}
			text := c.text
			read := func(p string) ([]byte, error) {
				if p != c.path {
					return nil, os.ErrNotExist
				}
				return []byte(text), nil
			}
			got := Apply(ds, []string{c.path}, read, lookup)
			if g := show(got); !reflect.DeepEqual(g, c.want) {
				t.Fatalf("got  %q\nwant %q\n%s", g, c.want, msgs(got))
			}
			var gl013 *diag.Diagnostic
			for i := range got {
				if got[i].Code == core.MalformedSuppression.Code {
					gl013 = &got[i]
				}
			}
			if gl013 == nil {
				return
			}
			if c.msg != "" && !strings.Contains(withHelp(*gl013), c.msg) {
				t.Errorf("message %q lacks %q", withHelp(*gl013), c.msg)
			}
			if c.fixed == "" {
				if len(gl013.Fixes) != 0 {
					t.Fatalf("want no fix, got %+v", gl013.Fixes)
				}
				return
			}
			if len(gl013.Fixes) != 1 || gl013.Fixes[0].Applicability != diag.Safe || len(gl013.Fixes[0].Edits) != 1 {
				t.Fatalf("want one safe fix with one edit, got %+v", gl013.Fixes)
			}
			e := gl013.Fixes[0].Edits[0]
			checkPositions(t, c.path, c.text, e)
			text = c.text[:e.Start.Offset] + e.NewText + c.text[e.End.Offset:]
			if text != c.fixed {
				t.Fatalf("after the fix:\n%q\nwant\n%q", text, c.fixed)
			}
			if again := Apply(ds, []string{c.path}, read, lookup); len(again) != 0 {
				t.Errorf("after the fix, want every finding suppressed and nothing reported, got\n%s", msgs(again))
			}
		})
	}
}
