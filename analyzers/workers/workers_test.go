package workers

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The rules' behaviour is pinned by the cases under testdata/src
// (gymtest_test.go); these tests pin the pieces the cases reach only
// through a message: the catalogue, the inventory's Status, the annotation
// and mention checks of GL103, and the GL101 fixes on the fixture
// repository.

const header = `from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

`

func view(t *testing.T, files map[string]string) *gym.View {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

func entrypoint(t *testing.T, v *gym.View, p string) *gym.Entrypoint {
	t.Helper()
	for _, e := range v.Entrypoints {
		if e.Path == p {
			return e
		}
	}
	t.Fatalf("no entrypoint %s", p)
	return nil
}

func method(body string) string {
	return header + "\nclass EchoServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self) -> str | None:\n" + body + "\n"
}

func TestChecks(t *testing.T) {
	for i, c := range Checks {
		if c.Rule.Analyzer != "workers" || c.Run == nil {
			t.Errorf("%s: analyzer %q", c.Rule.Code, c.Rule.Analyzer)
		}
		if i > 0 && Checks[i-1].Rule.Code >= c.Rule.Code {
			t.Errorf("Checks are not in code order: %s after %s", c.Rule.Code, Checks[i-1].Rule.Code)
		}
		for _, h := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
			if !strings.Contains(c.Rule.Doc, h) {
				t.Errorf("%s doc lacks %q", c.Rule.Code, h)
			}
		}
	}
	// GL101-GL106, GL114, and every hazard rule (HazardRules).
	codes := map[string]bool{}
	for _, c := range Checks {
		codes[c.Rule.Code] = true
	}
	for _, code := range []string{"GL101", "GL102", "GL103", "GL104", "GL105", "GL106", "GL114"} {
		if !codes[code] {
			t.Errorf("no check of %s", code)
		}
	}
	for _, r := range HazardRules() {
		if !codes[r.Code] {
			t.Errorf("hazard rule %s is not in Checks", r.Code)
		}
	}
}

func TestStatus(t *testing.T) {
	app := "\n\nif __name__ == \"__main__\":\n    EchoServer.run_webserver()\nelif is_nemo_gym_fastapi_entrypoint(__file__):\n    app = EchoServer.run_webserver()\n"
	v := view(t, map[string]string{
		"resources_servers/app_only/app.py":   header + "class EchoServer(SimpleResourcesServer):\n    pass\n" + app,
		"resources_servers/always/app.py":     method(`        return "kept in memory"`),
		"resources_servers/when/app.py":       method("        if self.config.compute_comet:\n            return \"gpu\"\n        return None") + app,
		"resources_servers/unknown/app.py":    method(`        return self._why()`),
		"resources_servers/none/app.py":       method(`        return None`),
		"resources_servers/undeclared/app.py": header + "class EchoServer(SimpleResourcesServer):\n    pass\n",
		"resources_servers/broken/app.py":     header + "class EchoServer(SimpleResourcesServer:\n    pass\n",
	})
	for p, want := range map[string]string{
		"resources_servers/app_only/app.py":   "app",
		"resources_servers/always/app.py":     "refuses always",
		"resources_servers/when/app.py":       "refuses when: self.config.compute_comet (+app)",
		"resources_servers/unknown/app.py":    "refuses when: (condition not known statically)",
		"resources_servers/none/app.py":       "no app",
		"resources_servers/undeclared/app.py": "undeclared",
	} {
		e := entrypoint(t, v, p)
		if len(e.Servers) == 0 {
			t.Fatalf("%s has no server class", p)
		}
		st := Status(v, e, e.Servers[0])
		if st.String() != want {
			t.Errorf("%s: %q, want %q", p, st.String(), want)
		}
		if p == "resources_servers/always/app.py" && st.Reason != "kept in memory" {
			t.Errorf("reason %q", st.Reason)
		}
	}
	if st := Status(v, entrypoint(t, v, "resources_servers/broken/app.py"), gym.Server{}); st.Kind != StatusUnknown {
		t.Errorf("a module that does not parse: %q", st.Kind)
	}
}

// annotation parses `x: <ann>` in a module that imports typing's names as
// the header says, and returns the module and the annotation.
func annotation(t *testing.T, imports, ann string) (*pyscan.Module, pyscan.Expr) {
	t.Helper()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	m := p.Parse("m.py", []byte(imports+"\n\nclass C:\n    num_workers: "+ann+" = 1\n"))
	if m.SyntaxError != nil || len(m.Classes) == 0 {
		t.Fatalf("%q: %v", ann, m.SyntaxError)
	}
	return m, m.Classes[len(m.Classes)-1].Attr("num_workers").Annotation
}

func TestLiteral1(t *testing.T) {
	v := view(t, map[string]string{})
	const imports = "import typing\nimport typing as t\nimport typing_extensions\nfrom typing import Literal, Optional, Union"
	for ann, want := range map[string]bool{
		"Literal[1]": true, "typing.Literal[1]": true, "t.Literal[1]": true, "typing_extensions.Literal[1]": true,
		"Optional[Literal[1]]": true, "Literal[1] | None": true, "None | Literal[1]": true,
		"Union[Literal[1], None]": true, "Literal[ 1 ]": true, "Literal[1, None]": true, "Optional[Optional[Literal[1]]]": true,
		"Literal[1, 2]": false, "int": false, "Literal[2]": false, "Literal['1']": false, "List[Literal[1]]": false,
		"Literal[None]": false, "Union[Literal[1], int]": false, "Literal[1] | int": false, "Literal": false,
	} {
		m, a := annotation(t, imports, ann)
		if got := literal1(v, m, a); got != want {
			t.Errorf("literal1(%q) = %v, want %v", ann, got, want)
		}
	}
	// A Literal that is not typing's (a class of the module, or no import
	// at all) is not the check.
	for _, imports := range []string{"class Literal:\n    pass", ""} {
		if m, a := annotation(t, imports, "Literal[1]"); literal1(v, m, a) {
			t.Errorf("Literal[1] with %q counts", imports)
		}
	}
}

