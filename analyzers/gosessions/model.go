package gosessions

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// staticFunc returns the function or concrete method a call calls, or nil.
func (c *checker) staticFunc(call *ast.CallExpr) *types.Func {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// staticDecl returns the declaration of the function of the package a call
// calls, or nil.
func (c *checker) staticDecl(call *ast.CallExpr) *ast.FuncDecl {
	if d := c.native.FuncDecl(c.staticFunc(call)); d != nil && d.Body != nil {
		return d
	}
	return nil
}

// builtinCall returns the name of the builtin a call calls, or "".
func (c *checker) builtinCall(call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// within reports whether pos lies in n.
func within(pos token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}

// exprName is e as source text, for messages.
func exprName(e ast.Expr) string { return types.ExprString(e) }

// httpName returns how the file that contains pos names net/http ("http",
// an alias, or "" for a dot import), and false when it does not import it.
func (c *checker) httpName(pos token.Pos) (string, bool) {
	for _, f := range c.pass.Files {
		if !within(pos, f) {
			continue
		}
		for _, imp := range f.Imports {
			if imp.Path.Value != `"net/http"` {
				continue
			}
			if imp.Name == nil {
				return "http", true
			}
			switch imp.Name.Name {
			case "_":
				continue
			case ".":
				return "", true
			}
			return imp.Name.Name, true
		}
	}
	return "", false
}

// statusText is the replacement text for a status constant: http.StatusX
// when the file imports net/http, else the number.
func (c *checker) statusText(pos token.Pos, name string, code int) string {
	if q, ok := c.httpName(pos); ok {
		if q == "" {
			return name
		}
		return q + "." + name
	}
	return itoa(code)
}

func itoa(n int) string { return constant.MakeInt64(int64(n)).ExactString() }
