package goworkers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/diag"
)

// UnroutedState is rule GL150.
var UnroutedState = &diag.Rule{
	Code: "GL150", Name: "go-unrouted-state", Analyzer: "workers", Severity: diag.Error,
	Summary: "A native Go server keeps session state in process memory keyed by a request-body field, and does not declare MultipleWorkersUnsupportedReason().",
	Doc: `## What it does
Reports a native Go resources server that keeps session state in process memory, finds it by a
field of the request body, and does not declare ` + "`MultipleWorkersUnsupportedReason() string`" + ` on its
server type.

A **native server** is what package gonative recognises: handlers registered with
` + "`Handle`" + `/` + "`HandleFunc`" + ` for ` + "`/seed_session`" + `, ` + "`/close_session`" + ` and ` + "`/verify`" + ` (on a ` + "`net/http`" + `
` + "`ServeMux`" + `, with or without Go 1.22 method patterns such as ` + "`\"POST /seed_session\"`" + `, or on any router
of that shape), or a type with methods ` + "`SeedSession`" + `, ` + "`CloseSession`" + ` and ` + "`Verify`" + `. Its **server
type** is that type, or the receiver of the registered handler methods.

Each route's handler is read, with the functions and methods of the package it calls (to a
depth of four, following which arguments carry the body, a key or the state):

- **Session state** is a map or ` + "`sync.Map`" + ` held beyond one request: a field of the server type (or
  of a value it holds, ` + "`s.store.envs`" + `), a package-level variable, or a variable that a handler
  literal captures from the function that registers it.
- The **request body** is a struct, or a map with string keys, that a call named like a decoder
  fills or returns (` + "`Decode`" + `, ` + "`Unmarshal`" + `, ` + "`Bind`" + `, ` + "`ReadJSON`" + `, ...:
  ` + "`json.NewDecoder(r.Body).Decode(&req)`" + `, ` + "`json.Unmarshal(b, &req)`" + `, ` + "`req, err := decodeStep(r)`" + `), or, for a
  handler without an ` + "`*http.Request`" + ` parameter (a typed router or method API), a parameter whose
  type is a struct of the package. Query parameters, headers and cookies are not the body.
- A key **from the body** is a field of the body (` + "`req.EnvID`" + `, nested fields too), an element of a
  body map (` + "`body[\"env_id\"].(string)`" + `), a local variable or parameter assigned one, or a conversion,
  method call, ` + "`strings`" + `/` + "`strconv`" + `/` + "`fmt`" + `/` + "`path`" + ` call, concatenation or composite literal of one. A key whose expression, field name or JSON tag names the ` + "`session`" + ` (` + "`req.ResourcesSessionID`" + `,
  ` + "`sessionID`" + `), or is ` + "`sid`" + `, is **from the session**.
- An **access** is ` + "`m[k]`" + ` (read or write), ` + "`delete(m, k)`" + `, ` + "`range m`" + `, or a ` + "`sync.Map`" + ` method call.

A map is reported when one route accesses it by a key from the body and another route accesses
it too (state that outlives one request and is shared between requests, not a per-route cache),
and no access anywhere uses a key from the session. The finding is at the first access by a
body key; the other route's access and the map's declaration are related positions. A server
whose routes gonative cannot see (only the three methods) counts each exported method of its type
as a route.

## Why it matters
NeMo Gym can run several replicas of a server behind one address. Session routing sends every
request of a session to the replica that seeded it, following the session cookie and
` + "`resources_session_id`" + `; it knows nothing of other body fields. A request that finds its state by,
say, ` + "`env_id`" + ` reaches a replica that never saw that id, and the lookup fails: a 404, an empty
observation, a lost reward.

## Example
` + "```go" + `
type MazeServer struct {
	mu   sync.Mutex
	envs map[string]*Maze
}

func (s *MazeServer) seed(w http.ResponseWriter, r *http.Request) {
	id := newID()
	s.mu.Lock()
	s.envs[id] = NewMaze()
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]string{"env_id": id})
}

func (s *MazeServer) step(w http.ResponseWriter, r *http.Request) {
	var req struct {
		EnvID string ` + "`json:\"env_id\"`" + `
		Move  string ` + "`json:\"move\"`" + `
	}
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	maze := s.envs[req.EnvID] // GL150: found by a body field
	s.mu.Unlock()
	...
}
` + "```" + `

## How to fix
Key the state by the session, which routing follows:
` + "```go" + `
	var req struct {
		ResourcesSessionID string ` + "`json:\"resources_session_id\"`" + `
		Move               string ` + "`json:\"move\"`" + `
	}
	...
	maze := s.envs[req.ResourcesSessionID]
` + "```" + `
If the client cannot send the session, refuse several workers and say why:
` + "```go" + `
func (s *MazeServer) MultipleWorkersUnsupportedReason() string {
	return "Mazes are kept in this process's memory by the env_id in the request body."
}
` + "```" + `
(A server with no server type, whose handlers are plain functions, declares
` + "`func MultipleWorkersUnsupportedReason() string`" + ` at package level.)`,
}

