package main

import (
	"github.com/gymlint/gymlint/internal/testbin"
	"os"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

// The package's checks use a cache directory of their own.
func TestMain(m *testing.M) {
	code := testtree.MainWithCacheDir(m)
	testbin.Cleanup() // the binary the hostile tests built
	os.Exit(code)
}
