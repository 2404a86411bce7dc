// Package gym is the Gym view and semantic model of a repository: it joins
// what configscan reads from YAML with what pyscan reads from Python into
// the view every rule works on: which modules are server
// entrypoints, which configs name them, which class in each is the server,
// and that class's ancestry across the repository's modules (with Python's
// method resolution order), telling the framework's classes from the
// repository's own.
//
// A View is built once per scan. Building it reads every YAML file of the
// repository, parses each entrypoint and each module that an entrypoint's
// classes come from, at most once and in parallel, and reports the
// problems it meets on the way (unreadable files, syntax errors, configs
// that name missing files) as diagnostics of the core rules in this
// package. Nothing is imported or executed.
package gym

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/internal/workers"
	"github.com/gymlint/gymlint/pyscan"
)

// Exemption names an entrypoint that starts no server (a base-class module
// that a config names), with the reason.
type Exemption struct {
	Path   string // root-relative
	Reason string
	// Where the exemption was given: a config file and position, or
	// Flag set for --exempt.
	Source string
	Pos    diag.Pos
	Flag   bool
}

// Options configure a scan.
type Options struct {
	ServerTypes      []string // nil: configscan.DefaultServerTypes
	FrameworkPackage string   // "": contract.DefaultPackage
	ServerBases      []string // nil: contract.ServerBases
	Exemptions       []Exemption
	MaxFileSize      int64             // 0: repofs.DefaultMaxFileSize
	Jobs             int               // parallel parsers; 0: GOMAXPROCS
	Overlay          map[string][]byte // root-relative path → content, instead of the disk
	// ParseBudget is the parsing work, in pyscan steps, that the parses of
	// one view may take together; 0: pyscan.DefaultScanSteps; negative: no
	// limit. Each file also has a budget of its own (pyscan.FileBudget).
	ParseBudget int64
	// Framework is the repository's framework and its contract, as the
	// engine detected it (contract.Detect); nil: not detected, which the
	// rules take as the latest contract with no framework source known.
	Framework *contract.Framework
	// Preparsed are modules parsed before the cache was made that it
	// takes in place of parsing their files again (see Preparsed); nil:
	// none.
	Preparsed *Preparsed
	// Exclude are root-relative globs (pathmatch.Excluded) of files and
	// directories the walk leaves out: they are not read as configs, nor
	// found as server directories' app.py (repofs.Options.Exclude).
	Exclude []string
	// Gitignore makes the walk leave out what the repository's .gitignore
	// files ignore (repofs.Options.Gitignore). A module that a config
	// names, or that an import reaches, is read wherever it lies.
	Gitignore bool
	// ExtraRoots are plugin server roots (--extra-root,
	// NEMO_GYM_EXTRA_ROOTS), absolute or root-relative, that a server
	// directory a config names is looked for in, in order, before the root
	// (extraroots.go).
	ExtraRoots []string
	// InstallRoot is the framework's install root when it is a separate
	// install (the directory that holds the framework package, in a
	// virtual environment: site-packages), searched after the root; "":
	// none.
	InstallRoot string
	// Words are the identifier words the configuration adds, by kind
	// (facts.Words: the `words:` table of .gymlint.yaml, checked when it
	// was read); nil: the defaults alone.
	Words map[string][]string
	// KnownFirstParty are the modules the repository's isort configuration
	// calls its own (known-first-party of ruff's or isort's settings:
	// module names or globs of them, as given), besides those found in the
	// repository (ImportSection).
	KnownFirstParty []string
	// FixesCounted says that the findings' fixes are only counted, by
	// whether a safe one is among them, never shown or applied (the plain
	// text, SARIF and GitHub outputs). A rule may then leave out work that
	// only chooses among a finding's fixes (which comes first, whose edits
	// a class hierarchy shares), as long as whether a finding has a fix,
	// and whether a safe one, stays what it is without FixesCounted.
	// It is part of the cache's key, as every option is: a check that shows
	// the fixes never reads findings made without them (one that counts
	// them starts from the record of one that shows them when it has none
	// of its own: engine/warm.go).
	FixesCounted bool
}