func TestMentions(t *testing.T) {
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	for src, want := range map[string]bool{
		"self.config.num_workers > 1":          true,
		"num_workers > 1":                      true,
		`values.get("num_workers", 1) > 1`:     true,
		`values["num_workers"] != 1`:           true,
		"v is not None and v > 1":              true, // the value parameter
		"self.max_num_workers_x > 1":           false,
		"num_workers_max > 1":                  false,
		`"the num_workers" in message`:         false,
		"self.v > 1":                           false, // an attribute named like the parameter
		"len(self.config.tools) > 1 and other": false,
	} {
		m := p.Parse("m.py", []byte("("+src+")\n"))
		if m.SyntaxError != nil || len(m.Body) != 1 {
			t.Fatalf("%q: %v", src, m.SyntaxError)
		}
		if got := mentions(m.Body[0].(*pyscan.ExprStmt).Value, "v"); got != want {
			t.Errorf("mentions(%q) = %v, want %v", src, got, want)
		}
	}
}

// Every GL101 fix on the fixture repository applies, parses, and removes
// its finding.
func TestUndeclaredFixesOnGymrepo(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "gymrepo")
	v, err := gym.Build(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds := runUndeclared(v)
	v.Close()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	n := 0
	for _, d := range ds {
		for _, f := range d.Fixes {
			n++
			overlay := map[string][]byte{}
			for path, edits := range editsByPath(f) {
				src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
				if err != nil {
					t.Fatal(err)
				}
				fixed := applyEdits(t, path, string(src), edits)
				overlay[path] = []byte(fixed)
				if m := p.Parse(path, []byte(fixed)); m.SyntaxError != nil {
					t.Errorf("%s: fix %q: %s does not parse: %s", d.Path, f.Message, path, m.SyntaxError.Message)
				}
			}
			v2, err := gym.Build(root, gym.Options{Overlay: overlay})
			if err != nil {
				t.Fatal(err)
			}
			for _, d2 := range runUndeclared(v2) {
				if d2.Path == d.Path {
					t.Errorf("%s: fix %q leaves %s", d.Path, f.Message, d2.Message)
				}
			}
			v2.Close()
		}
	}
	if n == 0 {
		t.Fatal("no GL101 fix in the fixture repository")
	}
}

func editsByPath(f diag.Fix) map[string][]diag.TextEdit {
	out := map[string][]diag.TextEdit{}
	for _, e := range f.Edits {
		out[e.Path] = append(out[e.Path], e)
	}
	return out
}

// applyEdits applies one file's edits, checking that their lines and
// columns agree with their offsets and that they do not overlap.
func applyEdits(t *testing.T, path, src string, edits []diag.TextEdit) string {
	t.Helper()
	for _, e := range edits {
		for _, p := range []diag.Pos{e.Start, e.End} {
			if p.Offset < 0 || p.Offset > len(src) {
				t.Fatalf("edit position %+v outside %s", p, path)
			}
			line := strings.Count(src[:p.Offset], "\n") + 1
			col := p.Offset - (strings.LastIndexByte(src[:p.Offset], '\n') + 1) + 1
			if p.Line != line || p.Col != col {
				t.Errorf("edit position %+v of %s: offset %d is %d:%d", p, path, p.Offset, line, col)
			}
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start.Offset > edits[j].Start.Offset })
	for i, e := range edits {
		if i > 0 && e.End.Offset > edits[i-1].Start.Offset {
			t.Fatalf("edits of %s overlap: %+v, %+v", path, e, edits[i-1])
		}
		src = src[:e.Start.Offset] + e.NewText + src[e.End.Offset:]
	}
	return src
}

// Each hazard rule is registered once, in Checks, and Hazards runs exactly
// those checks: the hazard rules are the Checks entries hazardRule made, in
// code order, without a duplicate.
func TestHazardRulesAreRegisteredOnce(t *testing.T) {
	hs := HazardRules()
	if len(hs) == 0 {
		t.Fatal("no hazard rule")
	}
	inChecks := map[*diag.Rule]int{}
	for _, c := range Checks {
		inChecks[c.Rule]++
	}
	for i, r := range hs {
		if inChecks[r] != 1 {
			t.Errorf("%s: %d entries in Checks, want 1", r.Code, inChecks[r])
		}
		if i > 0 && hs[i-1].Code >= r.Code {
			t.Errorf("hazard rules out of code order: %s before %s", hs[i-1].Code, r.Code)
		}
	}
	for _, code := range []string{"GL107", "GL108", "GL109", "GL110", "GL111", "GL112", "GL113"} {
		if !slices.ContainsFunc(hs, func(r *diag.Rule) bool { return r.Code == code }) {
			t.Errorf("%s is not a hazard rule", code)
		}
	}
}
