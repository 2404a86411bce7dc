// Package gonative recognises native Go resources servers: Go code that
// serves the NeMo Gym resources protocol over HTTP. Its Analyzer reports
// nothing; its result, a *Result, tells the Go rules (goworkers,
// gosessions) which servers a package defines, their routes and handlers,
// and which code serves only part of the protocol (Result.Partial), which
// ProtocolAnalyzer reports as GL014 go-partial-server (partial.go).
//
// Recognition depends on no library of gymlint's or of NeMo Gym's: a server
// written with only the standard library is recognised, and so is one on any
// router whose registration calls have the net/http shape.
//
// # Route registrations
//
// A route registration is a call
//
//	X.Handle(pattern, handler)
//	X.HandleFunc(pattern, handler)
//
// of any function or method named Handle or HandleFunc (net/http's
// ServeMux methods and package functions, or any router with the same
// shape), whose first argument is a constant string and whose second
// argument is a function value or a value whose type has a ServeHTTP
// method. The pattern is read as net/http reads it since Go 1.22,
// "[METHOD ][HOST]/PATH": "POST /seed_session", "/verify" and
// "example.com/step" are the paths /seed_session, /verify and /step. A
// pattern with no "/" is not a route.
//
// The handler is resolved, when it can be, to its declaration in the
// package: a function name, a method value (s.seed), a function literal, a
// variable assigned a function literal once, a conversion
// (http.HandlerFunc(s.seed)), a call that wraps one of these as an argument
// (logged("seed", s.seed)), else a call of a function or method of the
// package whose every return gives the same function literal
// (s.handleStep(): the literal; the method's receiver counts as a
// handler-method receiver below), or a value whose type declares ServeHTTP
// (its ServeHTTP method). An unresolved handler leaves Handler and Lit nil.
//
// Not recognised: patterns that are not constants (paths registered in a
// loop over a table), and registration methods with other names (chi's
// Post, gin's POST; such servers are recognised by their methods, below).
// Routes of a router mounted under a prefix (mux.Handle("/api/", sub)) are
// read as written, without the prefix.
//
// # Servers
//
// Registrations belong to the same server when they are made on the same
// router (the same variable, field or package-level DefaultServeMux) or
// their handlers are methods of the same named type. The server's Type is
// the named type whose methods handle the most of the three protocol routes
// (then of all routes), or nil when the handlers are plain functions or
// literals. A type that is only the ServeHTTP of handler values (a
// per-route handler type such as stepper{}) is the Type only if it handles
// a protocol route.
//
// A named type of the package whose method set has methods named
// SeedSession, CloseSession and Verify is a server too; those methods
// handle /seed_session, /close_session and /verify for any of the three
// paths that no registration of that type's server binds (such routes have
// no Reg and no Pattern).
//
// A group of registrations (with its type's methods) is a server only if it
// handles all three protocol paths /seed_session, /close_session and
// /verify; one that handles part of them may be a Partial (see there). When a path is registered twice in a server ("GET /verify" and
// "POST /verify"), the first registration in source order is its Route.
//
// Routes other than the three protocol paths are tool routes (RouteTool),
// except the infrastructure paths "/", /health, /healthz, /ready, /readyz,
// /metrics, /aggregate_metrics and /reverify_mode (RouteOther).
//
// Only registrations in the package's own files are seen; a server whose
// routes are registered in another package is recognised in that package,
// or through its SeedSession/CloseSession/Verify methods.
package gonative

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer recognises the native resources servers of a package. Its result
// is a *Result; it reports no diagnostics.
var Analyzer = &analysis.Analyzer{
	Name:       "gonative",
	Doc:        "recognise native Go NeMo Gym resources servers (routes /seed_session, /close_session, /verify, or methods SeedSession, CloseSession, Verify); a result for other analyzers, no diagnostics",
	URL:        "https://pkg.go.dev/github.com/gymlint/gymlint/analyzers/gonative",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

// The protocol paths.
const (
	SeedPath   = "/seed_session"
	ClosePath  = "/close_session"
	VerifyPath = "/verify"
)

// Method names that make a type a server without registrations.
const (
	SeedMethod   = "SeedSession"
	CloseMethod  = "CloseSession"
	VerifyMethod = "Verify"
)

// RouteKind says which part of the protocol a route serves.
type RouteKind int

// Route kinds.
const (
	RouteTool   RouteKind = iota // a tool route: /step, /move, ...
	RouteSeed                    // /seed_session
	RouteClose                   // /close_session
	RouteVerify                  // /verify
	RouteOther                   // an infrastructure route: /health, /metrics, ...
)

func (k RouteKind) String() string {
	switch k {
	case RouteSeed:
		return "seed"
	case RouteClose:
		return "close"
	case RouteVerify:
		return "verify"
	case RouteOther:
		return "other"
	}
	return "tool"
}

// Result is what the Analyzer finds in one package.
type Result struct {
	// Servers in source order of their first registration (or type).
	Servers []*Server
	// Partial are the groups of registrations, and the types, that serve
	// part of the protocol but are not servers, in source order (see
	// Partial).
	Partial []*Partial

	decls map[*types.Func]*ast.FuncDecl
}

// Server is one recognised resources server.
type Server struct {
	// Type is the server type when known: the type with methods
	// SeedSession/CloseSession/Verify, or the receiver of the registered
	// handler methods. Nil when the handlers are functions or literals.
	Type *types.Named
	// Routes by path without method or host: "/seed_session",
	// "/close_session", "/verify", tool routes ("/step", ...).
	Routes map[string]*Route
	// Pos is where the server is: its type's name when Type is set and
	// declared in the package, else its first registration.
	Pos token.Pos
}

// Route is one route of a server.
type Route struct {
	Path    string        // "/seed_session"
	Pattern string        // as written, e.g. "POST /seed_session"; "" for a method-only route
	Reg     *ast.CallExpr // the registration call; nil for a route only a method serves
	// Handler is the handler function or method declaration when it
	// resolves to one in the package; nil for a literal or an unresolved
	// handler.
	Handler *ast.FuncDecl
	// Lit is the handler when it is a function literal.
	Lit  *ast.FuncLit
	Kind RouteKind
}

// Body is the body of the route's handler, or nil when it is unknown.
func (r *Route) Body() *ast.BlockStmt {
	switch {
	case r.Handler != nil:
		return r.Handler.Body
	case r.Lit != nil:
		return r.Lit.Body
	}
	return nil
}

// Seed, Close and Verify return the protocol routes (never nil for a
// recognised server).
func (s *Server) Seed() *Route   { return s.Routes[SeedPath] }
func (s *Server) Close() *Route  { return s.Routes[ClosePath] }
func (s *Server) Verify() *Route { return s.Routes[VerifyPath] }

// SortedRoutes returns the routes in path order.
func (s *Server) SortedRoutes() []*Route {
	out := make([]*Route, 0, len(s.Routes))
	for _, r := range s.Routes {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// FuncDecl returns the declaration of a function or method of the package,
// or nil.
func (r *Result) FuncDecl(fn *types.Func) *ast.FuncDecl {
	if fn == nil {
		return nil
	}
	return r.decls[fn.Origin()]
}

// ServerOf returns the server whose Type is t, or nil.
func (r *Result) ServerOf(t *types.Named) *Server {
	if t == nil {
		return nil
	}
	t = t.Origin()
	for _, s := range r.Servers {
		if s.Type == t {
			return s
		}
	}
	return nil
}

// KindOf classifies a path.
func KindOf(path string) RouteKind {
	p := strings.TrimSuffix(path, "{$}")
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	switch p {
	case SeedPath:
		return RouteSeed
	case ClosePath:
		return RouteClose
	case VerifyPath:
		return RouteVerify
	case "/", "", "/health", "/healthz", "/ready", "/readyz", "/metrics", "/aggregate_metrics", "/reverify_mode":
		return RouteOther
	}
	return RouteTool
}

// PatternPath returns the path of a net/http pattern "[METHOD ][HOST]/PATH",
// and false when the pattern has no path.
func PatternPath(pattern string) (string, bool) {
	p := strings.TrimSpace(pattern)
	if i := strings.IndexAny(p, " \t"); i >= 0 {
		p = strings.TrimLeft(p[i:], " \t")
	}
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return "", false
	}
	return p[i:], true
}

// registration is one route registration before grouping.
type registration struct {
	call    *ast.CallExpr
	pattern string
	path    string
	mux     any          // identity of the router: types.Object, string or ast.Node
	recv    *types.Named // receiver type of a handler method in the package
	viaType bool         // the handler is recv's ServeHTTP, resolved from a value
	decl    *ast.FuncDecl
	lit     *ast.FuncLit
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	res := &Result{decls: map[*types.Func]*ast.FuncDecl{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					res.decls[fn] = fd
				}
			}
		}
	}
	lits := singleLitVars(pass, ins)
	r := &resolver{pass: pass, res: res, lits: lits}

	var regs []*registration
	for n := range ins.PreorderSeq((*ast.CallExpr)(nil)) {
		if reg := r.registration(n.(*ast.CallExpr)); reg != nil {
			regs = append(regs, reg)
		}
	}

	// Union registrations by router and by receiver type.
	parent := make([]int, len(regs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) { parent[find(a)] = find(b) }
	byMux := map[any]int{}
	byRecv := map[*types.Named]int{}
	for i, reg := range regs {
		if j, ok := byMux[reg.mux]; ok {
			union(i, j)
		} else {
			byMux[reg.mux] = i
		}
		if reg.recv != nil {
			if j, ok := byRecv[reg.recv]; ok {
				union(i, j)
			} else {
				byRecv[reg.recv] = i
			}
		}
	}
	groups := map[int][]*registration{}
	var roots []int
	for i, reg := range regs {
		root := find(i)
		if _, ok := groups[root]; !ok {
			roots = append(roots, root)
		}
		groups[root] = append(groups[root], reg)
	}

	used := map[*types.Named]bool{}
	for _, root := range roots {
		g := groups[root]
		s := &Server{Routes: map[string]*Route{}, Pos: g[0].call.Pos()}
		for _, reg := range g {
			if _, dup := s.Routes[reg.path]; dup {
				continue
			}
			s.Routes[reg.path] = &Route{
				Path: reg.path, Pattern: reg.pattern, Reg: reg.call,
				Handler: reg.decl, Lit: reg.lit, Kind: KindOf(reg.path),
			}
		}
		s.Type = chooseType(g)
		if s.Type != nil {
			used[s.Type] = true
			r.addMethodRoutes(s)
			if p := typePos(pass, s.Type); p.IsValid() {
				s.Pos = p
			}
		}
		if complete(s) {
			res.Servers = append(res.Servers, s)
		} else if p := partialRoutes(s); p != nil {
			res.Partial = append(res.Partial, p)
		}
	}

	// Types with the three methods and no registrations of their own.
	for _, name := range pass.Pkg.Scope().Names() {
		tn, ok := pass.Pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || used[named] {
			continue
		}
		if !hasMethods(named) {
			if p := partialMethods(named, tn.Pos()); p != nil {
				res.Partial = append(res.Partial, p)
			}
			continue
		}
		s := &Server{Type: named, Routes: map[string]*Route{}, Pos: tn.Pos()}
		r.addMethodRoutes(s)
		if complete(s) {
			res.Servers = append(res.Servers, s)
		}
	}
	sort.SliceStable(res.Servers, func(i, j int) bool { return res.Servers[i].Pos < res.Servers[j].Pos })
	sort.SliceStable(res.Partial, func(i, j int) bool { return res.Partial[i].Pos < res.Partial[j].Pos })
	return res, nil
}

// Partial is Go code that serves part of the protocol and is therefore
// not a server: the Go rules do not check it. It is
//
//   - a group of registrations (grouped as for servers) that serves
//     /seed_session or /close_session, or two of the three protocol paths,
//     but not all three (a lone /verify, a common path outside NeMo Gym,
//     is not one), or
//   - a named type of the package, with no registrations of a server,
//     whose method set has SeedSession but not both CloseSession and
//     Verify (CloseSession and Verify without SeedSession are common
//     method names outside NeMo Gym).
type Partial struct {
	// Type is the group's server type (as for Server.Type), or the type
	// with the methods; nil for a group of plain function handlers.
	Type *types.Named
	// Methods says the type's methods, not routes, serve the paths.
	Methods bool
	// Served and Missing are the protocol paths (Methods: method names)
	// served and not, in the order /seed_session, /close_session, /verify.
	Served, Missing []string
	// Pos and End span the registration of the first protocol path in
	// source order, or (Methods) the type's name.
	Pos, End token.Pos
}

func partialRoutes(s *Server) *Partial {
	p := &Partial{Type: s.Type}
	for _, path := range []string{SeedPath, ClosePath, VerifyPath} {
		r := s.Routes[path]
		if r == nil {
			p.Missing = append(p.Missing, path)
			continue
		}
		p.Served = append(p.Served, path)
		if r.Reg != nil && (!p.Pos.IsValid() || r.Reg.Pos() < p.Pos) {
			p.Pos, p.End = r.Reg.Pos(), r.Reg.End()
		}
	}
	if len(p.Served) == 0 || len(p.Served) == 1 && p.Served[0] == VerifyPath || !p.Pos.IsValid() {
		return nil
	}
	return p
}

func partialMethods(t *types.Named, pos token.Pos) *Partial {
	if _, isIface := t.Underlying().(*types.Interface); isIface || lookupMethod(t, SeedMethod) == nil {
		return nil
	}
	p := &Partial{Type: t, Methods: true, Pos: pos, End: pos + token.Pos(len(t.Obj().Name()))}
	for _, m := range []string{SeedMethod, CloseMethod, VerifyMethod} {
		if lookupMethod(t, m) == nil {
			p.Missing = append(p.Missing, m)
		} else {
			p.Served = append(p.Served, m)
		}
	}
	return p
}

func complete(s *Server) bool {
	return s.Routes[SeedPath] != nil && s.Routes[ClosePath] != nil && s.Routes[VerifyPath] != nil
}

func typePos(pass *analysis.Pass, t *types.Named) token.Pos {
	if t.Obj().Pkg() == pass.Pkg {
		return t.Obj().Pos()
	}
	return token.NoPos
}

// chooseType picks the receiver type that handles the most protocol routes,
// then the most routes, then the first in source order. A type whose only
// part is the ServeHTTP method of handler values (a per-route handler type)
// counts only if it handles a protocol route.
func chooseType(g []*registration) *types.Named {
	type score struct {
		proto, all, first int
		method            bool
	}
	scores := map[*types.Named]*score{}
	var order []*types.Named
	for i, reg := range g {
		if reg.recv == nil {
			continue
		}
		sc := scores[reg.recv]
		if sc == nil {
			sc = &score{first: i}
			scores[reg.recv] = sc
			order = append(order, reg.recv)
		}
		sc.all++
		sc.method = sc.method || !reg.viaType
		if k := KindOf(reg.path); k == RouteSeed || k == RouteClose || k == RouteVerify {
			sc.proto++
		}
	}
	var best *types.Named
	for _, t := range order {
		if a := scores[t]; a.proto == 0 && !a.method {
			continue
		}
		if best == nil {
			best = t
			continue
		}
		a, b := scores[t], scores[best]
		if a.proto > b.proto || a.proto == b.proto && a.all > b.all {
			best = t
		}
	}
	return best
}

// hasMethods reports whether *t has methods SeedSession, CloseSession and
// Verify.
func hasMethods(t *types.Named) bool {
	for _, m := range []string{SeedMethod, CloseMethod, VerifyMethod} {
		if lookupMethod(t, m) == nil {
			return false
		}
	}
	return true
}

func lookupMethod(t *types.Named, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), name)
	fn, _ := obj.(*types.Func)
	return fn
}

