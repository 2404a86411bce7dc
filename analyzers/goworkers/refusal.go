package goworkers

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/diag"
)

// EmptyRefusal is rule GL151.
var EmptyRefusal = &diag.Rule{
	Code: "GL151", Name: "go-empty-worker-refusal", Analyzer: "workers", Severity: diag.Error,
	Summary: "A native Go server's MultipleWorkersUnsupportedReason() returns \"\" on every path, so it refuses nothing.",
	Doc:     ruleDoc("GL151"),
}

// returnsEmptyOnly reports whether every return of fn gives "" (and there is
// at least one).
func returnsEmptyOnly(pass *analysis.Pass, fn *ast.FuncDecl) bool {
	if fn.Body == nil {
		return false
	}
	var named *types.Var
	if res := fn.Type.Results; res != nil && len(res.List) == 1 && len(res.List[0].Names) == 1 {
		named, _ = pass.TypesInfo.Defs[res.List[0].Names[0]].(*types.Var)
	}
	returns, ok := 0, true
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
			switch len(n.Results) {
			case 0:
				ok = named != nil && !assigned(pass, fn.Body, named)
			case 1:
				tv := pass.TypesInfo.Types[n.Results[0]]
				ok = tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
			default:
				ok = false
			}
		}
		return true
	})
	return ok && returns > 0
}

// assigned reports whether v is assigned or has its address taken in body.
func assigned(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && pass.TypesInfo.Uses[id] == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		}
		return !found
	})
	return found
}

func reportEmpty(pass *analysis.Pass, helps *gohelp.Helps, s *gonative.Server, ref refusal) {
	owner := "the package"
	if s.Type != nil {
		owner = s.Type.Obj().Name()
	}
	d := diagnostic(EmptyRefusal, ref.decl.Name, fmt.Sprintf(
		"%s of %s returns \"\" on every path, so it refuses nothing", Method, owner))
	helps.Report(pass, d, fmt.Sprintf("return the reason %s cannot run with several workers, or delete the method if it can", serverName(s)))
}
