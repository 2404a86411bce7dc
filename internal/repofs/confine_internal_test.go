package repofs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// call is a file system call: its operation and path.
type call struct{ op, path string }

// watchCalls makes every file system call of the package record its path
// until the test ends.
func watchCalls(t *testing.T) func() []call {
	var mu sync.Mutex
	var seen []call
	note := func(op, p string) {
		mu.Lock()
		seen = append(seen, call{op, p})
		mu.Unlock()
	}
	lstat, stat, readlink, readDir, open := osLstat, osStat, osReadlink, osReadDir, osOpen
	osLstat = func(p string) (fs.FileInfo, error) { note("lstat", p); return lstat(p) }
	osStat = func(p string) (fs.FileInfo, error) { note("stat", p); return stat(p) }
	osReadlink = func(p string) (string, error) { note("readlink", p); return readlink(p) }
	osReadDir = func(p string) ([]os.DirEntry, error) { note("readdir", p); return readDir(p) }
	osOpen = func(p string) (*os.File, error) { note("open", p); return open(p) }
	t.Cleanup(func() { osLstat, osStat, osReadlink, osReadDir, osOpen = lstat, stat, readlink, readDir, open })
	return func() []call {
		mu.Lock()
		defer mu.Unlock()
		return append([]call(nil), seen...)
	}
}

// Deciding about links that leave the root looks at no path outside it:
// no stat, no listing, no open.
func TestNothingOutsideIsLookedAt(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.py"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "mod.py"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for rel, target := range map[string]string{
		"exists.py":     filepath.Join(outside, "secret.py"),
		"missing.py":    filepath.Join(outside, "nothere.py"),
		"rel.py":        "../" + filepath.Base(outside) + "/secret.py",
		"real/chain.py": "../exists.py",
		"outdir":        filepath.Join(outside, "d"),
		"inside.py":     "real/mod.py",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	calls := watchCalls(t)
	f, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"exists.py", "missing.py", "rel.py", "real/chain.py", "outdir/secret.py", "outdir/x.py"} {
		if err := f.Stat(p); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Stat(%s) = %v, want ErrOutsideRoot", p, err)
		}
		f.Read(p)
	}
	f.ListDir("outdir")
	f.IsDir("outdir/d")
	f.Walk()
	for _, c := range []struct {
		path string
		want error
	}{
		{"outdir/secret.py", ErrOutsideRoot},
		{"outdir/x/y.py", ErrOutsideRoot},
		{"nothere.py", fs.ErrNotExist},
		{"real/nothere/x.py", fs.ErrNotExist},
	} {
		if _, err := f.Lstat(c.path); !errors.Is(err, c.want) {
			t.Errorf("Lstat(%s) = %v, want %v", c.path, err, c.want)
		}
	}
	for _, p := range []string{".", "real", "real/mod.py", "exists.py", "outdir"} {
		fi, err := f.Lstat(p)
		if err != nil {
			t.Errorf("Lstat(%s) = %v", p, err)
		} else if link := fi.Mode()&fs.ModeSymlink != 0; link != (p == "exists.py" || p == "outdir") {
			t.Errorf("Lstat(%s): mode %v", p, fi.Mode())
		}
	}
	if _, err := f.Read("inside.py"); err != nil {
		t.Errorf("Read(inside.py) = %v", err)
	}
	seen := calls()
	if len(seen) == 0 {
		t.Fatal("no file system call recorded")
	}
	// What each call reaches (the test may look): lstat and readlink
	// follow the links of the directories on the way, the others those of
	// the whole path.
	for _, c := range seen {
		p := c.path
		if (c.op == "lstat" || c.op == "readlink") && p != f.root {
			p = filepath.Dir(p)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Errorf("%s %s: %v", c.op, c.path, err)
			continue
		}
		if real != f.root && !within(f.root, real) {
			t.Errorf("%s %s reaches %s, outside the root", c.op, c.path, real)
		}
	}
}

// The file system's errors carry absolute paths; a PathError names the
// root-relative path only, and keeps the cause.
func TestErrorsWithoutAbsolutePath(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/locked.py", "b/c/app.py"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// As a user other than root meets it: open and opendir refused.
	open, readDir := osOpen, osReadDir
	t.Cleanup(func() { osOpen, osReadDir = open, readDir })
	osOpen = func(p string) (*os.File, error) {
		if strings.HasSuffix(p, "locked.py") {
			return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
		}
		return open(p)
	}
	osReadDir = func(p string) ([]os.DirEntry, error) {
		if strings.HasSuffix(p, filepath.Join("b", "c")) {
			return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
		}
		return readDir(p)
	}
	_, err = f.Read("a/locked.py")
	if got, want := errString(err), "a/locked.py: permission denied"; got != want || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Read = %q, want %q (and fs.ErrPermission)", got, want)
	}
	l := f.Walk()
	if len(l.Problems) != 1 {
		t.Fatalf("Problems = %v, want one", l.Problems)
	}
	if got, want := l.Problems[0].Error(), "b/c: permission denied"; got != want || !errors.Is(l.Problems[0], fs.ErrPermission) {
		t.Errorf("Problem = %q, want %q (and fs.ErrPermission)", got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
