package rayenabled_test

import (
	"testing"

	"github.com/gymlint/gymlint/gymtest"
)

// TestCases checks the cases under testdata/src (see gymtest),
// whose framework package is outside the repository: gymlint then assumes
// that its classes declare no ClassVar and that its modules export the ray
// module when asked for it. With -update (the flag fixture_test.go
// defines), gymtest rewrites the cases' .golden files.
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
