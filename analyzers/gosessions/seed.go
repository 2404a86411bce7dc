package gosessions

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
	"golang.org/x/tools/go/analysis"
)

// SeedServerError is rule GL350.
var SeedServerError = &diag.Rule{
	Code: "GL350", Name: "go-seed-server-error", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go seed handler answers input it cannot decode or validate, or a conflicting session, with a 5xx.",
	Doc:     ruleDoc("GL350"),
}

func (c *checker) checkSeeds() {
	for _, h := range c.handlersOf(gonative.RouteSeed) {
		c.checkSeed(h)
	}
}

// seedKind is why a seed branch refuses.
type seedKind int

const (
	seedOK seedKind = iota
	seedBadInput
	seedConflict
)

func (c *checker) checkSeed(h *gostate.Handler) {
	sc := &seedCheck{c: c, h: h, lv: c.sessionLookups(h), fences: h.Server.Lookups(h.Body, func(st *gostate.State) bool {
		for _, f := range h.Server.Fences {
			if f.Seed == h && f.State == st {
				return true
			}
		}
		return false
	})}
	sc.derived = sc.requestDerived()
	var stack []ast.Node
	ast.Inspect(h.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		a, ok := c.state.AnswerOf(call)
		if !ok || a.Code < 500 || a.Code > 599 || a.Status == nil {
			return true
		}
		var name, what string
		var code int
		switch sc.why(stack) {
		case seedBadInput:
			name, code, what = "StatusUnprocessableEntity", 422, "a request it cannot decode or validate"
		case seedConflict:
			name, code, what = "StatusConflict", 409, "a conflicting session"
		default:
			return true
		}
		text := c.statusText(a.Status.Pos(), name, code)
		c.report(SeedServerError, a.Status.Pos(), a.Status.End(),
			fmt.Sprintf("the seed handler answers %s with %d, which the Environment Server retries in vain", what, a.Code),
			fmt.Sprintf("answer %d (%s)", code, text),
			[]analysis.SuggestedFix{{
				Message:   fmt.Sprintf("Answer %d (%s)", code, text),
				TextEdits: []analysis.TextEdit{{Pos: a.Status.Pos(), End: a.Status.End(), NewText: []byte(text)}},
			}})
		return true
	})
}

type seedCheck struct {
	c       *checker
	h       *gostate.Handler
	lv      *gostate.Lookups // of the session maps
	fences  *gostate.Lookups // of the containers of this seed's fences
	derived map[types.Object]bool
}

// why classifies the innermost conditional branch around the answer at the
// top of stack.
func (sc *seedCheck) why(stack []ast.Node) seedKind {
	for i := len(stack) - 1; i > 0; i-- {
		n, parent := stack[i], stack[i-1]
		switch p := parent.(type) {
		case *ast.IfStmt:
			switch n {
			case p.Body:
				return sc.classify(p.Cond, true)
			case p.Else:
				return sc.classify(p.Cond, false)
			}
		case *ast.CaseClause:
			if i < 3 {
				continue
			}
			sw, ok := stack[i-3].(*ast.SwitchStmt)
			if !ok || sw.Tag != nil || !isStmtOf(n, p.Body) {
				continue
			}
			for _, e := range p.List {
				if k := sc.classify(e, true); k != seedOK {
					return k
				}
			}
			return seedOK
		}
	}
	return seedOK
}

func isStmtOf(n ast.Node, list []ast.Stmt) bool {
	for _, s := range list {
		if s == n {
			return true
		}
	}
	return false
}

func (sc *seedCheck) classify(cond ast.Expr, val bool) seedKind {
	if sc.decodeFailure(cond, val) {
		return seedBadInput
	}
	if sc.conflict(cond, val) {
		return seedConflict
	}
	if val && sc.validation(cond) {
		return seedBadInput
	}
	return seedOK
}

// decodeFailure reports whether cond, evaluating to val, says that decoding
// or validating the request failed.
func (sc *seedCheck) decodeFailure(cond ast.Expr, val bool) bool {
	info := sc.c.pass.TypesInfo
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if gostate.NamedInputCheck(n) {
				found = true
			}
		case *ast.BinaryExpr:
			if (n.Op == token.NEQ) != val || (n.Op != token.NEQ && n.Op != token.EQL) {
				return true
			}
			x, y := ast.Unparen(n.X), ast.Unparen(n.Y)
			if isNil(info, x) {
				x, y = y, x
			}
			id, ok := x.(*ast.Ident)
			if !ok || !isNil(info, y) || !types.Identical(info.TypeOf(id), types.Universe.Lookup("error").Type()) {
				return true
			}
			if rhs := sc.lastAssign(info.ObjectOf(id), cond.Pos()); rhs != nil && sc.isInputCall(rhs) {
				found = true
			}
		}
		return true
	})
	return found
}

// isInputCall reports whether e is a call that decodes, parses, validates
// or reads the request.
func (sc *seedCheck) isInputCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if gostate.NamedInputCheck(call) {
		return true
	}
	if fn := sc.c.staticFunc(call); fn != nil && fn.Pkg() != nil {
		switch fn.Pkg().Path() {
		case "strconv", "net/url", "net/netip", "encoding/json", "encoding/xml", "encoding/base64", "encoding/hex":
			return true
		case "io":
			if fn.Name() == "ReadAll" && len(call.Args) == 1 {
				if sel, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok && sel.Sel.Name == "Body" {
					return sc.mentionsDerived(sel.X)
				}
			}
		}
	}
	return false
}