// ConfigRef is a config instance that names an entrypoint.
type ConfigRef struct {
	File     string
	Instance *configscan.Instance
}

// Entrypoint is a module that a server starts from.
type Entrypoint struct {
	Path string
	// Module is nil when the file could not be read.
	Module *pyscan.Module
	// Configs are the config instances that name this module.
	Configs []ConfigRef
	// ServerDirApp is set for the app.py of a server directory.
	ServerDirApp bool
	// Exemption is set when the module is exempt.
	Exemption *Exemption
	// Servers are the module's server classes (see ServerClasses).
	Servers []Server
	// Undecided are the module's classes that may be server classes,
	// although gymlint could not tell: their ancestry is beyond its bounds,
	// cyclic, or passes through a base it cannot resolve or a module with
	// a syntax error before reaching a framework server class. A rule that
	// would say the module defines no server class says nothing then.
	Undecided []ClassRef
}

// Server is a server class of an entrypoint.
type Server struct {
	Class ClassRef
	// Call is the X.run_webserver() call that names the class, if any.
	Call *pyscan.Call
}

// View is the repository as the rules see it.
type View struct {
	Root        string
	Options     Options
	FS          *repofs.FS
	Configs     []*configscan.File
	Entrypoints []*Entrypoint // sorted by path

	cache       *Cache
	skel        *skeleton // the configs' and listing's, which Runs composes once
	ownCache    bool
	budget      *pyscan.Budget // the view's parses' (Options.ParseBudget); nil: none
	framework   string
	serverBases map[string]bool

	classes classState // ancestries and MROs (mro.go)

	shared sharedMap // View.Shared

	resolved sync.Map // resolveKey -> Symbol
	mayFiles sync.Map // path and words -> *mayFile (ClosureMayHoldWords)
	indexes  sync.Map // *pyscan.Module -> *moduleIndex

	mu   sync.Mutex
	seen map[string]bool // modules and sources asked for
	// mods are the cache entries of the modules the view read: a module
	// the cache evicts while the view is in use stays the same for it.
	mods map[string]*moduleEntry
	// sourced are the files the view read through Source.
	sourced map[string]bool
	// deps are the paths whose content or existence the analysis read;
	// nil when the cache records none (Cache.ForgoDependencies).
	deps map[string]bool

	diagMu    sync.Mutex
	repoDiags []diag.Diagnostic // the cache's: listing, configs, entrypoint map
	diags     []diag.Diagnostic // this view's: modules it read
}

// Build reads the repository at root and builds the view of every
// entrypoint. The view owns its cache: Close releases both.
func Build(root string, opts Options) (*View, error) {
	c, err := NewCache(root, opts)
	if err != nil {
		return nil, err
	}
	v := c.View(nil)
	v.ownCache = true
	return v, nil
}

var filePos = diag.Pos{Offset: 0, Line: 1, Col: 1}

// ErrClosed is returned by Module for a module first asked for after Close.
var ErrClosed = errors.New("gym: the view is closed")

// Close releases the parsers of a view made by Build. Modules already
// parsed stay available; a module first asked for after Close gives
// ErrClosed. Close never blocks on parses in progress: their parsers are
// released when they finish. A view made by Cache.View leaves its cache
// open.
func (v *View) Close() {
	if v.ownCache {
		v.cache.Close()
	}
}

// Focus returns a view of the same cache with only the given entrypoints
// (see Cache.View): a rule that failed on a view is run again on each of
// its entrypoints alone. It must be called before the view is closed.
func (v *View) Focus(paths []string) *View {
	if paths == nil {
		paths = []string{}
	}
	return v.cache.view(paths, v.budget) // the parse budget is the scan's, not one per retry
}

// Diagnostics returns the core diagnostics found while building the view:
// RepositoryDiagnostics, then ModuleDiagnostics.
func (v *View) Diagnostics() []diag.Diagnostic {
	v.diagMu.Lock()
	defer v.diagMu.Unlock()
	out := append([]diag.Diagnostic(nil), v.repoDiags...)
	return append(out, v.diags...)
}

