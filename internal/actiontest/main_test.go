// Package actiontest tests gymlint's GitHub Action: action.yml at the
// repository root and the script its steps run, .github/action/run.sh.
//
// The tests run the script with bash as the runner does (the environment
// GitHub sets, the inputs as environment variables) on copies of fixture
// repositories, with a gymlint built by the test, and check what a workflow
// sees: the annotations, the SARIF file, the step outputs, the step summary
// and the exit status. They build gymlint, so -short skips them. Another
// test reads action.yml and checks it against the files it names: every
// input declared and used, every output set by the step it names, the
// script present and executable, actions pinned to a major version, and no
// expression written into shell code.
//
// The package holds tests only: nothing imports it, so it has no layer in
// lint/layers_test.go.
package actiontest

import (
	"bytes"
	"context"
	"errors"
	"github.com/gymlint/gymlint/internal/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/testtree"
)

// The gymlint processes the tests start use a cache directory of their own;
// the gymlint the tests build is removed after them.
func TestMain(m *testing.M) {
	code := testtree.MainWithCacheDir(m)
	testbin.Cleanup()
	os.Exit(code)
}

// script is the action's script, relative to the repository root.
const script = ".github/action/run.sh"

// repoRoot is the root of gymlint's repository (the action's own files).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "action.yml")); err != nil {
		t.Fatalf("no action.yml at the repository root: %v", err)
	}
	return root
}

// gymlintBin builds gymlint once for the package's tests (offline) and
// returns the binary.
func gymlintBin(t *testing.T) string {
	t.Helper()
	return testbin.Gymlint(t, filepath.Join(repoRoot(t), "cmd", "gymlint"))
}

// needBash skips the test when there is no bash.
func needBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	return bash
}

// runner is the environment GitHub gives a step: the workspace, the files
// of the step's outputs, summary and path, and the runner's temp directory.
type runner struct {
	workspace, temp, output, summary, path string
}

func newRunner(t *testing.T, workspace string) runner {
	t.Helper()
	dir := t.TempDir()
	r := runner{
		workspace: workspace,
		temp:      filepath.Join(dir, "runner-temp"),
		output:    filepath.Join(dir, "github-output"),
		summary:   filepath.Join(dir, "step-summary.md"),
		path:      filepath.Join(dir, "github-path"),
	}
	if err := os.Mkdir(r.temp, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{r.output, r.summary, r.path} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// env is the process environment with the runner's variables and vars
// (NAME=value) set; variables GitHub would set that vars does not name are
// removed, so that the host's environment does not leak in.
func (r runner) env(vars ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GITHUB_") || strings.HasPrefix(name, "RUNNER_") || strings.HasPrefix(name, "INPUT_") || name == "GYMLINT_CACHE_KEY" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"GITHUB_ACTIONS=true",
		"GITHUB_WORKSPACE="+r.workspace,
		"GITHUB_OUTPUT="+r.output,
		"GITHUB_STEP_SUMMARY="+r.summary,
		"GITHUB_PATH="+r.path,
		"RUNNER_TEMP="+r.temp,
		"RUNNER_OS=Linux",
	)
	return append(env, vars...)
}

// run runs the action's script (in dir, with mode build or check) and
// returns its output and exit status.
func (r runner) run(t *testing.T, scriptPath, mode string, vars ...string) (stdout, stderr string, code int) {
	t.Helper()
	bash := needBash(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, scriptPath, mode)
	cmd.Dir = r.workspace
	cmd.Env = r.env(vars...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("bash %s %s: %v", scriptPath, mode, err)
	}
	return o.String(), e.String(), code
}

// outputs reads the step's outputs (NAME=value lines).
func (r runner) outputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(r.output)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		name, value, ok := strings.Cut(l, "=")
		if !ok {
			t.Errorf("$GITHUB_OUTPUT line %q is not NAME=value", l)
			continue
		}
		if _, dup := out[name]; dup {
			t.Errorf("$GITHUB_OUTPUT sets %s twice", name)
		}
		out[name] = value
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