// lastAssign returns the expression last assigned to obj before pos in the
// handler (not in function literals), or nil.
func (sc *seedCheck) lastAssign(obj types.Object, pos token.Pos) ast.Expr {
	if obj == nil {
		return nil
	}
	info := sc.c.pass.TypesInfo
	var best ast.Expr
	var bestPos token.Pos
	note := func(at token.Pos, lhs []ast.Expr, rhs []ast.Expr) {
		if at >= pos || at < bestPos {
			return
		}
		for i, l := range lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || info.ObjectOf(id) != obj {
				continue
			}
			switch {
			case len(rhs) == len(lhs):
				best, bestPos = rhs[i], at
			case len(rhs) == 1:
				best, bestPos = rhs[0], at
			}
		}
	}
	gostate.InspectOwn(sc.h.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			note(n.Pos(), n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			note(n.Pos(), lhs, n.Values)
		}
		return true
	})
	return best
}

// conflict reports whether cond tests a session lookup and the branch is
// not one that only missing sessions take, or tests a fence (a container
// a close records the id in and this seed refuses on, see gostate's
// Fences) and the branch is not one that only unfenced ids take.
func (sc *seedCheck) conflict(cond ast.Expr, val bool) bool {
	if sc.lv.Mentions(cond) && !sc.lv.Only(cond, val, gostate.Absent) {
		return true
	}
	return sc.fences.Mentions(cond) && !sc.fences.Only(cond, val, gostate.Absent)
}

// validation reports whether cond is a condition over the request only.
func (sc *seedCheck) validation(cond ast.Expr) bool {
	ok, mentions := sc.overRequest(cond)
	return ok && mentions
}

func (sc *seedCheck) mentionsDerived(e ast.Expr) bool {
	_, m := sc.overRequest(e)
	return m
}

// overRequest reports whether e reads only the request (and constants and
// pure functions), and whether it reads the request at all.
func (sc *seedCheck) overRequest(e ast.Expr) (ok, mentions bool) {
	info := sc.c.pass.TypesInfo
	ok = true
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
			return false
		case *ast.SelectorExpr:
			if _, isSel := info.Selections[n]; isSel {
				ast.Inspect(n.X, walk) // a field or method of what X is
				return false
			}
			// A qualified identifier pkg.Name.
			switch obj := info.Uses[n.Sel].(type) {
			case *types.Const, *types.TypeName:
			case *types.Func:
				if !gostate.PureFunc(obj) {
					ok = false
				}
			default:
				ok = false
			}
			return false
		case *ast.Ident:
			switch obj := info.ObjectOf(n).(type) {
			case nil, *types.Nil, *types.Const, *types.Builtin, *types.TypeName:
			case *types.Var:
				if sc.derived[obj] {
					mentions = true
				} else {
					ok = false
				}
			case *types.Func:
				if !gostate.PureFunc(obj) {
					ok = false
				}
			default:
				ok = false
			}
		}
		return true
	}
	ast.Inspect(e, walk)
	return ok, mentions
}

// requestDerived returns the variables of the handler that hold the request:
// its *http.Request parameters, the values it decodes the body into, and
// variables assigned from them alone (directly, or through the package's
// decode, parse and validate functions).
func (sc *seedCheck) requestDerived() map[types.Object]bool {
	info := sc.c.pass.TypesInfo
	derived := map[types.Object]bool{}
	sc.derived = derived
	var params *ast.FieldList
	switch fn := sc.h.Node.(type) {
	case *ast.FuncDecl:
		params = fn.Type.Params
	case *ast.FuncLit:
		params = fn.Type.Params
	}
	if params != nil {
		for _, f := range params.List {
			if t, ok := deref(info.TypeOf(f.Type)).(*types.Named); ok && t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "net/http" && t.Obj().Name() == "Request" {
				for _, id := range f.Names {
					if o := info.ObjectOf(id); o != nil {
						derived[o] = true
					}
				}
			}
		}
	}
	gostate.InspectOwn(sc.h.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if gostate.NamedDecoder(n) {
				for _, a := range n.Args {
					if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
						if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
							if o := info.ObjectOf(id); o != nil {
								derived[o] = true
							}
						}
					}
				}
			}
		case *ast.AssignStmt:
			fromRequest := len(n.Rhs) > 0
			for _, r := range n.Rhs {
				if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && gostate.NamedInputCheck(call) {
					args := true
					for _, a := range call.Args {
						if ok, _ := sc.overRequest(a); !ok {
							args = false
						}
					}
					if args {
						continue
					}
				}
				if ok, m := sc.overRequest(r); !ok || !m {
					fromRequest = false
				}
			}
			if fromRequest {
				for _, l := range n.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name != "_" {
						if o := info.ObjectOf(id); o != nil {
							derived[o] = true
						}
					}
				}
			}
		}
		return true
	})
	return derived
}
