package actiontest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/testtree"
)

// fakeMain is the cmd/gymlint of a fake gymlint repository: --version says
// which commit it was built from; clean --dry-run names a cache directory.
const fakeMain = `package main

import (
	"fmt"
	"os"
)

const built = %q

func main() {
	if len(os.Args) == 3 && os.Args[1] == "clean" && os.Args[2] == "--dry-run" {
		fmt.Println("/cache/dir: with colons: 3 entries, 0.1 MB (bounded to 512.0 MB)")
		return
	}
	fmt.Println("gymlint " + built)
}
`

// git runs git in dir as the tests' own user.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// fakeRepo makes a git repository of a fake gymlint with two commits:
// "one" (tagged v1) and "two" (main's head).
func fakeRepo(t *testing.T, dir string) {
	t.Helper()
	testtree.Write(t, dir, map[string]string{
		"go.mod":              "module example.com/fakegymlint\n\ngo 1.26\n",
		"cmd/gymlint/main.go": strings.Replace(fakeMain, "%q", `"one"`, 1),
	})
	git(t, dir, "init", "--quiet")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "--quiet", "-m", "one")
	git(t, dir, "tag", "v1")
	testtree.Write(t, dir, map[string]string{"cmd/gymlint/main.go": strings.Replace(fakeMain, "%q", `"two"`, 1)})
	git(t, dir, "commit", "--quiet", "-am", "two")
}

// TestBuildVersion runs the build step on a fake gymlint repository: with
// no version it builds the action's files as they are; with another ref it
// builds that ref, from a clone of the action's files when they are a git
// work tree, else fetched from the action's repository on the server; a
// ref that is no ref, or that cannot be found, fails the step with exit
// status 2. The binary's directory goes on the job's PATH, and the cache
// directory is an output only when GYMLINT_CACHE_KEY is set.
func TestBuildVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs; skipped in -short mode")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	scriptPath := filepath.Join(repoRoot(t), script)
	server := t.TempDir()
	clone := filepath.Join(server, "your-org", "gymlint") // the action's repository on the server
	fakeRepo(t, clone)
	archive := t.TempDir() // the action as the runner downloads it: files, no .git
	if err := os.CopyFS(archive, os.DirFS(clone)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(archive, ".git")); err != nil {
		t.Fatal(err)
	}
	goEnv := []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local"}

	for _, tc := range []struct {
		name, actionPath, version, cacheKey string
		want                                string // what the built gymlint says, "" for a failed step
		fetched                             bool   // fetched from the server, not found in the action's files
		wantErr                             string
	}{
		{name: "own files", actionPath: clone, want: "gymlint two"},
		{name: "own ref", actionPath: clone, version: "v9", want: "gymlint two"}, // GYMLINT_ACTION_REF is v9
		{name: "tag in the clone", actionPath: clone, version: "v1", cacheKey: "a key of sixteen characters", want: "gymlint one"},
		{name: "fetched", actionPath: archive, version: "v1", want: "gymlint one", fetched: true},
		{name: "archive, own files", actionPath: archive, want: "gymlint two"},
		{name: "not a ref", actionPath: clone, version: "--upload-pack=touch pwned", wantErr: "is not a commit, tag or branch name"},
		{name: "unknown ref", actionPath: archive, version: "v7", wantErr: "version v7: cannot check it out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, t.TempDir())
			vars := append([]string{"GITHUB_ACTION_PATH=" + tc.actionPath, "INPUT_VERSION=" + tc.version, "INPUT_CACHE=true",
				"GYMLINT_ACTION_REF=v9", "GYMLINT_ACTION_REPOSITORY=your-org/gymlint", "GITHUB_SERVER_URL=file://" + server}, goEnv...)
			if tc.cacheKey != "" {
				vars = append(vars, "GYMLINT_CACHE_KEY="+tc.cacheKey)
			}
			stdout, stderr, code := r.run(t, scriptPath, "build", vars...)
			out := r.outputs(t)
			if tc.wantErr != "" {
				if code != 2 || !strings.Contains(stdout, "::error title=gymlint action::") || !strings.Contains(stdout, tc.wantErr) {
					t.Errorf("exit %d, want 2 and an error annotation with %q\nstdout:\n%s\nstderr:\n%s", code, tc.wantErr, stdout, stderr)
				}
				if len(out) != 0 {
					t.Errorf("outputs %v, want none", out)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			bindir := filepath.Join(r.temp, "gymlint-bin")
			bin := filepath.Join(bindir, "gymlint")
			if out["bin"] != bin {
				t.Errorf("output bin=%q, want %q", out["bin"], bin)
			}
			if got, err := exec.Command(bin, "--version").Output(); err != nil || strings.TrimSpace(string(got)) != tc.want {
				t.Errorf("the built gymlint says %q (%v), want %q", got, err, tc.want)
			}
			if !strings.Contains(stdout, tc.want+"\n") {
				t.Errorf("the log does not show %q:\n%s", tc.want, stdout)
			}
			if fetched := strings.Contains(stderr, "fetching "+tc.version+" from file://"+server+"/your-org/gymlint"); fetched != tc.fetched {
				t.Errorf("fetched from the server: %v, want %v\nstderr:\n%s", fetched, tc.fetched, stderr)
			}
			if p := readFile(t, r.path); p != bindir+"\n" {
				t.Errorf("$GITHUB_PATH holds %q, want %q", p, bindir)
			}
			if tc.cacheKey != "" {
				if out["cache-dir"] != "/cache/dir: with colons" {
					t.Errorf("output cache-dir=%q, want the directory gymlint clean --dry-run names", out["cache-dir"])
				}
			} else if _, ok := out["cache-dir"]; ok || !strings.Contains(stdout, "::notice title=gymlint cache::") {
				t.Errorf("without GYMLINT_CACHE_KEY: outputs %v, want no cache-dir and a notice\nstdout:\n%s", out, stdout)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(clone, "pwned")); err == nil {
		t.Error("the version was read as a git option")
	}
	if st := git(t, clone, "status", "--porcelain"); st != "" {
		t.Errorf("the build changed the action's files:\n%s", st)
	}
}
