package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/testtree"
	"github.com/gymlint/gymlint/lint"
)

// An edit of a Python file analyses its group again without composing
// every run: a session restored from a state keeps the group's findings
// of the repository-wide config rules (GL015, GL401), which must be those
// of a fresh analysis.
func TestPythonEditKeepsConfigsOnlyFindings(t *testing.T) {
	server := "from nemo_gym.base_resources_server import SimpleResourcesServer\n\nclass S(SimpleResourcesServer):\n    pass\n\napp = S.run_webserver()\n"
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"nemo_gym/__init__.py":                 "",
		"nemo_gym/base_resources_server.py":    "class SimpleResourcesServer:\n    pass\n",
		"resources_servers/a/app.py":           server,
		"resources_servers/a/requirements.txt": "",
		"resources_servers/b/app.py":           server,
		"resources_servers/b/requirements.txt": "",
		"benchmarks/broken.yaml":               "config_paths: [configs/missing.yaml]\n",
		"benchmarks/both.yaml": "a:\n  resources_servers:\n    a:\n      entrypoint: app.py\n      domain: math\n      port: 8000\n" +
			"b:\n  resources_servers:\n    b:\n      entrypoint: app.py\n      domain: math\n      port: 8000\n",
	})
	codes := func(s *lint.Session) []string {
		var out []string
		for _, d := range s.Diagnostics() {
			if d.Code == "GL015" || d.Code == "GL401" {
				out = append(out, key(d))
			}
		}
		slices.Sort(out)
		return out
	}
	s, err := lint.NewSession(root, gym.Options{}, lint.Checks())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Update(nil)
	before := codes(s)
	if len(before) != 2 || !strings.Contains(before[0], "GL401") || !strings.Contains(before[1], "GL015") {
		t.Fatalf("fixture: %v", before)
	}
	edited := "resources_servers/a/app.py"
	if err := os.WriteFile(filepath.Join(root, edited), []byte(server+"# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A new session from the state, as the next run of the command line
	// has: the configs' shared findings come from the state.
	st := s.State()
	s, err = lint.NewSession(root, gym.Options{}, lint.Checks())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Restore(st)
	if _, stats := s.Update([]string{edited}); stats.Analysed != 1 {
		t.Fatalf("analysed %d entrypoints", stats.Analysed)
	}
	// Every group has them, the edited one too.
	for _, g := range s.State().Groups {
		n := 0
		for _, d := range g.Diags {
			if d.Code == "GL015" || d.Code == "GL401" {
				n++
			}
		}
		if n != 2 {
			t.Errorf("group %v: %d config findings, want 2", g.Entrypoints, n)
		}
	}
	if after := codes(s); !slices.Equal(after, before) {
		t.Fatalf("after the edit:\n%v\nbefore:\n%v", after, before)
	}
	fresh, err := lint.NewSession(root, gym.Options{}, lint.Checks())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	fresh.Update(nil)
	if !slices.Equal(keys(fresh.Diagnostics()), keys(s.Diagnostics())) {
		t.Fatal("the edited session's findings differ from a fresh one's")
	}
}

// A change of a config that no group depends on (a benchmark that composes
// two servers' configs) changes the findings of the repository-wide config
// rules on files the groups do depend on: every group, the ones the change
// did not hit too, has them as a fresh analysis does.
func TestConfigEditRefreshesConfigsOnlyFindings(t *testing.T) {
	server := "from nemo_gym.base_resources_server import SimpleResourcesServer\n\nclass S(SimpleResourcesServer):\n    pass\n\napp = S.run_webserver()\n"
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"resources_servers/a/app.py":           server,
		"resources_servers/a/requirements.txt": "",
		"resources_servers/b/app.py":           server,
		"resources_servers/b/requirements.txt": "",
		"resources_servers/a/configs/a.yaml":   "a:\n  resources_servers:\n    a:\n      entrypoint: app.py\n      domain: math\n      port: 8000\n",
		"resources_servers/b/configs/b.yaml": "b:\n  resources_servers:\n    b:\n      entrypoint: app.py\n      domain: math\n      port: 8000\n" +
			"      judge: {type: resources_servers, name: c}\n",
		"resources_servers/c/configs/c.yaml": "c:\n  resources_servers:\n    c:\n      domain: math\n",
		"benchmarks/ab.yaml":                 "config_paths: [resources_servers/a/configs/a.yaml, resources_servers/b/configs/b.yaml]\n",
	})
	codes := func(s *lint.Session) []string { return codesAndPaths(s, "GL401", "GL408") }
	s, err := lint.NewSession(root, gym.Options{}, lint.Checks())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Update(nil)
	if got := codes(s); !slices.Equal(got, []string{"GL401 resources_servers/b/configs/b.yaml"}) {
		t.Fatalf("fixture: %v", got)
	}
	for _, step := range []struct {
		path string
		want []string
	}{
		// The benchmark goes: so does the clash it composes.
		{"benchmarks/ab.yaml", nil},
		// The only config that knows c goes: b's reference to it is
		// unresolved.
		{"resources_servers/c/configs/c.yaml", []string{"GL408 resources_servers/b/configs/b.yaml"}},
	} {
		if err := os.Remove(filepath.Join(root, step.path)); err != nil {
			t.Fatal(err)
		}
		s.Cache().Deleted(step.path)
		s.Update([]string{step.path})
		if got := codes(s); !slices.Equal(got, step.want) {
			t.Errorf("after deleting %s: %v, want %v", step.path, got, step.want)
		}
		fresh, err := lint.NewSession(root, gym.Options{}, lint.Checks())
		if err != nil {
			t.Fatal(err)
		}
		fresh.Update(nil)
		if !slices.Equal(keys(fresh.Diagnostics()), keys(s.Diagnostics())) {
			t.Errorf("after deleting %s: the session's findings differ from a fresh one's", step.path)
		}
		fresh.Close()
	}
}

