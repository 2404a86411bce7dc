package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

// The package's checks use a cache directory of their own.
func TestMain(m *testing.M) { os.Exit(testtree.MainWithCacheDir(m)) }

// dirtyServer is a server file with one finding (GL101).
const dirtyServer = `from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return body
`

// A cache directory that exists but cannot be written is said once on
// stderr, as the README promises, and the check goes on without it. As
// root (which permission bits do not stop) the directory is one that no
// one can write: /proc/self.
func TestUnwritableCacheDirIsSaid(t *testing.T) {
	if st, err := os.Stat("/proc/self"); err != nil || !st.IsDir() {
		t.Skip("no /proc/self")
	}
	root := writeTree(t, map[string]string{"resources_servers/echo/app.py": dirtyServer})
	want, _, wantCode := run(t, "--no-cache", "--quiet", root)
	out, errOut, code := run(t, "--cache-dir", "/proc/self", "--quiet", root)
	if out != want || code != wantCode {
		t.Fatalf("with an unwritable cache: exit %d, stdout\n%s\nwant exit %d,\n%s", code, out, wantCode, want)
	}
	if n := strings.Count(errOut, "gymlint: the cache cannot be used (cannot write in /proc/self"); n != 1 {
		t.Fatalf("stderr says %d times that the cache cannot be used, want once:\n%s", n, errOut)
	}
}

// A cache directory in which entries cannot be written (here a file where
// the Python records' directory goes; a full disk fails the same way) is
// said once on stderr, and the check's output is what it is without the
// cache.
func TestCacheWriteFailureIsSaid(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/echo/app.py": dirtyServer})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "python"), []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	want, _, wantCode := run(t, "--no-cache", "--quiet", root)
	out, errOut, code := run(t, "--cache-dir", dir, "--quiet", root)
	if out != want || code != wantCode {
		t.Fatalf("with a cache that cannot be written: exit %d, stdout\n%s\nwant exit %d,\n%s", code, out, wantCode, want)
	}
	if n := strings.Count(errOut, "gymlint: the cache cannot be written ("); n != 1 {
		t.Fatalf("stderr says %d times that the cache cannot be written, want once:\n%s", n, errOut)
	}
	if !strings.Contains(errOut, "not a directory") {
		t.Errorf("stderr does not say why:\n%s", errOut)
	}
}

// `gymlint clean` removes the cache's own files only: a --cache-dir that
// names a directory of other files by mistake keeps them.
func TestCleanKeepsOtherFiles(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/echo/app.py": dirtyServer})
	dir := t.TempDir()
	mine := map[string]string{
		"notes.txt":           "the user's",
		"src/main.go":         "package main\n", // a directory named as a kind of the cache's could be
		"python/ab/draft.txt": "in a directory named as the cache's own",
	}
	testtree.Write(t, dir, mine)
	run(t, "--cache-dir", dir, "--quiet", root)
	if out, errOut, code := run(t, "clean", "--cache-dir", dir); code != ExitClean || !strings.Contains(out, "removed") {
		t.Fatalf("clean: exit %d, %q, %q", code, out, errOut)
	}
	for p, text := range mine {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))); err != nil || string(b) != text {
			t.Errorf("%s after clean: %v", p, err)
		}
	}
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != len(mine) {
		t.Errorf("after clean the directory holds %v, want only the user's %d files", left, len(mine))
	}
}
