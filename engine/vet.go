package engine

import (
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/lint"
)

// VetAnalyzers are the analyzers that `go vet -vettool=$(which gymlint)`
// runs, through unitchecker: one per Go analyzer of gymlint, with its name
// (so go vet's -NAME flags select them as before). On each package they
// find the repository root from the package's directory (FindRoot), read
// its configuration, run the Go analyzers it enables, and pass what they
// report through Finish: the package's inline suppressions (unused ones
// included, over every analyzer's findings at once) and the
// configuration's enable/disable and per-path ignores apply as in
// `gymlint`. Each finding is reported by the analyzer whose rule it is,
// with its code first in the message ("GL350 the seed handler ..."), since
// go vet's plain output shows no category; the suppressions' own findings
// (GL009, GL010, GL013) and GL011 are reported by the first analyzer that runs.
// (A severity override changes nothing go vet shows: it has no severity.)
func VetAnalyzers() []*analysis.Analyzer { return vetAnalyzers(goanalysis.Analyzers) }

// vet is the state the wrappers of one process share.
type vet struct {
	inner    []*analysis.Analyzer
	wrappers []*analysis.Analyzer
	mu       sync.Mutex
	pkgs     map[*types.Package]*vetPackage
}

// vetPackage is the outcome for one package: what every wrapper reports.
type vetPackage struct {
	once  sync.Once
	err   error
	diags []vetDiagnostic
}

// vetDiagnostic is one finding to report, and the analyzer that reports it
// ("" for the first wrapper that runs).
type vetDiagnostic struct {
	analyzer string
	d        analysis.Diagnostic
}

func vetAnalyzers(inner []*analysis.Analyzer) []*analysis.Analyzer {
	v := &vet{inner: inner, pkgs: map[*types.Package]*vetPackage{}}
	// Every wrapper requires what every inner analyzer does: the first to
	// run on a package runs them all.
	var requires []*analysis.Analyzer
	for _, a := range inner {
		for _, r := range a.Requires {
			if !slices.Contains(requires, r) {
				requires = append(requires, r)
			}
		}
	}
	for _, a := range inner {
		w := &analysis.Analyzer{Name: a.Name, Doc: a.Doc, URL: a.URL, Requires: requires, RunDespiteErrors: a.RunDespiteErrors}
		w.Run = func(pass *analysis.Pass) (any, error) { return nil, v.run(pass, a.Name) }
		v.wrappers = append(v.wrappers, w)
	}
	return v.wrappers
}

// run reports, on pass, the findings of the package that are the named
// analyzer's.
func (v *vet) run(pass *analysis.Pass, name string) error {
	v.mu.Lock()
	p := v.pkgs[pass.Pkg]
	if p == nil {
		p = &vetPackage{}
		v.pkgs[pass.Pkg] = p
	}
	v.mu.Unlock()
	p.once.Do(func() { p.diags, p.err = v.analyse(pass) })
	if p.err != nil {
		return p.err
	}
	first := v.firstEnabled() == name
	for _, vd := range p.diags {
		if vd.analyzer == name || vd.analyzer == "" && first {
			pass.Report(vd.d)
		}
	}
	return nil
}

