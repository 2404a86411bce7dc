package sessions_test

import (
	"flag"
	"testing"

	"github.com/gymlint/gymlint/analyzers/sessions"
	"github.com/gymlint/gymlint/internal/gymtest"
)

// gymtest rewrites the goldens of testdata/src when the test runs with -update.
var _ = flag.Bool("update", false, "rewrite the .golden files of testdata/src from the suggested fixes")

// TestCases checks the cases under testdata/src (see internal/gymtest),
// each with the small framework package of testdata/framework inside the
// repository: it exports the names of the session contract that the rules
// look for (the errors, ResourcesSessionFences and ResourcesSessionLocks,
// lost_session_verification, SESSION_ID_KEY) and the servers' default
// seed_session and close_resources_session.
func TestCases(t *testing.T) {
	gymtest.Run(t, "testdata", []string{sessions.Analyzer}, gymtest.Framework("testdata/framework"))
}
