package gonative_test

import (
	"fmt"
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gymlint/gymlint/analyzers/gohelp/gohelptest"
	"github.com/gymlint/gymlint/analyzers/gonative"
)

// reporter reports what gonative recognised, so that the testdata can say
// it with // want comments: the server at its Pos, each route at its
// registration (or, for a method-only route, at its handler's name).
var reporter = &analysis.Analyzer{
	Name:     "gonativereport",
	Doc:      "report the servers gonative recognises (test only)",
	Requires: []*analysis.Analyzer{gonative.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[gonative.Analyzer].(*gonative.Result)
		for _, s := range res.Servers {
			typ := "<nil>"
			if s.Type != nil {
				typ = s.Type.Obj().Name()
				if res.ServerOf(s.Type) != s {
					pass.Reportf(s.Pos, "ServerOf(%s) is not its server", typ)
				}
			}
			pass.Reportf(s.Pos, "server type=%s routes=%d", typ, len(s.Routes))
			for _, r := range s.SortedRoutes() {
				h := "?"
				switch {
				case r.Handler != nil:
					h = r.Handler.Name.Name
				case r.Lit != nil:
					h = "lit"
				}
				if r.Body() == nil && h != "?" {
					pass.Reportf(s.Pos, "route %s has a handler but no body", r.Path)
				}
				msg := fmt.Sprintf("route %s %s pattern=%q handler=%s", r.Path, r.Kind, r.Pattern, h)
				var at ast.Node = r.Reg
				if r.Reg == nil {
					at = r.Handler.Name
				}
				pass.Reportf(at.Pos(), "%s", msg)
			}
		}
		return nil, nil
	},
}

func TestRecognition(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), reporter,
		"stdmux", "funcs", "methods", "router", "lookalike", "wrapped", "servehttp")
}

func TestPatternPath(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"/verify", "/verify", true},
		{"POST /seed_session", "/seed_session", true},
		{"POST\t/seed_session", "/seed_session", true},
		{"  GET   example.com/step/{id}", "/step/{id}", true},
		{"example.com/close_session", "/close_session", true},
		{"verify", "", false},
		{"", "", false},
	} {
		got, ok := gonative.PatternPath(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("PatternPath(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestKindOf(t *testing.T) {
	for path, want := range map[string]gonative.RouteKind{
		"/seed_session": gonative.RouteSeed, "/seed_session/": gonative.RouteSeed,
		"/close_session": gonative.RouteClose, "/verify/{$}": gonative.RouteVerify,
		"/step": gonative.RouteTool, "/health": gonative.RouteOther, "/": gonative.RouteOther,
		"/verify_answer": gonative.RouteTool,
	} {
		if got := gonative.KindOf(path); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestPartial: GL014 where code serves part of the protocol, nothing for
// complete servers.
func TestPartial(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), gohelptest.InMessage(gonative.ProtocolAnalyzer), "partial", "whole")
}
