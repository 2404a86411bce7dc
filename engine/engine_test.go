package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/testtree"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
)

const gymrepo = "../testdata/gymrepo"

func writeTree(t *testing.T, files map[string]string) string { return testtree.New(t, files) }

func keys(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path+" "+d.Code+" "+d.Message)
	}
	return out
}

func scan(t *testing.T, o Options) *Result {
	t.Helper()
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Scan(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// testRule is the rule of the checks the tests inject.
var testRule = &diag.Rule{Code: "GL998", Name: "test-rule", Analyzer: "test", Severity: diag.Error}

// TestPanickingRule injects a check that panics on one entrypoint: the
// other rules' findings stand, so do its own on the other entrypoints, and
// the failing entrypoint gets one GL011 naming the rule and the error.
func TestPanickingRule(t *testing.T) {
	const bad = "resources_servers/legal_bench/app.py"
	base := scan(t, Options{Root: gymrepo, NoGo: true})
	check := gym.Check{Rule: testRule, Run: func(v *gym.View) []diag.Diagnostic {
		var ds []diag.Diagnostic
		for _, e := range v.Entrypoints {
			if e.Path == bad {
				var m map[string]int
				m["x"]++ // assignment to entry in nil map
			}
			ds = append(ds, testRule.New(e.Path, diag.Pos{Line: 1, Col: 1}, diag.Pos{Line: 1, Col: 1}, "seen"))
		}
		return ds
	}}
	res := scan(t, Options{Root: gymrepo, NoGo: true, Checks: append(lint.Checks(), check)})
	var others, seen, internal []diag.Diagnostic
	for _, d := range res.Diagnostics {
		switch d.Code {
		case testRule.Code:
			seen = append(seen, d)
		case core.InternalError.Code:
			internal = append(internal, d)
		default:
			others = append(others, d)
		}
	}
	if !slices.Equal(keys(others), keys(base.Diagnostics)) {
		t.Errorf("the other rules' findings changed:\ngot  %q\nwant %q", keys(others), keys(base.Diagnostics))
	}
	for _, e := range []string{"resources_servers/plain_counter/app.py", "responses_api_models/local_big_model/app.py"} {
		if !slices.ContainsFunc(seen, func(d diag.Diagnostic) bool { return d.Path == e }) {
			t.Errorf("no finding of the failing rule on %s, which it passes", e)
		}
	}
	if slices.ContainsFunc(seen, func(d diag.Diagnostic) bool { return d.Path == bad }) {
		t.Errorf("a finding of the failing rule on %s, which it fails on", bad)
	}
	if len(internal) != 1 || internal[0].Path != bad ||
		!strings.Contains(internal[0].Message, "rule GL998 (test-rule) failed while checking this file: assignment to entry in nil map") {
		t.Errorf("GL011 = %q, want one on %s", keys(internal), bad)
	}
	if InternalErrors(res.Diagnostics) != 1 {
		t.Errorf("InternalErrors = %d", InternalErrors(res.Diagnostics))
	}
}

// TestDisabledRuleDoesNotRun: a rule the configuration disables is not run,
// so what only it reads is not parsed (no GL001 from a module only it
// needs), and its suppressions are not reported unused.
func TestDisabledRuleDoesNotRun(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources_servers/s/app.py":           "class S:  # gymlint: ignore[GL302] only the test rule reports this\n    pass\n",
		"resources_servers/s/configs/s.yaml":   "s:\n  resources_servers:\n    s:\n      entrypoint: app.py\n",
		"resources_servers/s/only_the_rule.py": "def broken(:\n",
	})
	ran := 0
	rule := lint.Lookup("GL302") // a rule of the catalogue, run by the test's check
	check := gym.Check{Rule: rule, Run: func(v *gym.View) []diag.Diagnostic {
		ran++
		v.Module("resources_servers/s/only_the_rule.py")
		return []diag.Diagnostic{rule.New("resources_servers/s/app.py", diag.Pos{Offset: 0, Line: 1, Col: 1}, diag.Pos{Line: 1, Col: 1}, "found")}
	}}
	on := scan(t, Options{Root: root, NoGo: true, Checks: []gym.Check{check}})
	if ran != 1 || !slices.ContainsFunc(on.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == "GL001" }) {
		t.Fatalf("enabled: ran %d times, findings %q", ran, keys(on.Diagnostics))
	}
	off := scan(t, Options{Root: root, NoGo: true, Checks: []gym.Check{check}, Settings: &settings.Settings{Disable: []string{rule.Code}}})
	if ran != 1 {
		t.Errorf("the disabled rule ran")
	}
	if len(off.Diagnostics) != 0 || off.Modules >= on.Modules {
		t.Errorf("disabled: findings %q, %d modules parsed (enabled: %d)", keys(off.Diagnostics), off.Modules, on.Modules)
	}
}

