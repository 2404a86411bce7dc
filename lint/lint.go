// Package lint is the catalogue of gymlint's rules and the runner that
// applies them to a repository.
package lint

import (
	"slices"
	"sort"
	"sync"

	"github.com/gymlint/gymlint/analyzers/gosessions"
	"github.com/gymlint/gymlint/analyzers/goworkers"
	"github.com/gymlint/gymlint/analyzers/rayenabled"
	"github.com/gymlint/gymlint/analyzers/sessions"
	"github.com/gymlint/gymlint/analyzers/workers"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/suppress"
)

// checks are the analyzers' rules, in code order.
var checks = func() []gym.Check {
	var cs []gym.Check
	cs = append(cs, workers.Checks...)
	cs = append(cs, rayenabled.Checks...)
	cs = append(cs, sessions.Checks...)
	return cs
}()

// Rules returns every rule, core rules included, sorted by code. The
// slice is the caller's.
func Rules() []*diag.Rule { return slices.Clone(catalogue().rules) }

// Lookup finds a rule by code (GL101) or name (undeclared-workers).
func Lookup(key string) *diag.Rule { return catalogue().byKey[key] }

type rulesCatalogue struct {
	rules []*diag.Rule
	byKey map[string]*diag.Rule // by code and by name
}

// catalogue is made once: Lookup is called for every diagnostic a
// language server publishes and every suppression it checks.
var catalogue = sync.OnceValue(func() rulesCatalogue {
	rs := append([]*diag.Rule(nil), gym.Rules...)
	for _, c := range checks {
		rs = append(rs, c.Rule)
	}
	// The Go analyzers' rules (they run through goanalysis, not as checks).
	rs = append(rs, goanalysis.Rules...)
	rs = append(rs, suppress.Rules...)
	rs = append(rs, goworkers.Rules...)
	rs = append(rs, gosessions.Rules...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Code < rs[j].Code })
	c := rulesCatalogue{rules: rs, byKey: map[string]*diag.Rule{}}
	for _, r := range rs {
		c.byKey[r.Code] = r
	}
	for _, r := range rs {
		if _, taken := c.byKey[r.Name]; !taken {
			c.byKey[r.Name] = r
		}
	}
	return c
})

// Result is the outcome of one scan.
type Result struct {
	View        *gym.View
	Diagnostics []diag.Diagnostic // sorted
}

// Run builds the view of the repository at root and applies every rule.
func Run(root string, opts gym.Options) (*Result, error) {
	v, err := gym.Build(root, opts)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	ds := append(Analyse(v), v.RepositoryDiagnostics()...)
	diag.Sort(ds)
	return &Result{View: v, Diagnostics: ds}, nil
}

// Analyse applies every rule to the view's entrypoints and returns what
// they find, with the core diagnostics of the modules the rules read
// (unreadable files, syntax errors), unsorted. It leaves out the view's
// RepositoryDiagnostics (configs, the entrypoint map), which do not depend
// on the entrypoints analysed: a language server that analyses a few
// entrypoints of a gym.Cache at a time takes those once per cache state.
func Analyse(v *gym.View) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, c := range checks {
		ds = append(ds, c.Run(v)...)
	}
	// Core diagnostics last: rules may parse more modules and meet more problems.
	return append(ds, v.ModuleDiagnostics()...)
}
