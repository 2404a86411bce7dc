// Package goanalysis is gymlint's driver for its Go analyzers: it finds the
// Go modules of a repository, loads their packages with
// golang.org/x/tools/go/packages, runs the registered analyzers (Analyzers)
// with golang.org/x/tools/go/analysis/checker, and turns what they report
// into gymlint diagnostics (package diag), with paths relative to the
// scanned root, byte columns, and suggested fixes as text edits.
//
// gymlint never runs, builds or downloads the code it checks. Before a
// module is loaded, the files that loading would read are checked as the
// Python side's are (regular files inside the root, within the size cap;
// see checkModule); a module with a named pipe, a device, a link out of the
// root or an oversized file is reported and not loaded. Loading a module
// runs `go list` in its directory, with the environment hardenedEnv sets
// (no cgo, no toolchain switch, no module download, no go.work, no cache
// program, no go env file) and a GOFLAGS of build tags only (goEnv), and
// -mod=readonly (or -mod=vendor), under a timeout and a context that
// Interrupt cancels; the packages and all their dependencies are then
// parsed and type-checked from source in this process. Nothing is
// compiled or executed (go list runs the toolchain's compile, asm and link
// with -V=full only, to learn their versions). With Config.Cache, the dependencies' types (and
// their analyzers' facts) are read from gymlint's cache as export data
// when an earlier run stored them, keyed by the content of their files
// (see typecache.go); the module's own packages are always loaded from
// source.
//
// A package that does not load is reported (RuleLoadError, GL008) once per
// error, and the scan goes on with the others; so are a module that is not
// loaded and the cgo files of a package, which are left out.
//
// Under `go vet -vettool=$(which gymlint)` the go command drives the same
// analyzers through unitchecker instead (see VetInvocation).
package goanalysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/repofs"
)

// skipDirs are directory names that module discovery does not enter, in
// addition to hidden directories (".git", ".venv", ...).
var skipDirs = map[string]bool{
	"vendor": true, "testdata": true, "node_modules": true,
	"__pycache__": true, "venv": true, "site-packages": true,
}

// SkipDir reports whether module discovery leaves out a directory of
// this name (Modules).
func SkipDir(name string) bool { return strings.HasPrefix(name, ".") || skipDirs[name] }

