// Package gosessions is the Go side of the sessions analyzer: it checks that
// native Go resources servers keep the resources-server session contract of
// NeMo Gym, as the Python rules of package sessions do for Python servers.
//
// An Environment Server seeds a session (/seed_session), calls tools, verifies
// (/verify) and closes it (/close_session). A seed refuses input no retry can
// fix with 422 and a conflicting session with 409; a close releases the
// session's state and leaves a fence that refuses a later seed of the same
// id; a verify for a session the server no longer holds answers a masked
// sample (mask_sample: true); a tool call for such a session is a 404. And
// handlers run concurrently, so session state is guarded by a mutex.
//
// # Which code is checked
//
// The servers, their routes and their handlers are those that package
// gonative recognises (see its documentation): registrations of
// /seed_session, /close_session and /verify (and tool routes) with
// Handle/HandleFunc on a net/http ServeMux or a router of the same shape,
// including Go 1.22 patterns such as "POST /seed_session", or a type with
// methods SeedSession, CloseSession and Verify.
//
// # Shared state and session maps
//
// A map is shared when an access names it through state that outlives a
// request: a package-level variable; a field reached from a receiver or
// parameter of the server type (or of a named struct type that the server
// type holds in a field, transitively), such as s.sessions or
// s.store.sessions; or a variable that a function-literal handler captures
// from outside itself. Maps reached any other way (locals, which may be
// fresh values of the request; request bodies; map values) are not
// followed.
//
// The session maps are the shared maps that the seed handler writes
// (m[k] = v), and the shared sync.Maps it stores into (m.Store(k, v)),
// directly or in the functions of the package it calls; when the seed
// writes none, those that tool handlers write.
//
// A missing-session branch is the code a handler runs when a lookup of a
// session map found nothing. The lookups are v, ok := m[k] and
// v, ok := m.Load(k) on a session map, v, ok := f(...) where f is a function
// of the package that returns (T, bool) from such a lookup, v := m[k] with a
// pointer, map, slice, interface, channel or function element, and v := f(...)
// where f returns such an element, m[k], itself. The branches are those of an
// if statement, or of a case of a tagless switch, that run when ok is false
// or v is nil (if !ok {...}, the else of if ok {...}, if v == nil {...},
// if m[k] == nil {...}), and the statements after if ok {...; return}.
// Conditions combine with !, && and ||: a branch counts when every missing
// session takes it, or when only missing sessions do.
//
// # Answers
//
// A handler answers with a status through http.Error(w, msg, code),
// w.WriteHeader(code), http.NotFound(w, r), or any call that passes the
// http.ResponseWriter and an integer constant between 200 and 599 (a
// helper such as writeJSON(w, http.StatusNotFound, v), http.Redirect). A body written by
// the standard library (json.NewEncoder(w).Encode, w.Write, fmt.Fprint*,
// io.WriteString, io.Copy) before any status is an answer with 200. Calls of
// the package's own helpers without a constant status are not followed.
//
// # Rules
//
// Each rule's full documentation (what it does, why it matters, an example,
// how to fix it) is its Doc in Rules, which docs/rules.md renders:
//
//   - GL350 go-seed-server-error (seed.go)
//   - GL351 go-close-without-fence (close.go)
//   - GL352 go-lost-session-scored, GL353 go-lost-session-status (lost.go)
//   - GL354 go-unlocked-session-map (locks.go)
//
// Each diagnostic carries its rule code in Category and the rule's page in
// URL.
//
// The rayenabled analyzer of the Python rules has no Go counterpart:
// ray_enabled is how a Python server declares that it uses Ray, whose
// runtime and client are Python; a native Go server has no Ray use to
// declare, so there is nothing to check.
package gosessions

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/diag"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// AnalyzerName is the family every rule of this package belongs to.
const AnalyzerName = "sessions"

// Doc is the analyzer's documentation.
const Doc = `check that native Go resources servers keep the NeMo Gym session contract

A seed answers bad input with 422 and a conflict with 409, never a 5xx
(GL350); a close that deletes session state records a fence against a later
seed (GL351); a verify for a lost session answers a masked sample (GL352); a
tool call for a lost session answers 404 (GL353); handlers hold a mutex
around the session maps they share (GL354).`

// Analyzer is the gosessions analyzer.
var Analyzer = &analysis.Analyzer{
	Name:     "gosessions",
	Doc:      Doc,
	URL:      docsURL(),
	Run:      run,
	Requires: []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer, gonative.Analyzer},
}

// Rules are the rules of this analyzer, by code, for the rule catalogue.
var Rules = []*diag.Rule{SeedServerError, CloseWithoutFence, LostSessionScored, LostSessionStatus, UnlockedSessionMap}

// docsURL is the page that every rule's URL points into.
func docsURL() string {
	u := SeedServerError.URL()
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	return u
}

// checker holds what the rules of one pass share.
type checker struct {
	pass   *analysis.Pass
	ins    *inspector.Inspector
	native *gonative.Result
	cfgs   *ctrlflow.CFGs

	decls   map[*types.Func]*ast.FuncDecl
	shared  map[*types.Named]bool      // server types and the struct types they hold
	lhs     map[ast.Expr]bool          // expressions assigned to (x = ..., x op= ..., x++)
	rangeX  map[ast.Expr]bool          // expressions ranged over
	valueOf map[*types.Func]bool       // functions used other than by a call
	calls   map[*types.Func]int        // static calls of each function of the package
	lookups map[*types.Func]lookupKind // functions that look a session up

	handlers    []*handler
	sessionMaps map[*types.Var]bool

	seen map[reportKey]bool
}

