package gym

import (
	"github.com/gymlint/gymlint/diag"
)

// Check is one rule of an analyzer: its metadata and the function that
// finds its diagnostics in a view.
type Check struct {
	Rule *diag.Rule
	Run  func(v *View) []diag.Diagnostic
	// ConfigsOnly is set for a repository-wide rule whose findings the
	// configs and their composed runs alone decide, the same in every
	// view (Run must not read the view's entrypoints, modules or files):
	// it is run once for every view of the same configs
	// (View.SharedByConfigs), and a session that analyses a group again
	// after an edit of Python files only keeps its findings
	// (Cache.SetSharedByConfigs) instead of composing every run again.
	ConfigsOnly bool
}
