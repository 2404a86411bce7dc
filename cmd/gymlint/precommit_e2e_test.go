package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The pre-commit end-to-end test runs gymlint as a pre-commit hook on a
// fixture git repository. It skips when pre-commit (Debian's package
// pre-commit) or git is not installed; .ci/run installs pre-commit.

const precommitServer = `from nemo_gym.base_resources_server import SimpleResourcesServer


class PlainServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    PlainServer.run_webserver()
`

// The fix: the module-level app in the __main__ guard.
const precommitServerFixed = `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class PlainServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    PlainServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = PlainServer.run_webserver()
`

func requirePreCommit(t *testing.T) string {
	t.Helper()
	pc, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit not installed (apt-get install pre-commit); skipping the pre-commit end-to-end test")
	}
	return pc
}

// TestPreCommitManifest validates the repository's .pre-commit-hooks.yaml.
func TestPreCommitManifest(t *testing.T) {
	pc := requirePreCommit(t)
	t.Setenv("PRE_COMMIT_HOME", t.TempDir())
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, root, pc, "validate-manifest", ".pre-commit-hooks.yaml")
	if code != 0 {
		t.Fatalf("pre-commit validate-manifest: exit %d\n%s%s", code, out, errOut)
	}
}

// TestPreCommitHook runs gymlint through pre-commit (a local hook with
// language: system) on a fixture repository: a server without an app is
// rejected with GL101, also when only its config is passed, and the fixed
// server passes.
func TestPreCommitHook(t *testing.T) {
	pc := requirePreCommit(t)
	gitcmd, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed; skipping the pre-commit end-to-end test")
	}
	bin := buildGymlint(t, "")

	// pre-commit keeps its store in PRE_COMMIT_HOME; git gets a fixed
	// identity and no user or system configuration.
	t.Setenv("PRE_COMMIT_HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_AUTHOR_NAME", "gymlint test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "gymlint test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	t.Setenv("SKIP", "")

	repo := t.TempDir()
	const (
		server = "resources_servers/plain/app.py"
		config = "resources_servers/plain/configs/plain.yaml"
	)
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(server, precommitServer)
	write(config, "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n")
	write("resources_servers/plain/requirements.txt", "fastapi\n")
	write(".pre-commit-config.yaml", `repos:
  - repo: local
    hooks:
      - id: gymlint
        name: gymlint
        entry: `+bin+` --pre-commit
        language: system
        types_or: [python, yaml, go]
        require_serial: true
`)
	git := func(args ...string) {
		t.Helper()
		if out, errOut, code := run(t, repo, gitcmd, args...); code != 0 {
			t.Fatalf("git %v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	git("init", "-q")
	git("add", "-A")

	finding := server + ":4:7: GL101"
	precommit := func(args ...string) (string, int) {
		t.Helper()
		out, errOut, code := run(t, repo, pc, append([]string{"run", "--color", "never"}, args...)...)
		return out + errOut, code
	}

	out, code := precommit("--all-files")
	if code == 0 || !strings.Contains(out, finding) {
		t.Errorf("bad server, --all-files: exit %d, want a failure reporting %q:\n%s", code, finding, out)
	}
	// Only the config: the finding is reached through the entrypoint it names.
	out, code = precommit("--files", config)
	if code == 0 || !strings.Contains(out, finding) {
		t.Errorf("bad server, --files %s: exit %d, want a failure reporting %q:\n%s", config, code, finding, out)
	}

	write(server, precommitServerFixed)
	git("add", "-A")
	out, code = precommit("--all-files")
	if code != 0 || strings.Contains(out, "GL101") {
		t.Errorf("fixed server, --all-files: exit %d, want a pass:\n%s", code, out)
	}
	out, code = precommit("--files", config)
	if code != 0 {
		t.Errorf("fixed server, --files %s: exit %d, want a pass:\n%s", config, code, out)
	}
}

// TestPreCommitTryRepoAndCommit installs this repository's own hook
// (.pre-commit-hooks.yaml, language: golang) from a local clone, as users
// do, and checks that a commit of a server without an app is rejected with
// the diagnostic while the fixed server commits. pre-commit builds the hook
// with the go command, offline, from the module cache this test runs with.
func TestPreCommitTryRepoAndCommit(t *testing.T) {
	pc := requirePreCommit(t)
	gitcmd, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil || testing.Short() {
		t.Skip("needs the go command and is skipped in -short mode")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout of gymlint")
	}
	modcache, _, code := run(t, root, gocmd, "env", "GOMODCACHE")
	gocache, _, code2 := run(t, root, gocmd, "env", "GOCACHE")
	if code != 0 || code2 != 0 {
		t.Fatal("go env failed")
	}
	t.Setenv("GOMODCACHE", strings.TrimSpace(modcache))
	t.Setenv("GOCACHE", strings.TrimSpace(gocache))
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("PRE_COMMIT_HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_AUTHOR_NAME", "gymlint test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "gymlint test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")

	gitIn := func(dir string, args ...string) string {
		t.Helper()
		out, errOut, code := run(t, dir, gitcmd, args...)
		if code != 0 {
			t.Fatalf("git %v: exit %d\n%s%s", args, code, out, errOut)
		}
		return strings.TrimSpace(out)
	}
	// A local clone of this repository's HEAD: what users point pre-commit at.
	clone := filepath.Join(t.TempDir(), "gymlint")
	gitIn(root, "clone", "-q", root, clone)
	rev := gitIn(clone, "rev-parse", "HEAD")

	repo := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const server = "resources_servers/plain/app.py"
	write(server, precommitServer)
	write("resources_servers/plain/configs/plain.yaml", "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n")
	write("resources_servers/plain/requirements.txt", "fastapi\n")
	write(".pre-commit-config.yaml", "repos:\n  - repo: "+clone+"\n    rev: "+rev+"\n    hooks:\n      - id: gymlint\n")
	gitIn(repo, "init", "-q")
	gitIn(repo, "add", "-A")

	// try-repo: run the hook straight from the clone.
	out, errOut, code := run(t, repo, pc, "try-repo", "--color", "never", clone, "gymlint", "--all-files")
	if code == 0 || !strings.Contains(out+errOut, server+":4:7: GL101") {
		t.Fatalf("try-repo on the bad server: exit %d, want a failure with GL101:\n%s%s", code, out, errOut)
	}

	// As a git hook: the bad commit is rejected, the fixed one goes in.
	if out, errOut, code := run(t, repo, pc, "install"); code != 0 {
		t.Fatalf("pre-commit install: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = run(t, repo, gitcmd, "commit", "-q", "-m", "bad server")
	if code == 0 || !strings.Contains(out+errOut, "GL101") {
		t.Fatalf("commit of the bad server: exit %d, want it rejected with GL101:\n%s%s", code, out, errOut)
	}
	write(server, precommitServerFixed)
	gitIn(repo, "add", "-A")
	if out, errOut, code := run(t, repo, gitcmd, "commit", "-q", "-m", "fixed server"); code != 0 {
		t.Fatalf("commit of the fixed server: exit %d\n%s%s", code, out, errOut)
	}
}
