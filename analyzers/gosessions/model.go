package gosessions

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"golang.org/x/tools/go/types/typeutil"
)

// inspectNoLits walks n like ast.Inspect but does not enter function
// literals (other than n itself): their bodies run at another time.
func inspectNoLits(n ast.Node, f func(ast.Node) bool) {
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
	if fn := c.staticFunc(call); fn != nil {
		if d := c.decls[fn]; d != nil && d.Body != nil {
			return d
		}
	}
	return nil
}

// calleeName is the name a call calls: f in f(), pkg.f() and x.f().
func calleeName(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr: // f[T]()
		if id, ok := f.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
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

func isMap(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// nilable reports whether a value of type t can be nil.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Interface, *types.Chan, *types.Signature:
		return true
	}
	return false
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// within reports whether pos lies in n.
func within(pos token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}

// sharedRoot reports whether x denotes state that outlives a request (see
// the package documentation); lit is the function-literal handler the
// expression is in, or nil.
func (c *checker) sharedRoot(x ast.Expr, lit *ast.FuncLit) bool {
	info := c.pass.TypesInfo
	switch x := ast.Unparen(x).(type) {
	case *ast.StarExpr:
		return c.sharedRoot(x.X, lit)
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		if v.Kind() == types.PackageVar {
			return true
		}
		if lit != nil && v.Pkg() == c.pass.Pkg && v.Kind() != types.FieldVar && !within(v.Pos(), lit) {
			return true // captured by the handler literal
		}
		// A receiver or parameter of the server type (or of a type it
		// holds). Locals are not followed: a local of that type may be a
		// fresh value of the request.
		if k := v.Kind(); k == types.RecvVar || k == types.ParamVar {
			if n, ok := deref(v.Type()).(*types.Named); ok && c.shared[n.Origin()] {
				return true
			}
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			return c.sharedRoot(x.X, lit)
		}
		// A package-level variable of another package.
		if v, ok := info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return true
		}
	}
	return false
}

// sharedMap returns the variable (a field or a package-level or captured
// variable) of the shared map e denotes, or nil.
func (c *checker) sharedMap(e ast.Expr, lit *ast.FuncLit) *types.Var {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	if !isMap(info.TypeOf(e)) {
		return nil
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && c.sharedRoot(e, lit) {
			return v.Origin()
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal {
			if c.sharedRoot(e.X, lit) {
				return sel.Obj().(*types.Var).Origin()
			}
			return nil
		}
		if v, ok := info.Uses[e.Sel].(*types.Var); ok && c.sharedRoot(e, lit) {
			return v.Origin()
		}
	}
	return nil
}

// sessionIndex returns the session map that e indexes (m[k]), or nil.
func (c *checker) sessionIndex(e ast.Expr, lit *ast.FuncLit) *types.Var {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return nil
	}
	if m := c.sharedMap(ix.X, lit); m != nil && c.sessionMaps[m] {
		return m
	}
	return nil
}

// exprName is e as source text, for messages.
func exprName(e ast.Expr) string { return types.ExprString(e) }

// funcBodies returns the function bodies a body reaches: itself and the
// bodies of the functions of the package it calls, transitively, each with
// the handler literal its shared captures are judged against.
func (c *checker) funcBodies(h *handler) []reached {
	out := []reached{{node: h.node, body: h.body, lit: h.lit}}
	seen := map[ast.Node]bool{h.node: true}
	for i := 0; i < len(out); i++ {
		r := out[i]
		ast.Inspect(r.body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if d := c.staticDecl(call); d != nil && !seen[d] {
				seen[d] = true
				out = append(out, reached{node: d, body: d.Body})
			}
			return true
		})
	}
	return out
}

// reached is a function body that a handler reaches.
type reached struct {
	node ast.Node
	body *ast.BlockStmt
	lit  *ast.FuncLit
}

