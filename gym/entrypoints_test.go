package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
)

func TestEntrypointsServerDirApp(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/echo/app.py":             serverModule("EchoServer"),
		"responses_api_agents/simple/app.py":        serverModule("SimpleAgent"),
		"responses_api_models/vllm/app.py":          serverModule("VLLMModel"),
		"resources_servers/echo/tests/app.py":       "def test():\n    pass\n", // under a dir that has its own app.py
		"resources_servers/app.py":                  "x = 1\n",                 // directly under the type
		"app.py":                                    "x = 1\n",
		"other_type/echo/app.py":                    serverModule("NotAType"),
		"resources_servers/echo/helper.py":          "x = 1\n",
		"resources_servers/.hidden/app.py":          serverModule("Hidden"),
		"resources_servers/echo/__pycache__/app.py": "x = 1\n",
		"resources_servers/a/b/c/app.py":            serverModule("TooDeep"),
	})
	v := build(t, root, gym.Options{})
	want := []string{"resources_servers/echo/app.py", "responses_api_agents/simple/app.py", "responses_api_models/vllm/app.py"}
	if got := entryPaths(v); !equalStrings(got, want) {
		t.Fatalf("entrypoints = %v, want %v", got, want)
	}
	for _, e := range v.Entrypoints {
		if !e.ServerDirApp || len(e.Configs) != 0 || e.Module == nil || len(e.Servers) != 1 || e.Exemption != nil {
			t.Errorf("%s: ServerDirApp %v, configs %d, servers %v, exemption %v", e.Path, e.ServerDirApp, len(e.Configs), serverNames(e), e.Exemption)
		}
	}
	if len(v.Diagnostics()) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
}

func TestEntrypointsGroupRule(t *testing.T) {
	root := writeRepo(t, map[string]string{
		// dialog/ has no app.py: its subdirectories that ship a
		// requirements.txt or pyproject.toml are server dirs.
		"responses_api_agents/dialog/simulation/app.py":           serverModule("Simulation"),
		"responses_api_agents/dialog/simulation/requirements.txt": "fastapi\n",
		"responses_api_agents/dialog/planner/app.py":              serverModule("Planner"),
		"responses_api_agents/dialog/planner/pyproject.toml":      "[project]\nname = 'planner'\n",
		"responses_api_agents/dialog/tests/app.py":                serverModule("NoMarker"),
		"responses_api_agents/dialog/helpers.py":                  "x = 1\n",
		// withapp/ has an app.py: its subdirectories are not server dirs.
		"responses_api_agents/withapp/app.py":             serverModule("WithApp"),
		"responses_api_agents/withapp/sub/app.py":         serverModule("NotAServerDir"),
		"responses_api_agents/withapp/tests/app.py":       "x = 1\n",
		"responses_api_agents/dialog/configs/dialog.yaml": yamlServer("sim", "responses_api_agents", "dialog/simulation", "app.py"),
	})
	v := build(t, root, gym.Options{})
	want := []string{
		"responses_api_agents/dialog/planner/app.py",
		"responses_api_agents/dialog/simulation/app.py",
		"responses_api_agents/withapp/app.py",
	}
	if got := entryPaths(v); !equalStrings(got, want) {
		t.Fatalf("entrypoints = %v, want %v", got, want)
	}
	sim := entry(t, v, "responses_api_agents/dialog/simulation/app.py")
	if !sim.ServerDirApp || len(sim.Configs) != 1 || sim.Configs[0].Instance.Dir != "dialog/simulation" {
		t.Errorf("simulation: %+v", sim)
	}
	if p := entry(t, v, "responses_api_agents/dialog/planner/app.py"); !p.ServerDirApp || len(p.Configs) != 0 {
		t.Errorf("planner: %+v", p)
	}
	if len(v.Diagnostics()) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
}

