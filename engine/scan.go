package engine

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/lint"
)

// Result is the outcome of a batch scan.
type Result struct {
	// Diagnostics are the findings, suppressions and configuration applied,
	// sorted.
	Diagnostics []diag.Diagnostic
	// Entrypoints, Configs and Modules count the Python side: entrypoints
	// analysed, config files read, Python modules parsed (each once, however
	// often a batch scan parsed it again after evicting it).
	Entrypoints, Configs, Modules int
	// Go is the Go side, nil when no Go module was analysed.
	Go *goanalysis.Result
	// Notes are what the front end should tell the user beside the
	// findings (the Go modules left out for want of a go command).
	Notes []string
	// Cache says what the disk cache did for the Python side.
	Cache CacheStats
	// Contract are the short lines that say which contract the rules were
	// judged by (Engine.ContractNotes), a part of the summary; none:
	// nothing to say.
	Contract []string

	source   func(string) ([]byte, error)
	analysed func(string) ([sha256.Size]byte, bool)
}

// Source returns a root-relative file's content as the scan read it: the
// reader that printers and fixes use instead of the disk.
func (r *Result) Source(p string) ([]byte, error) { return r.source(p) }

// Scan checks the repository: the enabled Python rules on every
// entrypoint and, at the same time, the enabled Go analyzers on the Go
// modules, then Finish; both read Options.Overlay instead of the disk.
// goScope, when not nil, limits the Go side to the
// modules that hold or lie under one of its root-relative paths (the
// Python side always reads the whole repository: a finding in a file may
// come from a config or a parent class anywhere).
func (e *Engine) Scan(goScope []string) (*Result, error) {
	type goOutcome struct {
		res   *goanalysis.Result
		notes []string
		err   error
	}
	goDone := make(chan goOutcome, 1)
	// The Go side's modules are the go.mod files of the Python side's
	// walk: one walk of the root for both.
	listed := make(chan *repofs.Listing, 1)
	go func() {
		var o goOutcome
		defer func() {
			if r := recover(); r != nil {
				o = goOutcome{err: fmt.Errorf("internal error in the Go analysis: %v", r)}
			}
			goDone <- o
		}()
		var mods []string
		if l := <-listed; l != nil {
			mods = goModules(l.GoMods)
		}
		o.res, o.err = e.scanGoModules(goScope, e.opts.Overlay, mods) // the overlay: the Go side reads the buffers too
		var missing *noGoCommand
		if errors.As(o.err, &missing) {
			o.notes = []string{fmt.Sprintf("no go command on PATH: the Go modules %s are not checked", someOf(missing.modules, 3))}
			o.err = nil
		}
	}()
	py, err := e.scanPython(func(l *repofs.Listing) { listed <- l })
	if err != nil {
		<-goDone
		return nil, err
	}
	defer py.close()
	g := <-goDone
	if g.err != nil {
		return nil, g.err
	}
	res := &Result{Entrypoints: len(py.entrypoints), Configs: len(py.configs), Modules: py.modules,
		Go: g.res, Notes: g.notes, Cache: py.cache, source: py.source, analysed: analysedSums(py.fs, py.stamps, goParsedOf(g.res))}
	res.Contract = e.ContractNotes()
	// Finish works file by file: the Python side's findings come
	// finished (suppressions checked in every entrypoint and config); the
	// Go side's are finished here, with the suppressions of the Go files
	// analysed.
	ds := py.diags
	if g.res != nil {
		ds = append(slices.Clone(ds), e.Finish(g.res.Diagnostics, sortedUnique(slices.Clone(g.res.Files)), py.source)...)
		diag.Sort(ds)
	}
	res.Diagnostics = ds
	return res, nil
}

// RunGo runs the enabled Go analyzers on the root's Go modules, reading
// overlay (root-relative path → content: an editor's buffers) instead of
// the disk. It returns nil when there is nothing to run. The diagnostics
// are the analyzers' own: Finish applies suppressions and configuration.
func (e *Engine) RunGo(overlay map[string][]byte) (*goanalysis.Result, error) {
	return e.scanGo(nil, overlay)
}