// Modules returns the directories under root that hold a go.mod file, as
// root-relative slash-separated paths ("." for root itself), sorted. It does
// not enter hidden directories, vendor, testdata, node_modules, __pycache__,
// venv or site-packages, and does not follow symbolic links to directories.
// A go.mod that is a symbolic link or a special file is listed: Run loads
// the module when the link leads to a regular file inside the root, and
// reports why not otherwise (checkModule). A module nested in another is
// listed too: `./...` of the outer one does not include it.
func Modules(root string) ([]string, error) {
	// The root itself may be a symbolic link; below it, none is followed.
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	var mods []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable subdirectory is not ours to report
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "go.mod" { // not a directory: a regular file, or a link or special file that checkModule checks
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			mods = append(mods, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(mods)
	return mods, nil
}

// Config says what Run does.
type Config struct {
	// Analyzers to run; nil means the registered Analyzers.
	Analyzers []*analysis.Analyzer
	// Lookup finds the catalogue entry of a rule code (a Diagnostic.Category)
	// to fill in a diagnostic's rule name, analyzer and severity. Codes it
	// does not know (and a nil Lookup) fall back to this package's Rules,
	// then to the analyzer's name and warning severity.
	Lookup func(code string) *diag.Rule
	// Modules are the root-relative module directories to load; nil means
	// Modules(root).
	Modules []string
	// Tests also loads and analyzes each package's _test.go files.
	Tests bool
	// Env is added to the process environment for `go list` (for example
	// GOFLAGS=-tags=integration). The variables gymlint sets itself
	// (hardenedEnv: CGO_ENABLED, GOTOOLCHAIN, GOPROXY, GOWORK, GOENV,
	// GOCACHEPROG, ...) come after it and win, GOFLAGS keeps only its
	// build tags (safeGoFlags), and -mod is given both in GOFLAGS and on
	// the command line (see goEnv).
	Env []string
	// Network lets the go command download missing dependencies, with the
	// user's GOPROXY, GOSUMDB, GOPRIVATE, GOVCS and GOAUTH (gymlint
	// --go-network). It still runs with CGO_ENABLED=0, GOTOOLCHAIN=local,
	// GOWORK=off and -mod=readonly: it builds and runs nothing, and never
	// writes go.mod or go.sum.
	Network bool
	// MaxFileSize caps the size of a Go file, go.mod or go.sum of a module
	// to load, as it caps the Python side's reads; 0 means
	// repofs.DefaultMaxFileSize.
	MaxFileSize int64
	// LoadTimeout bounds the loading of one module (go list, parsing and
	// type-checking); 0 means DefaultLoadTimeout.
	LoadTimeout time.Duration
	// Context, when not nil, cancels the loads (as Interrupt does).
	Context context.Context
	// Overlay is read instead of the disk: content by root-relative path
	// (an editor's unsaved buffers), as packages.Config.Overlay takes it.
	Overlay map[string][]byte
	// Cache, when not nil, keeps the type information of the modules'
	// dependencies (the standard library, required modules) between runs,
	// as export data keyed by the content of their files (kind "gotypes";
	// see typecache.go). The modules' own packages are parsed and
	// type-checked from source on every run; the findings are the same
	// with and without it. nil: every dependency is type-checked from
	// source.
	Cache *diskcache.Cache

	// noCheck skips the check of a module's files before it is loaded (for
	// the tests of what bounds go list without it).
	noCheck bool
}

// Result is the outcome of Run.
type Result struct {
	Modules     []string // root-relative directories of the modules loaded
	Packages    int      // packages loaded (test variants included when Config.Tests)
	Diagnostics []diag.Diagnostic
	// Files are the root-relative Go files of the packages analyzed,
	// sorted: the files whose suppressions a scan checks. The files of a
	// package that does not load or type-check (analysed) are not among
	// them.
	Files []string

	cache  cacheStats           // what the loads did with Config.Cache
	parsed map[string]parsedSum // what the analyzers parsed (ParsedSum)
}

// ErrNoGoCommand is returned by Run when there is no go command on PATH to
// load packages with.
var ErrNoGoCommand = errors.New("no go command on PATH")

// loadMode loads syntax and types of the packages and of every dependency,
// from source: no export data, so nothing is compiled.
const loadMode = packages.LoadAllSyntax | packages.NeedModule

// Run loads every Go module under root and runs the analyzers on its
// packages. Diagnostics are sorted. Load errors become GL008 diagnostics,
// and an analyzer that fails or panics on a package (a gymlint bug) a
// GL011 diagnostic at the package's first file, while the other analyzers'
// findings stand; the error result is for what stops the scan (no go
// command, an unreadable root, Interrupt: ErrInterrupted).
func Run(root string, cfg Config) (*Result, error) {
	analyzers := cfg.Analyzers
	if analyzers == nil {
		analyzers = Analyzers
	}
	if err := analysis.Validate(analyzers); err != nil {
		return nil, err
	}
	mods := cfg.Modules
	if mods == nil {
		var err error
		if mods, err = Modules(root); err != nil {
			return nil, err
		}
	}
	res := &Result{}
	if len(mods) == 0 {
		return res, nil
	}
	if _, err := exec.LookPath("go"); err != nil {
		return nil, ErrNoGoCommand
	}
	rt, err := newRooted(root)
	if err != nil {
		return nil, err
	}
	c := &converter{root: rt, lookup: cfg.Lookup, files: map[string][]byte{}, cfg: &cfg}
	if c.cfg.MaxFileSize <= 0 {
		c.cfg.MaxFileSize = repofs.DefaultMaxFileSize
	}
	if c.cfg.LoadTimeout <= 0 {
		c.cfg.LoadTimeout = DefaultLoadTimeout
	}
	if c.cfg.Context == nil {
		c.cfg.Context = context.Background()
	}
	for rel, data := range cfg.Overlay {
		abs := filepath.Join(rt.abs, filepath.FromSlash(rel))
		if c.overlay == nil {
			c.overlay = map[string][]byte{}
		}
		c.overlay[abs] = data
		c.files[abs] = data
	}
	guardedAll := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		guardedAll[i] = guarded(a)
	}
	for _, mod := range mods {
		n, err := c.module(mod, guardedAll, cfg.Tests)
		if err != nil {
			return nil, err
		}
		res.Modules = append(res.Modules, mod)
		res.Packages += n
	}
	res.Diagnostics = c.out
	res.cache = c.cacheStats
	diag.Sort(res.Diagnostics)
	res.Files = slices.Sorted(maps.Keys(c.goFiles))
	res.parsed = c.parsed.m
	return res, nil
}

// panicked is the error of an analyzer that panicked.
type panicked struct {
	analyzer string
	value    any
}

func (p *panicked) Error() string {
	return fmt.Sprintf("analyzer %s panicked: %v", p.analyzer, p.value)
}

// guarded returns a copy of a whose Run turns a panic into an error, so
// that the checker records it for the package and goes on with the other
// analyzers and packages. (The analyzers a requires run unguarded: their
// results are keyed by the analyzers themselves. A panic there ends the
// module's analysis, which module reports.)
func guarded(a *analysis.Analyzer) *analysis.Analyzer {
	g := *a
	run := a.Run
	g.Run = func(pass *analysis.Pass) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, &panicked{analyzer: a.Name, value: r}
			}
		}()
		return run(pass)
	}
	return &g
}

