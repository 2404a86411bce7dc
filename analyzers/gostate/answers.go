package gostate

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Answer is a call that answers the request.
type Answer struct {
	Call *ast.CallExpr
	// Status is the expression of the status code: nil for a body written
	// without one (status 200) or a status the call implies
	// (http.NotFound); the call itself for a helper whose status is
	// unknown.
	Status ast.Expr
	Code   int  // the status code; 0 when not known
	Body   bool // a body written before any status
}

// AnswerOf classifies a call as an answer (see the package documentation).
func (r *Result) AnswerOf(call *ast.CallExpr) (Answer, bool) {
	info := r.pass.TypesInfo
	a := Answer{Call: call}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	// Methods of the ResponseWriter.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && isResponseWriter(info.TypeOf(sel.X)) {
		switch sel.Sel.Name {
		case "WriteHeader":
			if len(call.Args) == 1 {
				a.Status = call.Args[0]
				a.Code = r.intConst(call.Args[0])
				return a, true
			}
		case "Write":
			a.Body = true
			return a, true
		}
		return a, false
	}
	wArg := false
	for _, arg := range call.Args {
		if isResponseWriter(info.TypeOf(arg)) {
			wArg = true
		}
	}
	if !wArg {
		// json.NewEncoder(w).Encode(v)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Encode" {
			if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && len(inner.Args) == 1 && isResponseWriter(info.TypeOf(inner.Args[0])) {
				if f, _ := typeutil.Callee(info, inner).(*types.Func); f != nil && f.Pkg() != nil && f.Pkg().Path() == "encoding/json" {
					a.Body = true
					return a, true
				}
			}
		}
		return a, false
	}
	if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "net/http" {
		switch fn.Name() {
		case "Error":
			if len(call.Args) == 3 {
				a.Status = call.Args[2]
				a.Code = r.intConst(call.Args[2])
				return a, true
			}
		case "NotFound":
			a.Code = 404
			return a, true
		case "SetCookie", "MaxBytesReader", "NewResponseController":
			return a, false // they write no answer
		}
	}
	// A call with the ResponseWriter and a constant status: a helper
	// (writeJSON(w, http.StatusOK, v)), or http.Redirect.
	for _, arg := range call.Args {
		if code := r.intConst(arg); code >= 200 && code <= 599 {
			a.Status, a.Code = arg, code
			return a, true
		}
	}
	if fn != nil && fn.Pkg() != nil && isStdWriter(fn) {
		a.Body = true
		return a, true
	}
	if fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "html/template" || fn.Pkg().Path() == "text/template") && strings.HasPrefix(fn.Name(), "Execute") {
		a.Body = true
		return a, true
	}
	// A helper of the package, or another library: its status is unknown.
	a.Status = call
	return a, true
}

// Answers lists the answers in statements, in source order, not entering
// function literals.
func (r *Result) Answers(list []ast.Stmt) []Answer {
	var out []Answer
	for _, s := range list {
		InspectOwn(s, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if a, ok := r.AnswerOf(call); ok {
					out = append(out, a)
					return false
				}
			}
			return true
		})
	}
	return out
}

// isStdWriter reports whether fn writes its io.Writer argument's body.
func isStdWriter(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "fmt":
		return strings.HasPrefix(fn.Name(), "Fprint")
	case "io":
		return fn.Name() == "WriteString" || fn.Name() == "Copy" || fn.Name() == "CopyN"
	}
	return false
}

// intConst returns e's value when it is an integer constant from 0 to
// 2^20, else 0.
func (r *Result) intConst(e ast.Expr) int {
	tv, ok := r.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0
	}
	v, ok := constant.Int64Val(tv.Value)
	if !ok || v < 0 || v > 1<<20 {
		return 0
	}
	return int(v)
}

// isResponseWriter reports whether t is net/http.ResponseWriter.
func isResponseWriter(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "net/http" && obj.Name() == "ResponseWriter"
}

// InspectOwn walks n like ast.Inspect but does not enter function
// literals (other than n itself): their bodies run at another time. The
// analyzers that read gostate's results walk code with it too.
func InspectOwn(n ast.Node, f func(ast.Node) bool) {
	ast.Inspect(n, func(m ast.Node) bool {
		if m == nil {
			return true
		}
		if _, ok := m.(*ast.FuncLit); ok && m != n {
			return false
		}
		return f(m)
	})
}
