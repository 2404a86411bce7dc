package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
)

func TestConfigIndex(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/math/app.py":            "x = 1\n",
		"resources_servers/math/configs/math.yaml": "math:\n  resources_servers:\n    math:\n      entrypoint: app.py\n      num_workers: 1\n",
		// Overrides: no entrypoint; the second one's dir is cleaned.
		"configs/b.yaml": "math:\n  resources_servers:\n    math:\n      domain: math\n",
		"configs/a.yaml": "other:\n  resources_servers:\n    ./math:\n      port: 1\n" +
			"math:\n  resources_servers:\n    code:\n      port: 2\n",
		// A run that reaches the server through config_paths and _inherit_from.
		"benchmarks/m.yaml": "config_paths: [resources_servers/math/configs/math.yaml]\nbench:\n  _inherit_from: math\n",
	})
	v := build(t, root, gym.Options{})
	if f := v.ConfigFile("configs/a.yaml"); f == nil || f.Path != "configs/a.yaml" {
		t.Fatalf("ConfigFile: %v", f)
	}
	if v.ConfigFile("configs/none.yaml") != nil {
		t.Fatal("ConfigFile of no config")
	}
	var got []string
	for _, o := range v.OverridesOf("resources_servers", "math/") {
		got = append(got, o.File.Path+":"+o.Instance.Name)
	}
	// In the order of Configs (sorted by path): a.yaml's ./math, then b.yaml's.
	if len(got) != 2 || got[0] != "configs/a.yaml:other" || got[1] != "configs/b.yaml:math" {
		t.Fatalf("OverridesOf: %v", got)
	}
	if n := len(v.OverridesOf("resources_servers", "code")); n != 1 {
		t.Fatalf("OverridesOf code: %d", n)
	}
	var runs []string
	for _, rs := range v.RunServersOf("resources_servers/math/app.py") {
		runs = append(runs, rs.Run.File+":"+rs.Instance.Name)
	}
	if len(runs) != 2 || runs[0] != "benchmarks/m.yaml:bench" || runs[1] != "resources_servers/math/configs/math.yaml:math" {
		t.Fatalf("RunServersOf: %v", runs)
	}
}
