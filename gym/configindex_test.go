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
	// Composed one by one above (only the runs whose files mention
	// "math"); once every run is composed, the same answer from them.
	lazy := v.RunServersOf("resources_servers/math/app.py")
	if len(v.Runs()) != 4 {
		t.Fatalf("runs: %d", len(v.Runs()))
	}
	full := v.RunServersOf("resources_servers/math/app.py")
	if len(full) != len(lazy) {
		t.Fatalf("after Runs: %d servers, before: %d", len(full), len(lazy))
	}
	for i := range full {
		if full[i].Run != lazy[i].Run || full[i].Order != lazy[i].Order || full[i].Instance != lazy[i].Instance {
			t.Fatalf("server %d: %+v, before Runs %+v", i, full[i], lazy[i])
		}
	}
}

func TestSharedByConfigs(t *testing.T) {
	cfg := func(name string) string {
		return name + ":\n  resources_servers:\n    " + name + ":\n      entrypoint: app.py\n"
	}
	root := writeRepo(t, map[string]string{
		"resources_servers/a/app.py":         "x = 1\n",
		"resources_servers/a/configs/a.yaml": cfg("a"),
		"resources_servers/b/app.py":         "x = 1\n",
		"resources_servers/b/configs/b.yaml": cfg("b"),
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	type key struct{}
	computed := 0
	count := func(v *gym.View) int {
		return v.SharedByConfigs(key{}, func() any { computed++; return len(v.Runs()) }).(int)
	}
	va, vb := c.View([]string{"resources_servers/a/app.py"}), c.View([]string{"resources_servers/b/app.py"})
	if count(va) != 2 || count(vb) != 2 || computed != 1 {
		t.Fatalf("two views of the same configs: %d computations", computed)
	}
	// Another config: another entrypoint map, computed again.
	writeFiles(t, root, map[string]string{"resources_servers/b/configs/c.yaml": cfg("c")})
	c.Created("resources_servers/b/configs/c.yaml")
	if n := count(c.View([]string{"resources_servers/a/app.py"})); n != 3 || computed != 2 {
		t.Fatalf("after a config was added: %d runs, %d computations", n, computed)
	}
}

// The overrides of an entrypoint's instances: same name, type and dir as
// written, from any config, each once, in the order of Configs.
func TestEntrypointOverrides(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/math/app.py": "x = 1\n",
		// Two instances start the server: math twice (from two files,
		// one override set) and judge.
		"resources_servers/math/configs/math.yaml": "math:\n  resources_servers:\n    math:\n      entrypoint: app.py\n" +
			"judge:\n  resources_servers:\n    math:\n      entrypoint: app.py\n",
		"resources_servers/math/configs/again.yaml": "math:\n  resources_servers:\n    math:\n      entrypoint: app.py\n",
		"configs/c.yaml": "math:\n  resources_servers:\n    math:\n      port: 3\n",
		"configs/a.yaml": "judge:\n  resources_servers:\n    math:\n      port: 1\n" +
			// Another name, another dir: not the entrypoint's.
			"other:\n  resources_servers:\n    math:\n      port: 9\n" +
			"math:\n  resources_servers:\n    code:\n      port: 8\n",
		"configs/b.yaml": "math:\n  resources_servers:\n    math:\n      port: 2\n",
	})
	v := build(t, root, gym.Options{})
	if len(v.Entrypoints) != 1 {
		t.Fatalf("%d entrypoints", len(v.Entrypoints))
	}
	var got []string
	for _, o := range v.EntrypointOverrides(v.Entrypoints[0]) {
		got = append(got, o.File.Path+":"+o.Instance.Name)
	}
	want := []string{"configs/a.yaml:judge", "configs/b.yaml:math", "configs/c.yaml:math"}
	if len(got) != len(want) {
		t.Fatalf("EntrypointOverrides: %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("EntrypointOverrides: %v, want %v", got, want)
		}
	}
}
