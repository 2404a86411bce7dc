package engine

import (
	"path/filepath"
	"testing"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// A batch scan without a disk cache keeps nothing for a later scan, so its
// session records no dependencies; with a cache, which saves them, it
// does, and both find the same.
func TestBatchScanRecordsDependenciesOnlyForTheCache(t *testing.T) {
	root := filepath.Join("..", "testdata", "gymrepo")
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var found []int
	for _, c := range []*diskcache.Cache{nil, cache} {
		e, err := New(Options{Root: root, NoGo: true, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Scan(nil)
		if err != nil {
			t.Fatal(err)
		}
		s := e.current.Load()
		if s == nil {
			t.Fatal("no session")
		}
		if got, want := s.Cache().RecordsDependencies(), c != nil; got != want {
			t.Errorf("with a cache %v: the session records dependencies: %v, want %v", c != nil, got, want)
		}
		found = append(found, len(res.Diagnostics))
	}
	if found[0] == 0 || found[0] != found[1] {
		t.Errorf("diagnostics without and with the cache: %v", found)
	}
}