// addMethodRoutes fills the protocol routes that no registration binds from
// the SeedSession/CloseSession/Verify methods of s.Type, when it has all
// three.
func (r *resolver) addMethodRoutes(s *Server) {
	if !hasMethods(s.Type) {
		return
	}
	for _, pm := range []struct{ path, method string }{
		{SeedPath, SeedMethod}, {ClosePath, CloseMethod}, {VerifyPath, VerifyMethod},
	} {
		if s.Routes[pm.path] != nil {
			continue
		}
		s.Routes[pm.path] = &Route{
			Path: pm.path, Kind: KindOf(pm.path),
			Handler: r.res.FuncDecl(lookupMethod(s.Type, pm.method)),
		}
	}
}

type resolver struct {
	pass *analysis.Pass
	res  *Result
	lits map[*types.Var]*ast.FuncLit
}

// registration returns the route registration that call is, or nil.
func (r *resolver) registration(call *ast.CallExpr) *registration {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Handle" && sel.Sel.Name != "HandleFunc") || len(call.Args) < 2 {
		return nil
	}
	tv, ok := r.pass.TypesInfo.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil
	}
	pattern := constant.StringVal(tv.Value)
	path, ok := PatternPath(pattern)
	if !ok {
		return nil
	}
	h := call.Args[1]
	if !r.isHandler(h) {
		return nil
	}
	reg := &registration{call: call, pattern: pattern, path: path, mux: r.muxKey(sel)}
	reg.decl, reg.lit, reg.recv = r.resolve(h, 0)
	reg.viaType = reg.recv != nil && reg.decl != nil && reg.decl.Name.Name == "ServeHTTP" && !isMethodValue(r.pass, h)
	return reg
}

