package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

const rayishServer = `from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class RayishServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    async def verify(self, body):
        return body


if __name__ == "__main__":
    RayishServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RayishServer.run_webserver()
`

// selectionRepo is policyRepo (two GL101 servers, two configs naming
// missing entrypoints: GL005) with a GL205 server, and a run's output
// under a .gitignore'd output/ with a config that names a missing
// entrypoint (the GL005 of issue 15).
func selectionRepo(t *testing.T, extra map[string]string) string {
	files := map[string]string{
		".gitignore":                      "# runs\noutput/\n",
		"resources_servers/rayish/app.py": rayishServer,
		"output/run1/configs/run.yaml":    "run:\n  resources_servers:\n    run:\n      entrypoint: missing.py\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return policyRepo(t, files)
}

// findings runs a check with --format json and returns "path CODE" of each
// finding, sorted, and the exit status.
func findings(t *testing.T, args ...string) ([]string, int) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"--format", "json", "--quiet"}, args...)...)
	if code == ExitError {
		t.Fatalf("%v: exit 2: %s", args, errOut)
	}
	var got []string
	for _, d := range codesOf(t, out) {
		got = append(got, d["path"].(string)+" "+d["code"].(string))
	}
	slices.Sort(got)
	return got, code
}

const (
	legacy101  = "resources_servers/legacy_a/app.py GL101"
	legacy005  = "resources_servers/legacy_a/configs/legacy_a.yaml GL005"
	plain101   = "resources_servers/plain/app.py GL101"
	dangling   = "resources_servers/plain/configs/dangling.yaml GL005"
	rayish205  = "resources_servers/rayish/app.py GL205"
	ignored005 = "output/run1/configs/run.yaml GL005"
)

func wantFindings(t *testing.T, got []string, code int, want ...string) {
	t.Helper()
	slices.Sort(want)
	wantCode := ExitFindings
	if len(want) == 0 {
		wantCode = ExitClean
	}
	if !slices.Equal(got, want) || code != wantCode {
		t.Errorf("got (exit %d)\n  %s\nwant (exit %d)\n  %s", code, strings.Join(got, "\n  "), wantCode, strings.Join(want, "\n  "))
	}
}

func TestSelectFlags(t *testing.T) {
	root := selectionRepo(t, nil)
	all := []string{legacy101, legacy005, plain101, dangling, rayish205}
	t.Run("gitignore", func(t *testing.T) {
		got, code := findings(t, root)
		wantFindings(t, got, code, all...)
		got, code = findings(t, "--no-respect-gitignore", root)
		wantFindings(t, got, code, append(all, ignored005)...)
	})
	t.Run("select", func(t *testing.T) {
		got, code := findings(t, "--select", "GL1", root)
		wantFindings(t, got, code, legacy101, plain101)
		got, code = findings(t, "--select", "GL2,missing-entrypoint", root)
		wantFindings(t, got, code, legacy005, dangling, rayish205)
		got, code = findings(t, "--select", "rayenabled", "--select", "GL101", root)
		wantFindings(t, got, code, legacy101, plain101, rayish205)
		got, code = findings(t, "--select", "ALL", "--ignore", "GL0,workers", root)
		wantFindings(t, got, code, rayish205)
	})
	for _, c := range []struct{ args []string }{
		{[]string{"--select", "nope"}},
		{[]string{"--select", "GL9"}},
		{[]string{"--ignore", "GL101,GL1000"}},
		{[]string{"--extend-select", "workerz"}},
		{[]string{"--select", ""}},
	} {
		_, errOut, code := run(t, append(c.args, root)...)
		bad := strings.Split(c.args[1], ",")
		if code != ExitError || !strings.Contains(errOut, c.args[0]) || !strings.Contains(errOut, bad[len(bad)-1]) {
			t.Errorf("%v: exit %d, %s", c.args, code, errOut)
		}
	}
}

// The flags combine with the configuration as ruff's do: --select
// replaces its selection, --extend-select adds to it (a disabled rule
// included), --ignore takes away.
func TestSelectOverConfig(t *testing.T) {
	root := selectionRepo(t, map[string]string{".gymlint.yaml": "enable: [workers, rayenabled]\ndisable: [GL205]\n"})
	got, code := findings(t, root)
	wantFindings(t, got, code, legacy101, plain101)
	got, code = findings(t, "--extend-select", "GL205", root)
	wantFindings(t, got, code, legacy101, plain101, rayish205)
	got, code = findings(t, "--extend-select", "GL005", root)
	wantFindings(t, got, code, legacy101, plain101, legacy005, dangling)
	got, code = findings(t, "--select", "GL205", root)
	wantFindings(t, got, code, rayish205)
	got, code = findings(t, "--ignore", "GL1", root)
	wantFindings(t, got, code)

	// gymlint config shows the same selection.
	out, errOut, code := run(t, "config", "--format", "json", "--select", "GL205", "--extend-select", "GL101", root)
	var ec effectiveConfig
	if err := json.Unmarshal([]byte(out), &ec); err != nil || code != ExitClean {
		t.Fatalf("config: %v %d %s", err, code, errOut)
	}
	if !slices.Equal(ec.Enabled, []string{"GL101", "GL205"}) {
		t.Errorf("config enabled %v", ec.Enabled)
	}
}