// ErrNoGoCommand is (wrapped in) RunGo's error when there is no go command
// on PATH.
var ErrNoGoCommand = goanalysis.ErrNoGoCommand

// someOf lists at most n of names, then says how many more there are, so
// that a note stays short: "a, b, c and 12 more".
func someOf(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// noGoCommand is ErrNoGoCommand with the modules left unchecked.
type noGoCommand struct{ modules []string }

func (*noGoCommand) Error() string { return ErrNoGoCommand.Error() }
func (*noGoCommand) Unwrap() error { return ErrNoGoCommand }

// scanGo runs the Go analyzers on the Go modules under the root (of them,
// those in scope). It returns a nil result when there is nothing to do (no
// analyzer enabled, no go.mod), and a *noGoCommand error when there is no
// go command.
func (e *Engine) scanGo(scope []string, overlay map[string][]byte) (*goanalysis.Result, error) {
	return e.scanGoModules(scope, overlay, nil)
}

// scanGoModules is scanGo of the given modules (nil: found by
// goanalysis.Modules).
func (e *Engine) scanGoModules(scope []string, overlay map[string][]byte, mods []string) (*goanalysis.Result, error) {
	if e.noGo || len(e.goAnalyzers) == 0 {
		return nil, nil
	}
	if mods == nil {
		var err error
		if mods, err = goanalysis.Modules(e.root); err != nil {
			return nil, fmt.Errorf("finding Go modules: %v", err)
		}
	}
	if scope != nil {
		mods = modulesIn(mods, scope)
	}
	// The modules in excluded or gitignored directories are left out, as
	// the Python side's walk leaves their files out.
	if fsys, err := repofs.New(e.root, repofs.Options{Exclude: e.opts.Exclude, Gitignore: e.opts.Gitignore}); err == nil {
		mods = slices.DeleteFunc(mods, fsys.IgnoredDir)
	}
	if len(mods) == 0 {
		return nil, nil
	}
	res, err := goanalysis.Run(e.root, goanalysis.Config{Analyzers: e.goAnalyzers, Lookup: lint.Lookup, Modules: mods, Env: e.goEnv, Network: e.goNetwork,
		Overlay: overlay, MaxFileSize: e.opts.MaxFileSize, Cache: e.cache})
	if errors.Is(err, goanalysis.ErrNoGoCommand) {
		return nil, &noGoCommand{modules: mods}
	}
	if err != nil {
		return nil, fmt.Errorf("Go analysis: %v", err)
	}
	return res, nil
}

// goModules are the Go modules of a listing's go.mod directories: those
// goanalysis.Modules finds (it does not enter vendor or testdata
// directories, which the walk does), never nil.
func goModules(dirs []string) []string {
	out := []string{}
	for _, d := range dirs {
		skip := false
		for _, part := range strings.Split(d, "/") {
			if d == "." {
				break
			}
			if goanalysis.SkipDir(part) {
				skip = true
			}
		}
		if !skip {
			out = append(out, d)
		}
	}
	return out
}

// modulesIn keeps the module directories that hold one of the paths or lie
// under one of them.
func modulesIn(mods, paths []string) []string {
	var out []string
	for _, m := range mods {
		for _, p := range paths {
			if under(p, m) || under(m, p) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// under reports whether the root-relative path p is dir or lies in it.
func under(p, dir string) bool {
	if dir == "." || p == dir {
		return true
	}
	return strings.HasPrefix(p, dir+"/") && path.Clean(p) == p
}

// withOwn adds the engine's own diagnostics (configuration files not read)
// to ds. The walk reads .gymlint.yaml as it reads every YAML file, so a
// .gymlint.yaml it could not read has a GL002 of the view too: the
// engine's, which says the defaults are used, replaces it.
func withOwn(ds, own []diag.Diagnostic) []diag.Diagnostic {
	if len(own) == 0 {
		return ds
	}
	mine := map[string]bool{}
	for _, d := range own {
		mine[d.Path] = true
	}
	out := ds[:0]
	for _, d := range ds {
		if !(d.Code == core.UnreadableFile.Code && mine[d.Path]) {
			out = append(out, d)
		}
	}
	return append(out, own...)
}
