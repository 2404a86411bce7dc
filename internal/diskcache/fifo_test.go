//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package diskcache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe at an entry's path (a plain open would wait for a writer
// forever) is a miss, and is removed. The guard only keeps a failing test
// from hanging the suite; it measures nothing.
func TestFIFOAtEntryPathDoesNotBlock(t *testing.T) {
	c := open(t, 0)
	k := NewHasher("python").String("fifo").Key()
	p := c.path("python", k)
	os.MkdirAll(filepath.Dir(p), 0o700)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan bool)
	go func() {
		_, ok := c.Get("python", k)
		done <- ok
	}()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("a named pipe was read as an entry")
		}
	case <-time.After(time.Minute):
		// Unblock the Get (a writer opens the pipe), so that the test
		// ends and fails rather than hang.
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("Get blocked on a named pipe at the entry's path")
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Errorf("the named pipe was left in place (%v)", err)
	}
	// And a Put over it makes a whole entry.
	if err := c.Put("python", k, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("python", k); !ok {
		t.Fatal("no entry after Put")
	}
}

// A link at an entry's path is not followed, even to a genuine entry.
func TestLinkAtEntryPathIsNotFollowed(t *testing.T) {
	c := open(t, 0)
	k := NewHasher("python").String("link").Key()
	if err := c.Put("python", k, []byte("findings")); err != nil {
		t.Fatal(err)
	}
	p := c.path("python", k)
	elsewhere := filepath.Join(t.TempDir(), "entry")
	if err := os.Rename(p, elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, p); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("python", k); ok {
		t.Fatal("Get followed a link at the entry's path")
	}
	if _, err := os.Stat(elsewhere); err != nil {
		t.Errorf("the link's target was removed: %v", err)
	}
	// A kind directory that is a link is not written through.
	kindLink := filepath.Join(c.dir, "configs")
	target := t.TempDir()
	if err := os.Symlink(target, kindLink); err != nil {
		t.Fatal(err)
	}
	if err := c.Put("configs", NewHasher("configs").Key(), []byte("x")); err == nil {
		t.Error("Put wrote through a link")
	}
	if ents, _ := os.ReadDir(target); len(ents) > 0 {
		t.Errorf("Put left %d files in the link's target", len(ents))
	}
}