// internalError is the GL011 diagnostic of an analyzer that failed.
func internalError(path, analyzer, pkg string, err error) diag.Diagnostic {
	pos := diag.Pos{Line: 1, Col: 1}
	return core.InternalError.New(path, pos, pos, fmt.Sprintf(
		"internal error: analyzer %s failed while checking package %s: %v; its findings for the package are missing, the other analyzers' stand",
		analyzer, pkg, err))
}

// module loads and analyzes one module; it returns the number of packages
// loaded, and ErrInterrupted when Interrupt (or Config.Context) stopped it.
func (c *converter) module(mod string, analyzers []*analysis.Analyzer, tests bool) (int, error) {
	dir := filepath.Join(c.root.abs, filepath.FromSlash(mod))
	gomod := path.Join(mod, "go.mod")
	at := diag.Pos{Line: 1, Col: 1}
	var mc moduleCheck
	if !c.cfg.noCheck {
		mc = c.checkModule(mod, c.cfg.MaxFileSize, c.cfg.Overlay)
		for i, p := range mc.problems {
			more := ""
			if i == len(mc.problems)-1 && mc.more > 0 {
				more = fmt.Sprintf(" (and %d more files like it)", mc.more)
			}
			d := core.GoLoadError.New(p.path, p.pos, p.pos, fmt.Sprintf("Go module %s is not loaded: %s %s%s", mod, p.path, p.what, more))
			d.Help = "gymlint loads a module only when the files the go command reads are regular files inside the repository, within the size limit (--max-file-size); make it one, or move it out of the module"
			c.add(d)
		}
		if len(mc.problems) > 0 {
			return 0, nil
		}
	}
	base, ok := beginLoad()
	if !ok {
		return 0, ErrInterrupted
	}
	defer endLoad()
	ctx, cancel := context.WithTimeout(base, c.cfg.LoadTimeout)
	defer cancel()
	stop := context.AfterFunc(c.cfg.Context, cancel)
	defer stop()
	pkgs, tl, err := c.load(ctx, &packages.Config{Context: ctx, Mode: loadMode, Dir: dir, Tests: tests, Env: goEnv(*c.cfg, modFlag(mc.vendor)),
		BuildFlags: []string{modFlag(mc.vendor)}, Overlay: c.overlay}, analyzers)
	switch {
	case base.Err() != nil || c.cfg.Context.Err() != nil:
		return 0, ErrInterrupted
	case err != nil && ctx.Err() != nil:
		c.add(core.GoLoadError.New(gomod, at, at, fmt.Sprintf(
			"Go module %s is not analyzed: loading it (go list, then type-checking its packages) did not finish within %s, and gymlint stopped it",
			mod, c.cfg.LoadTimeout)))
		return 0, nil
	case err != nil:
		c.add(core.GoLoadError.New(gomod, at, at,
			fmt.Sprintf("Go module %s does not load: %s", mod, c.clean(goListMessage(err)))))
		return 0, nil
	}
	c.cgoDirs = c.cgoNotes(mod, mc.cgo, pkgs)
	for _, p := range pkgs {
		c.loadErrors(p, dir, gomod)
		if !analysed(p) {
			continue
		}
		for _, f := range p.GoFiles {
			if rel, ok := c.root.rel(f); ok {
				if c.goFiles == nil {
					c.goFiles = map[string]bool{}
				}
				c.goFiles[rel] = true
			}
		}
	}
	if tl != nil {
		defer func() { c.addStats(tl.stats) }()
	}
	if len(pkgs) == 0 || len(analyzers) == 0 {
		if tl != nil && len(tl.factNames) == 0 {
			tl.store()
		}
		return len(pkgs), nil
	}
	run := analyzers
	if tl != nil {
		run = tl.wrap(analyzers)
	}
	graph, err := analyze(run, pkgs)
	if err == nil && tl != nil {
		tl.store()
	}
	if err != nil {
		pos := diag.Pos{Line: 1, Col: 1}
		c.add(core.InternalError.New(gomod, pos, pos, fmt.Sprintf(
			"internal error: the Go analysis of module %s failed: %v; the module's findings are missing, the other modules' stand", mod, err)))
		return len(pkgs), nil
	}
	for act := range graph.All() {
		// A package with errors (reported above) is skipped by the
		// analyzers that do not run despite errors. Of the failures, report
		// the first causes, not the actions that failed because an action
		// they depend on did.
		if act.Err == nil || act.Package.IllTyped || slices.ContainsFunc(act.Deps, func(d *checker.Action) bool { return d.Err != nil }) {
			continue
		}
		where := gomod
		if len(act.Package.GoFiles) > 0 {
			if rel, ok := c.root.rel(act.Package.GoFiles[0]); ok {
				where = rel
			}
		}
		c.add(internalError(where, act.Analyzer.Name, act.Package.ID, act.Err))
	}
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			c.add(c.diagnostic(act.Package.Fset, act.Analyzer, d, gohelp.Of(act.Result, d), gomod))
		}
	}
	return len(pkgs), nil
}

