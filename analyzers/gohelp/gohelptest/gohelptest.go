// Package gohelptest lets analysistest check the help of a Go analyzer's
// diagnostics (see package gohelp) with the `// want` comments that check
// their messages.
package gohelptest

import (
	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
)

// InMessage returns a copy of a whose diagnostics carry their help in the
// message, as "MESSAGE help: HELP" (the form gymlint's own expectation
// files use), so that a `// want` pattern can match both. A diagnostic
// without help keeps its message.
func InMessage(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		var found []analysis.Diagnostic
		p := *pass
		p.Report = func(d analysis.Diagnostic) { found = append(found, d) }
		result, err := a.Run(&p)
		for _, d := range found {
			if h := gohelp.Of(result, d); h != "" {
				d.Message += " help: " + h
			}
			pass.Report(d)
		}
		return result, err
	}
	return &w
}