// writtenMaps returns the shared maps that bodies write: m[k] = v,
// m[k] op= v, m[k]++.
func (c *checker) writtenMaps(bodies []reached) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, r := range bodies {
		ast.Inspect(r.body, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok && c.lhs[ix] {
				if m := c.sharedMap(ix.X, r.lit); m != nil {
					out[m] = true
				}
			}
			return true
		})
	}
	return out
}

// syncMapCall returns the shared sync.Map a call calls a method of, and
// the method's name.
func (c *checker) syncMapCall(e ast.Expr, lit *ast.FuncLit) (*types.Var, string) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	v := c.sharedVar(sel.X, lit)
	if v == nil {
		return nil, ""
	}
	if n, ok := deref(v.Type()).(*types.Named); !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" || n.Obj().Name() != "Map" {
		return nil, ""
	}
	return v, sel.Sel.Name
}

// storedSyncMaps returns the shared sync.Maps that bodies store into.
func (c *checker) storedSyncMaps(bodies []reached) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, r := range bodies {
		ast.Inspect(r.body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch v, name := c.syncMapCall(call, r.lit); name {
				case "Store", "LoadOrStore", "Swap":
					out[v] = true
				}
			}
			return true
		})
	}
	return out
}

// findSessionMaps returns the shared maps (and sync.Maps) that the seed
// handlers write, or, when they write none, that the tool handlers write.
func (c *checker) findSessionMaps() map[*types.Var]bool {
	for _, kind := range []gonative.RouteKind{gonative.RouteSeed, gonative.RouteTool} {
		out := map[*types.Var]bool{}
		for _, h := range c.handlersOf(kind) {
			bodies := c.funcBodies(h)
			for m := range c.writtenMaps(bodies) {
				out[m] = true
			}
			for m := range c.storedSyncMaps(bodies) {
				out[m] = true
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return map[*types.Var]bool{}
}

// lookupKind says how a function of the package reports a missing session.
type lookupKind int

const (
	lookupOK  lookupKind = iota + 1 // (T, bool): false when missing
	lookupNil                       // one nilable result: nil when missing
)

// lookupFuncs returns the functions of the package that look a session up:
// those returning (T, bool) whose body has v, ok := m[k] on a session map,
// and those returning one nilable value whose body returns m[k].
func (c *checker) lookupFuncs() map[*types.Func]lookupKind {
	out := map[*types.Func]lookupKind{}
	for fn, d := range c.decls {
		if d.Body == nil {
			continue
		}
		res := fn.Signature().Results()
		switch {
		case res.Len() == 2 && types.Identical(res.At(1).Type(), types.Typ[types.Bool]):
			found := false
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
					if c.sessionIndex(as.Rhs[0], nil) != nil {
						found = true
					}
				}
				return !found
			})
			if found {
				out[fn] = lookupOK
			}
		case res.Len() == 1 && nilable(res.At(0).Type()):
			found := false
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
					if c.sessionIndex(ret.Results[0], nil) != nil {
						found = true
					}
				}
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				return !found
			})
			if found {
				out[fn] = lookupNil
			}
		}
	}
	return out
}

// lookupCall returns how a call looks a session up, or 0.
func (c *checker) lookupCall(e ast.Expr) lookupKind {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return 0
	}
	if fn := c.staticFunc(call); fn != nil {
		return c.lookups[fn]
	}
	return 0
}

// lookupVars are the variables a handler assigns from session lookups.
type lookupVars struct {
	present map[types.Object]bool // ok in v, ok := m[k]: false when missing
	value   map[types.Object]bool // v in v := m[k] (nilable): nil when missing
}

