package gostate

import (
	"go/ast"
	"go/types"
)

// calls are what the reading of handlers needs of the call graph: which
// functions of the package each function calls, and which may touch a
// container at all.
type calls struct {
	callees map[*ast.FuncDecl][]*ast.FuncDecl
	touch   map[*ast.FuncDecl]bool
}

// callGraph returns, for every function of the package, the functions of
// the package it calls as the reading follows them (a function, a method
// value called, a generic instantiation; in function literals too), and
// whether it may touch a container: it indexes, deletes from, clears,
// ranges over, takes the length of or assigns a map or a sync.Map, calls a
// sync.Map method, calls a method that has no body in the package on a
// field or a package-level variable, or calls a function that may.
// (Result.index computes it.)
func (r *Result) callGraph() *calls { return r.graph }

// mayHold reports whether x may be a long-lived value whose methods record
// or test ids: a field, or a package-level variable.
func mayHold(info *types.Info, x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			return sel.Kind() == types.FieldVal
		}
		v, ok := info.Uses[x.Sel].(*types.Var)
		return ok && v.Kind() == types.PackageVar
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && v.Kind() == types.PackageVar
	}
	return false
}

// touches reports whether fd may touch a container (see callGraph).
func (r *Result) touches(fd *ast.FuncDecl) bool { return r.callGraph().touch[fd] }

// reaches returns fn and the functions of the package it calls, to
// MaxDepth calls, in breadth-first order.
func (r *Result) reaches(fn ast.Node) []ast.Node {
	g := r.callGraph()
	out := []ast.Node{fn}
	seen := map[ast.Node]bool{fn: true}
	var level []*ast.FuncDecl
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		level = g.callees[fn]
	case *ast.FuncLit:
		level = r.litCallees(fn)
	}
	for depth := 1; depth <= MaxDepth && len(level) > 0; depth++ {
		var next []*ast.FuncDecl
		for _, d := range level {
			if seen[d] {
				continue
			}
			seen[d] = true
			out = append(out, d)
			next = append(next, g.callees[d]...)
		}
		level = next
	}
	return out
}

// litCallees returns the functions of the package a function literal
// calls.
func (r *Result) litCallees(lit *ast.FuncLit) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if d := r.native.FuncDecl(calleeFunc(r.pass.TypesInfo, call)); d != nil && d.Body != nil {
				out = append(out, d)
			}
		}
		return true
	})
	return out
}