// analyze runs the analyzers on the packages, one action after another so
// that a panicking analyzer becomes an error here instead of a crash in a
// goroutine of the checker.
func analyze(analyzers []*analysis.Analyzer, pkgs []*packages.Package) (g *checker.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("it panicked: %v", r)
		}
	}()
	return checker.Analyze(analyzers, pkgs, &checker.Options{Sequential: true})
}

// rooted resolves file names to root-relative paths, both through the root
// as given and through its real path (the go command may report either).
type rooted struct{ abs, real string }

func newRooted(root string) (rooted, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return rooted{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return rooted{}, err
	}
	return rooted{abs: abs, real: real}, nil
}

// rel returns file relative to the root, slash-separated, and whether it is
// inside the root; outside, it returns the file's own slash path.
func (r rooted) rel(file string) (string, bool) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(r.abs, file)
	}
	try := func(base, f string) (string, bool) {
		rel, err := filepath.Rel(base, f)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	if rel, ok := try(r.abs, file); ok {
		return rel, true
	}
	if rel, ok := try(r.real, file); ok {
		return rel, true
	}
	if real, err := filepath.EvalSymlinks(file); err == nil {
		if rel, ok := try(r.real, real); ok {
			return rel, true
		}
	}
	return filepath.ToSlash(file), false
}

// converter turns analysis results and load errors into diagnostics.
type converter struct {
	cfg     *Config // nil for a Converter
	root    rooted
	lookup  func(string) *diag.Rule
	files   map[string][]byte // file contents read to place load errors
	overlay map[string][]byte // by absolute path
	goFiles map[string]bool   // root-relative Go files of the packages loaded
	cgoDirs map[string]bool   // root-relative directories of the module's packages with cgo files left out
	seen    map[string]bool
	out     []diag.Diagnostic

	cacheStats cacheStats // summed over the modules
	parsed     parsedSums // the sums of the root's Go files parsed
}

