package nativeserver_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gosessions"
	"github.com/gymlint/gymlint/analyzers/goworkers"
)

// TestAnalyzersAgree checks that gymlint's Go analyzers recognise this
// package as a native resources server and report nothing on it: the server
// that the other tests run is the one the analyzers call clean.
func TestAnalyzersAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the package and its dependencies from source")
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: false}
	pkgs, err := packages.Load(cfg, "github.com/gymlint/gymlint/examples/nativeserver")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the package does not load")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{gonative.Analyzer, gosessions.Analyzer, goworkers.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	recognised := false
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			t.Errorf("%s: %s: %s %s", act.Analyzer.Name, act.Package.Fset.Position(d.Pos), d.Category, d.Message)
		}
		if act.Analyzer != gonative.Analyzer {
			continue
		}
		recognised = true
		res := act.Result.(*gonative.Result)
		if len(res.Servers) != 1 {
			t.Fatalf("gonative recognises %d servers, want 1", len(res.Servers))
		}
		s := res.Servers[0]
		if s.Type == nil || s.Type.Obj().Name() != "Server" {
			t.Errorf("server type %v, want Server", s.Type)
		}
		for path, kind := range map[string]gonative.RouteKind{
			"/seed_session": gonative.RouteSeed, "/close_session": gonative.RouteClose, "/verify": gonative.RouteVerify,
			"/increment": gonative.RouteTool, "/get_value": gonative.RouteTool,
		} {
			if r := s.Routes[path]; r == nil || r.Kind != kind || r.Handler == nil {
				t.Errorf("route %s: %+v, want a %v route with its handler", path, r, kind)
			}
		}
	}
	if !recognised {
		t.Error("gonative did not run on the package")
	}
}
