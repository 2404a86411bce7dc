package engine

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/diskcache"
)

// The cache directory is not trusted (a CI cache restored from an
// untrusted job): what is planted there changes no finding and blocks no
// scan.

// openKeyed opens a cache in dir whose entries are authenticated with
// secret.
func openKeyed(t *testing.T, dir, secret string) *diskcache.Cache {
	t.Helper()
	c, err := diskcache.Open(dir, diskcache.Options{Secret: []byte(secret)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPlantedRecordIsIgnored: a record with its findings emptied, written
// in the cache's format by someone who does not have the user's key (so
// signed with another), is not trusted: the warm scan reports the
// findings.
func TestPlantedRecordIsIgnored(t *testing.T) {
	root := copyFixture(t, "gymrepo")
	dir := t.TempDir()
	cache := openKeyed(t, dir, "the user's key, kept outside the cache")
	want, _ := scanJSON(t, root, nil, 0)
	if want == "null" || want == "[]" {
		t.Fatal("the fixture has no findings to hide")
	}
	scanJSON(t, root, cache, 0)

	// The attacker reads the record (the cache directory is theirs to
	// read), empties its findings and writes it back under its key, with
	// a key of their own.
	rec := record(t, root, cache)
	rec.Final = []diag.Diagnostic{}
	rec.Repo = nil
	for i := range rec.Groups {
		rec.Groups[i].Diags = nil
	}
	e, err := New(Options{Root: root, NoGo: true, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := e.contextKey()
	key := pyKey(ctx)
	attacker := openKeyed(t, dir, "the attacker's own key")
	if err := attacker.PutWith(pyKind, key, func(w io.Writer) error { return writeRecord(w, rec) }); err != nil {
		t.Fatal(err)
	}
	// Checked with the attacker's key, the planted record is believed,
	// and hides the findings.
	if hidden, _ := scanJSON(t, root, attacker, 0); hidden == want {
		t.Fatal("setup: the planted record hides nothing")
	}

	got, res := scanJSON(t, root, cache, 0)
	if got != want {
		t.Fatalf("the planted record was trusted (%+v): the scan found\n%s\nwant\n%s", res.Cache, got, want)
	}
	if res.Cache.Reason != "no entry" {
		t.Errorf("the planted record: cache %+v, want it taken for no entry", res.Cache)
	}
	// The scan wrote a genuine record again, which the next scan uses.
	if got, res := scanJSON(t, root, cache, 0); got != want || res.Cache.Analysed != 0 {
		t.Fatalf("the scan after: %+v; same findings: %v", res.Cache, got == want)
	}
}

// TestFIFOInCacheDoesNotHang: named pipes at every entry's path (a plain
// open of one waits for a writer forever) are misses: the scan computes
// what it needs and finds what a scan finds. The guard only keeps a
// failing test from hanging the suite; it measures nothing.
func TestFIFOInCacheDoesNotHang(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes of the unix kind")
	}
	root := copyFixture(t, "gymrepo")
	dir := t.TempDir()
	cache := openKeyed(t, dir, "the user's key, kept outside the cache")
	want, _ := scanJSON(t, root, nil, 0)
	scanJSON(t, root, cache, 0)
	var entries []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && len(d.Name()) == 64 {
			entries = append(entries, p)
		}
		return nil
	})
	if len(entries) < 2 {
		t.Fatalf("%d entries in the cache, want the record, the configs and the contract", len(entries))
	}
	for _, p := range entries {
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	type result struct {
		got string
		res *Result
	}
	done := make(chan result, 1)
	go func() {
		got, res := scanJSON(t, root, cache, 0)
		done <- result{got, res}
	}()
	select {
	case r := <-done:
		if r.got != want {
			t.Fatalf("with named pipes in the cache (%+v) the scan found otherwise", r.res.Cache)
		}
	case <-time.After(2 * time.Minute):
		// Open each pipe for writing, so that the scan ends and the test
		// fails rather than hang.
		for _, p := range entries {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		t.Fatal("the scan blocked on a named pipe in the cache")
	}
}

// TestEditKeepingStatIsSeen: a file rewritten in place with as many
// bytes, its modification time then set back (as `touch -d` does), keeps
// its size, inode and modification time; its change time is what tells
// the warm scan that it changed.
func TestEditKeepingStatIsSeen(t *testing.T) {
	root := copyFixture(t, "gymrepo")
	// Past the racy second of the copy's change times: the record's
	// stamps are trusted, and only what they keep can tell the edit.
	time.Sleep(1100 * time.Millisecond)
	cache := openKeyed(t, t.TempDir(), "the user's key, kept outside the cache")
	before, _ := scanJSON(t, root, cache, 0)

	p := filepath.Join(root, "resources_servers", "maze_walk", "app.py")
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte("class MazeWalkServer("), []byte("class MazeWalkServeX("), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("setup: nothing to edit")
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0) // in place: same inode, no truncation
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(edited, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	now, _ := os.Stat(p)
	if now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) || !os.SameFile(now, st) {
		t.Fatal("setup: the edit changed the size, the modification time or the inode")
	}

	want, _ := scanJSON(t, root, nil, 0)
	if want == before || !strings.Contains(want, "MazeWalkServeX") {
		t.Fatal("setup: the edit changes no finding")
	}
	got, res := scanJSON(t, root, cache, 0)
	if got != want {
		t.Fatalf("the warm scan (%+v) missed the edit:\n%s\nwant\n%s", res.Cache, got, want)
	}
	if res.Cache.Analysed == 0 {
		t.Errorf("the warm scan analysed nothing again: %+v", res.Cache)
	}
}
