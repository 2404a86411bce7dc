package workers_test

import (
	"flag"
	"testing"

	"github.com/gymlint/gymlint/gymtest"
)

// gymtest rewrites the goldens of testdata/src when the test runs with -update.
var _ = flag.Bool("update", false, "rewrite the .golden files of testdata/src from the suggested fixes")

// TestCases checks the cases under testdata/src: small repositories whose
// expected findings are # want and # related comments (see
// gymtest). The framework is outside these repositories, as it is
// in most Gym servers' checkouts: nemo_gym's classes are framework bases by
// name, and its default multiple_workers_unsupported_reason() (None) ends
// every super() chain.
func TestCases(t *testing.T) {
	gymtest.Run(t, "testdata", []string{"workers"})
}
