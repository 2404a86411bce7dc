package pyscan

import (
	"strings"
	"testing"
	"unsafe"
)

func TestPrologue(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string // want: the prologue's text, "" for nil
	}{
		{"none", "import os\n", ""},
		{"docstring", "\"\"\"Doc.\"\"\"\nimport os\n", `"""Doc."""`},
		{"docstring after comments", "#!/usr/bin/env python\n# Licence\n'doc'\nx = 1\n", `'doc'`},
		{"concatenated docstring", "'a' 'b'\nx = 1\n", `'a' 'b'`},
		{"docstring and future imports", "\"\"\"Doc.\n\nMore.\n\"\"\"\n\nfrom __future__ import annotations\nfrom __future__ import division\n\nimport os\n",
			"\"\"\"Doc.\n\nMore.\n\"\"\"\n\nfrom __future__ import annotations\nfrom __future__ import division"},
		{"future import alone", "from __future__ import annotations\nimport os\n", "from __future__ import annotations"},
		{"a string later is no docstring", "x = 1\n'not a docstring'\n", ""},
		{"an f-string is no docstring", "f'not {a} docstring'\nx = 1\n", ""},
		{"a bytes literal is no docstring", "b'not a docstring'\nx = 1\n", ""},
		{"a call first is no docstring", "print('x')\n", ""},
		{"empty module", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			got := ""
			if m.Prologue != nil {
				got = at(tc.src, *m.Prologue)
			}
			if got != tc.want {
				t.Errorf("Prologue = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMainGuards(t *testing.T) {
	src := py(`
		import os

		if __name__ == "__main__":
			# start it
			Srv.run_webserver()
			print("done")  # trailing
			# after
		elif is_nemo_gym_fastapi_entrypoint(__file__):
			app = Srv.run_webserver()

		if '__main__' == __name__: main()

		def f():
			if __name__ == "__main__":
				pass

		if x:
			pass
	`)
	m := parseSrc(t, src)
	if len(m.MainGuards) != 2 {
		t.Fatalf("got %d guards, want 2 (a guard in a function is not at module scope)", len(m.MainGuards))
	}
	g := m.MainGuards[0]
	if !strings.HasPrefix(at(src, g.Span), `if __name__ == "__main__":`) || !strings.HasSuffix(at(src, g.Span), "app = Srv.run_webserver()") {
		t.Errorf("guard span covers %q", at(src, g.Span))
	}
	if got, want := at(src, g.Body), "Srv.run_webserver()\n    print(\"done\")"; got != want {
		t.Errorf("guard body covers %q, want %q", got, want)
	}
	if s, e := m.Pos(g.Body.Start), m.Pos(g.Body.End); s.Line != 5 || s.Col != 5 || e.Line != 6 {
		t.Errorf("guard body at %+v-%+v, want 5:5-6:...", s, e)
	}
	if g.If != m.Body[1] || len(g.If.Body) != 2 || len(g.If.Else) != 1 || !g.If.Else[0].(*If).Elif {
		t.Errorf("guard statement %s", dump(g.If))
	}
	one := m.MainGuards[1]
	if got := at(src, one.Body); got != "main()" || m.Line(one.Body.Start) != m.Line(one.Span.Start) {
		t.Errorf("one-line guard body covers %q on line %d", got, m.Line(one.Body.Start))
	}
}

func TestClassBody(t *testing.T) {
	src := py(`
		class A(Base):
			"""Doc."""

		class B(Base): x = 1; y = 2  # comment

		class C(Base):
			# leading comment
			x = 1

			def f(self):
				if x:
					return 1
			# trailing comment

		@decorator
		class D:
			pass

		class E:
			@property
			def f(self): pass
	`)
	m := parseSrc(t, src)
	want := map[string]string{
		"A": `"""Doc."""`,
		"B": "x = 1; y = 2",
		"C": "x = 1\n\n    def f(self):\n        if x:\n            return 1",
		"D": "pass",
		"E": "@property\n    def f(self): pass",
	}
	for _, c := range m.Classes {
		if got := at(src, c.BodySpan); got != want[c.Name] {
			t.Errorf("class %s body covers %q, want %q", c.Name, got, want[c.Name])
		}
	}
	if b := m.Classes[1]; m.Line(b.BodySpan.Start) != m.Line(b.NameSpan.Start) {
		t.Errorf("one-line body of B starts on line %d, want %d", m.Line(b.BodySpan.Start), m.Line(b.NameSpan.Start))
	}
	c := m.Classes[2]
	if got := at(src, c.Span); !strings.HasSuffix(got, "return 1") {
		t.Errorf("class C ends after its last statement, not after the comment: %q", got)
	}
	if d := m.Classes[3]; !strings.HasPrefix(at(src, d.Span), "class D") || m.Text(d.Decorators[0]) != "decorator" {
		t.Errorf("a decorated class's span starts at class: %q", at(src, d.Span))
	}
}

func TestImportInsertion(t *testing.T) {
	// Each src marks with ^ the offset passed as before (the marker is
	// removed) and with | where the insertion must go ("" when none).
	for _, tc := range []struct{ name, src string }{
		{"after the last import", "import os\nfrom typing import Any\n|\nclass ^A: pass\n"},
		{"an import after before does not count", "import os\n|class ^A: pass\nimport sys\n"},
		{"multi-line import", "from x import (\n    a,\n    b,\n)  # comment\n|\n^x = 1\n"},
		{"imports in compound statements are skipped",
			"import os\n|try:\n    from a import b\nexcept ImportError:\n    from b import b\nif TYPE_CHECKING:\n    import c\n^x = 1\n"},
		{"an import in a function or class is skipped", "import os\n|def f():\n    import sys\nclass A:\n    import json\n^x = 1\n"},
		{"after the docstring and future imports", "#!/usr/bin/env python\n\"\"\"Doc.\n\"\"\"\nfrom __future__ import annotations\n|\n^class A: pass\n"},
		{"future imports are not Imports but count", "from __future__ import annotations\n|^x = 1\n"},
		{"first statement below the leading comments", "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\n|@dec\nclass ^A: pass\n"},
		{"byte order mark", "\ufeff|^x = 1\n"},
		{"CRLF", "import os\r\n|\r\n^x = 1\r\n"},
		// A lone "\r" ends a line, for CPython as for the line index.
		{"lone CR", "import os\r|\r^x = 1\r"},
		{"lone CR after comments", "# a\r# b\r\r|x = ^1\r"},
		{"mixed line ends", "import os\r\nimport sys\r|\r\n^x = 1\n"},
		{"semicolons", "import os; import sys\n|^x = 1\n"},
		{"import on the line of before", "import os; ^x = 1\n"},
		{"nothing before", "^"},
		{"only comments", "# a\n# b\n^"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// | always comes before ^, so neither marker shifts the other.
			src := strings.Replace(tc.src, "^", "", 1)
			wantOff := strings.Index(src, "|")
			src = strings.Replace(src, "|", "", 1)
			before := strings.Index(strings.Replace(tc.src, "|", "", 1), "^")
			m := parseSrc(t, src)
			off, ok := m.ImportInsertion(int32(before))
			if wantOff < 0 {
				if ok {
					t.Fatalf("got %d, want none", off)
				}
				return
			}
			if !ok || off != int32(wantOff) {
				t.Fatalf("got %d, %v, want offset %d", off, ok, wantOff)
			}
			if m.LineStart(off) != off && !(off == 3 && strings.HasPrefix(src, "\ufeff")) {
				t.Errorf("%d is not the start of a line", off)
			}
			// Inserting an import there keeps the module valid.
			out := src[:wantOff] + "import inserted\n" + src[wantOff:]
			if m2 := parseSrc(t, out); m2.SyntaxError != nil {
				t.Fatalf("after insertion: %v\n%s", m2.SyntaxError, out)
			}
		})
	}
	m := parseSrc(t, "import os\n")
	if off, ok := m.ImportInsertion(1 << 30); !ok || off != 10 {
		t.Errorf("a before past the end: %d %v", off, ok)
	}
}

// TestModuleSource checks that a module gives back the text it was parsed
// from, without a copy of its own.
func TestModuleSource(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	for _, src := range []string{"", "x = 1\n", "class A(:\n", "é = '😀'\n"} {
		m := p.Parse("m.py", []byte(src))
		if got := string(m.Source()); got != src {
			t.Errorf("Source() = %q, want %q", got, src)
		}
	}
	m := p.Parse("m.py", []byte("class Server(Base):\n    pass\n"))
	name := m.Classes[0].Name
	src := m.Source()
	if &src[6] != unsafe.StringData(name) {
		t.Error("Source() is a copy: the model's strings and Source() should share one text")
	}
	if v := m.Classes[0].Bases[0].(*Name).Id; unsafe.StringData(v) != &src[13] {
		t.Error("a Name's Id is not a slice of the text")
	}
}