// maxDepth bounds how deep calls are followed from a handler.
const maxDepth = 4

// class is what a variable or expression holds.
type class int

const (
	cNone    class = iota
	cBody          // a decoded request body (struct)
	cBodyKey       // a value read from a body field
	cSession       // a value read from a field that names the session
	cRoot          // a long-lived value: the server, a value it holds
	cState         // a long-lived map or sync.Map
)

// value is the class of a variable or expression; for cState, the
// identity of the map (a field or variable) and its name.
type value struct {
	class class
	state types.Object
	name  string
}

// access is one use of a state map by a route.
type access struct {
	state   types.Object
	name    string
	route   *gonative.Route
	node    ast.Node
	key     ast.Expr // nil for range and key-less sync.Map calls
	body    bool     // the key comes from the body
	session bool     // the key comes from the session
}

// scanner reads the handlers of one server.
type scanner struct {
	pass     *analysis.Pass
	res      *gonative.Result
	srv      *gonative.Server
	route    *gonative.Route
	root     ast.Node // the function being read: the handler, or a callee
	seen     map[string]bool
	accesses []*access
}

func checkUnrouted(pass *analysis.Pass, res *gonative.Result, s *gonative.Server, ref refusal) {
	sc := &scanner{pass: pass, res: res, srv: s}
	for _, r := range routesOf(res, s) {
		sc.route = r
		sc.seen = map[string]bool{}
		params := map[*types.Var]value{}
		var fn ast.Node
		switch {
		case r.Handler != nil:
			fn = r.Handler
			sc.handlerParams(r.Handler.Recv, r.Handler.Type, params)
		case r.Lit != nil:
			fn = r.Lit
			sc.handlerParams(nil, r.Lit.Type, params)
		default:
			continue
		}
		sc.scan(fn, params, 0)
	}

	byState := map[types.Object][]*access{}
	var order []types.Object
	for _, a := range sc.accesses {
		if _, ok := byState[a.state]; !ok {
			order = append(order, a.state)
		}
		byState[a.state] = append(byState[a.state], a)
	}
	for _, st := range order {
		as := byState[st]
		sort.SliceStable(as, func(i, j int) bool { return as[i].node.Pos() < as[j].node.Pos() })
		if anySession(as) {
			continue
		}
		var first, other *access
		for _, a := range as {
			if !a.body {
				continue
			}
			// Prefer another route's access at another place: the same
			// handler may serve two routes.
			for _, b := range as {
				if b.route.Path != a.route.Path && (other == nil || other.node == a.node && b.node != a.node) {
					first, other = a, b
				}
			}
			if first != nil {
				break
			}
		}
		if first == nil {
			continue
		}
		reportUnrouted(pass, s, ref, first, other)
	}
}

func anySession(as []*access) bool {
	for _, a := range as {
		if a.session {
			return true
		}
	}
	return false
}