// analyse runs the enabled inner analyzers on the package of pass and
// returns the findings that Finish keeps.
func (v *vet) analyse(pass *analysis.Pass) ([]vetDiagnostic, error) {
	files := make(map[string]*token.File) // by root-relative path
	var first string
	var tfs []*token.File
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil {
			tfs = append(tfs, tf)
		}
	}
	if len(tfs) == 0 {
		return nil, nil
	}
	root, err := FindRoot(filepath.Dir(tfs[0].Name()))
	if err != nil {
		return nil, err
	}
	e, err := New(Options{Root: root.Dir, GoAnalyzers: v.inner})
	if err != nil {
		return nil, fmt.Errorf("gymlint: %v", err)
	}
	conv, err := goanalysis.NewConverter(root.Dir, lint.Lookup)
	if err != nil {
		return nil, err
	}
	var scanned []string
	absOf := map[string]string{}
	for _, tf := range tfs {
		rel, ok := conv.Rel(tf.Name())
		if !ok {
			continue
		}
		if first == "" {
			first = rel
		}
		scanned = append(scanned, rel)
		absOf[rel] = tf.Name()
		files[rel] = tf
	}
	var ds []diag.Diagnostic
	for _, a := range e.goAnalyzers {
		found, result, err := runInner(pass, a)
		if err != nil {
			pos := diag.Pos{Line: 1, Col: 1}
			ds = append(ds, core.InternalError.New(first, pos, pos, fmt.Sprintf(
				"internal error: analyzer %s failed while checking package %s: %v; its findings for the package are missing, the other analyzers' stand",
				a.Name, pass.Pkg.Path(), err)))
			continue
		}
		for _, d := range found {
			ds = append(ds, conv.Convert(pass.Fset, a, d, result, first))
		}
	}
	read := func(rel string) ([]byte, error) {
		a, ok := absOf[rel]
		if !ok {
			return nil, fmt.Errorf("%s is not a file of package %s", rel, pass.Pkg.Path())
		}
		return pass.ReadFile(a)
	}
	ds = e.Finish(ds, scanned, read)
	var out []vetDiagnostic
	for _, d := range ds {
		ad, ok := toAnalysis(d, files)
		if !ok {
			continue
		}
		owner := ""
		for _, a := range v.inner {
			if d.Analyzer == a.Name {
				owner = a.Name
			}
		}
		out = append(out, vetDiagnostic{analyzer: owner, d: ad})
	}
	return out, nil
}

// runInner runs one inner analyzer on the package of pass, collecting what
// it reports; a panic is an error.
func runInner(pass *analysis.Pass, a *analysis.Analyzer) (found []analysis.Diagnostic, result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			found, result, err = nil, nil, fmt.Errorf("analyzer %s panicked: %v", a.Name, r)
		}
	}()
	p := *pass
	p.Analyzer = a
	p.Report = func(d analysis.Diagnostic) { found = append(found, d) }
	result, err = a.Run(&p)
	return found, result, err
}

// toAnalysis converts a finding back to go vet's form, its code first in
// the message. It reports false when the finding is in no file of the
// package.
func toAnalysis(d diag.Diagnostic, files map[string]*token.File) (analysis.Diagnostic, bool) {
	pos := func(p string, at diag.Pos) (token.Pos, bool) {
		f := files[p]
		if f == nil || at.Offset < 0 || at.Offset > f.Size() {
			return token.NoPos, false
		}
		return f.Pos(at.Offset), true
	}
	start, ok := pos(d.Path, d.Start)
	if !ok {
		return analysis.Diagnostic{}, false
	}
	end, ok := pos(d.Path, d.End)
	if !ok || end < start {
		end = start
	}
	out := analysis.Diagnostic{Pos: start, End: end, Category: d.Code, Message: d.Code + " " + d.Message}
	if r := lint.Lookup(d.Code); r != nil {
		out.URL = r.URL()
	}
	for _, r := range d.Related {
		if p, ok := pos(r.Path, r.Start); ok {
			e, ok := pos(r.Path, r.End)
			if !ok || e < p {
				e = p
			}
			out.Related = append(out.Related, analysis.RelatedInformation{Pos: p, End: e, Message: r.Message})
		}
	}
	for _, f := range d.Fixes {
		sf := analysis.SuggestedFix{Message: f.Message}
		whole := true
		for _, te := range f.Edits {
			p, ok1 := pos(te.Path, te.Start)
			e, ok2 := pos(te.Path, te.End)
			if !ok1 || !ok2 {
				whole = false
				break
			}
			sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: p, End: e, NewText: []byte(te.NewText)})
		}
		if whole && len(sf.TextEdits) > 0 {
			out.SuggestedFixes = append(out.SuggestedFixes, sf)
		}
	}
	return out, true
}

// firstEnabled is the name of the first wrapper that go vet's -NAME flags
// leave on: when some -NAME is true, those alone run; else every one not
// set false (as unitchecker decides).
func (v *vet) firstEnabled() string {
	state := func(name string) string {
		if f := flag.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	anyTrue := false
	for _, w := range v.wrappers {
		anyTrue = anyTrue || state(w.Name) == "true"
	}
	for _, w := range v.wrappers {
		s := state(w.Name)
		if anyTrue && s == "true" || !anyTrue && s != "false" {
			return w.Name
		}
	}
	return ""
}