// RepositoryDiagnostics returns the core diagnostics that the listing, the
// configs and the entrypoint map give, the same for every view of a cache:
// unreadable or invalid configs, config entries naming no usable module,
// unused exemptions.
func (v *View) RepositoryDiagnostics() []diag.Diagnostic {
	return append([]diag.Diagnostic(nil), v.repoDiags...)
}

// ModuleDiagnostics returns the core diagnostics of the modules this view
// read: unreadable files and syntax errors.
func (v *View) ModuleDiagnostics() []diag.Diagnostic {
	v.diagMu.Lock()
	defer v.diagMu.Unlock()
	return append([]diag.Diagnostic(nil), v.diags...)
}

// Dependencies returns, sorted, the root-relative paths whose content or
// existence the view's analysis has read so far: its entrypoints, the
// configs that name them, every module and file it read, and every path
// import resolution looked for (a file created there would change what an
// import means). A change to any other file cannot change what the rules
// say of the view's entrypoints, except a change to the configs and the
// listing, which Cache.Entrypoints shows. It is nil when the cache
// records no dependencies (Cache.ForgoDependencies).
func (v *View) Dependencies() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Sorted(maps.Keys(v.deps))
}

// touch records that the analysis read p.
func (v *View) touch(p string) {
	if v.deps == nil { // set when the view is made, never changed
		return
	}
	v.mu.Lock()
	v.deps[p] = true
	v.mu.Unlock()
}

// dependOn is touch for a caller that holds v.mu, or that has the view
// to itself.
func (v *View) dependOn(p string) {
	if v.deps != nil {
		v.deps[p] = true
	}
}

// isFile is FS.IsFile, recorded as a dependency.
func (v *View) isFile(p string) bool {
	v.touch(p)
	return v.FS.IsFile(p)
}

func (v *View) report(d diag.Diagnostic) {
	v.diagMu.Lock()
	v.diags = append(v.diags, d)
	v.diagMu.Unlock()
}

// parallel runs fn(i) for i in [0, n) on jobs goroutines.
func parallel(n, jobs int, fn func(i int)) {
	workers.Each(n, jobs, func(_, i int) { fn(i) })
}

// Parallel runs fn(i) for i in [0, n) on the view's parser jobs
// (Options.Jobs, else GOMAXPROCS), for analyses that work server
// by server.
func (v *View) Parallel(n int, fn func(i int)) { parallel(n, v.cache.jobs, fn) }

func configPos(p configscan.Pos) diag.Pos { return ConfigPos(p) }

// readError is the GL002 message and help for a file p that could not be
// read.
func (c *Cache) readError(p string, err error) (msg, help string) {
	switch {
	case errors.Is(err, repofs.ErrTooLarge):
		return fmt.Sprintf("%s is larger than the size limit (%d bytes) and was not read", p, c.fs.MaxFileSize()),
			"raise --max-file-size if it should be read"
	case errors.Is(err, repofs.ErrBinary):
		return fmt.Sprintf("%s is binary (it contains a NUL byte) and was not read", p),
			"remove it, or rename it if it is not source"
	case errors.Is(err, repofs.ErrNotUTF8):
		return fmt.Sprintf("%s is not valid UTF-8 and was not read", p), "save it as UTF-8"
	case errors.Is(err, repofs.ErrSymlinkLoop):
		return fmt.Sprintf("%s is a symbolic link loop and was not read", p), "point the link at a real file"
	case errors.Is(err, repofs.ErrOutsideRoot) && inMount(p):
		return fmt.Sprintf("%s is a symbolic link that leaves its extra root and was not followed", p),
			"point the link at a file inside the extra root, which is all gymlint reads of it"
	case errors.Is(err, repofs.ErrOutsideRoot):
		return fmt.Sprintf("%s is a symbolic link that leaves the repository and was not followed", p),
			"point the link at a file inside the scanned root, which is all gymlint reads"
	case errors.Is(err, repofs.ErrNotRegular):
		return fmt.Sprintf("%s is not a regular file and was not read", p), ""
	}
	var pe *repofs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("cannot read %s: %v", p, err), ""
}

