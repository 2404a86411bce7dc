package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/gymlint/gymlint/internal/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The hostile-repository tests: each writes a repository with a hostile
// input beside a known-good server (goodServer), generated at test time,
// and runs the real binary on it under a wall-clock and a memory bound that
// the harness asserts (bounded): the scan must finish, say what it could
// not read, and still analyse the good server.

// goodServer is a server without a refusal, which GL101 reports at
// goodFinding whatever else is in the repository.
var goodServer = map[string]string{
	"resources_servers/good/app.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
		"class GoodServer(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n\n\n" +
		"if __name__ == \"__main__\":\n    GoodServer.run_webserver()\n",
	"resources_servers/good/configs/good.yaml": "good:\n  resources_servers:\n    good:\n      entrypoint: app.py\n      domain: other\n",
	"resources_servers/good/requirements.txt":  "fastapi\n",
	"nemo_gym/__init__.py":                     "",
	// A framework with the worker refusal, so that GL101 applies.
	"nemo_gym/base_resources_server.py": "class SimpleResourcesServer:\n    def multiple_workers_unsupported_reason(self):\n        return None\n",
}

const goodFinding = "resources_servers/good/app.py:4:7: GL101"

// hostileRepo writes the good server and files (path → content) into a new
// temporary directory. Content larger than a test should commit is made
// by the caller at test time.
func hostileRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, set := range []map[string]string{goodServer, files} {
		for p, c := range set {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// gymlintBinary builds gymlint once for every test of the package that
// asks (buildGymlint builds one per test).
func gymlintBinary(t *testing.T) string {
	t.Helper()
	return testbin.Gymlint(t, ".")
}

// outcome is what a bounded run gave.
type outcome struct {
	stdout, stderr string
	code           int
	took           time.Duration
	peakMB         int64
}

// bounded runs the gymlint binary with args in dir and fails the test when
// it runs longer than limit (it is then killed) or its peak resident
// memory exceeds maxMB.
func bounded(t *testing.T, dir string, limit time.Duration, maxMB int64, args ...string) outcome {
	t.Helper()
	bin := gymlintBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), offline...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) } // the whole group
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err := cmd.Run()
	res := outcome{stdout: o.String(), stderr: e.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("gymlint %s did not finish within %s\nstderr:\n%s", strings.Join(args, " "), limit, e.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("gymlint %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.peakMB = ru.Maxrss / 1024 // kilobytes on Linux
	}
	if res.peakMB > maxMB {
		t.Errorf("gymlint %s: peak memory %d MB, over the bound of %d MB", strings.Join(args, " "), res.peakMB, maxMB)
	}
	t.Logf("gymlint %s: exit %d in %s, peak %d MB", strings.Join(args, " "), res.code, res.took.Round(time.Millisecond), res.peakMB)
	return res
}

// wantGood checks that a run still analysed the good server.
func wantGood(t *testing.T, o outcome) {
	t.Helper()
	if !strings.Contains(o.stdout, goodFinding) {
		t.Errorf("the good server beside the hostile input was not analysed (no %s):\nstdout:\n%s\nstderr:\n%s", goodFinding, o.stdout, o.stderr)
	}
}

// TestHostileHarness checks the harness on the good server alone.
func TestHostileHarness(t *testing.T) {
	dir := hostileRepo(t, nil)
	o := bounded(t, dir, time.Minute, 300, ".")
	if o.code != 1 {
		t.Errorf("exit %d", o.code)
	}
	wantGood(t, o)
}