func TestConfigFlag(t *testing.T) {
	root := selectionRepo(t, map[string]string{".gymlint.yaml": "enable: [GL205]\n"})
	elsewhere := testtree.New(t, map[string]string{
		"ci/strict.yaml": "disable: [workers]\nexclude: [resources_servers/legacy_a]\n",
		"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.gymlint]\ndisable = [\"GL0\"]\n",
		"empty.toml":     "[project]\nname = \"x\"\n",
	})
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, filepath.Join(elsewhere, "ci", "strict.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Relative to the current directory, outside the root; the root's
	// .gymlint.yaml (enable: [GL205]) is not read.
	got, code := findings(t, "--config", rel, root)
	wantFindings(t, got, code, dangling, rayish205)
	got, code = findings(t, "--config", filepath.Join(elsewhere, "pyproject.toml"), root)
	wantFindings(t, got, code, legacy101, plain101, rayish205)

	for _, c := range []struct{ file, want string }{
		{filepath.Join(elsewhere, "none.yaml"), "no such configuration file"},
		{elsewhere, "is a directory"},
		{filepath.Join(elsewhere, "empty.toml"), "has no [tool.gymlint] table"},
	} {
		_, errOut, code := run(t, "--config", c.file, root)
		if code != ExitError || !strings.Contains(errOut, c.file) || !strings.Contains(errOut, c.want) {
			t.Errorf("--config %s: exit %d, %s", c.file, code, errOut)
		}
	}
}

func TestExclude(t *testing.T) {
	root := selectionRepo(t, map[string]string{".gymlint.yaml": "exclude: [resources_servers/plain/configs/dangling.yaml, resources_servers/rayish]\n"})
	got, code := findings(t, root)
	wantFindings(t, got, code, legacy101, legacy005, plain101)
	got, code = findings(t, "--exclude", "**/legacy_a/app.py", root)
	// The excluded app.py is still the entrypoint its config names (no
	// GL005 for it), but its finding is not reported.
	wantFindings(t, got, code, legacy005, plain101)

	out, errOut, code := run(t, "config", "--format", "json", "--exclude", "tmp/**", "--no-respect-gitignore", root)
	var ec effectiveConfig
	if err := json.Unmarshal([]byte(out), &ec); err != nil || code != ExitClean {
		t.Fatalf("config: %v %d %s", err, code, errOut)
	}
	if !slices.Equal(ec.Exclude, []string{"resources_servers/plain/configs/dangling.yaml", "resources_servers/rayish", "tmp/**"}) || ec.RespectGitignore {
		t.Errorf("config: exclude %v respect_gitignore %v", ec.Exclude, ec.RespectGitignore)
	}
	// The excluded server directory is not walked: gymlint servers does
	// not list it.
	out, _, _ = run(t, "servers", "--format", "json", root)
	if strings.Contains(out, "rayish") || !strings.Contains(out, "resources_servers/plain/app.py") {
		t.Errorf("servers lists the excluded rayish, or not plain: %s", out)
	}
	for _, g := range []string{"/abs", "a//b", "a/["} {
		_, errOut, code := run(t, "--exclude", g, root)
		if code != ExitError || !strings.Contains(errOut, "--exclude") {
			t.Errorf("--exclude %q: exit %d, %s", g, code, errOut)
		}
	}
}

// A module that a config names is read wherever it lies: a gitignored one
// is checked and its findings reported (it is what the server runs); an
// excluded one is not reported. Neither is a missing entrypoint (GL005).
func TestNamedModuleInIgnoredDir(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":                             "generated/\n",
		"generated/gen_app.py":                   plainServer,
		"resources_servers/gen/app.py":           cleanServer,
		"resources_servers/gen/configs/gen.yaml": "gen:\n  resources_servers:\n    gen:\n      entrypoint: ../../generated/gen_app.py\n      domain: other\n",
		"resources_servers/gen/requirements.txt": "fastapi\n",
	})
	got, code := findings(t, root)
	wantFindings(t, got, code, "generated/gen_app.py GL101")
	got, code = findings(t, "--exclude", "generated", root)
	wantFindings(t, got, code)
}

// A Go module in a gitignored directory is not loaded (its load errors,
// GL008, are not reported); --no-respect-gitignore loads it.
func TestGitignoredGoModule(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":                    "output/\n",
		"resources_servers/echo/app.py": cleanServer,
		"output/gomod/go.mod":           "module example.com/x\n\ngo 1.22\n",
		"output/gomod/x.go":             "package x\n\nfunc f( {\n",
	})
	got, code := findings(t, root)
	wantFindings(t, got, code)
	got, _ = findings(t, "--no-respect-gitignore", root)
	if len(got) == 0 || got[0] != "output/gomod/x.go GL008" {
		t.Errorf("--no-respect-gitignore: %v", got)
	}
}