// add appends d unless the same finding is already there.
func (c *converter) add(d diag.Diagnostic) {
	key := fmt.Sprintf("%s\x00%d\x00%d\x00%s\x00%s", d.Path, d.Start.Line, d.Start.Col, d.Code, d.Message)
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.out = append(c.out, d)
}

// rule finds the catalogue entry of a code.
func (c *converter) rule(code string) *diag.Rule {
	if c.lookup != nil {
		if r := c.lookup(code); r != nil {
			return r
		}
	}
	return lookupOwn(code)
}

// position converts a token.Pos to a root-relative path and a diag.Pos.
// Positions are the file's own (not adjusted by //line directives), so that
// offsets and paths name the bytes that a fix edits.
func (c *converter) position(fset *token.FileSet, pos token.Pos) (string, diag.Pos, bool) {
	if !pos.IsValid() {
		return "", diag.Pos{}, false
	}
	p := fset.PositionFor(pos, false)
	rel, _ := c.root.rel(p.Filename)
	return rel, diag.Pos{Offset: p.Offset, Line: p.Line, Col: p.Column}, true
}

// diagnostic converts one analysis.Diagnostic of analyzer a, with the help
// the analyzer gave for it (see package gohelp). fallback is the path used
// when the analyzer gave no position.
func (c *converter) diagnostic(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic, help, fallback string) diag.Diagnostic {
	out := diag.Diagnostic{Code: d.Category, Rule: d.Category, Analyzer: a.Name, Severity: diag.Warning, Message: d.Message, Help: help}
	if out.Code == "" {
		out.Code, out.Rule = a.Name, a.Name
	}
	if r := c.rule(out.Code); r != nil {
		out.Rule, out.Analyzer, out.Severity = r.Name, r.Analyzer, r.Severity
	}
	var ok bool
	out.Path, out.Start, ok = c.position(fset, d.Pos)
	if !ok {
		out.Path, out.Start = fallback, diag.Pos{Line: 1, Col: 1}
	}
	out.End = out.Start
	if _, end, ok := c.position(fset, d.End); ok && d.End >= d.Pos {
		out.End = end
	}
	for _, r := range d.Related {
		path, start, ok := c.position(fset, r.Pos)
		if !ok {
			continue
		}
		rel := diag.Related{Path: path, Start: start, End: start, Message: r.Message}
		if _, end, ok := c.position(fset, r.End); ok && r.End >= r.Pos {
			rel.End = end
		}
		out.Related = append(out.Related, rel)
	}
	for _, f := range d.SuggestedFixes {
		fix := diag.Fix{Message: f.Message}
		for _, e := range f.TextEdits {
			path, start, ok := c.position(fset, e.Pos)
			if !ok {
				continue
			}
			te := diag.TextEdit{Path: path, Start: start, End: start, NewText: string(e.NewText)}
			if _, end, ok := c.position(fset, e.End); ok && e.End >= e.Pos {
				te.End = end
			}
			fix.Edits = append(fix.Edits, te)
		}
		out.Fixes = append(out.Fixes, fix)
	}
	return out
}