// routesOf lists the routes to read. A server known only by its methods
// also counts each other exported method of its type as a route.
func routesOf(res *gonative.Result, s *gonative.Server) []*gonative.Route {
	routes := s.SortedRoutes()
	if s.Type == nil || s.Seed().Reg != nil || s.Close().Reg != nil || s.Verify().Reg != nil {
		return routes
	}
	handled := map[*ast.FuncDecl]bool{}
	for _, r := range routes {
		handled[r.Handler] = true
	}
	ms := types.NewMethodSet(types.NewPointer(s.Type))
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !fn.Exported() || fn.Name() == Method {
			continue
		}
		d := res.FuncDecl(fn)
		if d == nil || handled[d] {
			continue
		}
		routes = append(routes, &gonative.Route{Path: "method " + fn.Name(), Handler: d, Kind: gonative.RouteTool})
	}
	return routes
}

// handlerParams classifies the receiver and parameters of a route handler.
func (sc *scanner) handlerParams(recv *ast.FieldList, ft *ast.FuncType, params map[*types.Var]value) {
	if recv != nil {
		for _, f := range recv.List {
			for _, id := range f.Names {
				if v, ok := sc.pass.TypesInfo.Defs[id].(*types.Var); ok {
					params[v] = value{class: cRoot}
				}
			}
		}
	}
	if ft.Params == nil {
		return
	}
	hasRequest := false
	for _, f := range ft.Params.List {
		if isHTTPRequest(sc.pass.TypesInfo.TypeOf(f.Type)) {
			hasRequest = true
		}
	}
	if hasRequest {
		return
	}
	for _, f := range ft.Params.List {
		t := sc.pass.TypesInfo.TypeOf(f.Type)
		if !sc.isBodyType(t) {
			continue
		}
		for _, id := range f.Names {
			if v, ok := sc.pass.TypesInfo.Defs[id].(*types.Var); ok {
				params[v] = value{class: cBody}
			}
		}
	}
}

func isHTTPRequest(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Request"
}

// isBodyType reports whether t is (a pointer to) a struct type of the
// package other than the server type.
func (sc *scanner) isBodyType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() != sc.pass.Pkg || (sc.srv.Type != nil && n.Origin() == sc.srv.Type) {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

// scan reads a function body with the given classes of its variables.
func (sc *scanner) scan(fn ast.Node, vars map[*types.Var]value, depth int) {
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		body = fn.Body
	case *ast.FuncLit:
		body = fn.Body
	}
	if body == nil {
		return
	}
	saved := sc.root
	sc.root = fn
	defer func() { sc.root = saved }()

	info := sc.pass.TypesInfo
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					v := sc.classOf(vars, n.Rhs[i])
					if call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok && v.class == cNone && isDecodeCall(call) && sc.isStructish(info.TypeOf(l)) {
						v = value{class: cBody}
					}
					sc.bind(vars, l, v)
				}
			} else if len(n.Rhs) == 1 {
				switch ast.Unparen(n.Rhs[0]).(type) {
				case *ast.TypeAssertExpr, *ast.IndexExpr: // v, ok := x.(T) / m[k]
					sc.bind(vars, n.Lhs[0], sc.classOf(vars, n.Rhs[0]))
				}
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && isDecodeCall(call) {
					for _, l := range n.Lhs {
						if sc.isStructish(info.TypeOf(l)) {
							sc.bind(vars, l, value{class: cBody})
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) && len(n.Values) == len(n.Names) {
					sc.bind(vars, id, sc.classOf(vars, n.Values[i]))
				}
			}
		case *ast.RangeStmt:
			if st := sc.classOf(vars, n.X); st.class == cState {
				sc.record(vars, st, n.X, nil)
			}
		case *ast.IndexExpr:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Map); ok {
					if st := sc.classOf(vars, n.X); st.class == cState {
						sc.record(vars, st, n, n.Index)
					}
				}
			}
		case *ast.CallExpr:
			sc.call(vars, n, depth)
		}
		return true
	})
}

