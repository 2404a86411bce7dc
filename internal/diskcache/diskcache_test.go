package diskcache

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// keyFile is a key file of the test's own (the environment's key, if
// any, is not used).
func keyFile(t *testing.T) string {
	t.Helper()
	t.Setenv(KeyEnv, "")
	return filepath.Join(t.TempDir(), "config", "gymlint", "cache-key")
}

func open(t *testing.T, max int64) *Cache {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "gymlint"), Options{MaxBytes: max, KeyFile: keyFile(t)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRoundTrip(t *testing.T) {
	c := open(t, 0)
	k := NewHasher("findings").String("a").Int(3).Key()
	if _, ok := c.Get("findings", k); ok {
		t.Fatal("hit in an empty cache")
	}
	if err := c.Put("findings", k, []byte("payload")); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get("findings", k)
	if !ok || string(got) != "payload" {
		t.Fatalf("Get = %q, %v; want payload, true", got, ok)
	}
	// Another kind with the same key is another entry.
	if _, ok := c.Get("gotypes", k); ok {
		t.Fatal("an entry of one kind was read as another kind's")
	}
	for _, name := range []string{"README", "CACHEDIR.TAG"} {
		if _, err := os.Stat(filepath.Join(c.Dir(), name)); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
}

// PutWith writes the same entry as Put, without the data in memory; a
// write that fails stores nothing and leaves no temporary file.
func TestPutWith(t *testing.T) {
	c := open(t, 0)
	data := bytes.Repeat([]byte("0123456789abcdef"), 100_000) // past the writer's buffer
	k1, k2 := NewHasher("python").String("put").Key(), NewHasher("python").String("putwith").Key()
	if err := c.Put("python", k1, data); err != nil {
		t.Fatal(err)
	}
	err := c.PutWith("python", k2, func(w io.Writer) error {
		for chunk := range slices.Chunk(data, 1000) {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get("python", k2)
	if !ok || !bytes.Equal(got, data) {
		t.Fatalf("Get after PutWith: %d bytes, %v; want the %d written", len(got), ok, len(data))
	}
	a, _ := os.ReadFile(c.path("python", k1))
	b, _ := os.ReadFile(c.path("python", k2))
	if hl := headerLen("python"); !bytes.Equal(a[hl:], b[hl:]) || len(a) != len(b) {
		t.Fatal("PutWith wrote otherwise than Put")
	}

	k3 := NewHasher("python").String("fails").Key()
	boom := errors.New("boom")
	err = c.PutWith("python", k3, func(w io.Writer) error {
		w.Write(data[:10])
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("PutWith = %v, want the writer's error", err)
	}
	if _, ok := c.Get("python", k3); ok {
		t.Fatal("a failed PutWith left an entry")
	}
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(c.path("python", k3)), ".tmp-*"))
	if len(tmps) != 0 {
		t.Fatalf("a failed PutWith left %v", tmps)
	}
}

func TestKeysSeparateValues(t *testing.T) {
	a := NewHasher("k").String("ab").String("c").Key()
	b := NewHasher("k").String("a").String("bc").Key()
	if a == b {
		t.Fatal(`("ab","c") and ("a","bc") made one key`)
	}
	if NewHasher("k").String("x").Key() != NewHasher("k").String("x").Key() {
		t.Fatal("one input made two keys")
	}
}

// An entry that was truncated, flipped, or written for another key (a file
// copied or renamed into place) is not trusted, and is removed.
func TestCorruptAndForeignEntriesAreIgnored(t *testing.T) {
	c := open(t, 0)
	k := NewHasher("findings").String("x").Key()
	other := NewHasher("findings").String("y").Key()
	data := bytes.Repeat([]byte("finding "), 100)
	cases := map[string]func(raw []byte) []byte{
		"truncated": func(raw []byte) []byte { return raw[:len(raw)-10] },
		"flipped":   func(raw []byte) []byte { raw[len(raw)-1] ^= 1; return raw },
		"foreign":   func([]byte) []byte { return append(c.header("findings", other, data), data...) },
		"extended":  func(raw []byte) []byte { return append(raw, 'x') },
		"not ours":  func([]byte) []byte { return []byte("hello") },
		"empty":     func([]byte) []byte { return nil },
	}
	for name, mangle := range cases {
		t.Run(name, func(t *testing.T) {
			if err := c.Put("findings", k, data); err != nil {
				t.Fatal(err)
			}
			p := c.path("findings", k)
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, mangle(raw), 0o600); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.Get("findings", k); ok {
				t.Fatalf("a %s entry was trusted: %q", name, got)
			}
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("the %s entry was left in place (%v)", name, err)
			}
		})
	}
}

// Concurrent writers and readers of the same keys never see a partial
// entry.
func TestConcurrentRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gymlint")
	// Every writer makes the key, or reads the one another made.
	kf := keyFile(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Open(dir, Options{KeyFile: kf})
			if err != nil {
				errs <- err
				return
			}
			for i := range 50 {
				k := NewHasher("findings").Int(int64(i % 5)).Key()
				want := bytes.Repeat([]byte{byte('a' + i%5)}, 4096*(1+i%5))
				if got, ok := c.Get("findings", k); ok && !bytes.Equal(got, want) {
					errs <- fmt.Errorf("writer %d read a wrong entry for key %d", w, i%5)
					return
				}
				if err := c.Put("findings", k, want); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestTrimKeepsTheCacheBounded(t *testing.T) {
	c := open(t, 10_000)
	old := time.Now().Add(-48 * time.Hour)
	var keys []Key
	for i := range 20 {
		k := NewHasher("findings").Int(int64(i)).Key()
		keys = append(keys, k)
		if err := c.Put("findings", k, bytes.Repeat([]byte("x"), 1000)); err != nil {
			t.Fatal(err)
		}
		// Older entries were used longer ago.
		at := old.Add(time.Duration(i) * time.Minute)
		os.Chtimes(c.path("findings", k), at, at)
	}
	total := c.Trim()
	if total > 10_000 {
		t.Fatalf("after Trim the cache holds %d bytes, over its bound of 10000", total)
	}
	if _, ok := c.Get("findings", keys[0]); ok {
		t.Error("the least recently used entry survived the trim")
	}
	if _, ok := c.Get("findings", keys[19]); !ok {
		t.Error("the most recently used entry was trimmed")
	}
	if n, b := c.Size(); b != total || n == 0 {
		t.Errorf("Size = %d entries, %d bytes; Trim said %d bytes", n, b, total)
	}
}

func TestClean(t *testing.T) {
	c := open(t, 0)
	k := NewHasher("findings").Key()
	if err := c.Put("findings", k, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := c.Clean(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.Dir()); !os.IsNotExist(err) {
		t.Fatalf("the cache directory is still there after Clean (%v)", err)
	}
}

func TestDefaultDirFollowsXDG(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/somewhere/cache")
	if d, err := DefaultDir(); err != nil || d != "/somewhere/cache/gymlint" {
		t.Fatalf("DefaultDir = %q, %v", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "relative") // ignored, as the XDG spec says
	if d, _ := DefaultDir(); d == "relative/gymlint" {
		t.Fatalf("DefaultDir = %q for a relative XDG_CACHE_HOME", d)
	}
}
