package goanalysis

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
)

// TestRegistryRequires checks that the registered analyzers are valid for
// the checker and unitchecker (as go vet -vettool runs them), and that they
// bring the shared analyses along: gostate (and gonative) run wherever the
// Go rules do without being registered.
func TestRegistryRequires(t *testing.T) {
	if err := analysis.Validate(Analyzers); err != nil {
		t.Fatal(err)
	}
	required := map[*analysis.Analyzer]bool{}
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		for _, r := range a.Requires {
			if !required[r] {
				required[r] = true
				walk(r)
			}
		}
	}
	for _, a := range Analyzers {
		walk(a)
		if a == gostate.Analyzer || a == gonative.Analyzer {
			t.Errorf("%s is registered: it reports nothing, the rules that need it require it", a.Name)
		}
	}
	for _, a := range []*analysis.Analyzer{gonative.Analyzer, gostate.Analyzer} {
		if !required[a] {
			t.Errorf("no registered analyzer requires %s", a.Name)
		}
	}
}