// unreadable is GL002 at path (from start to end) for the file p that
// could not be read.
func (c *Cache) unreadable(path string, start, end diag.Pos, p string, err error) diag.Diagnostic {
	msg, help := c.readError(p, err)
	d := core.UnreadableFile.New(path, start, end, msg)
	d.Help = help
	return d
}

// serverTypes returns the configured server types.
func (c *Cache) serverTypes() []string {
	if c.options.ServerTypes != nil {
		return c.options.ServerTypes
	}
	return configscan.DefaultServerTypes
}

// collectEntrypoints finds every server directory's app.py and every module
// a config names, and reports config entries that name no usable file.
func (c *Cache) collectEntrypoints(s *skeleton, appPy []string) {
	report := func(d diag.Diagnostic) { s.diags = append(s.diags, d) }
	byPath := map[string]*Entrypoint{}
	get := func(p string) *Entrypoint {
		e := byPath[p]
		if e == nil {
			e = &Entrypoint{Path: p}
			byPath[p] = e
		}
		return e
	}
	// A server directory is <type>/<dir>/ or, when <type>/<group>/ has no
	// app.py of its own, <type>/<group>/<dir>/ with a requirements.txt or
	// pyproject.toml (a dir key with a slash).
	types := map[string]bool{}
	for _, t := range c.serverTypes() {
		types[t] = true
	}
	have := map[string]bool{}
	for _, p := range appPy {
		have[p] = true
	}
	for _, p := range appPy {
		parts := strings.Split(p, "/")
		if !types[parts[0]] {
			continue
		}
		switch len(parts) {
		case 3:
			get(p).ServerDirApp = true
		case 4:
			// A nested server directory, as the framework recognises one:
			// it ships requirements.txt or pyproject.toml. This keeps a
			// tests/app.py of a server without an app.py of its own out.
			dir := path.Dir(p)
			if !have[parts[0]+"/"+parts[1]+"/app.py"] &&
				(c.skelIsFile(dir+"/requirements.txt") || c.skelIsFile(dir+"/pyproject.toml")) {
				get(p).ServerDirApp = true
			}
		}
	}
	for _, f := range s.configs {
		for i := range f.Servers {
			inst := &f.Servers[i]
			pos, end := configPos(inst.EntrypointPos), configPos(inst.EntrypointEnd)
			ep := inst.Entrypoint
			if path.IsAbs(ep) || strings.HasPrefix(ep, "/") {
				d := core.EntrypointOutsideRoot.New(f.Path, pos, end, fmt.Sprintf(
					"entrypoint %q of %s is an absolute path, which the server supervisor rejects", ep, inst.Name))
				d.Help = fmt.Sprintf("give it relative to %s/%s/", inst.Type, inst.Dir)
				report(d)
				continue
			}
			rel, ok := repofs.Clean(path.Join(inst.Type, inst.Dir, ep))
			if ok && !inMount(rel) {
				// In the first root of the supervisor's order that has the
				// server directory.
				rel = c.serverDir(path.Join(inst.Type, inst.Dir), ep).under(rel)
			} else {
				ok = false
			}
			if !ok {
				d := core.EntrypointOutsideRoot.New(f.Path, pos, end, fmt.Sprintf(
					"entrypoint %q of %s resolves outside the repository (from %s/%s/)", ep, inst.Name, inst.Type, inst.Dir))
				d.Help = "point it at a module inside the repository"
				report(d)
				continue
			}
			if !strings.HasSuffix(rel, ".py") {
				continue // not a Python module: nothing for the Python rules to read
			}
			if err := c.skelStat(rel); err != nil {
				switch {
				case errors.Is(err, repofs.ErrNotExist):
					d := core.MissingEntrypoint.New(f.Path, pos, end, fmt.Sprintf(
						"entrypoint %s of %s does not exist (it is relative to %s/%s/)", rel, inst.Name, inst.Type, inst.Dir))
					d.Help = "fix the server dir key or the entrypoint, or remove the entry"
					report(d)
				case errors.Is(err, repofs.ErrOutsideRoot):
					where := "the repository"
					if inMount(rel) {
						where = "its extra root"
					}
					d := core.EntrypointOutsideRoot.New(f.Path, pos, end, fmt.Sprintf(
						"entrypoint %s of %s is a symbolic link that leaves %s, which gymlint does not follow", rel, inst.Name, where))
					d.Help = "point it at a module inside " + where
					report(d)
				default:
					report(c.unreadable(f.Path, pos, end, rel, err))
				}
				continue
			}
			e := get(rel)
			e.Configs = append(e.Configs, ConfigRef{File: f.Path, Instance: inst})
		}
	}
	var eps []*Entrypoint
	exemptUsed := make([]bool, len(c.options.Exemptions))
	for p, e := range byPath {
		for i := range c.options.Exemptions {
			x := &c.options.Exemptions[i]
			if c, ok := repofs.Clean(x.Path); ok && c == p {
				e.Exemption = x
				exemptUsed[i] = true
			}
		}
		eps = append(eps, e)
	}
	for i, used := range exemptUsed {
		if used {
			continue
		}
		x := c.options.Exemptions[i]
		if x.Flag {
			d := core.UnusedExemption.New(x.Path, filePos, filePos, fmt.Sprintf("--exempt %s matches no server entrypoint", x.Path))
			d.Help = "drop it, or give the path of an entrypoint relative to the root"
			report(d)
		} else {
			d := core.UnusedExemption.New(x.Source, x.Pos, x.Pos, fmt.Sprintf(
				"exemption %s matches no server entrypoint (no server dir app.py and no config names it)", x.Path))
			d.Help = "remove it, or fix the path"
			report(d)
		}
	}
	sort.Slice(eps, func(i, j int) bool { return eps[i].Path < eps[j].Path })
	for _, e := range eps {
		sort.Slice(e.Configs, func(i, j int) bool {
			a, b := e.Configs[i], e.Configs[j]
			if a.File != b.File {
				return a.File < b.File
			}
			return a.Instance.EntrypointPos.Offset < b.Instance.EntrypointPos.Offset
		})
	}
	for _, e := range eps {
		s.entrypoints = append(s.entrypoints, *e)
	}
}

