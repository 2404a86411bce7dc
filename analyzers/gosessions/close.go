package gosessions

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/diag"
)

// CloseWithoutFence is rule GL351.
var CloseWithoutFence = &diag.Rule{
	Code: "GL351", Name: "go-close-without-fence", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go close handler deletes session state without recording a fence against a later seed of the same id.",
	Doc: `## What it does
Reports ` + "`delete(m, id)`" + ` of a session map (a shared map that the seed handler writes, see the package
documentation), or ` + "`m.Delete(id)`" + ` / ` + "`m.LoadAndDelete(id)`" + ` of a shared ` + "`sync.Map`" + ` that the seed stores
into, in a native Go server's ` + "`/close_session`" + ` handler, or in a function of the package it
calls, when the close records no fence for the session. The close is read together with the
functions of the package it calls, transitively, and the function literals in them.

A **fence** is any of:

- a write to another shared map keyed by the same id: ` + "`s.fences[id] = expiry`" + `, ` + "`s.closed[id] = struct{}{}`" + `
  (with the same variable or expression as the key when in the same function as the delete; with
  any key in another function the close calls, such as ` + "`s.markClosed(id)`" + `);
- a call of ` + "`Store`" + `, ` + "`LoadOrStore`" + `, ` + "`Swap`" + `, ` + "`Add`" + `, ` + "`Set`" + `, ` + "`Put`" + ` or ` + "`Insert`" + ` on another shared field
  or variable with the same id as first argument (` + "`s.closed.Store(id, now)`" + ` on a ` + "`sync.Map`" + `, a set type);
- a call of a function or method of another package (or of an interface) whose name contains
  ` + "`fence`" + ` (` + "`fences.Fence(id, ep)`" + `) or whose receiver's name does (` + "`s.fences.Record(id)`" + `), unless it
  returns a ` + "`bool`" + ` (a check such as ` + "`IsFenced(id)`" + `). A function of the package is judged by its body
  instead, whatever its name: ` + "`s.fenceLocked(id)`" + ` that only looks the fence up records nothing.

Deletes from maps the seed does not write (the fences themselves, caches) are not session state.
Whether the seed then refuses fenced ids is not checked by this rule.

## Why it matters
A seed can arrive after the close: a retry of a seed whose reply was lost, or a reply that raced the
close. Without a fence the server creates the session again, and nothing will ever close it.
NeMo Gym's contract keeps a seed that arrives after the close from creating the session again for
the close retry window.

## Example
` + "```go" + `
func (s *Server) closeSession(w http.ResponseWriter, r *http.Request) {
	...
	s.mu.Lock()
	delete(s.sessions, req.ResourcesSessionID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, CloseResponse{ResourcesSessionID: req.ResourcesSessionID})
}
` + "```" + `

## How to fix
Record the closed id for the close retry window, and refuse a seed of a fenced id with 409:
` + "```go" + `
	s.mu.Lock()
	delete(s.sessions, id)
	s.fences[id] = time.Now().Add(s.closeRetryWindow)
	s.mu.Unlock()
` + "```" + `
and in the seed, under the same lock:
` + "```go" + `
	if until, ok := s.fences[id]; ok && time.Now().Before(until) {
		http.Error(w, "session was closed", http.StatusConflict)
		return
	}
` + "```",
}

// fenceSetters are the method names that add an id to a set-like value.
var fenceSetters = map[string]bool{"Store": true, "LoadOrStore": true, "Swap": true, "Add": true, "Set": true, "Put": true, "Insert": true}

// sessionDelete is delete(m, key) of a session map.
type sessionDelete struct {
	call  *ast.CallExpr
	m     *types.Var
	mexpr ast.Expr // the map expression
	key   ast.Expr
	fn    ast.Node
}

// fenceRecord is a write that may fence a session.
type fenceRecord struct {
	m     *types.Var // the map or set written; nil for a call named fence
	key   ast.Expr   // nil for a call named fence
	fn    ast.Node
	named bool
}

func (c *checker) checkCloses() {
	for _, h := range c.handlersOf(gonative.RouteClose) {
		c.checkClose(h)
	}
}

