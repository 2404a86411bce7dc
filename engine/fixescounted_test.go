package engine

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/diskcache"
)

// FixesCounted reaches the view's options, and through them the cache's
// context key: a check that shows fixes never reads the findings of one
// that only counted them (gym.Options.FixesCounted).
func TestFixesCountedKeysTheCache(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/calc/app.py": "import os\n"})
	key := func(counted bool) string {
		t.Helper()
		e, err := New(Options{Root: root, NoGo: true, FixesCounted: counted})
		if err != nil {
			t.Fatal(err)
		}
		if e.GymOptions().FixesCounted != counted {
			t.Fatalf("GymOptions().FixesCounted = %v, want %v", e.GymOptions().FixesCounted, counted)
		}
		k, ok := e.contextKey()
		if !ok {
			t.Fatal("no context key")
		}
		return k
	}
	if key(true) == key(false) {
		t.Error("the context key is the same with and without FixesCounted")
	}
}

// A check that counts the fixes starts from the record of one that shows
// them when it has none of its own (the JSON output, the language server,
// then the text output: one analysis); the other way round, it does not.
func TestFixesCountedReadsAFullRecord(t *testing.T) {
	root := copyFixture(t, "refusalrepo")
	time.Sleep(1100 * time.Millisecond) // past the racy second of the copy
	scanWith := func(cache *diskcache.Cache, counted bool) *Result {
		t.Helper()
		return scan(t, Options{Root: root, NoGo: true, Cache: cache, FixesCounted: counted})
	}
	full, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := scanWith(full, false)
	if first.Cache.Analysed == 0 {
		t.Fatalf("the first scan analysed nothing: %+v", first.Cache)
	}
	counted := scanWith(full, true)
	if counted.Cache.Analysed != 0 {
		t.Errorf("a counting check after a full one analysed %d of %d groups, want none", counted.Cache.Analysed, counted.Cache.Groups)
	}
	if a, b := countsOf(first.Diagnostics), countsOf(counted.Diagnostics); !reflect.DeepEqual(a, b) {
		t.Errorf("the counting check found otherwise than the full one")
	}
	if again := scanWith(full, true); again.Cache.Analysed != 0 || again.Cache.Reason != "" {
		t.Errorf("the counting check's own record: %+v, want it used", again.Cache)
	}

	fresh, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	scanWith(fresh, true)
	if res := scanWith(fresh, false); res.Cache.Analysed != res.Cache.Groups || res.Cache.Groups == 0 {
		t.Errorf("a full check after a counting one: %+v, want every group analysed", res.Cache)
	}
}

// countsOf is what a counting check shows of diagnostics: everything but
// the fixes, which it only counts by whether a safe one is there.
func countsOf(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		fixes := d.Fixes
		d.Fixes = nil
		out = append(out, fmt.Sprintf("%+v %v %v", d, len(fixes) > 0, slices.ContainsFunc(fixes, diag.Fix.IsSafe)))
	}
	return out
}