// loadErrors reports the errors of one loaded package: its own, or, when it
// has none but a dependency does, one diagnostic naming that dependency.
// Of a package whose cgo files were left out, or that imports such a
// package, the type errors are not reported one by one: they follow from
// the files left out, which cgoNotes reports.
func (c *converter) loadErrors(p *packages.Package, dir, gomod string) {
	name := p.PkgPath
	if name == "" {
		name = p.ID
	}
	// skipTypes: the type errors follow from an import that is missing
	// or left out, which is said instead.
	skipTypes := c.cgoDirs[c.packageDir(p)]
	if !skipTypes && slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.TypeError }) {
		path, pos := c.firstFile(p, gomod)
		if dep := c.cgoImport(p); dep != "" {
			skipTypes = true
			c.add(core.GoLoadError.New(path, pos, pos, fmt.Sprintf(
				"Go package %s is not analyzed: it imports %s, whose files that use cgo are not loaded (CGO_ENABLED=0), so it does not type-check", name, dep)))
		} else if dep, e := unlistedImport(p); dep != nil {
			skipTypes = true
			if at, apos := c.errorPos(e.Pos, dir); at != "" {
				path, pos = at, apos // the import, when go list names it
			}
			c.add(core.GoLoadError.New(path, pos, pos, fmt.Sprintf("Go package %s is not analyzed: it imports %s, which does not load: %s",
				name, dep.PkgPath, c.clean(e.Msg))))
		}
	}
	if len(p.Errors) == 0 {
		if !p.IllTyped {
			return
		}
		dep, e := firstBrokenDep(p)
		if dep == nil {
			return
		}
		path, pos := gomod, diag.Pos{Line: 1, Col: 1}
		if len(p.GoFiles) > 0 {
			if rel, ok := c.root.rel(p.GoFiles[0]); ok {
				path = rel
			}
		}
		c.add(core.GoLoadError.New(path, pos, pos, fmt.Sprintf("Go package %s is not analyzed: it imports %s, which does not load: %s",
			name, dep.PkgPath, c.clean(e.Msg))))
		return
	}
	verb := map[packages.ErrorKind]string{
		packages.ParseError: "does not parse",
		packages.TypeError:  "does not type-check",
	}
	for _, e := range p.Errors {
		if skipTypes && e.Kind == packages.TypeError {
			continue
		}
		what := verb[e.Kind]
		if what == "" {
			what = "does not load"
		}
		path, pos := c.errorPos(e.Pos, dir)
		if path == "" {
			path, pos = gomod, diag.Pos{Line: 1, Col: 1}
			if len(p.GoFiles) > 0 {
				if rel, ok := c.root.rel(p.GoFiles[0]); ok {
					path = rel
				}
			}
		}
		c.add(core.GoLoadError.New(path, pos, pos, fmt.Sprintf("Go package %s %s: %s", name, what, c.clean(e.Msg))))
	}
}

// cgoImport is the import path of a package that p imports directly and
// whose cgo files were left out, or "".
func (c *converter) cgoImport(p *packages.Package) string {
	if len(c.cgoDirs) == 0 {
		return ""
	}
	for _, ip := range slices.Sorted(maps.Keys(p.Imports)) {
		if c.cgoDirs[c.packageDir(p.Imports[ip])] {
			return ip
		}
	}
	return ""
}

// unlistedImport finds, in import-path order, a package that p imports
// directly and that go list could not find or list (a dependency missing
// from the module cache, a package no module provides), with its error.
func unlistedImport(p *packages.Package) (*packages.Package, packages.Error) {
	for _, ip := range slices.Sorted(maps.Keys(p.Imports)) {
		d := p.Imports[ip]
		for _, e := range d.Errors {
			if e.Kind == packages.ListError || e.Kind == packages.UnknownError {
				return d, e
			}
		}
	}
	return nil, packages.Error{}
}

// firstFile is where a finding about a whole package goes: its first file,
// or the module's go.mod.
func (c *converter) firstFile(p *packages.Package, gomod string) (string, diag.Pos) {
	if len(p.GoFiles) > 0 {
		if rel, ok := c.root.rel(p.GoFiles[0]); ok {
			return rel, diag.Pos{Line: 1, Col: 1}
		}
	}
	return gomod, diag.Pos{Line: 1, Col: 1}
}

// firstBrokenDep finds, depth first in import-path order, a dependency of
// p that has errors of its own.
func firstBrokenDep(p *packages.Package) (*packages.Package, packages.Error) {
	seen := map[*packages.Package]bool{}
	var visit func(q *packages.Package) (*packages.Package, packages.Error)
	visit = func(q *packages.Package) (*packages.Package, packages.Error) {
		paths := make([]string, 0, len(q.Imports))
		for ip := range q.Imports {
			paths = append(paths, ip)
		}
		sort.Strings(paths)
		for _, ip := range paths {
			d := q.Imports[ip]
			if seen[d] {
				continue
			}
			seen[d] = true
			if len(d.Errors) > 0 {
				return d, d.Errors[0]
			}
			if dep, e := visit(d); dep != nil {
				return dep, e
			}
		}
		return nil, packages.Error{}
	}
	return visit(p)
}