func TestFindRoot(t *testing.T) {
	root := writeTree(t, map[string]string{
		"repo/resources_servers/echo/app.py":    "",
		"repo/resources_servers/echo/configs/x": "",
		"conf/.gymlint.yaml":                    "",
		"conf/sub/dir/f.py":                     "",
		"py/pyproject.toml":                     "[project]\nname = \"x\"\n\n[tool.gymlint]\ndisable = [\"GL101\"]\n",
		"py/a/f.py":                             "",
		"plainpy/pyproject.toml":                "[project]\nname = \"x\"\n",
		"plainpy/a/f.py":                        "",
		"fw/nemo_gym/__init__.py":               "",
		"fw/tools/x.py":                         "",
		"empty_type/resources_servers/.keep":    "",
		"empty_type/a/f.py":                     "",
		"top/.git/HEAD":                         "",
		"top/inner/deep/f.py":                   "",
	})
	// A marked directory above a checkout's top is not looked at.
	if err := os.MkdirAll(filepath.Join(root, "resources_servers", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, dir, marker string }{
		{"repo/resources_servers/echo/configs", "repo", "resources_servers/"},
		{"repo/resources_servers/echo/app.py", "repo", "resources_servers/"},
		{"repo", "repo", "resources_servers/"},
		{"conf/sub/dir/f.py", "conf", ".gymlint.yaml"},
		{"py/a", "py", "pyproject.toml [tool.gymlint]"},
		{"fw/tools", "fw", "nemo_gym/"},
		{"top/inner/deep", "top/inner/deep", ""},
		{"top/inner/deep/f.py", "top/inner/deep", ""},
	} {
		got, err := FindRoot(filepath.Join(root, tc.path))
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		if want := filepath.Join(root, tc.dir); got.Dir != want || got.Marker != tc.marker {
			t.Errorf("FindRoot(%s) = %s (%q), want %s (%q)", tc.path, got.Dir, got.Marker, want, tc.marker)
		}
	}
	// Without .git, a search from an unmarked folder goes on up: plainpy's
	// pyproject.toml has no [tool.gymlint] and empty_type's
	// resources_servers/ no server, so the temporary root's
	// resources_servers/x marks the root.
	for _, p := range []string{"plainpy/a", "empty_type/a"} {
		if got, err := FindRoot(filepath.Join(root, p)); err != nil || got.Dir != root {
			t.Errorf("FindRoot(%s) = %v, %v, want %s", p, got, err, root)
		}
	}
	if _, err := FindRoot(filepath.Join(root, "missing")); err == nil {
		t.Error("FindRoot of a missing path: no error")
	}
	r := Root{Dir: filepath.Join(root, "repo")}
	if rel, err := r.Rel(filepath.Join(root, "repo", "resources_servers", "echo")); err != nil || rel != "resources_servers/echo" {
		t.Errorf("Rel = %q, %v", rel, err)
	}
	if rel, err := r.Rel(filepath.Join(root, "repo")); err != nil || rel != "." {
		t.Errorf("Rel of the root = %q, %v", rel, err)
	}
	if _, err := r.Rel(filepath.Join(root, "conf")); err == nil {
		t.Error("Rel of a path outside: no error")
	}
}

func TestScope(t *testing.T) {
	d := diag.Diagnostic{Path: "resources_servers/a/app.py", Related: []diag.Related{{Path: "resources_servers/a/configs/a.yaml"}}}
	for _, tc := range []struct {
		paths []string
		want  bool
	}{
		{nil, false},
		{[]string{"."}, true},
		{[]string{"resources_servers/a"}, true},
		{[]string{"resources_servers/a/configs/a.yaml"}, true}, // a related position
		{[]string{"resources_servers/ab"}, false},
		{[]string{"resources_servers/b", "resources_servers/a/app.py"}, true},
	} {
		if got := NewScope(tc.paths).Touches(d); got != tc.want {
			t.Errorf("NewScope(%q).Touches = %v", tc.paths, got)
		}
	}
	if !Everything().All() || NewScope(nil).All() || NewScope([]string{"."}).Paths() != nil {
		t.Error("Everything, nothing and the root's scope are wrong")
	}
	if got := modulesIn([]string{".", "native", "tools/go"}, []string{"native/server/s.go", "tools"}); !slices.Equal(got, []string{".", "native", "tools/go"}) {
		t.Errorf("modulesIn = %q", got)
	}
	if got := modulesIn([]string{"native", "tools/go"}, []string{"resources_servers"}); len(got) != 0 {
		t.Errorf("modulesIn of a Python folder = %q", got)
	}
}