// handler is one route handler of a recognised server.
type handler struct {
	route *gonative.Route
	node  ast.Node // *ast.FuncDecl or *ast.FuncLit
	body  *ast.BlockStmt
	// lit is the route's function literal, whose captured variables are
	// shared between requests; nil for a declared function.
	lit *ast.FuncLit
}

type reportKey struct {
	pos  token.Pos
	code string
}

func run(pass *analysis.Pass) (any, error) {
	native := pass.ResultOf[gonative.Analyzer].(*gonative.Result)
	if len(native.Servers) == 0 {
		return nil, nil
	}
	c := &checker{
		pass:    pass,
		ins:     pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		native:  native,
		cfgs:    pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs),
		decls:   map[*types.Func]*ast.FuncDecl{},
		shared:  map[*types.Named]bool{},
		lhs:     map[ast.Expr]bool{},
		rangeX:  map[ast.Expr]bool{},
		valueOf: map[*types.Func]bool{},
		calls:   map[*types.Func]int{},
		seen:    map[reportKey]bool{},
	}
	c.index()
	c.collectHandlers()
	c.sessionMaps = c.findSessionMaps()
	c.lookups = c.lookupFuncs()

	c.checkSeeds()
	c.checkCloses()
	c.checkLostSessions()
	c.checkLocks()
	return nil, nil
}

// index records the package's function declarations, the shared types, the
// expressions written to and ranged over, and how each function is used.
func (c *checker) index() {
	info := c.pass.TypesInfo
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	for _, s := range c.native.Servers {
		if s.Type != nil {
			c.addShared(s.Type)
		}
	}

	called := map[ast.Expr]bool{} // the Fun of a call
	for n := range c.ins.PreorderSeq((*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.RangeStmt)(nil), (*ast.CallExpr)(nil)) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					c.lhs[ast.Unparen(l)] = true
				}
			}
		case *ast.IncDecStmt:
			c.lhs[ast.Unparen(n.X)] = true
		case *ast.RangeStmt:
			c.rangeX[ast.Unparen(n.X)] = true
		case *ast.CallExpr:
			fun := ast.Unparen(n.Fun)
			called[fun] = true
			if fn := c.staticFunc(n); fn != nil {
				c.calls[fn]++
			}
		}
	}
	// A function or method named other than as the callee of a call is used
	// as a value: who calls it, and with which locks held, is unknown.
	selIdents := map[*ast.Ident]bool{}
	for n := range c.ins.PreorderSeq((*ast.SelectorExpr)(nil)) {
		selIdents[n.(*ast.SelectorExpr).Sel] = true
	}
	for n := range c.ins.PreorderSeq((*ast.Ident)(nil), (*ast.SelectorExpr)(nil)) {
		var fn *types.Func
		switch n := n.(type) {
		case *ast.Ident:
			if !selIdents[n] {
				fn, _ = info.Uses[n].(*types.Func)
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[n]; ok {
				fn, _ = sel.Obj().(*types.Func)
			}
		}
		if fn == nil || c.decls[fn.Origin()] == nil {
			continue
		}
		if !called[n.(ast.Expr)] {
			c.valueOf[fn.Origin()] = true
		}
	}
}

// addShared marks t shared, and the named struct types of the package that
// its fields hold (directly or through a pointer).
func (c *checker) addShared(t *types.Named) {
	t = t.Origin()
	if c.shared[t] || t.Obj().Pkg() != c.pass.Pkg {
		return
	}
	c.shared[t] = true
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		ft := st.Field(i).Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if n, ok := ft.(*types.Named); ok {
			if _, isStruct := n.Underlying().(*types.Struct); isStruct {
				c.addShared(n)
			}
		}
	}
}

// collectHandlers lists the handler of every route whose body is known.
func (c *checker) collectHandlers() {
	for _, s := range c.native.Servers {
		for _, r := range s.SortedRoutes() {
			h := &handler{route: r, body: r.Body()}
			switch {
			case r.Handler != nil:
				h.node = r.Handler
			case r.Lit != nil:
				h.node, h.lit = r.Lit, r.Lit
			}
			if h.body != nil {
				c.handlers = append(c.handlers, h)
			}
		}
	}
}

// handlersOf returns the handlers of routes of the given kind.
func (c *checker) handlersOf(kind gonative.RouteKind) []*handler {
	var out []*handler
	seen := map[ast.Node]bool{}
	for _, h := range c.handlers {
		if h.route.Kind == kind && !seen[h.node] {
			seen[h.node] = true
			out = append(out, h)
		}
	}
	return out
}

// report reports a diagnostic of rule once per position.
func (c *checker) report(rule *diag.Rule, pos, end token.Pos, msg string, fixes []analysis.SuggestedFix, related ...analysis.RelatedInformation) {
	k := reportKey{pos, rule.Code}
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	c.pass.Report(analysis.Diagnostic{
		Pos: pos, End: end, Category: rule.Code, URL: rule.URL(),
		Message: msg, SuggestedFixes: fixes, Related: related,
	})
}
