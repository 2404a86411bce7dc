package goanalysis

import (
	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gonative"
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
// The analyzers they require (gonative, gostate, and the standard passes)
// are not listed: the checker and unitchecker run every analyzer an
// analyzer requires, once per package, and report only the diagnostics of
// the listed ones.
//
// The analyzers must not import this package (it would be an import cycle);
// this package imports them.
var Analyzers = []*analysis.Analyzer{goworkers.Analyzer, gosessions.Analyzer, gonative.ProtocolAnalyzer}
