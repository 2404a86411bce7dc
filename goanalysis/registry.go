package goanalysis

import (
	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gosessions"
	"github.com/gymlint/gymlint/analyzers/goworkers"
)

// Analyzers are the analyzers gymlint runs on Go packages: in `gymlint`
// (through Run) and under `go vet -vettool=$(which gymlint)` (through
// unitchecker, see cmd/gymlint). Register an analyzer by adding it here;
// every rule code it reports in Diagnostic.Category must also be in the
// rule catalogue (package lint) so that diagnostics get their rule name,
// analyzer and severity.
//
// The analyzers must not import this package (it would be an import cycle);
// this package imports them.
var Analyzers = []*analysis.Analyzer{goworkers.Analyzer, gosessions.Analyzer}