// bind gives the variable on the left of an assignment the class of its
// right-hand side, when that class is worth tracking.
func (sc *scanner) bind(vars map[*types.Var]value, lhs ast.Expr, v value) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return
	}
	obj, ok := sc.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return
	}
	switch v.class {
	case cBody, cBodyKey, cSession, cState:
		vars[obj] = v
	case cRoot:
		if _, ok := vars[obj]; !ok {
			vars[obj] = v
		}
	}
}

// call handles a call: decoders, delete, sync.Map methods, and calls of
// functions of the package, which are read with the classes of their
// arguments.
func (sc *scanner) call(vars map[*types.Var]value, call *ast.CallExpr, depth int) {
	info := sc.pass.TypesInfo
	if isDecodeCall(call) {
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				a = u.X
			} else if _, ok := info.TypeOf(a).(*types.Pointer); !ok {
				continue
			}
			if sc.isStructish(info.TypeOf(a)) {
				sc.bind(vars, a, value{class: cBody})
			}
		}
		return
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "delete" && len(call.Args) == 2 {
			if st := sc.classOf(vars, call.Args[0]); st.class == cState {
				sc.record(vars, st, call, call.Args[1])
			}
			return
		}
	}
	var callee *types.Func
	var recvExpr ast.Expr
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		callee, _ = info.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		if s, ok := info.Selections[f]; ok && s.Kind() == types.MethodVal {
			callee, _ = s.Obj().(*types.Func)
			recvExpr = f.X
			if isSyncMap(info.TypeOf(f.X)) {
				if st := sc.classOf(vars, f.X); st.class == cState {
					var key ast.Expr
					if len(call.Args) > 0 && f.Sel.Name != "Range" && f.Sel.Name != "Clear" {
						key = call.Args[0]
					}
					sc.record(vars, st, call, key)
				}
				return
			}
		} else {
			callee, _ = info.Uses[f.Sel].(*types.Func)
		}
	case *ast.IndexExpr: // generic instantiation f[T](...)
		if id, ok := ast.Unparen(f.X).(*ast.Ident); ok {
			callee, _ = info.Uses[id].(*types.Func)
		}
	}
	if callee == nil || depth >= maxDepth {
		return
	}
	decl := sc.res.FuncDecl(callee)
	if decl == nil || decl.Body == nil {
		return
	}
	params := map[*types.Var]value{}
	var sigKey strings.Builder
	fmt.Fprintf(&sigKey, "%d|", decl.Pos())
	if recvExpr != nil && decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		if v, ok := info.Defs[decl.Recv.List[0].Names[0]].(*types.Var); ok {
			rv := sc.classOf(vars, recvExpr)
			if rv.class == cRoot || rv.class == cState {
				params[v] = rv
			}
			fmt.Fprintf(&sigKey, "r%d%p|", rv.class, rv.state)
		}
	}
	var names []*ast.Ident
	for _, f := range decl.Type.Params.List {
		if len(f.Names) == 0 {
			names = append(names, nil)
		}
		for _, id := range f.Names {
			names = append(names, id)
		}
	}
	for i, a := range call.Args {
		if i >= len(names) {
			break
		}
		av := sc.classOf(vars, a)
		fmt.Fprintf(&sigKey, "%d%p,", av.class, av.state)
		if av.class == cNone || names[i] == nil {
			continue
		}
		if v, ok := info.Defs[names[i]].(*types.Var); ok {
			params[v] = av
		}
	}
	key := sigKey.String()
	if sc.seen[key] {
		return
	}
	sc.seen[key] = true
	sc.scan(decl, params, depth+1)
}

// record notes an access to a state map.
func (sc *scanner) record(vars map[*types.Var]value, st value, n ast.Node, key ast.Expr) {
	a := &access{state: st.state, name: st.name, route: sc.route, node: n, key: key}
	if key != nil {
		kv := sc.classOf(vars, key)
		a.body = kv.class == cBodyKey
		a.session = kv.class == cSession || mentionsSession(key)
		if a.session {
			a.body = false
		}
	}
	sc.accesses = append(sc.accesses, a)
}

