package cli

import (
	"bytes"
	"github.com/gymlint/gymlint/internal/testtree"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/engine"
)

// A scan that outlasts progressAfter shows its progress, one line
// rewritten in place, and erases it at the end.
func TestProgressShowsAndErases(t *testing.T) {
	after, every := progressAfter, progressEvery
	progressAfter, progressEvery = 0, time.Millisecond
	defer func() { progressAfter, progressEvery = after, every }()
	root, _ := filepath.Abs(filepath.Join("..", "testdata", "gymrepo"))
	e, err := engine.New(engine.Options{Root: root, NoGo: true})
	if err != nil {
		t.Fatal(err)
	}
	var w testtree.SyncBuffer
	stop := startProgress(&w, e)
	if _, err := e.Scan(nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	stop()
	out := w.String()
	if !strings.Contains(out, "\r\033[Kgymlint: ") || !strings.Contains(out, " Python modules parsed") ||
		!strings.Contains(out, "entrypoints analysed") || !strings.HasSuffix(out, "\r\033[K") {
		t.Fatalf("progress output %q", out)
	}
	if strings.Contains(out, "\n") {
		t.Errorf("progress wrote a newline: %q", out)
	}
}

// A scan shorter than progressAfter shows nothing.
func TestProgressQuietForShortScans(t *testing.T) {
	e, err := engine.New(engine.Options{Root: t.TempDir(), NoGo: true})
	if err != nil {
		t.Fatal(err)
	}
	var w testtree.SyncBuffer
	stop := startProgress(&w, e)
	stop()
	if w.String() != "" {
		t.Fatalf("a short scan printed %q", w.String())
	}
}

// Progress goes to a terminal only: not to a file, nor to /dev/null.
func TestProgressOnlyOnATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(f) || isTerminal(null) || isTerminal(&bytes.Buffer{}) {
		t.Fatal("a file, /dev/null or a buffer was taken for a terminal")
	}
}
