package gosessions

import (
	"fmt"
	"go/ast"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
)

// CloseWithoutFence is rule GL351.
var CloseWithoutFence = &diag.Rule{
	Code: "GL351", Name: "go-close-without-fence", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go close handler deletes session state without recording a fence against a later seed of the same id.",
	Doc:     ruleDoc("GL351"),
}

func (c *checker) checkCloses() {
	for _, h := range c.handlersOf(gonative.RouteClose) {
		srv := h.Server
		for _, a := range srv.Accesses {
			if !a.Reached(h) || !a.Deletes() || !srv.IsSessionMap(a.State) || srv.Fenced(h, a) {
				continue
			}
			c.report(CloseWithoutFence, a.Node.Pos(), a.Node.End(),
				fmt.Sprintf("the close handler deletes the session state %s[%s] but records no fence for %s, so a late seed creates the session again",
					exprName(a.X), exprName(a.Key), exprName(a.Key)),
				fmt.Sprintf("record the closed id (for example %s) and refuse a seed of a fenced id with 409", suggestFence(a)), nil)
		}
	}
}

func suggestFence(d *gostate.Access) string {
	fences := "fences"
	if sel, ok := ast.Unparen(d.X).(*ast.SelectorExpr); ok {
		fences = exprName(sel.X) + ".fences"
	}
	return fences + "[" + exprName(d.Key) + "] = expiry"
}