// classOf says what an expression holds.
func (sc *scanner) classOf(vars map[*types.Var]value, e ast.Expr) value {
	info := sc.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj, ok := info.Uses[e].(*types.Var)
		if !ok {
			return value{}
		}
		if v, ok := vars[obj]; ok {
			return v
		}
		if sc.isServerType(obj.Type()) {
			return value{class: cRoot}
		}
		if sc.longLived(obj) {
			if isMapLike(obj.Type()) {
				return value{class: cState, state: obj, name: obj.Name()}
			}
			return value{class: cRoot}
		}
	case *ast.SelectorExpr:
		sel, ok := info.Selections[e]
		if !ok {
			// A qualified identifier: a variable of another package is
			// not this server's state.
			return value{}
		}
		base := sc.classOf(vars, e.X)
		if base.class == cNone && sc.isServerType(info.TypeOf(e.X)) {
			base = value{class: cRoot}
		}
		field, _ := sel.Obj().(*types.Var)
		if sel.Kind() != types.FieldVal || field == nil {
			return value{} // a method value or expression: see the CallExpr case
		}
		switch base.class {
		case cBody:
			if fieldNamesSession(sel, field) {
				return value{class: cSession}
			}
			if _, isStruct := derefUnderlying(field.Type()).(*types.Struct); isStruct {
				return value{class: cBody}
			}
			return value{class: cBodyKey}
		case cBodyKey, cSession:
			return base
		case cRoot:
			if isMapLike(field.Type()) {
				return value{class: cState, state: field.Origin(), name: types.ExprString(e)}
			}
			return value{class: cRoot}
		}
	case *ast.IndexExpr:
		// body["env_id"] of a body decoded into a map
		if base := sc.classOf(vars, e.X); base.class == cBody {
			if mentionsSession(e.Index) {
				return value{class: cSession}
			}
			return value{class: cBodyKey}
		} else if base.class == cBodyKey || base.class == cSession {
			return base
		}
	case *ast.TypeAssertExpr:
		return keyOnly(sc.classOf(vars, e.X))
	case *ast.StarExpr:
		return sc.classOf(vars, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return sc.classOf(vars, e.X)
		}
	case *ast.BinaryExpr:
		return keyJoin(sc.classOf(vars, e.X), sc.classOf(vars, e.Y))
	case *ast.CompositeLit:
		var v value
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			v = keyJoin(v, sc.classOf(vars, el))
		}
		return v
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return keyOnly(sc.classOf(vars, e.Args[0])) // a conversion
		}
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
			if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal {
				// req.ID.String(), a method of a key
				return keyOnly(sc.classOf(vars, sel.X))
			}
			if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil {
				switch fn.Pkg().Path() {
				case "strings", "strconv", "fmt", "path", "path/filepath":
					var v value
					for _, a := range e.Args {
						v = keyJoin(v, sc.classOf(vars, a))
					}
					return v
				}
			}
		}
	}
	return value{}
}

// keyOnly keeps the class of a key, and drops any other.
func keyOnly(v value) value {
	if v.class == cBodyKey || v.class == cSession {
		return v
	}
	if v.class == cBody {
		return value{class: cBodyKey}
	}
	return value{}
}

// keyJoin combines the classes of the parts of a key: the session wins,
// then the body.
func keyJoin(a, b value) value {
	a, b = keyOnly(a), keyOnly(b)
	if a.class == cSession || b.class == cSession {
		return value{class: cSession}
	}
	if a.class == cBodyKey || b.class == cBodyKey {
		return value{class: cBodyKey}
	}
	return value{}
}

