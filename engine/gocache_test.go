package engine

import (
	"slices"
	"testing"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// TestScanGoCache scans the fixture repository with a native Go server
// without a cache, then twice with one (cold, warm): the findings are the
// same, and the cache was filled.
func TestScanGoCache(t *testing.T) {
	const root = "../testdata/frontendsrepo"
	want := keys(scan(t, Options{Root: root}).Diagnostics)
	if !slices.ContainsFunc(want, func(k string) bool { return len(k) > 7 && k[:7] == "native/" }) {
		t.Fatalf("no Go finding in %s: %q", root, want)
	}
	c, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"cold", "warm"} {
		if got := keys(scan(t, Options{Root: root, Cache: c}).Diagnostics); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", run, got, want)
		}
		if n, _ := c.Size(); n == 0 {
			t.Errorf("%s: the cache is empty", run)
		}
	}
}