// analyseEntrypoints parses every entrypoint and resolves its server
// classes, in parallel. Modules that the resolution reaches are parsed on
// demand, once each.
//
// The smallest files go first, each with its servers' ancestry: when the
// view's parse budget runs out, the files left unparsed are the largest,
// not whichever sort last, so a few huge files cannot starve a
// repository's ordinary servers.
func (v *View) analyseEntrypoints(jobs int) {
	order := make([]int, len(v.Entrypoints))
	sizes := make([]int64, len(v.Entrypoints))
	for i, e := range v.Entrypoints {
		order[i], sizes[i] = i, v.cache.size(e.Path)
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	parallel(len(order), jobs, func(k int) {
		e := v.Entrypoints[order[k]]
		m, err := v.Module(e.Path)
		if err != nil {
			return
		}
		e.Module = m
		e.Servers = v.ServerClasses(m)
		e.Undecided = v.checkClasses(m)
		// The servers' ancestry, which every rule asks for: its modules
		// are parsed now, in the entrypoint's turn, not after the large
		// files have spent the budget.
		for _, srv := range e.Servers {
			v.MRO(srv.Class)
		}
	})
}

// Module returns the parsed module at a root-relative path, parsing it on
// first use. It is safe for concurrent use. Read errors and syntax errors
// are reported once per view, as core diagnostics.
func (v *View) Module(p string) (*pyscan.Module, error) {
	v.mu.Lock()
	e := v.mods[p]
	v.mu.Unlock()
	if e == nil {
		e = v.cache.module(p, v.budget)
	}
	v.mu.Lock()
	if prev := v.mods[p]; prev != nil {
		e = prev
	} else {
		v.mods[p] = e
	}
	first := !v.seen[p]
	v.seen[p] = true
	v.dependOn(p)
	v.mu.Unlock()
	if first {
		v.cache.noteRead(p)
		if e.err != nil && !errors.Is(e.err, ErrClosed) {
			v.report(v.cache.unreadable(p, filePos, filePos, p, e.err))
		} else if e.mod != nil && e.mod.SyntaxError != nil && e.mod.SyntaxError.Stopped != nil {
			// Not a syntax error: the parse ran out of budget, and nothing
			// is known of the file's syntax. Like a file over the size
			// limit, it was not taken in: GL002.
			msg, help := stopMessage(p, e.mod.SyntaxError.Stopped)
			d := core.UnreadableFile.New(p, filePos, filePos, msg)
			d.Help = help
			v.report(d)
		} else if e.mod != nil && e.mod.SyntaxError != nil {
			se := e.mod.SyntaxError
			start, end := Range(e.mod, se.Span)
			d := core.SyntaxError.New(p, start, end, se.Message+"; gymlint skips the rules for this module until it parses")
			d.Help = "fix the syntax"
			v.report(d)
		}
	}
	return e.mod, e.err
}

// stopMessage is the GL002 message and help of a module whose parse ran
// out of budget: which budget, and what to do. It says nothing that the
// machine's speed or load decides (no times, no counts of steps taken), so
// the same repository gives the same message every run.
func stopMessage(p string, s *pyscan.ParseStop) (msg, help string) {
	switch s.Reason {
	case pyscan.FileBudgetRanOut:
		return fmt.Sprintf("%s was not analysed: parsing it ran out of the file's budget (%d steps, %d bytes read), and its syntax was not checked", p, s.Budget, s.ReadLimit),
			"split it, or keep generated data out of modules that servers import"
	case pyscan.ScanBudgetRanOut:
		return fmt.Sprintf("%s was not analysed: the scan's parse budget of %d steps ran out before it was parsed", p, s.Budget),
			"raise --parse-budget to analyse it"
	default:
		return fmt.Sprintf("%s was not analysed: parsing it took more processor time than its size allows, and its syntax was not checked", p),
			"look for a long run of tokens that cannot follow one another (tree-sitter is very slow on some broken input), or split the file"
	}
}

// ParsedModules returns how many modules the view has asked for.
func (v *View) ParsedModules() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.seen)
}