// isHandler reports whether e is a function value or a value whose type has
// a ServeHTTP method.
func (r *resolver) isHandler(e ast.Expr) bool {
	t := r.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Signature); ok {
		return true
	}
	return serveHTTP(t) != nil
}

func serveHTTP(t types.Type) *types.Func {
	if _, isPtr := t.(*types.Pointer); !isPtr {
		if _, isIface := t.Underlying().(*types.Interface); !isIface {
			t = types.NewPointer(t)
		}
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	fn, _ := obj.(*types.Func)
	return fn
}

// muxKey identifies the router a registration is made on.
func (r *resolver) muxKey(sel *ast.SelectorExpr) any {
	x := ast.Unparen(sel.X)
	switch x := x.(type) {
	case *ast.Ident:
		obj := r.pass.TypesInfo.Uses[x]
		if pn, ok := obj.(*types.PkgName); ok {
			// http.HandleFunc and the like: the package's default router,
			// the same as http.DefaultServeMux.HandleFunc.
			if def := pn.Imported().Scope().Lookup("DefaultServeMux"); def != nil {
				return def
			}
			return pn.Imported().Path() + ".default"
		}
		if obj != nil {
			return obj
		}
	case *ast.SelectorExpr:
		if s, ok := r.pass.TypesInfo.Selections[x]; ok {
			return s.Obj() // a field: the same router in every method
		}
		if obj := r.pass.TypesInfo.Uses[x.Sel]; obj != nil {
			return obj // a package-level variable of another package
		}
	}
	return x
}

// resolve finds the declaration or literal of a handler expression, and the
// receiver type when it is a method of a named type of the package.
func (r *resolver) resolve(e ast.Expr, depth int) (*ast.FuncDecl, *ast.FuncLit, *types.Named) {
	if depth > 4 {
		return nil, nil, nil
	}
	info := r.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return nil, e, nil
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Func:
			return r.res.FuncDecl(obj), nil, nil
		case *types.Var:
			if lit := r.lits[obj]; lit != nil {
				return nil, lit, nil
			}
		}
		return r.fromServeHTTP(e)
	case *ast.SelectorExpr:
		if s, ok := info.Selections[e]; ok && s.Kind() == types.MethodVal {
			fn, _ := s.Obj().(*types.Func)
			return r.res.FuncDecl(fn), nil, r.localNamed(s.Recv())
		}
		if fn, ok := info.Uses[e.Sel].(*types.Func); ok {
			return r.res.FuncDecl(fn), nil, nil
		}
		return r.fromServeHTTP(e)
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return r.resolve(e.Args[0], depth+1) // http.HandlerFunc(f)
		}
		for _, a := range e.Args {
			if !r.isHandler(a) {
				continue
			}
			if d, l, t := r.resolve(a, depth+1); d != nil || l != nil {
				return d, l, t
			}
		}
		if lit, recv := r.factory(e); lit != nil {
			return nil, lit, recv // s.handleStep(), which returns a literal
		}
		return r.fromServeHTTP(e)
	case *ast.UnaryExpr, *ast.CompositeLit:
		return r.fromServeHTTP(e)
	}
	return nil, nil, nil
}

