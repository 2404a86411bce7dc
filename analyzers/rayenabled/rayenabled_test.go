package rayenabled

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The rules' cases are gymtest cases under testdata/src and
// testdata/inrepo/src (gymtest_test.go); testdata/rayrepo covers the
// shapes end to end (fixture_test.go). These tests pin what no finding
// shows: Status, the reading of ClassVar annotations, the config words,
// and the sharing of one analysis per view.

const srs = "from typing import ClassVar\n\nfrom nemo_gym.base_resources_server import SimpleResourcesServer\n"

const guard = "\n\nif __name__ == \"__main__\":\n    %s.run_webserver()\n"

// server returns an entrypoint: header lines, then a server class Srv with
// body, then the __main__ guard.
func server(header, body string) string {
	if body == "" {
		body = "    pass\n"
	}
	return srs + header + "\n\nclass Srv(SimpleResourcesServer):\n" + body + strings.Replace(guard, "%s", "Srv", 1)
}

const app = "resources_servers/srv/app.py"

func build(t *testing.T, files map[string]string, opts gym.Options) *gym.View {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	opts.Overlay = overlay
	v, err := gym.Build(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// scan runs the five rules on a repository given as an overlay, checking
// each diagnostic's metadata.
func scan(t *testing.T, files map[string]string) []diag.Diagnostic {
	t.Helper()
	v := build(t, files, gym.Options{})
	var ds []diag.Diagnostic
	for _, c := range Checks {
		for _, d := range c.Run(v) {
			if d.Code != c.Rule.Code || d.Rule != c.Rule.Name || d.Analyzer != "rayenabled" || d.Severity != c.Rule.Severity {
				t.Errorf("metadata of %s: %+v", c.Rule.Code, d)
			}
			ds = append(ds, d)
		}
	}
	diag.Sort(ds)
	return ds
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestChecksInCodeOrder(t *testing.T) {
	want := []string{"GL201", "GL202", "GL203", "GL204", "GL205"}
	if len(Checks) != len(want) {
		t.Fatalf("%d checks, want %d", len(Checks), len(want))
	}
	for i, c := range Checks {
		if c.Rule.Code != want[i] || c.Rule.Analyzer != "rayenabled" || c.Run == nil {
			t.Errorf("check %d: %s %s", i, c.Rule.Code, c.Rule.Analyzer)
		}
	}
}

func TestStatus(t *testing.T) {
	v := build(t, map[string]string{
		"resources_servers/used/app.py":     server("import helpers\n", "    ray_enabled: ClassVar[bool] = True\n"),
		"resources_servers/used/helpers.py": "import ray\n",
		"resources_servers/plain/app.py":    server("", ""),
		"resources_servers/bare/app.py":     server("", "    ray_enabled = True\n"),
		"resources_servers/paren/app.py":    server("", "    ray_enabled: ClassVar[bool] = (\n        True\n    )\n"),
		"resources_servers/calc/app.py":     server("import ray\n", "    ray_enabled: ClassVar[bool] = 1 == 1\n"),
		"resources_servers/string/app.py":   server("import ray\n", "    ray_enabled: ClassVar[bool] = \"True\"\n"),
		"resources_servers/broken/app.py":   server("import ray\n", "    def f(self:\n        pass\n"),
	}, gym.Options{})
	want := map[string]string{
		"resources_servers/used/app.py":   "declared needed resources_servers/used/helpers.py:1",
		"resources_servers/plain/app.py":  "undeclared unneeded",
		"resources_servers/bare/app.py":   "declared unneeded",
		"resources_servers/paren/app.py":  "declared unneeded",
		"resources_servers/calc/app.py":   "undeclared needed resources_servers/calc/app.py:4",
		"resources_servers/string/app.py": "undeclared needed resources_servers/string/app.py:4",
		"resources_servers/broken/app.py": "",
	}
	for _, e := range v.Entrypoints {
		w, ok := want[e.Path]
		if !ok {
			t.Errorf("unexpected entrypoint %s", e.Path)
			continue
		}
		if w == "" {
			continue // tree-sitter may or may not recover the class; no claim
		}
		if len(e.Servers) != 1 {
			t.Fatalf("%s: servers %v", e.Path, e.Servers)
		}
		st := Status(v, e.Servers[0])
		got := map[bool]string{true: "declared", false: "undeclared"}[st.Declared] + " " + map[bool]string{true: "needed", false: "unneeded"}[st.Needed]
		if st.Use != nil {
			got += " " + st.Use.Path + ":" + itoa(st.Use.Start.Line)
		}
		if st.Needed != (st.Use != nil) {
			t.Errorf("%s: Needed %v but Use %v", e.Path, st.Needed, st.Use)
		}
		if got != w {
			t.Errorf("%s: status %q, want %q", e.Path, got, w)
		}
	}
	// A server that is no entrypoint's (here: no such run_webserver call)
	// is analysed from its own module.
	e := v.Entrypoints[len(v.Entrypoints)-1]
	if e.Path != "resources_servers/used/app.py" {
		t.Fatalf("last entrypoint is %s", e.Path)
	}
	s := e.Servers[0]
	s.Call = &pyscan.Call{}
	if st := Status(v, s); !st.Declared || !st.Needed || st.Use == nil || st.Use.Path != "resources_servers/used/helpers.py" {
		t.Errorf("detached server: %+v", st)
	}
}

// An exempt entrypoint gets no diagnostics (the gymtest case
// exempt-entrypoint-is-skipped), but Status still answers for it.
func TestStatusOfExemptEntrypoint(t *testing.T) {
	v := build(t, map[string]string{app: server("import ray\n", "    ray_enabled = os.environ.get(\"X\")\n")},
		gym.Options{Exemptions: []gym.Exemption{{Path: app, Reason: "base classes"}}})
	for _, c := range Checks {
		if ds := c.Run(v); len(ds) != 0 {
			t.Errorf("%s on an exempt entrypoint: %v", c.Rule.Code, ds)
		}
	}
	if st := Status(v, v.Entrypoints[0].Servers[0]); st.Declared || !st.Needed {
		t.Errorf("status %+v", st)
	}
}

// TestClassVar reads annotations as an ancestor's class body writes them:
// typing's ClassVar under the names the module binds it, and the forms the
// model cannot decide.
func TestClassVar(t *testing.T) {
	const header = "import typing\nimport typing as t\nfrom typing import ClassVar\nfrom typing_extensions import ClassVar as CV\n" +
		"from helpers import *\nMyClassVar = object\n\n\nclass C:\n"
	for ann, want := range map[string]classVarness{
		"ClassVar[bool]":           isClassVar,
		"ClassVar [ bool ]":        isClassVar,
		"(ClassVar)[bool]":         isClassVar,
		"typing.ClassVar[bool]":    isClassVar,
		"t.ClassVar":               isClassVar,
		"CV[bool]":                 isClassVar,
		"bool":                     notClassVar,
		"Optional[ClassVar[bool]]": notClassVar,
		"MyClassVar[bool]":         notClassVar,
		"list[bool]":               notClassVar,
		`"ClassVar[bool]"`:         maybeClassVar,
		"'bool'":                   maybeClassVar,
		"helpers.ClassVar[bool]":   maybeClassVar,
		"other.ClassVar[bool]":     maybeClassVar,
	} {
		t.Run(ann, func(t *testing.T) {
			v := build(t, map[string]string{
				"m.py":       header + "    ray_enabled: " + ann + " = True\n",
				"helpers.py": "X = 1\n",
			}, gym.Options{})
			m, err := v.Module("m.py")
			if err != nil || m.SyntaxError != nil {
				t.Fatalf("%v %v", err, m.SyntaxError)
			}
			at := m.Classes[0].Attr(Attr)
			if got := classVar(v, m, at.Annotation); got != want {
				t.Errorf("classVar(%s) = %d, want %d", ann, got, want)
			}
		})
	}
	// A module that binds ClassVar to something of its own does not
	// declare one.
	v := build(t, map[string]string{"m.py": "ClassVar = object\n\n\nclass C:\n    ray_enabled: ClassVar[bool] = True\n"}, gym.Options{})
	m, _ := v.Module("m.py")
	if got := classVar(v, m, m.Classes[0].Attr(Attr).Annotation); got != notClassVar {
		t.Errorf("rebound ClassVar: %d", got)
	}
	if got := classVar(v, m, nil); got != notClassVar {
		t.Errorf("no annotation: %d", got)
	}
}

// TestAnalysisShared checks that the rules and Status share one set of
// facts of a view (the servers' declarations, their Ray use), and that
// another view gets its own.
func TestAnalysisShared(t *testing.T) {
	files := map[string]string{app: server("import ray\n", "")}
	v, w := build(t, files, gym.Options{}), build(t, files, gym.Options{})
	ss, u := declsOf(v), usesOf(v)
	if declsOf(v) != ss || usesOf(v) != u {
		t.Error("a second call analysed the view again")
	}
	if declsOf(w) == ss || usesOf(w) == u {
		t.Error("two views share one analysis")
	}
	if len(u.list) != 1 || u.list[0].serverDecl != ss.list[0] || u.list[0].found.use == nil {
		t.Errorf("uses %+v", u.list)
	}
	n := 0
	for _, c := range Checks {
		n += len(c.Run(v))
	}
	if n != 1 {
		t.Errorf("%d findings, want GL201", n)
	}
	Status(v, v.Entrypoints[0].Servers[0])
	if declsOf(v) != ss || usesOf(v) != u {
		t.Error("the rules or Status analysed the view again")
	}
}

// TestFirstUseCached checks that a module's first use is computed once
// per view and script flag, whichever server asks.
func TestFirstUseCached(t *testing.T) {
	v := build(t, map[string]string{
		"resources_servers/a/app.py": server("import helpers\n", ""),
		"resources_servers/b/app.py": server("import helpers\n", ""),
		"helpers.py":                 "import ray\n",
	}, gym.Options{})
	a := usesOf(v)
	m, _ := v.Module("helpers.py")
	u := a.scanner.firstUse(m, false)
	if u == nil || u.what != "imports ray" || u.path != "helpers.py" {
		t.Fatalf("first use %+v", u)
	}
	if a.scanner.firstUse(m, false) != u {
		t.Error("the first use was computed again")
	}
	if n := len(scan(t, map[string]string{
		"resources_servers/a/app.py": server("import helpers\n", ""),
		"resources_servers/b/app.py": server("import helpers\n", ""),
		"helpers.py":                 "import ray\n",
	})); n != 2 {
		t.Errorf("%d findings, want one GL201 per server", n)
	}
}

// TestParallelServersOfOneEntrypoint analyses two servers of one
// entrypoint in parallel, again and again: the assignment in Other's
// method is Other's business whichever server's analysis first needs the
// entrypoint's walk (one walk per module, see scanner.module) and facts'
// Func of the method (which must not be taken for a module function: see
// scanner.funcMu).
func TestParallelServersOfOneEntrypoint(t *testing.T) {
	files := map[string]string{app: srs + `import ray


class Srv(SimpleResourcesServer):
    pass


class Other(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    def setup(self):
        self.ray_enabled = True
`}
	for i := 0; i < 40; i++ {
		v := build(t, files, gym.Options{Jobs: 2})
		var got []string
		for _, c := range Checks {
			for _, d := range c.Run(v) {
				got = append(got, d.Code+":"+itoa(d.Start.Line))
			}
		}
		if strings.Join(got, " ") != "GL201:7" {
			t.Fatalf("run %d: %v, want GL201 on Srv only", i, got)
		}
	}
}