// PyPos converts a pyscan position to a diagnostic position.
func PyPos(p pyscan.Pos) diag.Pos { return diag.Pos{Offset: p.Offset, Line: p.Line, Col: p.Col} }

// ConfigPos is the diagnostic position of a YAML position.
func ConfigPos(p configscan.Pos) diag.Pos {
	return diag.Pos{Offset: p.Offset, Line: p.Line, Col: p.Col}
}

// ConfigFixes is the suggested fix of a configscan Problem of the config
// at the root-relative path p, as the diagnostic's fixes (none when f is
// nil).
func ConfigFixes(p string, f *configscan.Fix) []diag.Fix {
	if f == nil || len(f.Edits) == 0 {
		return nil
	}
	out := diag.Fix{Message: f.Message, Applicability: diag.Unsafe}
	if f.Safe {
		out.Applicability = diag.Safe
	}
	for _, e := range f.Edits {
		out.Edits = append(out.Edits, diag.TextEdit{Path: p, Start: ConfigPos(e.Start), End: ConfigPos(e.End), NewText: e.Text})
	}
	return []diag.Fix{out}
}

// Pos is the diagnostic position of a byte offset of a module.
func Pos(m *pyscan.Module, off int32) diag.Pos { return PyPos(m.Pos(off)) }

// Range is the diagnostic positions of a span of a module.
func Range(m *pyscan.Module, s pyscan.Span) (start, end diag.Pos) {
	return Pos(m, s.Start), Pos(m, s.End)
}

// Related is a related position at a span of a module.
func Related(m *pyscan.Module, s pyscan.Span, msg string) diag.Related {
	start, end := Range(m, s)
	return diag.Related{Path: m.Path, Start: start, End: end, Message: msg}
}

// IsFrameworkModule reports whether a dotted module name belongs to the
// framework package.
func (v *View) IsFrameworkModule(name string) bool {
	return v.cache.isFrameworkModule(name)
}

// FrameworkPackage is the framework package's name (nemo_gym).
func (v *View) FrameworkPackage() string { return v.cache.framework }

func (c *Cache) isFrameworkModule(name string) bool {
	return name == c.framework || strings.HasPrefix(name, c.framework+".")
}
