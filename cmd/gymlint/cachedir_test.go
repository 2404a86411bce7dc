package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the package's checks a cache directory of their own
// (GYMLINT_CACHE_DIR, inherited by the gymlint processes the tests start),
// so that the tests exercise the cache, as users' checks do, and never
// write to the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gymlint-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("GYMLINT_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