func TestEntrypointsConfigNamed(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/gymnasium/base.py":                serverModule("GymnasiumServer"),
		"resources_servers/gymnasium/configs/gymnasium.yaml": yamlServer("gym_base", "resources_servers", "gymnasium", "base.py"),
		// A config anywhere, naming a module in another server type, with
		// ../../ that stays inside the root.
		"resources_servers/legal/bridge.py": serverModule("Bridge"),
		"resources_servers/legal/configs/legal.yml": yamlServer("bridge", "responses_api_agents", "bridge_agent",
			"../../resources_servers/legal/bridge.py"),
		"benchmarks/deep/nested/config.yaml": yamlServer("aviary_gsm", "resources_servers", "aviary", "gsm8k_app.py") +
			yamlServer("aviary_sub", "resources_servers", "aviary", "./sub/../sub/inner.py"),
		"resources_servers/aviary/gsm8k_app.py": serverModule("Gsm"),
		"resources_servers/aviary/sub/inner.py": serverModule("Inner"),
		// Not a server config: no server type, an entrypoint too deep.
		"nemo_gym/sandbox/docker.yaml": "sandbox:\n  docker:\n    entrypoint: missing.py\n",
		"responses_api_agents/os/configs/os.yaml": "os_agent:\n  responses_api_agents:\n    os:\n      entrypoint: app.py\n" +
			"      sandbox_spec:\n        entrypoint: [/usr/bin/tini, -s]\n",
		"responses_api_agents/os/app.py": serverModule("OsAgent"),
	})
	v := build(t, root, gym.Options{})
	want := []string{
		"resources_servers/aviary/gsm8k_app.py",
		"resources_servers/aviary/sub/inner.py",
		"resources_servers/gymnasium/base.py",
		"resources_servers/legal/bridge.py",
		"responses_api_agents/os/app.py",
	}
	if got := entryPaths(v); !equalStrings(got, want) {
		t.Fatalf("entrypoints = %v, want %v", got, want)
	}
	b := entry(t, v, "resources_servers/legal/bridge.py")
	if b.ServerDirApp || len(b.Configs) != 1 || b.Configs[0].File != "resources_servers/legal/configs/legal.yml" ||
		b.Configs[0].Instance.Type != "responses_api_agents" || b.Configs[0].Instance.Dir != "bridge_agent" {
		t.Errorf("bridge: %+v", b)
	}
	if got := serverNames(b); !equalStrings(got, []string{"Bridge"}) {
		t.Errorf("bridge servers = %v", got)
	}
	osAgent := entry(t, v, "responses_api_agents/os/app.py")
	if !osAgent.ServerDirApp || len(osAgent.Configs) != 1 {
		t.Errorf("os: ServerDirApp %v configs %d", osAgent.ServerDirApp, len(osAgent.Configs))
	}
	if len(v.Diagnostics()) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
}

func TestEntrypointsManyConfigsOneEntrypoint(t *testing.T) {
	two := yamlServer("b_first", "responses_api_agents", "simple_agent", "app.py") +
		yamlServer("b_second", "responses_api_agents", "simple_agent", "app.py")
	root := writeRepo(t, map[string]string{
		"responses_api_agents/simple_agent/app.py": serverModule("SimpleAgent"),
		"z/last.yaml":  yamlServer("z_inst", "responses_api_agents", "simple_agent", "app.py"),
		"b/two.yaml":   two,
		"a/first.yaml": yamlServer("a_inst", "responses_api_agents", "simple_agent", "./app.py"),
		"m/merge.yaml": "base: &cfg\n  entrypoint: app.py\nm_inst:\n  responses_api_agents:\n    simple_agent:\n      <<: *cfg\n",
	})
	v := build(t, root, gym.Options{})
	if got := entryPaths(v); !equalStrings(got, []string{"responses_api_agents/simple_agent/app.py"}) {
		t.Fatalf("entrypoints = %v", got)
	}
	e := v.Entrypoints[0]
	var got []string
	for _, c := range e.Configs {
		got = append(got, c.File+":"+c.Instance.Name)
	}
	want := []string{"a/first.yaml:a_inst", "b/two.yaml:b_first", "b/two.yaml:b_second", "m/merge.yaml:m_inst", "z/last.yaml:z_inst"}
	if !equalStrings(got, want) {
		t.Errorf("configs = %v, want %v", got, want)
	}
	if !e.ServerDirApp {
		t.Errorf("not ServerDirApp")
	}
	if len(v.Configs) != 4 {
		t.Errorf("len(Configs) = %d, want 4", len(v.Configs))
	}
}