// sessionLookups finds the lookups of session maps in a body (not in
// function literals).
func (c *checker) sessionLookups(body *ast.BlockStmt, lit *ast.FuncLit) lookupVars {
	info := c.pass.TypesInfo
	lv := lookupVars{present: map[types.Object]bool{}, value: map[types.Object]bool{}}
	obj := func(e ast.Expr) types.Object {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name != "_" {
			return info.ObjectOf(id)
		}
		return nil
	}
	inspectNoLits(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		rhs := as.Rhs[0]
		isIndex := c.sessionIndex(rhs, lit) != nil
		kind := c.lookupCall(rhs)
		if m, name := c.syncMapCall(rhs, lit); name == "Load" && c.sessionMaps[m] {
			isIndex = true // v, ok := s.sessions.Load(id)
		}
		switch len(as.Lhs) {
		case 2:
			if isIndex || kind == lookupOK {
				if o := obj(as.Lhs[1]); o != nil {
					lv.present[o] = true
				}
				if t := info.TypeOf(as.Lhs[0]); t != nil && nilable(t) {
					if o := obj(as.Lhs[0]); o != nil {
						lv.value[o] = true
					}
				}
			}
		case 1:
			if t := info.TypeOf(rhs); (isIndex && t != nil && nilable(t)) || kind == lookupNil {
				if o := obj(as.Lhs[0]); o != nil {
					lv.value[o] = true
				}
			}
		}
		return true
	})
	return lv
}

// atom classifies a condition that tests a lookup: +1 when it is true
// exactly when the session exists, -1 when exactly when it is missing, 0
// when it says nothing about it.
func (c *checker) atom(e ast.Expr, lv lookupVars, lit *ast.FuncLit) int {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok && lv.present[info.ObjectOf(id)] {
		return +1
	}
	be, ok := e.(*ast.BinaryExpr)
	if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
		return 0
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	if !isNil(info, y) {
		return 0
	}
	missing := false
	if id, ok := x.(*ast.Ident); ok && lv.value[info.ObjectOf(id)] {
		missing = true
	}
	if c.sessionIndex(x, lit) != nil || c.lookupCall(x) == lookupNil {
		missing = true
	}
	if !missing {
		return 0
	}
	if be.Op == token.EQL {
		return -1
	}
	return +1
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// missingImplies reports whether, for every missing session, cond
// evaluates to val.
func (c *checker) missingImplies(cond ast.Expr, val bool, lv lookupVars, lit *ast.FuncLit) bool {
	return c.missingCond(cond, val, true, lv, lit)
}

// onlyMissing reports whether cond evaluates to val only for a missing
// session.
func (c *checker) onlyMissing(cond ast.Expr, val bool, lv lookupVars, lit *ast.FuncLit) bool {
	return c.missingCond(cond, val, false, lv, lit)
}

// missingCond decides missingImplies (every) and onlyMissing (!every),
// which are duals: a conjunction is val when both sides are, so "every
// missing session makes it val" needs both sides to when val is true and
// either side to when val is false, and "only missing sessions make it
// val" the other way round; a disjunction the opposite.
func (c *checker) missingCond(cond ast.Expr, val, every bool, lv lookupVars, lit *ast.FuncLit) bool {
	cond = ast.Unparen(cond)
	switch e := cond.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return c.missingCond(e.X, !val, every, lv, lit)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, y := c.missingCond(e.X, val, every, lv, lit), c.missingCond(e.Y, val, every, lv, lit)
			if (e.Op == token.LAND) == (val == every) {
				return x && y
			}
			return x || y
		}
	}
	switch c.atom(cond, lv, lit) {
	case +1:
		return !val
	case -1:
		return val
	}
	return false
}

// missingTakes reports whether a branch taken when cond is val answers
// missing sessions: every missing session takes it, or only missing ones do.
func (c *checker) missingTakes(cond ast.Expr, val bool, lv lookupVars, lit *ast.FuncLit) bool {
	return c.missingImplies(cond, val, lv, lit) || c.onlyMissing(cond, val, lv, lit)
}