// factory resolves a call of a function or method of the package whose
// every return gives a function literal, the same one, to that literal,
// and the method's receiver type.
func (r *resolver) factory(call *ast.CallExpr) (*ast.FuncLit, *types.Named) {
	var fn *types.Func
	var recv *types.Named
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ = r.pass.TypesInfo.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		if s, ok := r.pass.TypesInfo.Selections[f]; ok && s.Kind() == types.MethodVal {
			fn, _ = s.Obj().(*types.Func)
			recv = r.localNamed(s.Recv())
		}
	}
	d := r.res.FuncDecl(fn)
	if d == nil || d.Body == nil {
		return nil, nil
	}
	var lit *ast.FuncLit
	ok := true
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			var l *ast.FuncLit
			if len(n.Results) == 1 {
				l, _ = ast.Unparen(n.Results[0]).(*ast.FuncLit)
				if l == nil {
					// return http.HandlerFunc(func(...) {...})
					if c, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr); isCall && len(c.Args) == 1 {
						if tv, isType := r.pass.TypesInfo.Types[c.Fun]; isType && tv.IsType() {
							l, _ = ast.Unparen(c.Args[0]).(*ast.FuncLit)
						}
					}
				}
			}
			if l == nil || (lit != nil && lit != l) {
				ok = false
			}
			lit = l
		}
		return ok
	})
	if !ok || lit == nil {
		return nil, nil
	}
	return lit, recv
}

