package cli

import (
	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/lint"
)

// goAnalyzers are the analyzers the Go driver runs: the registered ones.
// Tests replace it.
var goAnalyzers = func() []*analysis.Analyzer { return goanalysis.Analyzers }

// goEnv is added to the environment of `go list`. Tests set it to keep the
// go command offline.
var goEnv []string

// ruleLookup finds a rule of the catalogue by code or name, the Go driver's
// own rules included (they are in the catalogue).
func ruleLookup(code string) *diag.Rule { return lint.Lookup(code) }
