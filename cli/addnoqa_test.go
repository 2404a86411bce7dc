package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/goanalysis"
)

// TestAddNoqaUsage: --add-noqa needs a one-line --reason, and --reason
// needs --add-noqa; neither goes with --fix, --diff, --statistics or
// another format. Each is a usage error (exit 2) that changes nothing.
func TestAddNoqaUsage(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/s/app.py": plainServer})
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--add-noqa"}, "--add-noqa needs --reason TEXT"},
		{[]string{"--add-noqa", "--reason", "  "}, "--add-noqa needs --reason TEXT"},
		{[]string{"--reason", "why"}, "--reason goes with --add-noqa"},
		{[]string{"--add-noqa", "--reason", "two\nlines"}, "--reason: the reason must be one line"},
		{[]string{"--add-noqa", "--reason", "a # b"}, "would not be read back whole"},
		{[]string{"--add-noqa", "--reason", "why", "--fix"}, "cannot be combined with --fix or --diff"},
		{[]string{"--add-noqa", "--reason", "why", "--diff"}, "cannot be combined with --fix or --diff"},
		{[]string{"--add-noqa", "--reason", "why", "--statistics"}, "cannot be combined with --statistics"},
		{[]string{"--add-noqa", "--reason", "why", "--format", "json"}, "cannot be combined with --format json"},
		{[]string{"--add-noqa", "--reason", "why", "--output-file", filepath.Join(t.TempDir(), "out.txt")}, "cannot be combined with --format text to --output-file"},
		{[]string{"--add-noqa", "--reason", "why", "--stdin-filename", filepath.Join(root, "resources_servers/s/app.py")}, "cannot be combined with --stdin-filename"},
	} {
		args := append(tc.args, root)
		if slices.Contains(tc.args, "--stdin-filename") {
			args = tc.args // the buffer's PATH is the path
		}
		out, errOut, code := run(t, args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "Run 'gymlint --help' for usage.") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.msg)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(root, "resources_servers/s/app.py")); string(got) != plainServer {
		t.Errorf("a usage error changed the file:\n%s", got)
	}
}

// addNoqaTree is a repository with findings in Python (a CRLF file
// without a line end at its end, a class line that already has a
// suppression, a module docstring that spans lines, a #! line 1) and YAML.
func addNoqaTree() map[string]string {
	return map[string]string{
		"nemo_gym/__init__.py":                       "",
		"nemo_gym/base_resources_server.py":          "class SimpleResourcesServer:\n    def multiple_workers_unsupported_reason(self):\n        return None\n",
		"resources_servers/counter/app.py":           counterApp,
		"resources_servers/counter/tools.py":         "\"\"\"Helpers.\n\nNothing more.\n\"\"\"\nX = 1\n",
		"resources_servers/counter/script.py":        "#!/usr/bin/env python\nX = 1\n",
		"resources_servers/counter/requirements.txt": "",
		"resources_servers/counter/configs/counter.yaml": "counter:\r\n  resources_servers:\r\n    counter:\r\n      entrypoint: app.py\r\n      domain: other\r\n" +
			"counter_missing:\r\n  resources_servers:\r\n    counter:\r\n      entrypoint: missing.py \r\n      domain: other\r\n",
		"resources_servers/counter/configs/tools.yaml": "counter_tools:\n  resources_servers:\n    counter:\n      entrypoint: tools.py\n      domain: other\n" +
			"counter_script:\n  resources_servers:\n    counter:\n      entrypoint: script.py\n      domain: other\n",
		"resources_servers/crlf/app.py":            crlfApp,
		"resources_servers/crlf/requirements.txt":  "",
		"resources_servers/crlf/configs/crlf.yaml": "crlf:\n  resources_servers:\n    crlf:\n      entrypoint: app.py\n      domain: other\n",
	}
}

const counterApp = `from nemo_gym.base_resources_server import SimpleResourcesServer


class CounterServer(SimpleResourcesServer):  # gymlint: ignore[GL101] started with one worker
    def __init__(self):
        self.session_state = {}

    async def step(self, request):
        state = self.session_state.setdefault(request.session["session_id"], {"n": 0})
        state["n"] += 1
        return state


if __name__ == "__main__":
    CounterServer.run_webserver()
`

const crlfApp = "from nemo_gym.base_resources_server import SimpleResourcesServer\r\n\r\n\r\n" +
	"class CrlfServer(SimpleResourcesServer):\r\n    async def verify(self, body):\r\n        return body\r\n\r\n\r\n" +
	"if __name__ == \"__main__\":\r\n    CrlfServer.run_webserver()"