// isMethodValue reports whether e (under conversions and wrapping calls) is
// written as a method value x.m.
func isMethodValue(pass *analysis.Pass, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		s, ok := pass.TypesInfo.Selections[e]
		return ok && s.Kind() == types.MethodVal
	case *ast.CallExpr:
		for _, a := range e.Args {
			if isMethodValue(pass, a) {
				return true
			}
		}
	}
	return false
}

// fromServeHTTP resolves a handler value to its type's ServeHTTP method.
func (r *resolver) fromServeHTTP(e ast.Expr) (*ast.FuncDecl, *ast.FuncLit, *types.Named) {
	t := r.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return nil, nil, nil
	}
	if _, ok := t.Underlying().(*types.Signature); ok {
		return nil, nil, nil
	}
	fn := serveHTTP(t)
	if fn == nil {
		return nil, nil, nil
	}
	d := r.res.FuncDecl(fn)
	if d == nil {
		return nil, nil, nil
	}
	sig := fn.Signature()
	if sig.Recv() == nil {
		return d, nil, nil
	}
	return d, nil, r.localNamed(sig.Recv().Type())
}

// localNamed returns the named type of the package that t is or points to.
func (r *resolver) localNamed(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() != r.pass.Pkg {
		return nil
	}
	return n.Origin()
}

// singleLitVars maps each local variable that is assigned exactly once, a
// function literal, to that literal.
func singleLitVars(pass *analysis.Pass, ins *inspector.Inspector) map[*types.Var]*ast.FuncLit {
	lits := map[*types.Var]*ast.FuncLit{}
	assigns := map[*types.Var]int{}
	note := func(id *ast.Ident, rhs ast.Expr) {
		obj, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
		if obj == nil {
			return
		}
		assigns[obj]++
		if lit, ok := ast.Unparen(rhs).(*ast.FuncLit); ok && rhs != nil {
			lits[obj] = lit
		}
	}
	for n := range ins.PreorderSeq((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok {
					continue
				}
				var rhs ast.Expr
				if len(n.Rhs) == len(n.Lhs) {
					rhs = n.Rhs[i]
				}
				note(id, rhs)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				var rhs ast.Expr
				if i < len(n.Values) {
					rhs = n.Values[i]
				}
				if rhs != nil {
					note(id, rhs)
				}
			}
		}
	}
	for v := range lits {
		if assigns[v] != 1 {
			delete(lits, v)
		}
	}
	return lits
}
