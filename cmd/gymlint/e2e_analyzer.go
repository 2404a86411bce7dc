//go:build gymlint_e2etest

package main

// A test-only analyzer, compiled in only by the end-to-end test's build
// (go build -tags gymlint_e2etest), so that the go vet protocol is tested
// whatever analyzers are registered.

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/goanalysis"
)

var e2eAnalyzer = &analysis.Analyzer{
	Name: "e2ebadname",
	Doc:  "test only: reports functions named bad*, with a fix that renames them good*",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !strings.HasPrefix(fd.Name.Name, "bad") {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Pos: fd.Name.Pos(), End: fd.Name.End(), Category: "GL999",
					Message: "function " + fd.Name.Name + " is badly named",
					SuggestedFixes: []analysis.SuggestedFix{{
						Message:   "rename to good" + fd.Name.Name[3:],
						TextEdits: []analysis.TextEdit{{Pos: fd.Name.Pos(), End: fd.Name.Pos() + 3, NewText: []byte("good")}},
					}},
				})
			}
		}
		return nil, nil
	},
}

func init() {
	goanalysis.Analyzers = append(goanalysis.Analyzers, e2eAnalyzer)
}
