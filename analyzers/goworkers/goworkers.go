// Package goworkers is the workers analyzer for native Go resources
// servers: it checks that a Go server that keeps session state where
// several replicas cannot share it says so.
//
// NeMo Gym can run several replicas (workers) of a server behind one
// address, and its session routing sends every request of a session to the
// replica that seeded it, following the session cookie and the body field
// resources_session_id. It knows nothing of other body fields. The Python
// servers of the workers analyzer declare that they cannot run with several
// workers by overriding multiple_workers_unsupported_reason(); a Go server
// declares it with a method of its server type:
//
//	func (s *Server) MultipleWorkersUnsupportedReason() string
//
// returning the reason (a server with no server type, whose handlers are
// plain functions, declares it as a package-level function of the same
// name and signature).
//
// Rules (each in its own file; its documentation in docs/CODE.md beside it,
// rendered in docs/rules.md):
//
//   - GL150 go-unrouted-state (unrouted.go): a server keeps process-local
//     session state that requests find by a field of the request body, and
//     does not declare the method.
//   - GL151 go-empty-worker-refusal (refusal.go): the method returns ""
//     unconditionally, so it refuses nothing.
//
// Which Go code is a server is decided by package gonative (its package
// doc has the rules): routes /seed_session, /close_session and /verify
// registered with Handle/HandleFunc on a net/http ServeMux or a router of
// the same shape, or a type with methods SeedSession, CloseSession and
// Verify. Which state a server keeps beyond a request, where its handlers
// access it and by which key, is decided by package gostate (its package
// doc has the rules). The analyzer reads the results of gonative.Analyzer
// and gostate.Analyzer.
//
// The Python rule GL105 unrouted-session-state is the counterpart of
// GL150; GL101 undeclared-workers has none, because a Go server has no
// module-level app for uvicorn to import, and neither has the rayenabled
// analyzer: Ray is a Python runtime.
package goworkers

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
)

// Method is the name of the refusal method.
const Method = "MultipleWorkersUnsupportedReason"

// Rules are this analyzer's rules, in code order, for the catalogue.
var Rules = []*diag.Rule{UnroutedState, EmptyRefusal}

// Analyzer is the workers analyzer for Go.
var Analyzer = &analysis.Analyzer{
	Name: "goworkers",
	Doc: `check that native Go NeMo Gym resources servers run with several workers or refuse them

A native server is recognised by package gonative: handlers registered with
Handle/HandleFunc for /seed_session, /close_session and /verify (net/http
ServeMux, Go 1.22 patterns such as "POST /seed_session", or any router of
that shape), or a type with methods SeedSession, CloseSession and Verify.

GL150 go-unrouted-state: the server keeps process-local session state (a
map or sync.Map field of the server type or of a value it holds, a
package-level map, or a map a handler literal captures) that one route
finds by a field of the decoded request body (s.envs[req.EnvID] after
json.NewDecoder(r.Body).Decode(&req)) and another route also uses, and its
server type does not declare MultipleWorkersUnsupportedReason() string.
Session routing follows only the session cookie and resources_session_id,
so with several replicas behind one address a request reaches a replica
that never saw its state. A map ever indexed by a key that names the
session is routed state and is not reported.

GL151 go-empty-worker-refusal: the server type declares
MultipleWorkersUnsupportedReason() string but every return gives "", so
it refuses nothing.`,
	URL:      strings.SplitN(UnroutedState.URL(), "#", 2)[0],
	Requires: []*analysis.Analyzer{inspect.Analyzer, gonative.Analyzer, gostate.Analyzer},
	Run:      run,
	// The help of each diagnostic, for gymlint's driver.
	ResultType: gohelp.HelpsType,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[gonative.Analyzer].(*gonative.Result)
	state := pass.ResultOf[gostate.Analyzer].(*gostate.Result)
	reported := map[*ast.FuncDecl]bool{}
	helps := new(gohelp.Helps)
	for _, s := range res.Servers {
		ref := findRefusal(pass, res, s)
		if ref.decl != nil && !reported[ref.decl] && returnsEmptyOnly(pass, ref.decl) {
			reported[ref.decl] = true
			reportEmpty(pass, helps, s, ref)
		}
		if !ref.valid {
			checkUnrouted(pass, helps, state.Of(s), s, ref)
		}
	}
	return helps, nil
}

// refusal is what a server declares of the refusal method.
type refusal struct {
	valid bool          // declared with the signature func() string
	wrong *types.Func   // declared with another signature
	decl  *ast.FuncDecl // its declaration in the package, when valid
}

// findRefusal looks the method up on the server type (promoted methods
// included), or for a server with no type, a package-level function.
func findRefusal(pass *analysis.Pass, res *gonative.Result, s *gonative.Server) refusal {
	var fn *types.Func
	if s.Type != nil {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(s.Type), true, s.Type.Obj().Pkg(), Method)
		fn, _ = obj.(*types.Func)
	} else {
		fn, _ = pass.Pkg.Scope().Lookup(Method).(*types.Func)
	}
	if fn == nil {
		return refusal{}
	}
	sig := fn.Signature()
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isString(sig.Results().At(0).Type()) {
		return refusal{wrong: fn}
	}
	return refusal{valid: true, decl: res.FuncDecl(fn)}
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// serverName names the server in messages.
func serverName(s *gonative.Server) string {
	if s.Type != nil {
		return s.Type.Obj().Name()
	}
	return "the server"
}

// diagnostic builds a diagnostic of a rule.
func diagnostic(r *diag.Rule, n ast.Node, msg string) analysis.Diagnostic {
	return analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Category: r.Code, URL: r.URL(), Message: msg}
}
