package core_test

import (
	"flag"
	"testing"

	"github.com/gymlint/gymlint/gymtest"
)

var _ = flag.Bool("update", false, "rewrite the .golden files of the gymtest cases from the current fixes")

// TestCases checks the cases under testdata/src (see gymtest): the core
// rules' findings, which gymtest checks in every case of every analyzer,
// and their fixes, here in cases of their own with no analyzer under test.
// With -update, gymtest rewrites the cases' .golden files.
func TestCases(t *testing.T) {
	gymtest.Run(t, "testdata", nil)
}
