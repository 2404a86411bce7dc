package engine

import (
	"sync/atomic"
	"testing"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
)

// TestGatedRulesDoNotRun checks that a rule that cannot report never runs:
// a check whose rule needs a fact the fixture's framework lacks is not
// called under the default contract (auto), nor when --ignore names it,
// and is called under --contract latest.
func TestGatedRulesDoNotRun(t *testing.T) {
	gated := &diag.Rule{Code: "GL997", Name: "gated-rule", Analyzer: "test", Severity: diag.Error,
		Needs: []string{contract.CheckpointHooks}}
	var calls atomic.Int32
	check := gym.Check{Rule: gated, Run: func(v *gym.View) []diag.Diagnostic {
		calls.Add(1)
		return nil
	}}
	checks := append(lint.Checks(), check)
	for _, tc := range []struct {
		name     string
		mode     contract.Mode
		ignore   bool
		wantRuns bool
	}{
		{"auto", contract.Auto, false, false},
		{"latest", contract.Latest, false, true},
		{"latest, ignored", contract.Latest, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls.Store(0)
			o := Options{Root: gymrepo, NoGo: true, Checks: checks, Contract: tc.mode}
			if tc.ignore {
				conf, err := settings.Load(gymrepo)
				if err != nil {
					t.Fatal(err)
				}
				o.Settings = conf.With(settings.Selection{Ignore: []string{gated.Code}})
			}
			e, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			if fw, _ := e.Framework(); tc.mode == contract.Auto && fw.Has(contract.CheckpointHooks) {
				t.Fatalf("the fixture's framework has %s: the test needs one without", contract.CheckpointHooks)
			}
			if _, err := e.Scan(nil); err != nil {
				t.Fatal(err)
			}
			if got := calls.Load() > 0; got != tc.wantRuns {
				t.Errorf("the gated check ran %d times, want runs: %v", calls.Load(), tc.wantRuns)
			}
		})
	}
}