func (c *checker) checkClose(h *handler) {
	info := c.pass.TypesInfo
	var dels []sessionDelete
	var fences []fenceRecord
	for _, r := range c.funcBodies(h) {
		ast.Inspect(r.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr:
				if c.lhs[n] {
					if m := c.sharedMap(n.X, r.lit); m != nil {
						fences = append(fences, fenceRecord{m: m, key: n.Index, fn: r.node})
					}
				}
			case *ast.CallExpr:
				if m, name := c.syncMapCall(n, r.lit); (name == "Delete" || name == "LoadAndDelete") && c.sessionMaps[m] && len(n.Args) == 1 {
					dels = append(dels, sessionDelete{call: n, m: m, mexpr: ast.Unparen(n.Fun).(*ast.SelectorExpr).X, key: n.Args[0], fn: r.node})
					return true
				}
				if c.builtinCall(n) == "delete" && len(n.Args) == 2 {
					if m := c.sharedMap(n.Args[0], r.lit); m != nil && c.sessionMaps[m] {
						dels = append(dels, sessionDelete{call: n, m: m, mexpr: n.Args[0], key: n.Args[1], fn: r.node})
					}
					return true
				}
				name := calleeName(n)
				if c.staticDecl(n) == nil && !c.returnsBool(n) &&
					(strings.Contains(strings.ToLower(name), "fence") || strings.Contains(strings.ToLower(receiverName(n)), "fence")) {
					fences = append(fences, fenceRecord{fn: r.node, named: true})
					return true
				}
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && fenceSetters[name] && len(n.Args) > 0 {
					if v := c.sharedVar(sel.X, r.lit); v != nil {
						fences = append(fences, fenceRecord{m: v, key: n.Args[0], fn: r.node})
					}
				}
			}
			return true
		})
	}
	for _, d := range dels {
		if fenced(d, fences, info) {
			continue
		}
		c.report(CloseWithoutFence, d.call.Pos(), d.call.End(),
			fmt.Sprintf("the close handler deletes the session state %s[%s] but records no fence for %s: a seed that arrives after the close (a retried seed, or one that raced the close) creates the session again; record the closed id (for example %s) and refuse a seed of a fenced id with 409",
				exprName(d.mexpr), exprName(d.key), exprName(d.key), suggestFence(d)), nil)
	}
}

func suggestFence(d sessionDelete) string {
	fences := "fences"
	if sel, ok := ast.Unparen(d.mexpr).(*ast.SelectorExpr); ok {
		fences = exprName(sel.X) + ".fences"
	}
	return fences + "[" + exprName(d.key) + "] = expiry"
}

// returnsBool reports whether a call has a bool result: a check
// (isFenced(id)), not a record.
func (c *checker) returnsBool(call *ast.CallExpr) bool {
	switch t := c.pass.TypesInfo.TypeOf(call).(type) {
	case *types.Tuple:
		for i := range t.Len() {
			if types.Identical(t.At(i).Type(), types.Typ[types.Bool]) {
				return true
			}
		}
	case nil:
	default:
		return types.Identical(t, types.Typ[types.Bool])
	}
	return false
}

// receiverName is the last name of a method call's receiver: fences in
// s.fences.Record(id), or "".
func receiverName(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

// fenced reports whether one of the records fences the session d deletes.
func fenced(d sessionDelete, fences []fenceRecord, info *types.Info) bool {
	for _, f := range fences {
		switch {
		case f.named:
			return true
		case f.m == d.m:
			continue
		case f.fn != d.fn:
			return true
		case sameExpr(info, f.key, d.key):
			return true
		}
	}
	return false
}

// sameExpr reports whether a and b are the same expression over the same
// variables.
func sameExpr(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if exprName(a) != exprName(b) {
		return false
	}
	same := true
	var ids []types.Object
	ast.Inspect(a, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			ids = append(ids, info.ObjectOf(id))
		}
		return true
	})
	i := 0
	ast.Inspect(b, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if i >= len(ids) || ids[i] != info.ObjectOf(id) {
				same = false
			}
			i++
		}
		return same
	})
	return same
}

// sharedVar returns the field or variable of shared state that e denotes,
// whatever its type (a sync.Map, a set type), or nil.
func (c *checker) sharedVar(e ast.Expr, lit *ast.FuncLit) *types.Var {
	info := c.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && c.sharedRoot(e, lit) {
			return v.Origin()
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal && c.sharedRoot(e.X, lit) {
			return sel.Obj().(*types.Var).Origin()
		}
	}
	return nil
}
