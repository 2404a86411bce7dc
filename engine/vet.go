package engine

import (
	"flag"
	"fmt"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"slices"

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
// `gymlint`.
//
// That work is one analyzer, vetCore ("gymlint", with no flag of its own),
// that every one of them requires, so
// that unitchecker runs it once per package and hands its result to each;
// each then reports the findings of its own analyzer, the one that reported
// them (goworkers GL150 and GL151, gosessions GL350-GL354, goprotocol
// GL014; an analyzer's internal error, GL011, is that analyzer's), with its
// code first in the message ("GL350 the seed handler ..."), since go vet's
// plain output shows no category. The suppressions' own findings (GL009,
// GL010, GL013) belong to no analyzer: the first one that go vet's flags
// select reports them. (A severity override changes nothing go vet shows:
// it has no severity.)
func VetAnalyzers() []*analysis.Analyzer { return vetAnalyzers(goanalysis.Analyzers) }

// vetResult is the result of vetCore on one package: every finding to
// report, or the error that stopped the analysis (a configuration error),
// which each analyzer returns as its own: an error of vetCore itself would
// reach go vet only as "failed prerequisites: gymlint".
type vetResult struct {
	diags []vetDiagnostic
	err   error
}

// vetDiagnostic is one finding to report, and the name of the analyzer
// that reports it ("" for the first one selected).
type vetDiagnostic struct {
	analyzer string
	d        analysis.Diagnostic
}

func vetAnalyzers(inner []*analysis.Analyzer) []*analysis.Analyzer {
	// vetCore requires what every inner analyzer does, and runs them all.
	var requires []*analysis.Analyzer
	despite := false
	for _, a := range inner {
		despite = despite || a.RunDespiteErrors
		for _, r := range a.Requires {
			if !slices.Contains(requires, r) {
				requires = append(requires, r)
			}
		}
	}
	vetCore := &analysis.Analyzer{
		Name: "gymlint",
		Doc: `run gymlint's Go analyzers on a package with the repository's configuration and suppressions

Its result holds every finding that survives them, each with the analyzer
whose finding it is; the analyzers that go vet selects report their own.`,
		Requires:         requires,
		RunDespiteErrors: despite,
		ResultType:       reflect.TypeFor[*vetResult](),
		Run: func(pass *analysis.Pass) (any, error) {
			diags, err := analyse(pass, inner)
			return &vetResult{diags: diags, err: err}, nil
		},
	}
	names := make([]string, len(inner))
	for i, a := range inner {
		names[i] = a.Name
	}
	var wrappers []*analysis.Analyzer
	for _, a := range inner {
		w := &analysis.Analyzer{Name: a.Name, Doc: a.Doc, URL: a.URL, Requires: []*analysis.Analyzer{vetCore}, RunDespiteErrors: a.RunDespiteErrors}
		w.Run = func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[vetCore].(*vetResult)
			if res.err != nil {
				return nil, res.err
			}
			first := firstSelected(flag.CommandLine, names) == a.Name
			for _, vd := range res.diags {
				if vd.analyzer == a.Name || vd.analyzer == "" && first {
					pass.Report(vd.d)
				}
			}
			return nil, nil
		}
		wrappers = append(wrappers, w)
	}
	return wrappers
}

// ownerKey identifies a finding across Finish, which keeps, drops and
// sorts findings but does not change where they are or what they say.
type ownerKey struct {
	path       string
	start, end int
	code, msg  string
}

func ownerKeyOf(d diag.Diagnostic) ownerKey {
	return ownerKey{d.Path, d.Start.Offset, d.End.Offset, d.Code, d.Message}
}

// analyse runs the inner analyzers that the configuration enables on the
// package of pass and returns the findings that Finish keeps, each with
// the inner analyzer that reported it.
func analyse(pass *analysis.Pass, inner []*analysis.Analyzer) ([]vetDiagnostic, error) {
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
	e, err := New(Options{Root: root.Dir, GoAnalyzers: inner})
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
	owner := map[ownerKey]string{}
	for _, a := range e.goAnalyzers {
		found, result, err := runInner(pass, a)
		if err != nil {
			pos := diag.Pos{Line: 1, Col: 1}
			d := core.InternalError.New(first, pos, pos, fmt.Sprintf(
				"internal error: analyzer %s failed while checking package %s: %v; its findings for the package are missing, the other analyzers' stand",
				a.Name, pass.Pkg.Path(), err))
			owner[ownerKeyOf(d)] = a.Name
			ds = append(ds, d)
			continue
		}
		for _, f := range found {
			d := conv.Convert(pass.Fset, a, f, result, first)
			owner[ownerKeyOf(d)] = a.Name
			ds = append(ds, d)
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
		out = append(out, vetDiagnostic{analyzer: owner[ownerKeyOf(d)], d: ad})
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

// firstSelected is the first of names (the analyzers' names, which are
// go vet's -NAME flags, parsed into fs) that the flags select, as
// unitchecker decides: when some -NAME is given true, those alone; else
// every one not given false. Only the flags given count: an analysis flag
// that is not given reads "true" too.
func firstSelected(fs *flag.FlagSet, names []string) string {
	given := map[string]bool{} // name -> its value
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(names, f.Name) {
			given[f.Name] = f.Value.String() == "true"
		}
	})
	anyTrue := slices.Contains(slices.Collect(maps.Values(given)), true)
	for _, n := range names {
		on, ok := given[n]
		if anyTrue && on || !anyTrue && !ok {
			return n
		}
	}
	return ""
}
