package actiontest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

// copyFixture copies a fixture repository of testdata/ into a new workspace
// (the fixtures are never written).
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "workspace")
	if err := os.CopyFS(ws, os.DirFS(filepath.Join(repoRoot(t), "testdata", name))); err != nil {
		t.Fatal(err)
	}
	return ws
}

// sarifResults parses a SARIF file and returns its first run's results.
func sarifResults(t *testing.T, path string) []json.RawMessage {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &log); err != nil {
		t.Fatalf("SARIF file %s: %v", path, err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Results == nil {
		t.Fatalf("SARIF file %s: version %q, %d runs, want 2.1.0 with one run and its results", path, log.Version, len(log.Runs))
	}
	return log.Runs[0].Results
}

var annotation = regexp.MustCompile(`(?m)^::(error|warning|notice) file=`)

// TestCheckGymrepo runs the check step on a copy of testdata/gymrepo with
// the action's defaults: the annotations are gymlint's --format github
// output (its golden file), the SARIF file holds every finding, the outputs
// count them, the step summary has the table of findings per rule, and the
// step exits 1.
func TestCheckGymrepo(t *testing.T) {
	bin := gymlintBin(t)
	root := repoRoot(t)
	r := newRunner(t, copyFixture(t, "gymrepo"))
	stdout, stderr, code := r.run(t, filepath.Join(root, script), "check",
		"GITHUB_ACTION_PATH="+root, "GYMLINT_BIN="+bin,
		"INPUT_ARGS=.", "INPUT_CONTRACT=", "INPUT_SARIF_FILE=", "INPUT_WORKING_DIRECTORY=.")
	if code != 1 {
		t.Fatalf("exit status %d, want 1 (findings)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// The annotations, as gymlint prints them.
	if want := readFile(t, filepath.Join(root, "testdata", "gymrepo.golden.github")); stdout != want {
		t.Errorf("stdout is not gymlint's --format github output (testdata/gymrepo.golden.github):\n%s", stdout)
	}
	if !strings.Contains(stdout, "::error file=resources_servers/maze_walk/app.py,line=7,col=7,endLine=7,endColumn=21,title=GL101 undeclared-workers::") {
		t.Errorf("no GL101 annotation for maze_walk/app.py:\n%s", stdout)
	}
	n := len(annotation.FindAllString(stdout, -1))

	// The SARIF file, in the runner's temp directory by default.
	sarif := filepath.Join(r.temp, "gymlint.sarif")
	results := sarifResults(t, sarif)
	if len(results) == 0 || len(results) != n {
		t.Errorf("SARIF: %d results, %d annotations; want the same, more than 0", len(results), n)
	}

	// The outputs.
	out := r.outputs(t)
	want := map[string]string{"findings": strconv.Itoa(n), "sarif-file": sarif, "exit-code": "1"}
	for k, v := range want {
		if out[k] != v {
			t.Errorf("output %s=%q, want %q (all: %v)", k, out[k], v, out)
		}
	}
	if len(out) != len(want) {
		t.Errorf("outputs %v, want only %v", out, want)
	}

	// The step summary: the heading, the counts and a row per rule.
	summary := readFile(t, r.summary)
	for _, s := range []string{
		"### gymlint\n\n" + strconv.Itoa(n) + " findings: ",
		"| Rule | Name | Severity | Findings |\n|---|---|---|---:|\n",
		"| `GL101` | undeclared-workers | error | 11 |\n",
	} {
		if !strings.Contains(summary, s) {
			t.Errorf("step summary lacks %q:\n%s", s, summary)
		}
	}
	if strings.Count(summary, "### gymlint") != 1 {
		t.Errorf("step summary holds more than one gymlint summary:\n%s", summary)
	}
}

// TestCheckClean runs the check step on a repository without findings, in
// a working directory below the workspace, with the SARIF file named
// relative to the workspace and the latest contract: exit status 0,
// findings=0, an empty SARIF run, and "No findings." in the step summary.
func TestCheckClean(t *testing.T) {
	bin := gymlintBin(t)
	root := repoRoot(t)
	ws := testtree.New(t, map[string]string{"gym/resources_servers/echo/app.py": cleanServer})
	r := newRunner(t, ws)
	stdout, stderr, code := r.run(t, filepath.Join(root, script), "check",
		"GITHUB_ACTION_PATH="+root, "GYMLINT_BIN="+bin,
		"INPUT_ARGS=.", "INPUT_CONTRACT=latest", "INPUT_SARIF_FILE=reports/gymlint.sarif", "INPUT_WORKING_DIRECTORY=gym")
	if code != 0 {
		t.Fatalf("exit status %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if stdout != "::notice title=gymlint summary::no findings\n" {
		t.Errorf("stdout:\n%s", stdout)
	}
	sarif := filepath.Join(ws, "reports", "gymlint.sarif")
	if results := sarifResults(t, sarif); len(results) != 0 {
		t.Errorf("SARIF: %d results, want none", len(results))
	}
	out := r.outputs(t)
	if out["findings"] != "0" || out["exit-code"] != "0" || out["sarif-file"] != sarif {
		t.Errorf("outputs %v, want findings=0, exit-code=0, sarif-file=%s", out, sarif)
	}
	if s := readFile(t, r.summary); s != "### gymlint\n\nNo findings.\n" {
		t.Errorf("step summary:\n%s", s)
	}
}

// TestCheckErrors checks what the check step does when gymlint cannot
// check: an input it refuses, and arguments that name no file. The
// arguments are split, never evaluated: a command substitution in them is
// a word like any other.
func TestCheckErrors(t *testing.T) {
	bin := gymlintBin(t)
	root := repoRoot(t)

	t.Run("contract", func(t *testing.T) {
		r := newRunner(t, testtree.New(t, map[string]string{"resources_servers/echo/app.py": cleanServer}))
		stdout, _, code := r.run(t, filepath.Join(root, script), "check",
			"GITHUB_ACTION_PATH="+root, "GYMLINT_BIN="+bin, "INPUT_ARGS=.", "INPUT_CONTRACT=newest")
		if code != 2 || stdout != "::error title=gymlint action::contract must be auto or latest, not \"newest\"\n" {
			t.Errorf("exit %d, stdout %q", code, stdout)
		}
		if out := r.outputs(t); len(out) != 0 {
			t.Errorf("outputs %v, want none", out)
		}
	})

	t.Run("args", func(t *testing.T) {
		ws := testtree.New(t, map[string]string{"resources_servers/echo/app.py": cleanServer})
		r := newRunner(t, ws)
		_, stderr, code := r.run(t, filepath.Join(root, script), "check",
			"GITHUB_ACTION_PATH="+root, "GYMLINT_BIN="+bin, "INPUT_ARGS=--select GL101 $(touch pwned) `touch pwned2` *.py")
		if code != 2 {
			t.Errorf("exit %d, want 2\nstderr:\n%s", code, stderr)
		}
		for _, f := range []string{"pwned", "pwned)", "pwned2"} {
			if _, err := os.Stat(filepath.Join(ws, f)); err == nil {
				t.Errorf("the arguments were evaluated: %s exists", f)
			}
		}
		if !strings.Contains(stderr, "$(touch") {
			t.Errorf("gymlint was not given the words as they are:\n%s", stderr)
		}
		out := r.outputs(t)
		if out["exit-code"] != "2" || out["findings"] != "" || out["sarif-file"] != "" {
			t.Errorf("outputs %v, want exit-code=2 only", out)
		}
		if s := readFile(t, r.summary); !strings.Contains(s, "gymlint stopped with exit status 2") {
			t.Errorf("step summary:\n%s", s)
		}
	})
}

// cleanServer is a resources server without findings.
const cleanServer = `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()
`
