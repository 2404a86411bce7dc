package gosessions

import (
	"fmt"
	"go/ast"

	"github.com/gymlint/gymlint/diag"
	"golang.org/x/tools/go/analysis"
)

// LostSessionStatus is rule GL353.
var LostSessionStatus = &diag.Rule{
	Code: "GL353", Name: "go-lost-session-status", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go tool handler answers a session it no longer holds with a status other than 404.",
	Doc:     ruleDoc("GL353"),
}

// checkLostTool reports the answers of a missing-session branch of a tool
// handler that are not 404.
func (c *checker) checkLostTool(branch []ast.Stmt) {
	sawStatus := false
	for _, a := range c.state.Answers(branch) {
		switch {
		case a.Body:
			if !sawStatus {
				c.report(LostSessionStatus, a.Call.Pos(), a.Call.End(),
					"the tool handler answers a session it no longer holds with 200 (a body and no status), so the agent goes on acting on a world that does not exist",
					"answer 404 (http.StatusNotFound)", nil)
			}
			sawStatus = true
		case a.Code == 0:
			sawStatus = true // a status this analyzer cannot read
		case a.Code != 404:
			sawStatus = true
			var fixes []analysis.SuggestedFix
			text := c.statusText(a.Call.Pos(), "StatusNotFound", 404)
			pos, end := a.Call.Pos(), a.Call.End()
			if a.Status != nil {
				pos, end = a.Status.Pos(), a.Status.End()
				fixes = []analysis.SuggestedFix{{
					Message:   fmt.Sprintf("Answer 404 (%s)", text),
					TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(text)}},
				}}
			}
			c.report(LostSessionStatus, pos, end,
				fmt.Sprintf("the tool handler answers a session it no longer holds with %d, not 404", a.Code),
				fmt.Sprintf("answer 404 (%s), which ends the episode and masks its verify", text),
				fixes)
		default:
			sawStatus = true
		}
	}
}
