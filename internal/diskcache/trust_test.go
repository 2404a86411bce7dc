package diskcache

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The cache directory is not trusted (a CI cache restored from another
// job, a shared directory): these tests plant there what an attacker
// could, and check that nothing of it is believed or blocks a run.

// An entry that an attacker wrote with the format as this package writes
// it, but signed with a key of their own (the user's key is outside the
// cache directory), is not trusted, and is removed.
func TestForgedEntryIsIgnored(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gymlint")
	kf := keyFile(t)
	c, err := Open(dir, Options{KeyFile: kf})
	if err != nil {
		t.Fatal(err)
	}
	k := NewHasher("python").String("record").Key()
	if err := c.Put("python", k, []byte("three findings")); err != nil {
		t.Fatal(err)
	}
	attacker, err := Open(dir, Options{Secret: []byte("the attacker's own key, not the user's")})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := attacker.Get("python", k); ok {
		t.Fatal("an entry verified under another key")
	}
	if err := attacker.Put("python", k, []byte("no findings")); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get("python", k); ok {
		t.Fatalf("a forged entry was trusted: %q", got)
	}
	if _, err := os.Lstat(c.path("python", k)); !os.IsNotExist(err) {
		t.Errorf("the forged entry was left in place (%v)", err)
	}
	// The user's own entries still verify, in a later run too.
	if err := c.Put("python", k, []byte("three findings")); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir, Options{KeyFile: kf})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := again.Get("python", k); !ok || string(got) != "three findings" {
		t.Fatalf("a later run's Get = %q, %v", got, ok)
	}
}

// An entry moved to another key's path does not verify there.
func TestEntryMovedToAnotherKeyIsIgnored(t *testing.T) {
	c := open(t, 0)
	a, b := NewHasher("python").String("a").Key(), NewHasher("python").String("b").Key()
	if err := c.Put("python", a, []byte("a's findings")); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(c.path("python", a))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(c.path("python", b)), 0o700)
	if err := os.WriteFile(c.path("python", b), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get("python", b); ok {
		t.Fatalf("an entry was trusted at another key's path: %q", got)
	}
}

// An entry larger than the bound is not read: its size is checked before
// anything is allocated for it. Nor is one written.
func TestOversizedEntryIsIgnored(t *testing.T) {
	c := open(t, 0)
	k := NewHasher("python").String("big").Key()
	p := c.path("python", k)
	os.MkdirAll(filepath.Dir(p), 0o700)
	// A sparse file of 512 MiB: no disk space, but reading it would
	// allocate 512 MiB.
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(512 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, ok := c.Get("python", k)
	runtime.ReadMemStats(&after)
	if ok {
		t.Fatal("an oversized entry was trusted")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Get of a 512 MiB entry allocated %d bytes: it was read", n)
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Errorf("the oversized entry was left in place (%v)", err)
	}

	small, err := Open(c.dir, Options{MaxEntryBytes: 1000, Secret: []byte("a key of sixteen bytes or more")})
	if err != nil {
		t.Fatal(err)
	}
	err = small.Put("python", k, bytes.Repeat([]byte("x"), 1001))
	if !errors.Is(err, errTooLarge) {
		t.Fatalf("Put past the bound = %v, want errTooLarge", err)
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Errorf("Put past the bound left an entry (%v)", err)
	}
	if err := small.WriteError(); err != nil {
		t.Errorf("data past the bound was taken for a disk error: %v", err)
	}
	if err := small.Put("python", k, bytes.Repeat([]byte("x"), 1000)); err != nil {
		t.Fatal(err)
	}
	if _, ok := small.Get("python", k); !ok {
		t.Fatal("an entry of the bound's size was not read")
	}
}

// The key is made on first use, outside the cache directory, readable by
// its owner only, and the same in every later run.
func TestKeyFile(t *testing.T) {
	kf := keyFile(t)
	dir := filepath.Join(t.TempDir(), "gymlint")
	if _, err := Open(dir, Options{KeyFile: kf}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(kf)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if m := st.Mode().Perm(); m != 0o600 {
			t.Errorf("key file mode %#o, want 0600", m)
		}
		if dst, _ := os.Stat(filepath.Dir(kf)); dst.Mode().Perm() != 0o700 {
			t.Errorf("key directory mode %#o, want 0700", dst.Mode().Perm())
		}
	}
	key1, _ := os.ReadFile(kf)
	if _, err := Open(dir, Options{KeyFile: kf}); err != nil {
		t.Fatal(err)
	}
	if key2, _ := os.ReadFile(kf); !bytes.Equal(key1, key2) {
		t.Fatal("a second Open made another key")
	}

	// A key the cache directory holds authenticates nothing.
	if _, err := Open(dir, Options{KeyFile: filepath.Join(dir, "python", "key")}); err == nil || !strings.Contains(err.Error(), "inside the cache directory") {
		t.Errorf("Open with the key in the cache directory = %v", err)
	}
	// Nor through a link to it.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err == nil {
		if _, err := Open(dir, Options{KeyFile: filepath.Join(link, "key")}); err == nil {
			t.Error("Open took a key file in the cache directory reached through a link")
		}
	}
	if runtime.GOOS != "windows" {
		os.Chmod(kf, 0o644)
		if _, err := Open(dir, Options{KeyFile: kf}); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("Open with a key others may read = %v", err)
		}
		os.Chmod(kf, 0o600)
	}
	os.WriteFile(kf, []byte("not hex\n"), 0o600)
	if _, err := Open(dir, Options{KeyFile: kf}); err == nil {
		t.Error("Open took a key file that holds no key")
	}

	// $GYMLINT_CACHE_KEY, for CI: entries written with it verify with it
	// only.
	t.Setenv(KeyEnv, "a secret of the repository's CI")
	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := NewHasher("python").Key()
	if err := c.Put("python", k, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if c2, _ := Open(dir, Options{}); c2 == nil {
		t.Fatal("second Open with the environment's key failed")
	} else if _, ok := c2.Get("python", k); !ok {
		t.Error("an entry written with $GYMLINT_CACHE_KEY did not verify with it")
	}
	t.Setenv(KeyEnv, "short")
	if _, err := Open(dir, Options{}); err == nil {
		t.Error("Open took a $GYMLINT_CACHE_KEY of 5 characters")
	}
}