// missingBranches returns the statement lists of a handler that answer a
// missing session (see the package documentation).
func (c *checker) missingBranches(h *handler) [][]ast.Stmt {
	lv := c.sessionLookups(h.body, h.lit)
	var out [][]ast.Stmt
	// if ok { ...; return } answers the missing session with what follows.
	rest := func(list []ast.Stmt) {
		for i, s := range list {
			if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && terminates(is.Body) && c.missingImplies(is.Cond, false, lv, h.lit) {
				out = append(out, list[i+1:])
			}
		}
	}
	inspectNoLits(h.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if c.missingTakes(n.Cond, true, lv, h.lit) {
				out = append(out, n.Body.List)
			}
			if n.Else != nil && c.missingTakes(n.Cond, false, lv, h.lit) {
				switch e := n.Else.(type) {
				case *ast.BlockStmt:
					out = append(out, e.List)
				case *ast.IfStmt:
					out = append(out, []ast.Stmt{e})
				}
			}
		case *ast.SwitchStmt:
			if n.Tag == nil {
				for _, cc := range n.Body.List {
					cc := cc.(*ast.CaseClause)
					if len(cc.List) == 1 && c.missingTakes(cc.List[0], true, lv, h.lit) {
						out = append(out, cc.Body)
					}
				}
			}
		case *ast.BlockStmt:
			rest(n.List)
		case *ast.CaseClause:
			rest(n.Body)
		case *ast.CommClause:
			rest(n.Body)
		}
		return true
	})
	return out
}

// terminates reports whether a block ends in a return or a panic.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BranchStmt:
		return s.Tok == token.GOTO
	}
	return false
}

// answer is a call that answers the request.
type answer struct {
	call *ast.CallExpr
	// status is the expression of the status code, nil for a body written
	// without one (status 200) or a status the call implies (http.NotFound).
	status ast.Expr
	code   int // the status code; 0 when not a constant
	body   bool
}

// answerOf classifies a call as an answer: a status written through the
// ResponseWriter, or a body written by the standard library.
func (c *checker) answerOf(call *ast.CallExpr) (answer, bool) {
	info := c.pass.TypesInfo
	a := answer{call: call}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	// Methods of the ResponseWriter.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && isResponseWriter(info.TypeOf(sel.X)) {
		switch sel.Sel.Name {
		case "WriteHeader":
			if len(call.Args) == 1 {
				a.status = call.Args[0]
				a.code = c.intConst(call.Args[0])
				return a, true
			}
		case "Write":
			a.body = true
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
					a.body = true
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
				a.status = call.Args[2]
				a.code = c.intConst(call.Args[2])
				return a, true
			}
		case "NotFound":
			a.code = 404
			return a, true
		case "SetCookie", "MaxBytesReader", "NewResponseController":
			return a, false // they write no answer
		}
	}
	// A call with the ResponseWriter and a constant status: a helper
	// (writeJSON(w, http.StatusOK, v)), or http.Redirect.
	for _, arg := range call.Args {
		if code := c.intConst(arg); code >= 200 && code <= 599 {
			a.status, a.code = arg, code
			return a, true
		}
	}
	if fn != nil && fn.Pkg() != nil && isStdWriter(fn) {
		a.body = true
		return a, true
	}
	if fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "html/template" || fn.Pkg().Path() == "text/template") && strings.HasPrefix(fn.Name(), "Execute") {
		a.body = true
		return a, true
	}
	// A helper of the package, or another library: its status is unknown.
	a.status = call
	return a, true
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

// intConst returns e's value when it is an integer constant, else 0.
func (c *checker) intConst(e ast.Expr) int {
	tv, ok := c.pass.TypesInfo.Types[e]
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

// answers lists the answers in statements, in source order, not entering
// function literals.
func (c *checker) answers(list []ast.Stmt) []answer {
	var out []answer
	for _, s := range list {
		inspectNoLits(s, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if a, ok := c.answerOf(call); ok {
					out = append(out, a)
					return false
				}
			}
			return true
		})
	}
	return out
}

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
