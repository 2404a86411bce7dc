package configs_test

import (
	"testing"

	"github.com/gymlint/gymlint/gymtest"
)

// TestCases checks the cases under testdata/src (see gymtest),
// whose framework package is outside the repository: GL403 then takes port
// and num_workers as the framework's numeric fields.
func TestCases(t *testing.T) {
	gymtest.Run(t, "testdata", []string{"configs"})
}

// TestCasesFrameworkInRepo checks the cases under testdata/inrepo/src, with
// testdata/inrepo/framework as the framework inside the repository: GL403
// reads the numeric fields from the server's config class and the
// framework's classes it derives from.
func TestCasesFrameworkInRepo(t *testing.T) {
	gymtest.Run(t, "testdata/inrepo", []string{"configs"}, gymtest.Framework("testdata/inrepo/framework"))
}
