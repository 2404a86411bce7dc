// Package lint is the catalogue of gymlint's rules and the runner that
// applies them to one repository's view (a group of entrypoints at a time).
// The pipeline around it (caching, suppressions, the configuration's
// policy, Go beside Python) is package engine's.
package lint

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/gymlint/gymlint/analyzers/configs"
	"github.com/gymlint/gymlint/analyzers/gosessions"
	"github.com/gymlint/gymlint/analyzers/goworkers"
	"github.com/gymlint/gymlint/analyzers/rayenabled"
	"github.com/gymlint/gymlint/analyzers/sessions"
	"github.com/gymlint/gymlint/analyzers/workers"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/gym"
)

// Checks returns the analyzers' rules, in code order. The slice is the
// caller's: a front end keeps the checks of the rules its configuration
// enables and runs those alone (AnalyseWith).
func Checks() []gym.Check { return slices.Clone(checks) }

// checks are the analyzers' rules, in code order.
var checks = func() []gym.Check {
	var cs []gym.Check
	cs = append(cs, gym.ComposeCheck, gym.StartsNoServerCheck, gym.NeedlessExemptionCheck)
	cs = append(cs, workers.Checks...)
	cs = append(cs, rayenabled.Checks...)
	cs = append(cs, sessions.Checks...)
	cs = append(cs, configs.Checks...)
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
	// The core rules (some of which are checks too, GL015), then the
	// analyzers' checks, then the Go analyzers' rules (they run through
	// goanalysis, not as checks).
	rs := slices.Clone(core.Rules)
	for _, c := range checks {
		if !slices.Contains(core.Rules, c.Rule) {
			rs = append(rs, c.Rule)
		}
	}
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

// Run builds the view of the repository at root and applies every rule,
// without configuration or suppressions: the rules' own verdicts, for
// tests and benchmarks. gymlint's front ends run the configured pipeline
// of package engine.
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

// Analyse applies every rule to the view (see AnalyseWith).
func Analyse(v *gym.View) []diag.Diagnostic { return AnalyseWith(v, checks) }

// AnalyseWith applies the given checks to the view's entrypoints and
// returns what they find, with the core diagnostics of the modules the
// checks read (unreadable files, syntax errors), unsorted. A module only a
// check that does not run would read is not parsed. It leaves out the
// view's RepositoryDiagnostics (configs, the entrypoint map), which do not
// depend on the entrypoints analysed: a language server that analyses a
// few entrypoints of a gym.Cache at a time takes those once per cache
// state.
//
// A check that panics does not end the analysis: it is run again on each
// entrypoint alone, its findings on the entrypoints it passes are kept,
// and each entrypoint it fails on gets one GL011 (internal-error)
// diagnostic naming the rule and the error.
func AnalyseWith(v *gym.View, checks []gym.Check) []diag.Diagnostic {
	var ds []diag.Diagnostic
	var extra []diag.Diagnostic // core diagnostics of the views made to isolate a failure
	for _, c := range checks {
		found, failed := runCheck(v, c)
		if failed == nil {
			ds = append(ds, found...)
			continue
		}
		found, more := isolate(v, c, failed)
		ds = append(ds, found...)
		extra = append(extra, more...)
	}
	// Core diagnostics last: rules may parse more modules and meet more problems.
	ds = append(ds, v.ModuleDiagnostics()...)
	if len(extra) > 0 {
		ds = dedup(append(ds, extra...))
	}
	return ds
}

// runCheck runs one check, recovering a panic: failed is the panic's value.
// A ConfigsOnly check runs once for every view of the same configs.
func runCheck(v *gym.View, c gym.Check) (ds []diag.Diagnostic, failed any) {
	if c.ConfigsOnly {
		r := v.SharedByConfigs(configsOnlyKey{c.Rule.Code}, func() any {
			ds, failed := runOnce(v, c)
			return configsOnlyResult{ds, failed}
		}).(configsOnlyResult)
		return slices.Clone(r.ds), r.failed
	}
	return runOnce(v, c)
}

func runOnce(v *gym.View, c gym.Check) (ds []diag.Diagnostic, failed any) {
	defer func() {
		if r := recover(); r != nil {
			ds, failed = nil, r
		}
	}()
	return c.Run(v), nil
}

// configsOnlyKey is the View.SharedByConfigs key of a ConfigsOnly check's
// findings (a configsOnlyResult), by rule code.
type configsOnlyKey struct{ code string }

type configsOnlyResult struct {
	ds     []diag.Diagnostic
	failed any
}

// isolate runs a check that panicked on v once per entrypoint of v, in a
// view of that entrypoint alone. It returns the findings of the runs that
// pass, a GL011 diagnostic for each entrypoint the check fails on, and
// the core diagnostics of the modules those views read.
func isolate(v *gym.View, c gym.Check, failed any) (ds, core []diag.Diagnostic) {
	if len(v.Entrypoints) <= 1 {
		path := ""
		if len(v.Entrypoints) == 1 {
			path = v.Entrypoints[0].Path
		}
		return []diag.Diagnostic{internalError(c.Rule, path, failed)}, nil
	}
	for _, e := range v.Entrypoints {
		fv := v.Focus([]string{e.Path})
		found, err := runCheck(fv, c)
		if err != nil {
			ds = append(ds, internalError(c.Rule, e.Path, err))
		} else {
			ds = append(ds, found...)
		}
		core = append(core, fv.ModuleDiagnostics()...)
	}
	return ds, core
}

// internalError is the GL011 diagnostic of a rule that failed on a file
// ("" when no file can be named: the repository's root).
func internalError(r *diag.Rule, path string, failed any) diag.Diagnostic {
	where := "this file"
	if path == "" {
		path, where = ".", "the repository"
	}
	pos := diag.Pos{Line: 1, Col: 1}
	return core.InternalError.New(path, pos, pos, fmt.Sprintf(
		"internal error: rule %s (%s) failed while checking %s: %v; its findings for %s are missing, the other rules' stand",
		r.Code, r.Name, where, failed, where))
}

// dedup keeps the first of each finding reported twice (by the views of
// isolate that read the same modules).
func dedup(ds []diag.Diagnostic) []diag.Diagnostic {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := identity(d)
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
