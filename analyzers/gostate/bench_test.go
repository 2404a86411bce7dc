package gostate_test

import (
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/gymlint/gymlint/analyzers/gosessions"
	"github.com/gymlint/gymlint/analyzers/goworkers"
)

// BenchmarkGoRules measures the Go rules (goworkers and gosessions, with
// what they require) on the fixtures of both and on the example server,
// loaded once: the analysis alone, without go list and type checking.
func BenchmarkGoRules(b *testing.B) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../.."}
	pkgs, err := packages.Load(cfg,
		"./examples/nativeserver",
		"./analyzers/gosessions/testdata/src/...",
		"./analyzers/goworkers/testdata/src/...",
	)
	if err != nil {
		b.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		b.Fatalf("%d load errors", n)
	}
	as := []*analysis.Analyzer{goworkers.Analyzer, gosessions.Analyzer}
	// own is the time of gymlint's own analyzers, each and together,
	// without the standard passes (inspect, ctrlflow) whose facts cover
	// every dependency.
	own := map[string]time.Duration{"gonative": 0, "gostate": 0, "goworkers": 0, "gosessions": 0}
	for b.Loop() {
		g, err := checker.Analyze(as, pkgs, &checker.Options{Sequential: true})
		if err != nil {
			b.Fatal(err)
		}
		for act := range g.All() {
			if _, ok := own[act.Analyzer.Name]; ok {
				own[act.Analyzer.Name] += act.Duration
			}
		}
	}
	var all time.Duration
	for name, d := range own {
		all += d
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), name+"-ns/op")
	}
	b.ReportMetric(float64(all.Nanoseconds())/float64(b.N), "own-ns/op")
}
