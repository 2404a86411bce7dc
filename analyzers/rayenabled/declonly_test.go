package rayenabled_test

import (
	"slices"
	"testing"

	"github.com/gymlint/gymlint/analyzers/rayenabled"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
)

// GL204 is a matter of the declaration alone: run on its own (as under
// the contract of a framework that predates the Ray declaration), it finds
// what it finds beside the other rules, without parsing the modules of the
// servers' import closures for Ray use.
func TestUnannotatedAloneParsesNoClosure(t *testing.T) {
	var gl204 gym.Check
	for _, c := range rayenabled.Checks {
		if c.Rule.Code == rayenabled.UnannotatedRayEnabled.Code {
			gl204 = c
		}
	}
	only := func(checks []gym.Check) ([]diag.Diagnostic, int) {
		v, err := gym.Build(fixture, gym.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		var ds []diag.Diagnostic
		for _, d := range lint.AnalyseWith(v, checks) {
			if d.Code == rayenabled.UnannotatedRayEnabled.Code {
				ds = append(ds, d)
			}
		}
		diag.Sort(ds)
		return ds, v.ParsedModules()
	}
	alone, fewer := only([]gym.Check{gl204})
	all, more := only(rayenabled.Checks)
	if len(all) == 0 {
		t.Fatal("the fixture has no GL204 finding")
	}
	if !slices.EqualFunc(alone, all, func(a, b diag.Diagnostic) bool {
		return a.Path == b.Path && a.Start == b.Start && a.Message == b.Message && a.Help == b.Help
	}) {
		t.Fatalf("GL204 alone finds %d, beside the other rules %d", len(alone), len(all))
	}
	if fewer >= more {
		t.Errorf("GL204 alone parsed %d modules, all the rules %d: the closures were read for it", fewer, more)
	}
}