// TestAddNoqa: --add-noqa writes a suppression for every finding it can,
// byte for byte where the suppression rules take it, merges into the
// suppression already on a line, says what it could not place and why,
// and exits 1 for that; the check afterwards reports only that finding,
// and no GL009, GL010 or GL013; a second run changes nothing.
func TestAddNoqa(t *testing.T) {
	root := writeTree(t, addNoqaTree())
	const reason = "adopted, to review"
	_, errOut, code := run(t, "--add-noqa", "--reason", reason, "--contract", "latest", "--verbose", root)
	if code != ExitFindings {
		t.Errorf("--add-noqa: exit %d, want 1 (one finding could not be suppressed); stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"gymlint: added 4 suppressions in 4 files\n",
		"gymlint: could not suppress 1 finding: 1 on a #! line 1, which a comment would break\n",
		"resources_servers/counter/script.py:1:1: GL016 on a #! line 1",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	want := addNoqaTree()
	want["resources_servers/counter/app.py"] = strings.Replace(counterApp, "ignore[GL101] started", "ignore[GL101,GL317] started", 1)
	want["resources_servers/counter/tools.py"] = "# gymlint: ignore[GL016] adopted, to review\n" + want["resources_servers/counter/tools.py"]
	want["resources_servers/counter/configs/counter.yaml"] = strings.Replace(want["resources_servers/counter/configs/counter.yaml"],
		"missing.py \r\n", "missing.py  # gymlint: ignore[GL005] adopted, to review\r\n", 1)
	want["resources_servers/crlf/app.py"] = strings.Replace(crlfApp, "(SimpleResourcesServer):\r\n", "(SimpleResourcesServer):  # gymlint: ignore[GL101] adopted, to review\r\n", 1)
	checkTree(t, root, want)

	out, errOut, code := run(t, "--contract", "latest", root)
	if code != ExitFindings || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "/resources_servers/counter/script.py:1:1: GL016 resources_servers/counter/script.py starts no server: it defines no server class, has no __main__ guard and no module-level app; the workers rules skip it\n") {
		t.Errorf("check afterwards: exit %d\n%s%s", code, out, errOut)
	}

	_, errOut, code = run(t, "--add-noqa", "--reason", "again", "--contract", "latest", root)
	if code != ExitFindings || !strings.Contains(errOut, "gymlint: added 0 suppressions in 0 files\n") {
		t.Errorf("second --add-noqa: exit %d\n%s", code, errOut)
	}
	checkTree(t, root, want)
	pythonParses(t, root)
}

// TestAddNoqaGo: a Go finding gets //gymlint:ignore alone on the line
// above (where gofmt leaves it), and the check afterwards is clean.
func TestAddNoqaGo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	withGoAnalyzers(t, goanalysis.Analyzers...)
	const half = "package half\n\nimport \"net/http\"\n\nfunc seed(w http.ResponseWriter, r *http.Request) {}\n\nfunc Register(mux *http.ServeMux) {\n\tmux.HandleFunc(\"POST /seed_session\", seed)\n}\n"
	root := writeTree(t, map[string]string{
		"native/go.mod":       "module example.com/native\n\ngo 1.22\n",
		"native/half/half.go": half,
	})
	_, errOut, code := run(t, "--add-noqa", "--reason", "a proxy", root)
	if code != ExitClean || !strings.Contains(errOut, "gymlint: added 1 suppression in 1 file\n") {
		t.Fatalf("--add-noqa: exit %d\n%s", code, errOut)
	}
	checkTree(t, root, map[string]string{
		"native/go.mod":       "module example.com/native\n\ngo 1.22\n",
		"native/half/half.go": strings.Replace(half, "\tmux.Handle", "\t//gymlint:ignore GL014 a proxy\n\tmux.Handle", 1),
	})
	if out, errOut, code := run(t, root); code != ExitClean {
		t.Errorf("check afterwards: exit %d\n%s%s", code, out, errOut)
	}
}

// TestAddNoqaFixtures runs --add-noqa on copies of the fixture
// repositories: the check afterwards reports only the findings skipped
// (those in files gymlint did not analyse), no GL009, GL010 or GL013,
// every Python file still parses, and a second run changes no byte.
func TestAddNoqaFixtures(t *testing.T) {
	for _, fixture := range []struct {
		name    string
		skipped []string // the findings left: in files gymlint did not analyse
	}{
		{"gymrepo", []string{
			"resources_servers/plain_counter/configs/plain_counter_hard.yaml GL003",
			"resources_servers/plain_counter/v2_app.py GL001",
		}},
		{"refusalrepo", nil},
	} {
		t.Run(fixture.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), fixture.name)
			if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", fixture.name))); err != nil {
				t.Fatal(err)
			}
			checkAddNoqa(t, root, fixture.skipped)
		})
	}
}