// A repository with no entrypoint (its configs name servers whose files
// are not there yet) has no group to hold the findings of the
// repository-wide config rules: they come with the repository's, each
// once, and move to the groups when an entrypoint appears, and back when
// it goes.
func TestConfigsOnlyFindingsWithoutEntrypoints(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"resources_servers/a/requirements.txt": "",
		"benchmarks/broken.yaml":               "config_paths: [configs/missing.yaml]\n",
		"resources_servers/a/configs/a.yaml": "a:\n  resources_servers:\n    a:\n      entrypoint: app.py\n      domain: math\n      port: 8000\n" +
			"b:\n  resources_servers:\n    b:\n      entrypoint: app.py\n      domain: math\n      port: 8000\n" +
			"      judge: {type: resources_servers, name: c}\n",
	})
	want := []string{"GL015 benchmarks/broken.yaml", "GL401 resources_servers/a/configs/a.yaml", "GL408 resources_servers/a/configs/a.yaml"}
	codes := func(s *lint.Session) []string { return codesAndPaths(s, "GL015", "GL401", "GL408") }
	s, err := lint.NewSession(root, gym.Options{}, lint.Checks())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Update(nil)
	if got := codes(s); !slices.Equal(got, want) {
		t.Fatalf("no entrypoint: %v, want %v", got, want)
	}
	// A session restored from the state has them too.
	r, err := lint.NewSession(root, gym.Options{}, lint.Checks())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Restore(s.State())
	if got := codes(r); !slices.Equal(got, want) {
		t.Fatalf("restored: %v, want %v", got, want)
	}
	ep := "resources_servers/a/app.py"
	server := "from nemo_gym.base_resources_server import SimpleResourcesServer\n\nclass S(SimpleResourcesServer):\n    pass\n\napp = S.run_webserver()\n"
	if err := os.WriteFile(filepath.Join(root, ep), []byte(server), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Cache().Created(ep)
	s.Update([]string{ep})
	if got := codes(s); !slices.Equal(got, want) {
		t.Fatalf("with an entrypoint: %v, want %v", got, want)
	}
	if n := len(s.State().Groups); n != 1 {
		t.Fatalf("%d groups, want 1", n)
	}
	if err := os.Remove(filepath.Join(root, ep)); err != nil {
		t.Fatal(err)
	}
	s.Cache().Deleted(ep)
	s.Update([]string{ep})
	if got := codes(s); !slices.Equal(got, want) {
		t.Fatalf("the entrypoint deleted again: %v, want %v", got, want)
	}
}

// codesAndPaths are "CODE path" of the session's findings of those codes,
// sorted.
func codesAndPaths(s *lint.Session, codes ...string) []string {
	var out []string
	for _, d := range s.Diagnostics() {
		if slices.Contains(codes, d.Code) {
			out = append(out, d.Code+" "+d.Path)
		}
	}
	slices.Sort(out)
	return out
}