// longLived reports whether a variable outlives a request: a package-level
// variable, or one a handler literal captures from its enclosing function.
func (sc *scanner) longLived(v *types.Var) bool {
	if v.Pkg() != sc.pass.Pkg || v.IsField() {
		return false
	}
	if v.Parent() == sc.pass.Pkg.Scope() {
		return true
	}
	if lit, ok := sc.root.(*ast.FuncLit); ok && sc.route != nil && sc.route.Lit == lit {
		return v.Pos() < lit.Pos() || v.Pos() >= lit.End()
	}
	return false
}

func (sc *scanner) isServerType(t types.Type) bool {
	if sc.srv.Type == nil || t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Origin() == sc.srv.Type
}

// isStructish reports whether t is a struct, a map with string keys, or a
// pointer to one: what a request body is decoded into.
func (sc *scanner) isStructish(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return true
	case *types.Map:
		return isString(u.Key())
	}
	return false
}

func derefUnderlying(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return t.Underlying()
}

func isMapLike(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Map); ok {
		return true
	}
	return isSyncMap(t)
}

func isSyncMap(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Map"
}

// decodeNames are the parts of a callee's name that make it a decoder of
// the request body.
var decodeNames = []string{"decode", "unmarshal", "bind", "readjson", "parsejson", "readbody", "parsebody"}

func isDecodeCall(call *ast.CallExpr) bool {
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	case *ast.IndexExpr: // decode[T](r)
		switch g := ast.Unparen(f.X).(type) {
		case *ast.Ident:
			name = g.Name
		case *ast.SelectorExpr:
			name = g.Sel.Name
		}
	}
	name = strings.ToLower(name)
	for _, d := range decodeNames {
		if strings.Contains(name, d) {
			return true
		}
	}
	return false
}

// fieldNamesSession reports whether a body field names the session, by its
// name or its JSON tag.
func fieldNamesSession(sel *types.Selection, field *types.Var) bool {
	if namesSession(field.Name()) {
		return true
	}
	t := sel.Recv()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == field || st.Field(i) == field.Origin() {
			return namesSession(st.Tag(i))
		}
	}
	return false
}

func namesSession(s string) bool {
	return strings.Contains(strings.ToLower(s), "session")
}

// mentionsSession reports whether a key expression names the session
// anywhere, or is the name sid.
func mentionsSession(e ast.Expr) bool {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && strings.EqualFold(id.Name, "sid") {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || namesSession(n.Name)
		case *ast.BasicLit:
			found = found || (n.Kind == token.STRING && namesSession(n.Value))
		}
		return !found
	})
	return found
}

func reportUnrouted(pass *analysis.Pass, s *gonative.Server, ref refusal, first, other *access) {
	owner := "on " + serverName(s)
	if s.Type == nil {
		owner = "as a package-level function"
	}
	hint := ""
	if ref.wrong != nil {
		hint = fmt.Sprintf(" (the %s it has is %s, not func() string)", Method, types.TypeString(ref.wrong.Type(), types.RelativeTo(pass.Pkg)))
	}
	d := diagnostic(UnroutedState, first.node, fmt.Sprintf(
		"%s is session state in process memory, found here in %s by %s, a value from the request body, and used by %s too: session routing follows only the session (resources_session_id), so several replicas behind one address lose it; key it by the session, or declare %s() string %s that returns why several workers are unsupported%s",
		first.name, routeName(first.route), types.ExprString(first.key), routeName(other.route), Method, owner, hint))
	d.Related = append(d.Related, analysis.RelatedInformation{
		Pos: other.node.Pos(), End: other.node.End(),
		Message: fmt.Sprintf("%s used by %s", first.name, routeName(other.route)),
	})
	if first.state.Pkg() == pass.Pkg && first.state.Pos().IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{
			Pos: first.state.Pos(), End: first.state.Pos() + token.Pos(len(first.state.Name())),
			Message: fmt.Sprintf("%s is declared here", first.state.Name()),
		})
	}
	pass.Report(d)
}

func routeName(r *gonative.Route) string {
	if strings.HasPrefix(r.Path, "method ") {
		return strings.TrimPrefix(r.Path, "method ") + "()"
	}
	return r.Path
}