var errPosRE = regexp.MustCompile(`^(.+?):(\d+)(?::(\d+))?$`)

// errorPos places a packages.Error position ("file:line:col", "file:line",
// "", "-"); relative file names are relative to the module directory dir,
// where go list ran. It returns "" when the position is missing or outside
// the root.
func (c *converter) errorPos(s, dir string) (string, diag.Pos) {
	m := errPosRE.FindStringSubmatch(s)
	if m == nil {
		return "", diag.Pos{}
	}
	file := m[1]
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	rel, ok := c.root.rel(file)
	if !ok {
		return "", diag.Pos{}
	}
	line, _ := strconv.Atoi(m[2])
	col := 1
	if m[3] != "" {
		col, _ = strconv.Atoi(m[3])
	}
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return rel, diag.Pos{Offset: c.offset(file, line, col), Line: line, Col: col}
}

// offset is the byte offset of line:col (1-based, byte column) in file, or
// 0 when the file cannot be read or is shorter.
func (c *converter) offset(file string, line, col int) int {
	data, ok := c.files[file]
	if !ok {
		data, _ = os.ReadFile(file)
		c.files[file] = data
	}
	return Offset(data, line, col)
}

// Offset is the byte offset of the 1-based line and byte column in data;
// a place past the end of a line or of data is clamped to it.
func Offset(data []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	end := len(data)
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		end = off + i
	}
	if off+col-1 > end {
		return end
	}
	return off + col - 1
}

// maxQuoted caps the part of a GL008 message that comes from the go
// command, the parser or the type checker.
const maxQuoted = 300

// clean makes an error of the go command, the parser or the type checker
// into the part of a GL008 message that says what failed. The rule: such a
// message may name files, packages, modules and the token or identifier at
// fault (all of it from the repository's own files, checked to lie inside
// the root, or from GOROOT and the module cache), but never carries a
// file's text. So
//
//   - output of a build step (a block that starts "# package", which is how
//     the go command prints a failed cgo or compiler run, quoting source
//     lines of whatever file was included) is replaced by a sentence that
//     says only that it failed (with CGO_ENABLED=0 there is none, but a
//     user's GOFLAGS or a future go command must not make one public);
//   - the message is folded into one line, with the files under the root
//     written relative to it, so that it does not depend on where the
//     repository is;
//   - it is cut at 300 bytes (and "..."), so that no message publishes a
//     long stretch of any input (a string constant, an import path).
func (c *converter) clean(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "# ") {
			return "a build step of the go command failed (its output is not shown: it can quote the files it read)"
		}
	}
	for _, base := range []string{c.root.real, c.root.abs} {
		s = strings.ReplaceAll(s, base+string(filepath.Separator), "")
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxQuoted {
		cut := maxQuoted
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// goListMessage is the go command's own words from a packages.Load error,
// without the "err: exit status 1: stderr:" wrapping.
func goListMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "stderr: "); i >= 0 {
		msg = msg[i+len("stderr: "):]
	}
	return msg
}

// Converter turns the diagnostics of analyzers that another driver ran
// (go vet's unitchecker) into gymlint's, as Run does: paths relative to a
// root, byte columns, rule names and severities from the catalogue.
type Converter struct{ c *converter }

// NewConverter returns a Converter for paths under root.
func NewConverter(root string, lookup func(code string) *diag.Rule) (*Converter, error) {
	rt, err := newRooted(root)
	if err != nil {
		return nil, err
	}
	return &Converter{c: &converter{root: rt, lookup: lookup, files: map[string][]byte{}}}, nil
}

// Convert converts one diagnostic that analyzer a reported, with the
// analyzer's result (which holds the help of its diagnostics, see package
// gohelp); fallback is the path given to a diagnostic without a position.
func (c *Converter) Convert(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic, result any, fallback string) diag.Diagnostic {
	return c.c.diagnostic(fset, a, d, gohelp.Of(result, d), fallback)
}

// Rel returns a file's path relative to the root, and whether it is inside.
func (c *Converter) Rel(file string) (string, bool) { return c.c.root.rel(file) }
