package cli

import (
	"os"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

// The package's checks use a cache directory of their own.
func TestMain(m *testing.M) { os.Exit(testtree.MainWithCacheDir(m)) }
