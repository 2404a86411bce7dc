package rayenabled_test

import (
	"flag"
	"testing"

	"github.com/gymlint/gymlint/internal/gymtest"
)

// gymtest rewrites the goldens of testdata/src and testdata/inrepo/src when
// the test runs with -update. fixture_test.go defines the flag (for
// testdata/rayrepo's golden); init defines it when that file does not.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the .golden files of testdata/src from the suggested fixes")
	}
}

// TestCases checks the cases under testdata/src (see internal/gymtest),
// whose framework package is outside the repository: gymlint then assumes
// that its classes declare no ClassVar and that its modules export the ray
// module when asked for it.
func TestCases(t *testing.T) {
	gymtest.Run(t, "testdata", []string{"rayenabled"})
}

// TestCasesFrameworkInRepo checks the cases under testdata/inrepo/src, with
// testdata/inrepo/framework as the framework inside the repository: its
// BaseServer declares ray_enabled as a ClassVar, and it uses Ray itself
// (which never counts for a server).
func TestCasesFrameworkInRepo(t *testing.T) {
	gymtest.Run(t, "testdata/inrepo", []string{"rayenabled"}, gymtest.Framework("testdata/inrepo/framework"))
}
