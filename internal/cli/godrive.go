package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/suppress"
)

// goAnalyzers are the analyzers the Go driver runs: the registered ones.
// Tests replace it.
var goAnalyzers = func() []*analysis.Analyzer { return goanalysis.Analyzers }

// goEnv is added to the environment of `go list`. Tests set it to keep the
// go command offline.
var goEnv []string

// ruleLookup finds a rule of the catalogue by code or name, the Go driver's
// own rules included (they are in the catalogue).
func ruleLookup(code string) *diag.Rule { return lint.Lookup(code) }

// scanResult is one check of a repository: the Python scan, the Go scan
// (nil when there is no Go module or no Go analyzer), and both families'
// diagnostics merged and sorted.
type scanResult struct {
	lint        *lint.Result
	gores       *goanalysis.Result
	diagnostics []diag.Diagnostic
}

// scan checks the repository at root: the Python rules and, when the root
// or a subtree has a go.mod, the Go analyzers, both at once (the Go side
// spends most of its time in go list and the type checker).
func scan(root string, opts gym.Options, stderr io.Writer) (*scanResult, error) {
	type goOutcome struct {
		res *goanalysis.Result
		err error
	}
	goDone := make(chan goOutcome, 1)
	go func() {
		var o goOutcome
		defer func() {
			if r := recover(); r != nil {
				o = goOutcome{err: fmt.Errorf("internal error in the Go analysis: %v", r)}
			}
			goDone <- o
		}()
		o.res, o.err = scanGo(root, stderr)
	}()
	res, err := lint.Run(root, opts)
	g := <-goDone
	if err != nil {
		return nil, err
	}
	if g.err != nil {
		return nil, g.err
	}
	sr := &scanResult{lint: res, gores: g.res, diagnostics: res.Diagnostics}
	if g.res != nil {
		sr.diagnostics = append(append([]diag.Diagnostic(nil), res.Diagnostics...), g.res.Diagnostics...)
		diag.Sort(sr.diagnostics)
	}
	// Inline suppressions (# gymlint: ignore[CODE] reason, //gymlint:ignore
	// CODE reason) apply to every finding, Python, YAML and Go alike; the
	// files gymlint read are searched for unused ones too.
	var files []string
	for _, e := range res.View.Entrypoints {
		files = append(files, e.Path)
	}
	for _, f := range res.View.Configs {
		files = append(files, f.Path)
	}
	sr.diagnostics = suppress.Apply(sr.diagnostics, files, res.View.Source, ruleLookup)
	return sr, nil
}

// scanGo runs the Go analyzers on every Go module under root. It returns
// nil when there is nothing to do: no analyzer registered, no go.mod, or
// no go command (said on stderr: the Python scan still counts).
func scanGo(root string, stderr io.Writer) (*goanalysis.Result, error) {
	analyzers := goAnalyzers()
	if len(analyzers) == 0 {
		return nil, nil
	}
	mods, err := goanalysis.Modules(root)
	if err != nil {
		return nil, fmt.Errorf("finding Go modules: %v", err)
	}
	if len(mods) == 0 {
		return nil, nil
	}
	res, err := goanalysis.Run(root, goanalysis.Config{Analyzers: analyzers, Lookup: ruleLookup, Modules: mods, Env: goEnv})
	if errors.Is(err, goanalysis.ErrNoGoCommand) {
		fmt.Fprintf(stderr, "gymlint: no go command on PATH: the Go modules %s are not checked\n", strings.Join(mods, ", "))
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("Go analysis: %v", err)
	}
	return res, nil
}
