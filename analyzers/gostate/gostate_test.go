package gostate_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gymlint/gymlint/analyzers/gostate"
)

// facts reports what gostate computes as diagnostics, so that analysistest
// checks them against // want comments:
//
//   - "state NAME KIND HOLDER[ session][ guard=LOCK]" at a container's
//     declaration;
//   - "access NAME OP[.METHOD][ HANDLER[=KEY]...]" at each access (the
//     handlers that reach it, with its key's class there; none for an
//     access found only without a call site);
//   - "lookup KIND NAME..." at a lookup function's name;
//   - "fence NAME" at a fence's record, "test NAME" at its test and
//     "refusal NAME" at its refusal;
//   - "lock NAME[ rw][ guards NAME...]" at a mutex's declaration, and
//     "acquire KEY", "acquire-read KEY", "release KEY" or "try KEY" at
//     each call of a mutex method (Result.LockOp);
//   - accesses of maps end in " guard=NAME" when Result.GuardName names
//     the mutex that guards the map there.
//
// With reaches set, it also reports "handler NAME reaches F..." at each
// handler: the functions of Handler.Reaches after its own.
func newFacts(reaches bool) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "gostatefacts",
		Doc:      "report gostate's result as diagnostics",
		Requires: []*analysis.Analyzer{gostate.Analyzer},
		Run:      func(pass *analysis.Pass) (any, error) { return runFacts(pass, reaches) },
	}
}

func runFacts(pass *analysis.Pass, reaches bool) (any, error) {
	res := pass.ResultOf[gostate.Analyzer].(*gostate.Result)
	for _, s := range res.Servers {
		report(pass, res, s)
		if !reaches {
			continue
		}
		for _, h := range s.Handlers {
			names := []string{"handler", handlerName(h), "reaches"}
			for _, n := range h.Reaches[1:] {
				names = append(names, n.(*ast.FuncDecl).Name.Name)
			}
			pass.Reportf(h.Node.Pos(), "%s", strings.Join(names, " "))
		}
	}
	ops := map[gostate.LockOp]string{gostate.Acquire: "acquire", gostate.AcquireRead: "acquire-read", gostate.Release: "release", gostate.TryAcquire: "try"}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if key, op, ok := res.LockOp(call); ok {
					name := fmt.Sprint(key)
					if v, ok := key.(*types.Var); ok {
						name = v.Name()
					}
					pass.Reportf(call.Pos(), "%s %s", ops[op], name)
				}
			}
			return true
		})
	}
	return nil, nil
}

var kinds = map[gostate.StateKind]string{gostate.StateMap: "map", gostate.StateSyncMap: "syncmap", gostate.StateValue: "value"}
var holders = map[gostate.Holder]string{gostate.HolderField: "field", gostate.HolderPackage: "package", gostate.HolderCaptured: "captured"}
var lookups = map[gostate.LookupKind]string{gostate.LookupOK: "ok", gostate.LookupNil: "nil", gostate.LookupBool: "bool"}

func handlerName(h *gostate.Handler) string {
	if h.Method != nil {
		return h.Method.Name() + "()"
	}
	return h.Route.Path
}

func report(pass *analysis.Pass, res *gostate.Result, s *gostate.Server) {
	seen := map[string]bool{}
	here := func(pos ast.Node, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if k := fmt.Sprint(pos.Pos(), msg); !seen[k] {
			seen[k] = true
			pass.Report(analysis.Diagnostic{Pos: pos.Pos(), Message: msg})
		}
	}
	for _, st := range s.State {
		if st.Var.Pkg() != pass.Pkg || !st.Var.Pos().IsValid() {
			continue
		}
		msg := fmt.Sprintf("state %s %s %s", st.Var.Name(), kinds[st.Kind], holders[st.Holder])
		if s.IsSessionMap(st) {
			msg += " session"
		}
		if st.Guard != nil {
			msg += " guard=" + st.Guard.Var.Name()
		}
		pass.Report(analysis.Diagnostic{Pos: st.Var.Pos(), Message: msg})
	}
	for _, a := range s.Accesses {
		msg := fmt.Sprintf("access %s %s", types.ExprString(a.X), a.Op)
		if a.Method != "" {
			msg += "." + a.Method
		}
		var vias []string
		for _, v := range a.Via {
			if a.Key == nil {
				vias = append(vias, handlerName(v.Handler))
			} else {
				vias = append(vias, handlerName(v.Handler)+"="+v.Key.String())
			}
		}
		slices.Sort(vias)
		vias = slices.Compact(vias)
		if len(vias) > 0 {
			msg += " " + strings.Join(vias, " ")
		}
		if g := res.GuardName(a.X); g != "" && a.State.Kind == gostate.StateMap {
			msg += " guard=" + g
		}
		here(a.Node, "%s", msg)
	}
	var fns []*gostate.LookupFunc
	for _, lf := range s.LookupFuncs {
		fns = append(fns, lf)
	}
	slices.SortFunc(fns, func(a, b *gostate.LookupFunc) int { return int(a.Func.Pos() - b.Func.Pos()) })
	for _, lf := range fns {
		var names []string
		for _, st := range lf.States {
			names = append(names, st.Var.Name())
		}
		pass.Report(analysis.Diagnostic{Pos: lf.Func.Pos(), Message: fmt.Sprintf("lookup %s %s", lookups[lf.Kind], strings.Join(names, " "))})
	}
	for _, f := range s.Fences {
		here(f.Record.Node, "fence %s", f.State.Var.Name())
		here(f.Test.Node, "test %s", f.State.Var.Name())
		here(f.Refusal, "refusal %s", f.State.Var.Name())
	}
	for _, l := range s.Locks {
		msg := "lock " + l.Var.Name()
		if l.RW {
			msg += " rw"
		}
		if len(l.Guards) > 0 {
			msg += " guards"
			for _, g := range l.Guards {
				msg += " " + g.Var.Name()
			}
		}
		pass.Report(analysis.Diagnostic{Pos: l.Var.Pos(), Message: msg})
	}
}

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), newFacts(false), "keys", "roots", "fences", "locks")
}

// TestReach checks what handlers reach, and that a call read for one
// handler gives another handler the same accesses.
func TestReach(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "reach"), newFacts(true), "reach")
}
