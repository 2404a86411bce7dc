package engine

import (
	"runtime/debug"
	"testing"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// TestPace: a small warm scan raises the collector's pace for the scan;
// it restores it at the end unless the process exits after the scan
// (Options.ExitAfterScan), and a later scan of the same engine that
// analyses everything restores the pace from before the first.
func TestPace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	root := copyFixture(t, "gymrepo")
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	scanWith := func(e *Engine) {
		t.Helper()
		if _, err := e.Scan(nil); err != nil {
			t.Fatal(err)
		}
	}
	pace := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	newEngine := func(exit bool) *Engine {
		t.Helper()
		e, err := New(Options{Root: root, NoGo: true, Cache: cache, ExitAfterScan: exit})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	scanWith(newEngine(false)) // fills the cache
	if p := pace(); p != 100 {
		t.Fatalf("after a cold scan the pace is %d, want 100", p)
	}
	appendTo(t, root, "resources_servers/maze_walk/app.py", "\n# edited\n")
	scanWith(newEngine(false))
	if p := pace(); p != 100 {
		t.Fatalf("after a small warm scan the pace is %d, want it restored to 100", p)
	}

	e := newEngine(true)
	appendTo(t, root, "resources_servers/maze_walk/app.py", "\n# edited again\n")
	scanWith(e)
	if p := pace(); p != 400 {
		t.Fatalf("after a small warm scan with ExitAfterScan the pace is %d, want it left at 400", p)
	}
	// The framework changed: every entrypoint is analysed again, at the
	// pace from before.
	appendTo(t, root, "nemo_gym/base_resources_server.py", "\n# edited\n")
	scanWith(e)
	if p := pace(); p != 100 {
		t.Fatalf("after a large scan the pace is %d, want 100", p)
	}
}