// TestAddNoqaSnapshot runs --add-noqa on a copy of a real NeMo Gym
// checkout when GYMLINT_SNAPSHOT names one (it is not in this repository):
// afterwards the check of the whole contract reports nothing, every changed
// Python file parses with CPython (when python3 is present), and a second
// run changes nothing.
func TestAddNoqaSnapshot(t *testing.T) {
	src := os.Getenv("GYMLINT_SNAPSHOT")
	if src == "" {
		t.Skip("GYMLINT_SNAPSHOT names no NeMo Gym checkout")
	}
	root := filepath.Join(t.TempDir(), "gym")
	if out, err := exec.Command("cp", "-a", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", src, err, out)
	}
	checkAddNoqa(t, root, nil)
}

// checkAddNoqa runs --add-noqa with the latest contract on the repository
// at root (a copy: it is changed) and checks what the check reports
// afterwards (only the findings skipped, in files gymlint did not
// analyse), that the changed Python files parse, and that a second run
// changes nothing.
func checkAddNoqa(t *testing.T, root string, skipped []string) {
	t.Helper()
	before := readTree(t, root)
	_, errOut, code := run(t, "--add-noqa", "--reason", "adopted with the fixture", "--contract", "latest", root)
	wantCode := ExitClean
	if len(skipped) > 0 {
		wantCode = ExitFindings
	}
	if code != wantCode || !strings.Contains(errOut, "gymlint: added ") || strings.Contains(errOut, "could not suppress") {
		t.Fatalf("--add-noqa: exit %d\n%s", code, errOut)
	}
	first := readTree(t, root)
	if len(diffPaths(before, first)) == 0 {
		t.Fatal("--add-noqa changed nothing")
	}
	out, errOut, _ := run(t, "--contract", "latest", "--format", "json", root)
	var ds []struct{ Path, Code string }
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	var left []string
	for _, d := range ds {
		left = append(left, d.Path+" "+d.Code)
	}
	if !slices.Equal(left, skipped) {
		t.Errorf("the check afterwards reports %q, want %q", left, skipped)
	}
	pythonParses(t, root, diffPaths(before, first)...)

	if _, errOut, _ := run(t, "--add-noqa", "--reason", "again", "--contract", "latest", root); !strings.Contains(errOut, "gymlint: added 0 suppressions in 0 files") {
		t.Errorf("second --add-noqa:\n%s", errOut)
	}
	if changed := diffPaths(first, readTree(t, root)); len(changed) > 0 {
		t.Errorf("the second --add-noqa changed %v", changed)
	}
}

// readTree reads every regular file under root (slash path → content).
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// diffPaths lists the paths whose content differs between a and b, sorted.
func diffPaths(a, b map[string]string) []string {
	var out []string
	for p, c := range a {
		if d, ok := b[p]; !ok || d != c {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// checkTree checks that root holds exactly the files want, byte for byte.
func checkTree(t *testing.T, root string, want map[string]string) {
	t.Helper()
	got := readTree(t, root)
	for _, p := range diffPaths(want, got) {
		t.Errorf("%s:\n got %q\nwant %q", p, got[p], want[p])
	}
}

// pythonParses checks, when python3 is on PATH, that the .py files among
// paths (every .py file under root when none is given) parse with
// Python's own ast module.
func pythonParses(t *testing.T, root string, paths ...string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3 on PATH: the Python files are not parsed")
		return
	}
	if len(paths) == 0 {
		for p := range readTree(t, root) {
			paths = append(paths, p)
		}
	}
	var files []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".py") && !strings.HasSuffix(p, "v2_app.py") { // v2_app.py has a syntax error on purpose
			files = append(files, filepath.Join(root, filepath.FromSlash(p)))
		}
	}
	if len(files) == 0 {
		return
	}
	cmd := exec.Command(py, append([]string{"-c", "import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f, 'rb').read(), f)\n"}, files...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("python3 cannot parse the files: %v\n%s", err, out)
	}
}

// TestAddNoqaExtraRoots: with --include-extra-roots, the findings in an
// extra root are skipped, counted, and its files left as they are: gymlint
// writes only in the root.
func TestAddNoqaExtraRoots(t *testing.T) {
	root, extra := extraRootFixture(t)
	t.Setenv("NEMO_GYM_EXTRA_ROOTS", "")
	before := readTree(t, extra)
	_, errOut, code := run(t, "--add-noqa", "--reason", "plugin", "--extra-root", extra, "--include-extra-roots", root)
	if code != ExitFindings || !strings.Contains(errOut, "gymlint: added 0 suppressions in 0 files\n") ||
		!strings.Contains(errOut, "gymlint: skipped 2 findings: 2 in an extra root outside the root, which gymlint does not write to (--verbose lists them)\n") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	if changed := diffPaths(before, readTree(t, extra)); len(changed) > 0 {
		t.Errorf("the extra root's %v changed", changed)
	}
}
