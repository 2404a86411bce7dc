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
