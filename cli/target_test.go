package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// serversRepo is a repository with two servers that each lack a refusal
// (GL101), one config per server, and no .git: its layout marks the root.
func serversRepo(t *testing.T) string {
	return writeTree(t, map[string]string{
		"resources_servers/aalcr/app.py":                plainServer,
		"resources_servers/aalcr/configs/aalcr.yaml":    "aalcr:\n  resources_servers:\n    aalcr:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/aalcr/requirements.txt":      "fastapi\n",
		"resources_servers/other/app.py":                strings.ReplaceAll(plainServer, "PlainServer", "OtherServer"),
		"resources_servers/other/configs/other.yaml":    "other:\n  resources_servers:\n    other:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/other/requirements.txt":      "fastapi\n",
		"resources_servers/other/README.md":             "other\n",
		"responses_api_agents/agent/app.py":             strings.ReplaceAll(plainServer, "PlainServer", "AgentServer"),
		"responses_api_agents/agent/configs/agent.yaml": "agent:\n  responses_api_agents:\n    agent:\n      entrypoint: app.py\n",
		"responses_api_agents/agent/requirements.txt":   "fastapi\n",
	})
}

// findingsOf is the "path:line:col: CODE" of each finding printed.
func findingsOf(out string) []string {
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		f := strings.Fields(l)
		got = append(got, f[0]+" "+f[1])
	}
	return got
}

// TestPathsBelowTheRoot: a run from a server's folder, on a folder below
// the root, or on files, gives the findings of the whole repository's
// check that are in them, or related to them, and no false GL005.
func TestPathsBelowTheRoot(t *testing.T) {
	root := serversRepo(t)
	aalcr := "resources_servers/aalcr/app.py:4:7: GL101"
	other := "resources_servers/other/app.py:4:7: GL101"
	agent := "responses_api_agents/agent/app.py:4:7: GL101"
	check := func(dir string, want []string, args ...string) {
		t.Helper()
		t.Chdir(filepath.Join(root, dir))
		out, errOut, code := run(t, args...)
		got := findingsOf(out)
		// want is root-relative; the text shows paths from the current
		// directory, absolute when the file is not below it.
		want = slices.Clone(want)
		for i, w := range want {
			switch {
			case dir == ".":
			case strings.HasPrefix(w, dir+"/"):
				want[i] = strings.TrimPrefix(w, dir+"/")
			default:
				want[i] = filepath.Join(root, w)
			}
		}
		wantCode := ExitClean
		if len(want) > 0 {
			wantCode = ExitFindings
		}
		if code != wantCode || strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("in %s, gymlint %v: code %d, findings %q, want %q (stderr %q)", dir, args, code, got, want, errOut)
		}
		if strings.Contains(out, "GL005") {
			t.Errorf("in %s, gymlint %v: a false GL005:\n%s", dir, args, out)
		}
	}
	check(".", []string{aalcr, other, agent})
	check("resources_servers/aalcr", []string{aalcr})
	check("resources_servers/aalcr/configs", []string{aalcr}) // the config is a related position
	check(".", []string{aalcr, other}, "resources_servers")
	check(".", []string{aalcr}, "resources_servers/aalcr/app.py")
	check(".", []string{other, agent}, "resources_servers/other/configs/other.yaml", "responses_api_agents")
	check(".", nil, "resources_servers/other/README.md")
	check("resources_servers", []string{aalcr}, "aalcr")

	// The summary names the root and the paths reported on.
	t.Chdir(filepath.Join(root, "resources_servers", "aalcr"))
	_, errOut, _ := run(t)
	if !strings.Contains(errOut, "gymlint: 1 finding in resources_servers/aalcr; root ../.. (resources_servers/); 3 entrypoints") {
		t.Errorf("summary: %q", errOut)
	}
	// --root chooses the root: the folder alone, as before root discovery,
	// whose config names an entrypoint that is then missing.
	out, _, _ := run(t, "--root", ".")
	if !strings.Contains(out, "GL005") {
		t.Errorf("--root . in a server folder: want its config's entrypoint missing (GL005):\n%s", out)
	}
	// A path outside the root is an error.
	outside := t.TempDir()
	t.Chdir(root)
	if _, errOut, code := run(t, ".", outside); code != ExitError || !strings.Contains(errOut, "is outside the repository root") {
		t.Errorf("a path outside: code %d, stderr %q", code, errOut)
	}
	// gymlint servers and gymlint config find the root too.
	t.Chdir(filepath.Join(root, "resources_servers", "aalcr"))
	if out, errOut, code := run(t, "servers"); code != ExitClean || !strings.Contains(out, "AalcrServer") && !strings.Contains(out, "PlainServer") || strings.Contains(out, "OtherServer") {
		t.Errorf("gymlint servers in a server folder: code %d\n%s%s", code, out, errOut)
	}
	if out, _, code := run(t, "config"); code != ExitClean || !strings.Contains(out, "root: ../..") {
		t.Errorf("gymlint config in a server folder: code %d\n%s", code, out)
	}
}

// TestNewFromRevThroughHelper: a change only in a helper module, an
// `import ray`, makes a finding on the entrypoint that imports it (GL201,
// whose related position is the new import): --new-from-rev keeps it, as
// --pre-commit of the helper does.
func TestNewFromRevThroughHelper(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := writeTree(t, map[string]string{
		// The framework stub has no ray_enabled: check the latest contract.
		".gymlint.yaml": "disable: [GL101]\ncontract: latest\n",
		"resources_servers/srv/app.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\nimport helpers\n\n\n" +
			"class Srv(SimpleResourcesServer):\n    async def verify(self, body):\n        return helpers.score(body)\n\n\n" +
			"if __name__ == \"__main__\":\n    Srv.run_webserver()\n",
		"resources_servers/srv/helpers.py":           "def score(body):\n    return body\n",
		"resources_servers/srv/configs/srv.yaml":     "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/srv/requirements.txt":     "fastapi\n",
		"nemo_gym/__init__.py":                       "",
		"nemo_gym/base_resources_server.py":          "class SimpleResourcesServer:\n    pass\n",
		"resources_servers/srv/unrelated_notes.yaml": "a: 1\n",
	})
	gitT(t, root, "init", "-q")
	gitT(t, root, "add", ".")
	gitT(t, root, "commit", "-q", "-m", "base")
	if out, errOut, code := run(t, "--new-from-rev", "HEAD", "--quiet", root); code != ExitClean {
		t.Fatalf("nothing changed: code %d\n%s%s", code, out, errOut)
	}
	helper := filepath.Join(root, "resources_servers/srv/helpers.py")
	if err := os.WriteFile(helper, []byte("import ray\n\n\ndef score(body):\n    return ray.get(body)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	out, errOut, code := run(t, "--new-from-rev", "HEAD", "--quiet", root)
	if code != ExitFindings || !strings.HasPrefix(out, "resources_servers/srv/app.py:5:7: GL201") {
		t.Errorf("--new-from-rev after a change in the helper alone: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	t.Chdir(root)
	if out, _, _ := run(t, "--pre-commit", "--quiet", "resources_servers/srv/helpers.py"); !strings.HasPrefix(out, "resources_servers/srv/app.py:5:7: GL201") {
		t.Errorf("--pre-commit of the helper: %q", out)
	}
}
