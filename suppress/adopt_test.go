package suppress

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
)

// applyEdits applies Adopt's sorted edits to content.
func applyEdits(content string, es []diag.TextEdit) string {
	var b strings.Builder
	last := 0
	for _, e := range es {
		b.WriteString(content[last:e.Start.Offset])
		b.WriteString(e.NewText)
		last = e.End.Offset
	}
	b.WriteString(content[last:])
	return b.String()
}

// TestAdopt checks the exact content Adopt makes of a file, that every
// finding it places a suppression for is then suppressed, as Apply reads
// the new content, with no GL009, GL010 or GL013 (the findings that
// already-written suppressions silence are given as done), and that the
// findings it misses say why.
func TestAdopt(t *testing.T) {
	const r = "adopted as is"
	for _, tc := range []struct {
		name    string
		path    string
		content string
		ds      []string // "LINE CODE" of the findings
		done    []string // "LINE CODE" of findings the file's own suppressions silence
		want    string   // the new content
		missed  map[string]string
		left    string // the codes Apply still reports in the new content, space-separated
		same    func(old, new []byte, comments []int) bool
	}{
		{
			name:    "python, at the end of the line",
			path:    "srv/app.py",
			content: "class A(Base):\n    pass\n",
			ds:      []string{"1 GL101"},
			want:    "class A(Base):  # gymlint: ignore[GL101] adopted as is\n    pass\n",
		},
		{
			name:    "python, two findings on a line: one comment, codes sorted",
			path:    "srv/app.py",
			content: "class A(Base):\n    x = f()\n",
			ds:      []string{"1 GL102", "2 GL101", "1 GL101", "1 GL102"},
			want:    "class A(Base):  # gymlint: ignore[GL101,GL102] adopted as is\n    x = f()  # gymlint: ignore[GL101] adopted as is\n",
		},
		{
			name:    "python, merged into the suppression on the line, its reason kept",
			path:    "srv/app.py",
			content: "class A(Base):  # gymlint: ignore[GL102] one worker only\n",
			ds:      []string{"1 GL101"},
			done:    []string{"1 GL102"},
			want:    "class A(Base):  # gymlint: ignore[GL101,GL102] one worker only\n",
		},
		{
			name:    "python, merged into an unsorted list: appended, its separator kept",
			path:    "srv/app.py",
			content: "x = 1  # noqa: F401  # gymlint: ignore[GL102, GL006] why\n",
			ds:      []string{"1 GL101"},
			done:    []string{"1 GL102", "1 GL006"},
			want:    "x = 1  # noqa: F401  # gymlint: ignore[GL102, GL006, GL101] why\n",
		},
		{
			name:    "python, merged into the suppression above that covers the line",
			path:    "srv/app.py",
			content: "# gymlint: ignore[GL102] why\n# an explanation\nclass A(Base):\n    pass\n",
			ds:      []string{"3 GL101"},
			done:    []string{"3 GL102"},
			want:    "# gymlint: ignore[GL101,GL102] why\n# an explanation\nclass A(Base):\n    pass\n",
		},
		{
			name:    "python, a suppression without a reason on the line is left as it is",
			path:    "srv/app.py",
			content: "x = 1  # gymlint: ignore[GL102]\n",
			ds:      []string{"1 GL101"},
			done:    []string{"1 GL102"},
			want:    "x = 1  # gymlint: ignore[GL102]  # gymlint: ignore[GL101] adopted as is\n",
			left:    "GL102 GL009", // as before: the finding, and the suppression without a reason
		},
		{
			name:    "python, CRLF, trailing white space, no line end at the end",
			path:    "srv/app.py",
			content: "a = 1\r\nb = 2 \r\nc = 3\t\t\r\nd = 4",
			ds:      []string{"2 GL101", "3 GL101", "4 GL101"},
			want:    "a = 1\r\nb = 2  # gymlint: ignore[GL101] adopted as is\r\nc = 3\t\t# gymlint: ignore[GL101] adopted as is\r\nd = 4  # gymlint: ignore[GL101] adopted as is",
		},
		{
			name:    "python, lone CR line ends",
			path:    "srv/app.py",
			content: "import os\rclass A(Base):\r    x = 1\r",
			ds:      []string{"2 GL101"},
			want:    "import os\rclass A(Base):  # gymlint: ignore[GL101] adopted as is\r    x = 1\r",
		},
		{
			name:    "python, byte order mark",
			path:    "srv/app.py",
			content: "\ufeffimport os\n",
			ds:      []string{"1 GL101"},
			want:    "\ufeffimport os  # gymlint: ignore[GL101] adopted as is\n",
		},
		{
			name:    "python, a multi-line string: above the line it starts on, none inside it",
			path:    "srv/app.py",
			content: "class A:\n    y = \"\"\"first\n    second # not a comment\n    third\"\"\"\n",
			ds:      []string{"2 GL101", "3 GL102", "4 GL101"},
			want:    "class A:\n    # gymlint: ignore[GL101] adopted as is\n    y = \"\"\"first\n    second # not a comment\n    third\"\"\"  # gymlint: ignore[GL101] adopted as is\n",
			missed:  map[string]string{"3 GL102": WhyInString},
		},
		{
			name:    "python, a docstring on line 1",
			path:    "srv/app.py",
			content: "\"\"\"Helpers.\n\nMore.\n\"\"\"\nimport os\n",
			ds:      []string{"1 GL101"},
			want:    "# gymlint: ignore[GL101] adopted as is\n\"\"\"Helpers.\n\nMore.\n\"\"\"\nimport os\n",
		},
		{
			name:    "python, backslash continuations",
			path:    "srv/app.py",
			content: "x = 1 + \\\n    2 + \\\n    3\n",
			ds:      []string{"1 GL101", "2 GL101", "3 GL101"},
			want:    "# gymlint: ignore[GL101] adopted as is\nx = 1 + \\\n    2 + \\\n    3  # gymlint: ignore[GL101] adopted as is\n",
			missed:  map[string]string{"2 GL101": WhyBackslash},
		},
		{
			name:    "python, a #! line 1",
			path:    "srv/app.py",
			content: "#!/usr/bin/env python\nimport os\n",
			ds:      []string{"1 GL101", "2 GL101"},
			want:    "#!/usr/bin/env python\nimport os  # gymlint: ignore[GL101] adopted as is\n",
			missed:  map[string]string{"1 GL101": WhyShebang},
		},
		{
			name:    "python, SameCode refuses the end of the line: above it",
			path:    "srv/app.py",
			content: "x = 1\n",
			ds:      []string{"1 GL101"},
			same:    func(_, new []byte, _ []int) bool { return !strings.Contains(string(new), "1  #") },
			want:    "# gymlint: ignore[GL101] adopted as is\nx = 1\n",
		},
		{
			name:    "python, SameCode refuses everything",
			path:    "srv/app.py",
			content: "x = 1\ny = 2\n",
			ds:      []string{"1 GL101", "2 GL102"},
			same:    func(_, _ []byte, _ []int) bool { return false },
			want:    "x = 1\ny = 2\n",
			missed:  map[string]string{"1 GL101": WhyChangeCode, "2 GL102": WhyChangeCode},
		},
		{
			name:    "python, GL010 and a line not in the file",
			path:    "srv/app.py",
			content: "x = 1\n",
			ds:      []string{"1 GL010", "7 GL101"},
			want:    "x = 1\n",
			missed:  map[string]string{"1 GL010": WhySelf, "7 GL101": WhyNoLine},
		},
		{
			name:    "yaml, at the end of the line; a block scalar",
			path:    "srv/configs/srv.yaml",
			content: "srv:\n  text: |\n    line one\n    line two\n  entrypoint: app.py\n",
			ds:      []string{"2 GL006", "3 GL006", "5 GL006"},
			want:    "srv:\n  text: |  # gymlint: ignore[GL006] adopted as is\n    line one\n    line two\n  entrypoint: app.py  # gymlint: ignore[GL006] adopted as is\n",
			missed:  map[string]string{"3 GL006": WhyInString},
		},
		{
			name:    "yaml, a plain scalar continued on the next line: above it (configscan.SameValues)",
			path:    "srv/configs/srv.yaml",
			content: "srv:\n  note: a long\n    plain scalar\n  other: 1\n",
			ds:      []string{"2 GL006"},
			same:    func(old, new []byte, _ []int) bool { return configscan.SameValues(old, new) },
			want:    "srv:\n  # gymlint: ignore[GL006] adopted as is\n  note: a long\n    plain scalar\n  other: 1\n",
		},
		{
			name:    "go, alone on the line above",
			path:    "native/x.go",
			content: "package x\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n",
			ds:      []string{"4 GL201", "4 GL202"},
			want:    "package x\n\nfunc f() {\n\t//gymlint:ignore GL201,GL202 adopted as is\n\tx := 1\n\t_ = x\n}\n",
		},
		{
			name:    "go, a struct field and a declaration under its doc comment: at the end of the line, where gofmt keeps it",
			path:    "native/x.go",
			content: "package x\n\ntype T struct {\n\ta    int\n\tbcde int\n}\n\n// V is v.\nvar V = 1\n",
			ds:      []string{"5 GL201", "9 GL202"},
			want:    "package x\n\ntype T struct {\n\ta    int\n\tbcde int //gymlint:ignore GL201 adopted as is\n}\n\n// V is v.\nvar V = 1 //gymlint:ignore GL202 adopted as is\n",
		},
		{
			name:    "go, merged into a directive on the line; CRLF",
			path:    "native/x.go",
			content: "package x\r\n\r\nvar x = 1 //gymlint:ignore GL202 why\r\n",
			ds:      []string{"3 GL201"},
			done:    []string{"3 GL202"},
			want:    "package x\r\n\r\nvar x = 1 //gymlint:ignore GL201,GL202 why\r\n",
		},
		{
			name:    "go, inside a raw string: none; its last line: at the end",
			path:    "native/x.go",
			content: "package x\n\nvar s = `a\nb\nc`\n",
			ds:      []string{"4 GL201", "5 GL201"},
			want:    "package x\n\nvar s = `a\nb\nc` //gymlint:ignore GL201 adopted as is\n",
			missed:  map[string]string{"4 GL201": WhyInString},
		},
		{
			name:    "not a file with suppressions",
			path:    "pyproject.toml",
			content: "[tool.gymlint]\n",
			ds:      []string{"1 GL101"},
			want:    "[tool.gymlint]\n",
			missed:  map[string]string{"1 GL101": WhyNoSyntax},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := func(spec string) diag.Diagnostic {
				line, code, _ := strings.Cut(spec, " ")
				return finding(tc.path + ":" + line + " " + code)
			}
			var ds, done []diag.Diagnostic
			for _, s := range tc.ds {
				ds = append(ds, at(s))
			}
			for _, s := range tc.done {
				done = append(done, at(s))
			}
			a := Adopt(tc.path, []byte(tc.content), ds, AdoptOptions{Reason: r, SameCode: tc.same})
			got := applyEdits(tc.content, a.Edits)
			if got != tc.want {
				t.Errorf("content:\n got %q\nwant %q", got, tc.want)
			}
			for _, e := range a.Edits {
				checkPositions(t, tc.path, tc.content, e)
			}
			missed := map[string]string{}
			for _, m := range a.Missed {
				missed[strconv.Itoa(m.Diagnostic.Start.Line)+" "+m.Diagnostic.Code] = m.Why
			}
			if len(missed) != len(tc.missed) {
				t.Errorf("missed %v, want %v", missed, tc.missed)
			}
			for k, why := range tc.missed {
				if missed[k] != why {
					t.Errorf("missed %s: %q, want %q", k, missed[k], why)
				}
			}
			if len(a.Suppressed)+len(a.Missed) != len(ds) {
				t.Errorf("%d suppressed and %d missed of %d findings", len(a.Suppressed), len(a.Missed), len(ds))
			}
			// As Apply reads the new content: the findings placed are
			// suppressed, the suppressions report nothing. The lines of
			// the findings move down by the lines inserted above them.
			var after []diag.Diagnostic
			for _, d := range append(append([]diag.Diagnostic(nil), a.Suppressed...), done...) {
				line := d.Start.Line
				for _, e := range a.Edits {
					if strings.HasSuffix(e.NewText, "\n") || strings.HasSuffix(e.NewText, "\r") {
						if e.Start.Line <= line {
							d.Start.Line++
							d.End.Line++
						}
					}
				}
				after = append(after, d)
			}
			read := func(string) ([]byte, error) { return []byte(got), nil }
			left := ApplyConfig(after, []string{tc.path}, read, Config{Lookup: lookup})
			var codes []string
			for _, d := range left {
				codes = append(codes, d.Code)
			}
			if strings.Join(codes, " ") != tc.left {
				t.Errorf("after: Apply reports %v, want %q", show(left), tc.left)
			}
		})
	}
}

// TestCheckReason: a reason is one line of printable text that every
// comment syntax reads back whole.
func TestCheckReason(t *testing.T) {
	for reason, ok := range map[string]bool{
		"adopted":                      true,
		"  legacy, reviewed 2026-01  ": true,
		"naïve — ünïcode":              true,
		"":                             false,
		"   ":                          false,
		"two\nlines":                   false,
		"cr\rhere":                     false,
		"tab\there":                    false,
		"line\u2028separator":          false,
		"a # second comment":           false,
		"# only a comment":             false,
	} {
		if err := CheckReason(reason); (err == nil) != ok {
			t.Errorf("CheckReason(%q) = %v, want ok %v", reason, err, ok)
		}
	}
}