// A cache directory that exists but cannot be written is Open's error
// (the caller says so and runs without it). Root ignores permission bits,
// so the directory is one no one may write: /proc/self.
func TestUnwritableDirectoryIsOpenError(t *testing.T) {
	if st, err := os.Stat("/proc/self"); err != nil || !st.IsDir() {
		t.Skip("no /proc/self")
	}
	_, err := Open("/proc/self", Options{KeyFile: keyFile(t)})
	if err == nil || !strings.Contains(err.Error(), "cannot write in /proc/self") {
		t.Fatalf("Open(/proc/self) = %v, want an error that says it cannot be written", err)
	}
}

// A write that fails during the run (here the kind's directory replaced
// by a file; a full disk fails the same way) is reported once, and no
// entry is written after it.
func TestWriteErrorIsReportedOnce(t *testing.T) {
	var reported []error
	c, err := Open(filepath.Join(t.TempDir(), "gymlint"), Options{KeyFile: keyFile(t), OnWriteError: func(err error) { reported = append(reported, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, "python"), []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := c.Put("python", NewHasher("python").Int(int64(i)).Key(), []byte("x")); err == nil {
			t.Fatal("Put into a file succeeded")
		}
	}
	if len(reported) != 1 {
		t.Fatalf("reported %d times (%v), want once", len(reported), reported)
	}
	if c.WriteError() == nil {
		t.Error("WriteError is nil after a failed write")
	}
	// Nothing more is written, not even to another kind.
	if err := c.Put("configs", NewHasher("configs").Key(), []byte("x")); err == nil {
		t.Error("an entry was written after a write error")
	}
	if _, err := os.Lstat(filepath.Join(c.dir, "configs")); !os.IsNotExist(err) {
		t.Errorf("a directory was made after a write error (%v)", err)
	}
	// An error of the writer's own is not the disk's.
	ok := open(t, 0)
	if err := ok.PutWith("python", NewHasher("python").Key(), func(io.Writer) error { return errors.New("encoder") }); err == nil {
		t.Fatal("PutWith ignored its writer's error")
	}
	if err := ok.WriteError(); err != nil {
		t.Errorf("a writer's own error was taken for the disk's: %v", err)
	}
}

// Trim and Clean touch only what is shaped as the cache's own: a cache
// directory named by mistake (--cache-dir $HOME) keeps its files.
func TestTrimAndCleanKeepOtherFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	old := time.Now().Add(-48 * time.Hour)
	mine := map[string]string{
		"notes.txt":         "a file of the user's",
		"src/ab/main.go":    strings.Repeat("package main\n", 1000), // shaped like kind/shard/file
		"src/ab/.tmp-draft": "an editor's temporary file",
		"docs/.tmp-x":       "another",
		"Videos/cd/" + strings.Repeat("0", 63) + "1": "a name of 64 hex digits, in a kind-shaped directory",
	}
	for p, text := range mine {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(full, old, old)
	}
	c, err := Open(dir, Options{MaxBytes: 1000, KeyFile: keyFile(t)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "CACHEDIR.TAG")); err == nil {
		t.Error("a directory of other files was tagged for backup tools to skip")
	}
	k := NewHasher("python").Key()
	if err := c.Put("python", k, bytes.Repeat([]byte("x"), 2000)); err != nil {
		t.Fatal(err)
	}
	c.Trim()
	if n, _ := c.Size(); n != 0 {
		t.Errorf("Size after a trim to 1000 bytes = %d entries", n)
	}
	if err := c.Clean(); err != nil {
		t.Fatal(err)
	}
	for p, text := range mine {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))); err != nil || string(b) != text {
			t.Errorf("%s: %v after Trim and Clean", p, err)
		}
	}
}
