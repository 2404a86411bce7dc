package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pluggedApp = `from nemo_gym.base_resources_server import SimpleResourcesServer


class Plugged(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    Plugged.run_webserver()
`

// A root whose config names a server that only an extra root has, which
// has a syntax error in a module it imports.
func extraRootFixture(t *testing.T) (root, extra string) {
	root = writeTree(t, map[string]string{
		".gymlint.yaml":    "contract: latest\n",
		"configs/run.yaml": "plug:\n  resources_servers:\n    plugged:\n      entrypoint: app.py\n      domain: other\n",
	})
	extra = writeTree(t, map[string]string{
		"resources_servers/plugged/app.py":           pluggedApp + "from .broken import x\n",
		"resources_servers/plugged/broken.py":        "def (:\n",
		"resources_servers/plugged/requirements.txt": "fastapi\n",
	})
	return root, extra
}

func jsonPaths(t *testing.T, out string) []string {
	t.Helper()
	var ds []struct{ Path, Code string }
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var ps []string
	for _, d := range ds {
		ps = append(ps, d.Code+" "+d.Path)
	}
	return ps
}

func TestExtraRootFlagAndEnv(t *testing.T) {
	root, extra := extraRootFixture(t)
	name := "<" + filepath.Base(extra) + ">"
	t.Setenv("NEMO_GYM_EXTRA_ROOTS", "")

	out, _, code := run(t, "--format", "json", root)
	if code != ExitFindings || !strings.Contains(out, `"GL005"`) {
		t.Fatalf("without extra roots: exit %d: %s", code, out)
	}

	// The flag: the server is found (no GL005), its own finding dropped.
	out, _, code = run(t, "--format", "json", "--extra-root", extra, root)
	if code != ExitClean || len(jsonPaths(t, out)) != 0 {
		t.Errorf("--extra-root: exit %d: %s", code, out)
	}
	out, _, code = run(t, "--format", "json", "--extra-root", extra, "--include-extra-roots", root)
	if ps := jsonPaths(t, out); code != ExitFindings || !allIn(ps, name) || !contains(ps, "GL001 "+name+"/resources_servers/plugged/broken.py") {
		t.Errorf("--include-extra-roots: exit %d: %v", code, ps)
	}
	// The text output quotes the line through the extra root's reader.
	out, _, _ = run(t, "--format", "full", "--extra-root", extra, "--include-extra-roots", root)
	if !strings.Contains(out, "def (:") {
		t.Errorf("full output without the source line:\n%s", out)
	}

	// The variable, as the supervisor reads it: os.pathsep, empty entries
	// and missing directories skipped, relative to the working directory.
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(filepath.Dir(extra)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NEMO_GYM_EXTRA_ROOTS", string(os.PathListSeparator)+"no-such-dir"+string(os.PathListSeparator)+filepath.Base(extra))
	out, _, code = run(t, "--format", "json", "--include-extra-roots", root)
	if ps := jsonPaths(t, out); code != ExitFindings || !allIn(ps, name) || !contains(ps, "GL001 "+name+"/resources_servers/plugged/broken.py") {
		t.Errorf("NEMO_GYM_EXTRA_ROOTS: exit %d: %v", code, ps)
	}

	_, errOut, code := run(t, "--extra-root", filepath.Join(root, "missing"), root)
	if code != ExitError || !strings.Contains(errOut, "--extra-root") {
		t.Errorf("a missing --extra-root: exit %d: %s", code, errOut)
	}
}

// allIn reports whether every "CODE PATH" of ps is in the extra root name
// (the server is the extra root's: every finding is about its files).
func allIn(ps []string, name string) bool {
	for _, p := range ps {
		if _, path, _ := strings.Cut(p, " "); !strings.HasPrefix(path, name+"/") {
			return false
		}
	}
	return len(ps) > 0
}

func contains(ps []string, s string) bool {
	for _, p := range ps {
		if p == s {
			return true
		}
	}
	return false
}

// gymlint config shows the configuration's extra_roots; one that is not
// inside the repository is a configuration error.
func TestConfigExtraRoots(t *testing.T) {
	root := writeTree(t, map[string]string{".gymlint.yaml": "extra_roots: [plugins]\n", "plugins/x.txt": ""})
	out, _, code := run(t, "config", root)
	if code != ExitClean || !strings.Contains(out, "extra_roots: plugins\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, _ = run(t, "config", "--format", "json", root)
	if !strings.Contains(out, `"extra_roots": [`) {
		t.Errorf("json:\n%s", out)
	}
	bad := writeTree(t, map[string]string{".gymlint.yaml": "extra_roots: [/opt/plugins]\n"})
	_, errOut, code := run(t, bad)
	if code != ExitError || !strings.Contains(errOut, "extra_roots") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestServersExtraRoot: gymlint servers lists the server a root config
// finds in an extra root (--extra-root or NEMO_GYM_EXTRA_ROOTS), at its
// <name>/PATH, and none without one.
func TestServersExtraRoot(t *testing.T) {
	root, extra := extraRootFixture(t)
	name := "<" + filepath.Base(extra) + ">"
	t.Setenv("NEMO_GYM_EXTRA_ROOTS", "")
	paths := func(args ...string) []string {
		t.Helper()
		out, errOut, code := run(t, append([]string{"servers", "--format", "json"}, args...)...)
		if code != ExitClean {
			t.Fatalf("servers %v: exit %d: %s", args, code, errOut)
		}
		var rows []struct{ Path, Class string }
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var ps []string
		for _, r := range rows {
			ps = append(ps, r.Path+" "+r.Class)
		}
		return ps
	}
	if ps := paths(root); contains(ps, name+"/resources_servers/plugged/app.py Plugged") {
		t.Errorf("without an extra root: %v", ps)
	}
	want := name + "/resources_servers/plugged/app.py Plugged"
	if ps := paths("--extra-root", extra, root); !contains(ps, want) {
		t.Errorf("--extra-root: %v, want %q", ps, want)
	}
	t.Setenv("NEMO_GYM_EXTRA_ROOTS", extra)
	if ps := paths(root); !contains(ps, want) {
		t.Errorf("NEMO_GYM_EXTRA_ROOTS: %v, want %q", ps, want)
	}
}
