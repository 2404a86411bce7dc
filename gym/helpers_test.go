package gym_test

import (
	"github.com/gymlint/gymlint/internal/testtree"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// writeRepo writes files (root-relative slash path → content) under a new
// temporary directory and returns its path.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

func writeFiles(t *testing.T, root string, files map[string]string) { testtree.Write(t, root, files) }

// symlink creates root/rel pointing at target (as written, not resolved).
func symlink(t *testing.T, root, rel, target string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		t.Fatal(err)
	}
}

// build builds the view of root and closes it when the test ends.
func build(t *testing.T, root string, opts gym.Options) *gym.View {
	t.Helper()
	v, err := gym.Build(root, opts)
	if err != nil {
		t.Fatalf("Build(%s): %v", root, err)
	}
	t.Cleanup(v.Close)
	return v
}

// buildWithin is build with a time limit, for inputs that must not hang.
func buildWithin(t *testing.T, d time.Duration, root string, opts gym.Options) *gym.View {
	t.Helper()
	var v *gym.View
	within(t, d, "Build", func() { v = build(t, root, opts) })
	return v
}

// within runs fn and fails the test if it has not returned after d. fn
// keeps running in the background in that case, so use it only where a
// hang is the bug being tested.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not finish within %v", what, d)
	}
}

// entry returns the entrypoint at path, failing the test if there is none.
func entry(t *testing.T, v *gym.View, p string) *gym.Entrypoint {
	t.Helper()
	for _, e := range v.Entrypoints {
		if e.Path == p {
			return e
		}
	}
	t.Fatalf("no entrypoint %s; have %v", p, entryPaths(v))
	return nil
}

func entryPaths(v *gym.View) []string {
	var out []string
	for _, e := range v.Entrypoints {
		out = append(out, e.Path)
	}
	return out
}

// module parses a repository module through the view.
func module(t *testing.T, v *gym.View, p string) *pyscan.Module {
	t.Helper()
	m, err := v.Module(p)
	if err != nil || m == nil {
		t.Fatalf("Module(%s): %v", p, err)
	}
	return m
}

// class finds a module-level class by name.
func class(t *testing.T, m *pyscan.Module, name string) gym.ClassRef {
	t.Helper()
	for _, c := range m.Classes {
		if c.Name == name {
			return gym.ClassRef{Module: m, Class: c}
		}
	}
	t.Fatalf("no class %s in %s", name, m.Path)
	return gym.ClassRef{}
}

// serverNames lists the class names of an entrypoint's servers.
func serverNames(e *gym.Entrypoint) []string {
	var out []string
	for _, s := range e.Servers {
		out = append(out, s.Class.Class.Name)
	}
	return out
}

// mroNames gives the MRO as short names: the class name of repository
// classes, the dotted name of others.
func mroNames(mro []gym.Ancestor) []string {
	var out []string
	for _, a := range mro {
		if a.Class.Class != nil {
			out = append(out, a.Class.Class.Name)
		} else {
			out = append(out, a.Name)
		}
	}
	return out
}

// diagsOf returns the core diagnostics with the given code.
func diagsOf(v *gym.View, code string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range v.Diagnostics() {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// findDiag returns the diagnostic with that code and path, failing the test
// (and listing every diagnostic) when there is none.
func findDiag(t *testing.T, v *gym.View, code, p string) diag.Diagnostic {
	t.Helper()
	for _, d := range v.Diagnostics() {
		if d.Code == code && d.Path == p {
			return d
		}
	}
	t.Fatalf("no %s diagnostic for %s; have:\n%s", code, p, dumpDiags(v.Diagnostics()))
	return diag.Diagnostic{}
}

// noDiag fails the test when a diagnostic with that code and path exists.
func noDiag(t *testing.T, v *gym.View, code, p string) {
	t.Helper()
	for _, d := range v.Diagnostics() {
		if d.Code == code && d.Path == p {
			t.Errorf("unexpected %s for %s: %s", code, p, d.Message)
		}
	}
}

func dumpDiags(ds []diag.Diagnostic) string {
	var lines []string
	for _, d := range ds {
		lines = append(lines, "  "+d.Code+" "+d.Path+":"+itoa(d.Start.Line)+":"+itoa(d.Start.Col)+" "+d.Message)
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return "  (none)"
	}
	return strings.Join(lines, "\n")
}

func itoa(i int) string { return strconv.Itoa(i) }

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Python sources used by many tests. The framework is outside the
// repository unless a test writes a nemo_gym/ package.

const importSRS = "from nemo_gym.base_resources_server import SimpleResourcesServer\n"

const mainGuard = "\nif __name__ == \"__main__\":\n    %s.run_webserver()\n"

// serverModule is an entrypoint with one server class that runs itself.
func serverModule(cls string) string {
	return importSRS + "\n\nclass " + cls + "(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n" +
		strings.Replace(mainGuard, "%s", cls, 1)
}

// healthy is a well-formed server that robustness tests keep next to the
// broken input, to show that the rest of the scan goes on.
const healthyPath = "resources_servers/healthy/app.py"

var healthyFiles = map[string]string{
	healthyPath: serverModule("HealthyServer"),
	"resources_servers/healthy/configs/healthy.yaml": "healthy:\n  resources_servers:\n    healthy:\n      entrypoint: app.py\n",
}

// withHealthy returns files plus the healthy server.
func withHealthy(files map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range healthyFiles {
		out[k] = v
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// assertHealthy checks that the healthy server was analysed.
func assertHealthy(t *testing.T, v *gym.View) {
	t.Helper()
	e := entry(t, v, healthyPath)
	if e.Module == nil {
		t.Fatalf("healthy server not parsed")
	}
	if got := serverNames(e); !equalStrings(got, []string{"HealthyServer"}) {
		t.Errorf("healthy server classes = %v, want [HealthyServer]", got)
	}
	if len(e.Configs) != 1 || e.Configs[0].File != "resources_servers/healthy/configs/healthy.yaml" {
		t.Errorf("healthy server configs = %+v", e.Configs)
	}
	noDiag(t, v, "GL001", healthyPath)
	noDiag(t, v, "GL002", healthyPath)
}

// yamlServer is a config naming one server.
func yamlServer(instance, typ, dir, ep string) string {
	return instance + ":\n  " + typ + ":\n    " + dir + ":\n      entrypoint: " + ep + "\n"
}
