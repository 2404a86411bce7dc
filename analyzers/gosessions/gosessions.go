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
// Which maps are shared (held beyond a request: fields of the server type
// and of the struct types it holds, package-level variables, variables a
// function-literal handler captures), every access to them, the session
// maps (the shared maps that the seed handler writes, through what it calls
// four calls deep; when it writes none, those that tool handlers write),
// the lookups of a session map, the fences a close leaves, the mutexes and
// the answers a handler writes are computed by package gostate, whose
// documentation has the rules; the analyzer reads the result of
// gostate.Analyzer.
//
// A missing-session branch is the code a handler runs when a lookup of a
// session map found nothing (gostate's Lookups of the session maps, with
// Absent): the branches of an if statement, or of a case of a tagless
// switch, that run when ok is false or v is nil (if !ok {...}, the else of
// if ok {...}, if v == nil {...}, if m[k] == nil {...}), and the statements
// after if ok {...; return}. Conditions combine with !, && and ||: a branch
// counts when every missing session takes it, or when only missing
// sessions do.
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
// Each rule is a file (its diag.Rule, then the checker methods that report
// it); its full documentation (what it does, why it matters, an example,
// how to fix it) is docs/CODE.md beside it, which docs/rules.md renders:
//
//   - GL350 go-seed-server-error (seed.go)
//   - GL351 go-close-without-fence (close.go)
//   - GL352 go-lost-session-scored (lost.go)
//   - GL353 go-lost-session-status (loststatus.go)
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

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
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
	Requires: []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer, gonative.Analyzer, gostate.Analyzer},
	// The help of each diagnostic, for gymlint's driver.
	ResultType: gohelp.HelpsType,
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
	state  *gostate.Result
	cfgs   *ctrlflow.CFGs

	valueOf map[*types.Func]bool // functions used other than by a call
	calls   map[*types.Func]int  // static calls of each function of the package

	// handlers are the route handlers of every server, whose body is
	// known.
	handlers []*gostate.Handler

	seen  map[reportKey]bool
	helps *gohelp.Helps // the result
}

type reportKey struct {
	pos  token.Pos
	code string
}

func run(pass *analysis.Pass) (any, error) {
	native := pass.ResultOf[gonative.Analyzer].(*gonative.Result)
	if len(native.Servers) == 0 {
		return new(gohelp.Helps), nil
	}
	c := &checker{
		pass:    pass,
		ins:     pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		native:  native,
		state:   pass.ResultOf[gostate.Analyzer].(*gostate.Result),
		cfgs:    pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs),
		valueOf: map[*types.Func]bool{},
		calls:   map[*types.Func]int{},
		seen:    map[reportKey]bool{},
		helps:   new(gohelp.Helps),
	}
	c.index()
	for _, s := range c.state.Servers {
		for _, h := range s.Handlers {
			if h.Route != nil {
				c.handlers = append(c.handlers, h)
			}
		}
	}

	c.checkSeeds()
	c.checkCloses()
	c.checkLostSessions()
	c.checkLocks()
	return c.helps, nil
}

// index records how each function of the package is used: how often it is
// called, and whether it is used as a value.
func (c *checker) index() {
	info := c.pass.TypesInfo
	called := map[ast.Expr]bool{} // the Fun of a call
	for n := range c.ins.PreorderSeq((*ast.CallExpr)(nil)) {
		n := n.(*ast.CallExpr)
		called[ast.Unparen(n.Fun)] = true
		if fn := c.staticFunc(n); fn != nil {
			c.calls[fn]++
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
		if fn == nil || c.native.FuncDecl(fn) == nil {
			continue
		}
		if !called[n.(ast.Expr)] {
			c.valueOf[fn.Origin()] = true
		}
	}
}

// handlersOf returns the handlers of routes of the given kind, one per
// function.
func (c *checker) handlersOf(kind gonative.RouteKind) []*gostate.Handler {
	var out []*gostate.Handler
	seen := map[ast.Node]bool{}
	for _, h := range c.handlers {
		if h.Route.Kind == kind && !seen[h.Node] {
			seen[h.Node] = true
			out = append(out, h)
		}
	}
	return out
}

// sessionLookups are the lookups of the session maps of h's server in its
// body.
func (c *checker) sessionLookups(h *gostate.Handler) *gostate.Lookups {
	return h.Server.Lookups(h.Body, h.Server.IsSessionMap)
}

// report reports a diagnostic of rule once per position, with help (the
// remedy, see package gohelp).
func (c *checker) report(rule *diag.Rule, pos, end token.Pos, msg, help string, fixes []analysis.SuggestedFix, related ...analysis.RelatedInformation) {
	k := reportKey{pos, rule.Code}
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	c.helps.Report(c.pass, analysis.Diagnostic{
		Pos: pos, End: end, Category: rule.Code, URL: rule.URL(),
		Message: msg, SuggestedFixes: fixes, Related: related,
	}, help)
}