func TestEntrypointsNonPythonIgnored(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/sh/configs/sh.yaml": yamlServer("sh", "resources_servers", "sh", "run.sh") +
			yamlServer("missing_sh", "resources_servers", "sh", "missing.sh") +
			yamlServer("bin", "resources_servers", "sh", "server"),
		"resources_servers/sh/run.sh": "#!/bin/sh\n",
	})
	v := build(t, root, gym.Options{})
	if len(v.Entrypoints) != 0 {
		t.Errorf("entrypoints = %v", entryPaths(v))
	}
	if len(v.Diagnostics()) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
}

func TestEntrypointsServerTypesOption(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"environments/calc/app.py": serverModule("Calc"),
		"environments/calc/config.yaml": yamlServer("calc", "environments", "calc", "app.py") +
			yamlServer("echo", "resources_servers", "echo", "app.py"),
		"resources_servers/echo/app.py": serverModule("Echo"),
	})
	v := build(t, root, gym.Options{ServerTypes: []string{"environments"}})
	if got := entryPaths(v); !equalStrings(got, []string{"environments/calc/app.py"}) {
		t.Errorf("entrypoints = %v", got)
	}
	e := entry(t, v, "environments/calc/app.py")
	if !e.ServerDirApp || len(e.Configs) != 1 {
		t.Errorf("calc: ServerDirApp %v, configs %d", e.ServerDirApp, len(e.Configs))
	}

	// The default types.
	v2 := build(t, root, gym.Options{})
	if got := entryPaths(v2); !equalStrings(got, []string{"resources_servers/echo/app.py"}) {
		t.Errorf("default entrypoints = %v", got)
	}
}

func TestEntrypointsOverlay(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/echo/app.py": "this is not python (\n",
	})
	v := build(t, root, gym.Options{Overlay: map[string][]byte{
		"resources_servers/echo/app.py":          []byte(serverModule("EchoServer")),
		"resources_servers/new/app.py":           []byte(serverModule("NewServer")),
		"resources_servers/new/configs/new.yaml": []byte(yamlServer("new", "resources_servers", "new", "app.py")),
	}})
	if got := entryPaths(v); !equalStrings(got, []string{"resources_servers/echo/app.py", "resources_servers/new/app.py"}) {
		t.Fatalf("entrypoints = %v", got)
	}
	if got := serverNames(entry(t, v, "resources_servers/echo/app.py")); !equalStrings(got, []string{"EchoServer"}) {
		t.Errorf("echo servers = %v (the overlay must win over the disk)", got)
	}
	if n := entry(t, v, "resources_servers/new/app.py"); len(n.Configs) != 1 || !equalStrings(serverNames(n), []string{"NewServer"}) {
		t.Errorf("new: configs %d servers %v", len(n.Configs), serverNames(n))
	}
	if len(v.Diagnostics()) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := gym.Build("/nonexistent/gymlint/root", gym.Options{}); err == nil {
		t.Errorf("Build of a missing root: no error")
	}
	root := writeRepo(t, map[string]string{"file.txt": "x"})
	if _, err := gym.Build(root+"/file.txt", gym.Options{}); err == nil {
		t.Errorf("Build of a file: no error")
	}
	// An empty repository is fine.
	v := build(t, t.TempDir(), gym.Options{})
	if len(v.Entrypoints) != 0 || len(v.Diagnostics()) != 0 {
		t.Errorf("empty repo: %v %v", entryPaths(v), v.Diagnostics())
	}
}
