package gym

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/pyscan"
	"github.com/gymlint/gymlint/suppress"
)

// Cache keeps what views of one repository read, so that a second view
// (after an edit, for some entrypoints only) reads and parses only what
// changed. It holds the file listing, the parsed configs, the entrypoint
// map they give, each parsed module and each file's content, and the
// editor's unsaved buffers (overlays).
//
// Build makes a cache for one view and drops it with the view. A language
// server keeps one Cache for the life of a workspace, tells it what
// changed (SetOverlay, ClearOverlay, Changed, Created, Deleted) and asks it
// for a View of the entrypoints that depend on the change (View with a
// focus; see View.Dependencies).
//
// The cache is safe for concurrent views. The methods that change it must
// not run while a view built from it is in use: a view sees one state.
type Cache struct {
	root    string
	options Options
	fs      *repofs.FS
	jobs    int

	framework   string
	serverBases map[string]bool

	// before and after are the roots searched for a server directory
	// before and after the scanned root (extraroots.go).
	before, after []searchBase

	parserMu sync.Mutex
	parsers  []*pyscan.Parser // idle parsers
	closed   bool

	// noDeps: views record no dependencies (ForgoDependencies).
	noDeps atomic.Bool

	mu         sync.Mutex
	listing    *repofs.Listing
	given      bool // listing came from SetListing, not from a walk
	configs    map[string]*configEntry
	skel       *skeleton
	generation uint64
	modules    map[string]*moduleEntry
	// retained are the syntax trees of overlaid files (open buffers), so
	// that the next version of each parses incrementally.
	retained map[string]*pyscan.Retained
	noRetain bool // after Close
	sources  map[string]*sourceEntry
	// reads counts, by path, the views that have read each module or
	// source, evicted or not; pins counts the pins on it (Evict, Pin).
	reads map[string]int32
	pins  map[string]int32

	skelMu sync.Mutex // held while the skeleton is computed

	// skelDeps are the paths the entrypoint map looked at besides the
	// listing and the configs (SkeletonInputs).
	skelDeps map[string]bool

	// shared is the parse budget every view shares after ShareBudget.
	shared *pyscan.Budget
	// parseMem bounds the memory of the parses in flight (parsemem.go),
	// and yaml the values the configs' parses hold together.
	parseMem *weighted
	yaml     *configscan.Budget
	// noDirective are the files whose content, as the cache last read it,
	// holds no suppression directive (suppress.MayHoldDirective), so that
	// the suppression pass need not read them again (HoldsNoDirective).
	noDirective map[string]bool
	// parsed counts the parses of modules, and parsedPaths the modules
	// parsed (c.mu).
	parsed      atomic.Int64
	parsedPaths map[string]struct{}
}

type configEntry struct {
	once  sync.Once
	file  *configscan.File
	diags []diag.Diagnostic
}

type moduleEntry struct {
	once sync.Once
	mod  *pyscan.Module
	err  error
	// ix is the module's index (View.index), made once for every view
	// that reads the module: the framework's modules are read by every
	// group's view.
	ixOnce sync.Once
	ix     *moduleIndex
}

// sourceEntry is one cached file content of View.Source.
type sourceEntry struct {
	once sync.Once
	data []byte
	err  error
}

// skeleton is what the configs and the file listing say, before any
// Python is parsed: the configs, the entrypoints (without their modules)
// and the problems found on the way.
type skeleton struct {
	configs     []*configscan.File
	entrypoints []Entrypoint // Module and Servers unset
	diags       []diag.Diagnostic
	// overrides are, by entrypoint, the config files with instances
	// without an entrypoint (overrides) that may apply to it: same type and
	// dir as the entrypoint's server dir, or as an instance naming it.
	overrides map[string][]string
	// byPath are the configs by path, and overrideRefs the override
	// instances by server type and cleaned directory, in the order of
	// configs (View.ConfigFile, View.OverridesOf).
	byPath       map[string]*configscan.File
	overrideRefs map[serverDir][]OverrideRef

	// all are the composed configs (View.Runs) and their servers by
	// entrypoint, made on first use and shared by every view of this
	// skeleton, and one the runs composed one by one before that
	// (View.RunServersOf), until DropParsed drops them.
	runsMu sync.Mutex
	all    *allRuns
	one    sharedMap // by path: *configscan.Run
	// shared are the values of View.SharedByConfigs (dropped with the
	// runs).
	shared sharedMap
	// read are the paths of the configs read, sorted: the listing's YAML
	// files and the files their runs include (included.go).
	read []string
}

// NewCache opens the repository at root for views built with opts.
func NewCache(root string, opts Options) (*Cache, error) {
	fsys, err := repofs.New(root, repofs.Options{MaxFileSize: opts.MaxFileSize, Overlay: opts.Overlay, Exclude: opts.Exclude, Gitignore: opts.Gitignore, Jobs: opts.Jobs})
	if err != nil {
		return nil, err
	}
	c := &Cache{
		root:        fsys.Root(),
		options:     opts,
		fs:          fsys,
		jobs:        opts.Jobs,
		framework:   opts.FrameworkPackage,
		serverBases: map[string]bool{},
		configs:     map[string]*configEntry{},
		modules:     map[string]*moduleEntry{},
		sources:     map[string]*sourceEntry{},
		retained:    map[string]*pyscan.Retained{},
		reads:       map[string]int32{},
		pins:        map[string]int32{},
		parseMem:    newWeighted(parseMemoryBound),
		yaml:        configscan.NewBudget(configscan.DefaultBudgetValues),
	}
	if c.jobs <= 0 {
		// The CPUs the process may use: Go sets GOMAXPROCS from its
		// cgroup's CPU quota too, which NumCPU ignores.
		c.jobs = runtime.GOMAXPROCS(0)
	}
	c.setupBases(opts.ExtraRoots, opts.InstallRoot)
	if c.framework == "" {
		c.framework = contract.DefaultPackage
	}
	bases := opts.ServerBases
	if bases == nil {
		bases = contract.ServerBases
	}
	for _, b := range bases {
		c.serverBases[b] = true
	}
	return c, nil
}

// Jobs is how many goroutines the cache parses and analyses on:
// Options.Jobs, else GOMAXPROCS.
func (c *Cache) Jobs() int { return c.jobs }

// Close releases the parsers. Modules already parsed stay available; a
// module first asked for after Close gives ErrClosed.
func (c *Cache) Close() {
	c.parserMu.Lock()
	c.closed = true
	for _, p := range c.parsers {
		p.Close()
	}
	c.parsers = nil
	c.parserMu.Unlock()
	c.mu.Lock()
	c.noRetain = true
	for p, r := range c.retained {
		r.Close()
		delete(c.retained, p)
	}
	c.mu.Unlock()
}

// getParser takes an idle parser, or makes one: there are never more than
// the number of goroutines parsing at once. It returns nil after Close.
func (c *Cache) getParser() *pyscan.Parser {
	c.parserMu.Lock()
	defer c.parserMu.Unlock()
	if c.closed {
		return nil
	}
	if n := len(c.parsers); n > 0 {
		p := c.parsers[n-1]
		c.parsers = c.parsers[:n-1]
		return p
	}
	return pyscan.NewParser(pyscan.Options{})
}

func (c *Cache) putParser(p *pyscan.Parser) {
	c.parserMu.Lock()
	defer c.parserMu.Unlock()
	if c.closed {
		p.Close()
		return
	}
	c.parsers = append(c.parsers, p)
}

// SetOverlay makes the file at the root-relative path p read as data (an
// unsaved buffer) and forgets what was read of it. It reports false for a
// path outside the root.
func (c *Cache) SetOverlay(p string, data []byte) bool {
	cp, ok := repofs.Clean(p)
	if !ok {
		return false
	}
	existed := c.fs.Overlaid(cp) || c.onDisk(cp)
	c.fs.SetOverlay(cp, data)
	if existed {
		c.Changed(cp)
	} else {
		c.Created(cp)
	}
	return true
}

// ClearOverlay makes p read from the disk again.
func (c *Cache) ClearOverlay(p string) {
	cp, ok := repofs.Clean(p)
	if !ok || !c.fs.Overlaid(cp) {
		return
	}
	c.fs.ClearOverlay(cp)
	c.mu.Lock()
	c.retained[cp].Close()
	delete(c.retained, cp)
	c.mu.Unlock()
	if c.onDisk(cp) {
		c.Changed(cp)
	} else {
		c.Deleted(cp)
	}
}

func (c *Cache) onDisk(p string) bool {
	_, err := c.fs.Lstat(p) // nothing outside the root is looked at
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// Changed forgets what was read of the file at p, whose content changed.
func (c *Cache) Changed(p string) {
	cp, ok := repofs.Clean(p)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.modules, cp)
	delete(c.sources, cp)
	delete(c.noDirective, cp)
	if _, read := c.configs[cp]; read || isYAML(cp) {
		c.dropConfig(cp)
		c.skel = nil
	}
	if path.Base(cp) == ".gitignore" && c.options.Gitignore {
		// What the walk leaves out may have changed.
		c.listing = nil
		c.skel = nil
	}
}

// Created forgets what depended on p not existing: the listing, the
// entrypoint map, and the file system's answers for its folder.
func (c *Cache) Created(p string) { c.existence(p) }

// Deleted forgets what was read of p and what depended on it existing.
func (c *Cache) Deleted(p string) { c.existence(p) }

func (c *Cache) existence(p string) {
	cp, ok := repofs.Clean(p)
	if !ok {
		return
	}
	c.fs.Forget(cp)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.modules, cp)
	delete(c.sources, cp)
	delete(c.noDirective, cp)
	c.dropConfig(cp)
	c.listing = nil
	c.skel = nil
}

// dropConfig forgets the config at p, giving back to the YAML budget what
// its parse holds. c.mu is held.
func (c *Cache) dropConfig(p string) {
	if e := c.configs[p]; e != nil {
		configscan.Release(e.file)
	}
	delete(c.configs, p)
}

func isYAML(p string) bool { return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") }

// module returns the cache entry of the module at p, parsed, the parse
// charged to budget (a view's).
func (c *Cache) module(p string, budget *pyscan.Budget) *moduleEntry {
	c.mu.Lock()
	e := c.modules[p]
	if e == nil {
		e = &moduleEntry{}
		c.modules[p] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { c.parse(e, p, budget) })
	return e
}

// parse fills a module entry; it runs once per entry, through e.once. A
// module that a view's budget had no room for is not kept: the next view,
// with a budget of its own, parses it again. (A file that runs out of its
// own budget is kept: the same content would again.)
func (c *Cache) parse(e *moduleEntry, p string, budget *pyscan.Budget) {
	defer func() {
		if e.mod != nil && e.mod.SyntaxError != nil && e.mod.SyntaxError.Stopped != nil &&
			e.mod.SyntaxError.Stopped.Reason == pyscan.ScanBudgetRanOut {
			c.mu.Lock()
			if c.modules[p] == e {
				delete(c.modules, p)
			}
			c.mu.Unlock()
		}
	}()
	data, err := c.fs.Read(p)
	if err != nil {
		e.err = err
		return
	}
	c.noteDirective(p, data)
	c.mu.Lock()
	if c.parsedPaths == nil {
		c.parsedPaths = map[string]struct{}{}
	}
	c.parsedPaths[p] = struct{}{}
	c.mu.Unlock()
	if m := c.preparsed(p, data, budget); m != nil {
		e.mod = m
		c.nameModule(m)
		return
	}
	c.parsed.Add(1)
	// The parses in flight may take parseMemoryBound together (parsemem.go).
	w := parseWeight(len(data), c.parseMem.size)
	c.parseMem.acquire(w)
	defer c.parseMem.release(w)
	if parseHook != nil {
		parseHook(c, p)
	}
	parser := c.getParser()
	if parser == nil {
		e.err = ErrClosed
		return
	}
	defer c.putParser(parser)
	if !c.fs.Overlaid(p) {
		// Nothing modifies what FS.Read returned, nor does the cache:
		// the model keeps those bytes rather than a copy of them.
		e.mod = parser.ParseWithinOwned(p, data, budget)
		c.nameModule(e.mod)
		return
	}
	// An open buffer: parse from the tree of its previous version (the
	// model is the same as a fresh parse's), and keep the new tree.
	c.mu.Lock()
	prev := c.retained[p]
	delete(c.retained, p)
	c.mu.Unlock()
	var next *pyscan.Retained
	e.mod, next = parser.ParseIncrementalWithin(p, data, prev, budget)
	c.nameModule(e.mod)
	if next != nil {
		c.mu.Lock()
		if c.noRetain {
			next.Close()
		} else {
			c.retained[p].Close()
			c.retained[p] = next
		}
		c.mu.Unlock()
	}
}

// SizeOf is the size in bytes of the file at p as the cache would read
// it, 0 when it cannot be read (see size).
func (c *Cache) SizeOf(p string) int64 { return c.size(p) }

// size is the size in bytes of the file at p as the cache would read it
// (an overlay, else the disk), without reading it; 0 when it cannot be
// read (Read says why, later). Only a file that repofs says lies inside
// the root is looked at.
func (c *Cache) size(p string) int64 {
	if c.fs.Overlaid(p) {
		data, _ := c.fs.Read(p)
		return int64(len(data))
	}
	if c.fs.Stat(p) != nil {
		return 0
	}
	st, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(p)))
	if err != nil {
		return 0
	}
	return st.Size()
}

// source returns the content of the file at p, read once. A module that
// is parsed already holds its text: that is shared instead of a second
// copy. A parse it has to finish is charged to budget.
func (c *Cache) source(p string, budget *pyscan.Budget) *sourceEntry {
	c.mu.Lock()
	if me := c.modules[p]; me != nil {
		c.mu.Unlock()
		// Parse it (once, whoever asks first), then share its text.
		me.once.Do(func() { c.parse(me, p, budget) })
		if me.mod != nil {
			if src := me.mod.Source(); src != nil || me.mod.Size == 0 {
				return &sourceEntry{data: src}
			}
		}
		c.mu.Lock()
	}
	e := c.sources[p]
	if e == nil {
		e = &sourceEntry{}
		c.sources[p] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		if e.data, e.err = c.fs.Read(p); e.err == nil {
			c.noteDirective(p, e.data)
		}
	})
	return e
}

// noteDirective notes whether data, the content of p just read, may hold a
// suppression directive.
func (c *Cache) noteDirective(p string, data []byte) {
	none := !suppress.MayHoldDirective(p, data)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !none {
		delete(c.noDirective, p)
		return
	}
	if c.noDirective == nil {
		c.noDirective = map[string]bool{}
	}
	c.noDirective[p] = true
}

// HoldsNoDirective reports whether the content of the root-relative file
// p, as the cache last read it (and nothing has changed it since), holds
// no suppression directive: the suppression pass need not read it again.
func (c *Cache) HoldsNoDirective(p string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.noDirective[p]
}

// Source returns the content of a root-relative file as the cache reads
// it (an overlay, else the disk), shared with its parsed module when there
// is one. A file the cache holds neither as a module nor as a source (one
// never read, or evicted) is read without keeping a copy: an editor asks
// for the text of every file it publishes diagnostics on. The returned
// slice must not be modified.
func (c *Cache) Source(p string) ([]byte, error) {
	cp, ok := repofs.Clean(p)
	if !ok {
		return nil, &repofs.PathError{Path: p, Err: repofs.ErrOutsideRoot}
	}
	c.mu.Lock()
	held := c.modules[cp] != nil || c.sources[cp] != nil
	c.mu.Unlock()
	if !held {
		return c.fs.Read(cp)
	}
	e := c.source(cp, c.newBudget())
	return e.data, e.err
}

// Listing is the walk's listing of the root, made once per cache state
// (or the one SetListing gave): the configs it lists are read when a view
// is made, not by Listing.
func (c *Cache) Listing() repofs.Listing {
	c.skelMu.Lock()
	defer c.skelMu.Unlock()
	return *c.listingLocked()
}

// listingLocked is Listing, with skelMu held.
func (c *Cache) listingLocked() *repofs.Listing {
	c.mu.Lock()
	l := c.listing
	c.mu.Unlock()
	if l == nil {
		w := c.fs.Walk()
		l = &w
		c.mu.Lock()
		c.listing, c.given = l, false
		c.mu.Unlock()
	}
	return l
}

// SetListing gives the cache the listing of its root, made by an earlier
// walk that is known to be current (package engine checks the stamps of
// the directories walked), instead of walking again. It may be a listing
// that SkeletonInputs returned, whose YAML files name the included
// configs too: the cache tells them from the walk's (included.go).
func (c *Cache) SetListing(l repofs.Listing) {
	c.mu.Lock()
	if c.listing == nil && c.skel == nil {
		c.listing, c.given = &l, true
	}
	c.mu.Unlock()
}

// skeletonOf returns the skeleton, computing what changed since the last.
func (c *Cache) skeletonOf() *skeleton {
	c.skelMu.Lock()
	defer c.skelMu.Unlock()
	c.mu.Lock()
	s := c.skel
	c.mu.Unlock()
	if s != nil {
		return s
	}
	listing := c.listingLocked()
	s = &skeleton{}
	for _, pe := range listing.Problems {
		s.diags = append(s.diags, core.UnreadableFile.New(pe.Path, filePos, filePos, "cannot read "+pe.Path+": "+pe.Err.Error()))
	}
	c.mu.Lock()
	given := c.given
	c.mu.Unlock()
	s.read = c.configsRead(listing, given) // included.go
	entries := make([]*configEntry, len(s.read))
	parallel(len(s.read), c.jobs, func(i int) {
		entries[i] = c.config(s.read[i])
	})
	for _, e := range entries {
		s.diags = append(s.diags, e.diags...)
		if e.file != nil {
			s.configs = append(s.configs, e.file)
		}
	}
	c.collectEntrypoints(s, listing.AppPy)
	s.findOverrides()
	c.mu.Lock()
	c.listing = listing
	c.skel = s
	c.generation++
	c.mu.Unlock()
	return s
}

// Generation counts how many times the entrypoint map has been made: it
// changes when a config or the file listing changed since the last view
// (after the next view, or Entrypoints, makes the map again).
func (c *Cache) Generation() uint64 {
	c.skeletonOf()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.generation
}

// config returns the parsed config at p, parsing it on first use.
func (c *Cache) config(p string) *configEntry {
	c.mu.Lock()
	e := c.configs[p]
	if e == nil {
		e = &configEntry{}
		c.configs[p] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		data, err := c.fs.Read(p)
		if err != nil {
			e.diags = append(e.diags, c.unreadable(p, filePos, filePos, p, err))
			return
		}
		c.noteDirective(p, data)
		opts := configscan.Options{ServerTypes: c.options.ServerTypes, Budget: c.yaml}
		// The parses in flight share the parse memory (parsemem.go).
		w := yamlWeight(configscan.EstimateValues(data, opts), c.parseMem.size)
		c.parseMem.acquire(w)
		f := configscan.Parse(p, data, opts)
		c.parseMem.release(w)
		c.fillConfig(e, p, f)
	})
	return e
}

// fillConfig makes the entry of the config at p from its parse.
func (c *Cache) fillConfig(e *configEntry, p string, f *configscan.File) {
	for _, pr := range f.Problems {
		pos := configPos(pr.Pos)
		rule := core.InvalidConfig
		switch pr.Kind {
		case "duplicate-key":
			rule = core.DuplicateConfigKey
		case configscan.KindTooLarge, configscan.KindBudget:
			// Not read, as a file over the size limit is not.
			rule = core.UnreadableFile
		}
		d := rule.New(p, pos, pos, pr.Message)
		d.Help = pr.Help
		d.Fixes = ConfigFixes(p, pr.Fix)
		e.diags = append(e.diags, d)
	}
	e.file = f
}

// PreloadConfigs gives the cache the parses of configs, made by an earlier
// run from contents known to be the files' now (package engine checks
// their stamps), so that they are neither read nor parsed again. A config
// the cache has already read is left as it is.
func (c *Cache) PreloadConfigs(files []*configscan.File) {
	for _, f := range files {
		c.mu.Lock()
		e := c.configs[f.Path]
		if e == nil {
			e = &configEntry{}
			c.configs[f.Path] = e
		}
		c.mu.Unlock()
		e.once.Do(func() {
			c.yaml.Charge(f)
			c.fillConfig(e, f.Path, f)
		})
	}
}

// Configs are the configs the entrypoint map was made from, parsed.
func (c *Cache) Configs() []*configscan.File {
	return slices.Clone(c.skeletonOf().configs)
}

// View builds a view of the repository as the cache holds it. With a nil
// focus every entrypoint is analysed; otherwise only the entrypoints whose
// paths focus lists (paths that are not entrypoints are ignored), and the
// view's Dependencies say what their analysis read. Every view reports the
// repository's core diagnostics (RepositoryDiagnostics) whatever its focus.
//
// Each view has a parse budget of its own (Options.ParseBudget): the
// parses that one view starts share it, and a module it had no room for is
// parsed again by the next view.
func (c *Cache) View(focus []string) *View {
	c.mu.Lock()
	b := c.shared
	c.mu.Unlock()
	if b == nil {
		b = c.newBudget()
	}
	return c.view(focus, b)
}

// Prefetch starts parsing the modules at paths, in that order, for a
// batch scan that knows what its next analysis will read (a cached
// group's modules, when one of its files changed): the analysis then finds
// them parsed, or being parsed, instead of parsing them one after another
// as import resolution reaches them. The parses spend the shared budget,
// so it does nothing before ShareBudget. wait returns once they are done.
func (c *Cache) Prefetch(paths []string) (wait func()) {
	c.mu.Lock()
	b := c.shared
	c.mu.Unlock()
	if b == nil || len(paths) == 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		parallel(len(paths), c.jobs, func(i int) { c.module(paths[i], b) })
	}()
	return func() { <-done }
}

// ShareBudget makes every later view of the cache share one parse budget
// of Options.ParseBudget steps, as the one view of a batch scan does: a
// batch scan that analyses its entrypoints in several views (lint.Session)
// spends one scan's budget, not one per view.
func (c *Cache) ShareBudget() {
	c.mu.Lock()
	if c.shared == nil {
		c.shared = c.newBudget()
	}
	c.mu.Unlock()
}

// ForgoDependencies makes every later view of the cache record no
// dependencies: View.Dependencies returns nil. It is for a batch scan that
// keeps nothing for a later one (no cache of its results, no edits to
// come), which would only sort and keep every group's list of paths to
// drop it: on a generated repository of 2,000 servers, about 50 of its
// 770 MB of allocations and 13 MB of its peak memory.
func (c *Cache) ForgoDependencies() { c.noDeps.Store(true) }

// RecordsDependencies reports whether the cache's views record their
// dependencies (see ForgoDependencies).
func (c *Cache) RecordsDependencies() bool { return !c.noDeps.Load() }

// skelStat is fs.Stat for the entrypoint map, recorded in skelDeps.
func (c *Cache) skelStat(p string) error {
	c.mu.Lock()
	if c.skelDeps == nil {
		c.skelDeps = map[string]bool{}
	}
	c.skelDeps[p] = true
	c.mu.Unlock()
	return c.fs.Stat(p)
}

// skelIsFile is fs.IsFile for the entrypoint map, recorded in skelDeps.
func (c *Cache) skelIsFile(p string) bool { return c.skelStat(p) == nil }

// FS is the cache's view of the files: the root, the overlays, the extra
// roots mounted in it.
func (c *Cache) FS() *repofs.FS { return c.fs }

// SkeletonInputs are what the entrypoint map and the repository
// diagnostics were made from: the listing of the walk, whose YAML files
// are here the configs read (the walk's and the files their runs include
// from outside it: included.go), and the other paths looked at
// (entrypoint files and server directories' requirements.txt or
// pyproject.toml, found or not), sorted. Files whose content and
// existence are as they were, and an equal listing, make the same map.
func (c *Cache) SkeletonInputs() (listing repofs.Listing, looked []string) {
	s := c.skeletonOf()
	c.mu.Lock()
	defer c.mu.Unlock()
	listing = *c.listing
	listing.YAML = slices.Clone(s.read)
	return listing, slices.Sorted(maps.Keys(c.skelDeps))
}

// Parsed counts the modules the cache has parsed (a module parsed again
// after a change counts again), not those it took from
// Options.Preparsed.
func (c *Cache) Parsed() int { return int(c.parsed.Load()) }

// ModulesParsed counts the modules the cache has parsed or taken parsed
// (Options.Preparsed), each once: a module parsed again (evicted after
// one group's analysis and read by another's, which the scheduling
// decides, or changed) counts once, so that the same repository gives
// the same count every run.
func (c *Cache) ModulesParsed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.parsedPaths)
}

// newBudget returns a new parse budget of Options.ParseBudget steps (nil
// for none).
func (c *Cache) newBudget() *pyscan.Budget {
	switch n := c.options.ParseBudget; {
	case n < 0:
		return nil
	case n == 0:
		return pyscan.NewBudget(pyscan.DefaultScanSteps)
	default:
		return pyscan.NewBudget(n)
	}
}

// view is View with the given parse budget.
func (c *Cache) view(focus []string, budget *pyscan.Budget) *View {
	s := c.skeletonOf()
	v := &View{
		Root:        c.root,
		Options:     c.options,
		FS:          c.fs,
		Configs:     s.configs,
		skel:        s,
		cache:       c,
		budget:      budget,
		framework:   c.framework,
		serverBases: c.serverBases,
		seen:        map[string]bool{},
		mods:        map[string]*moduleEntry{},
		repoDiags:   s.diags,
	}
	if c.RecordsDependencies() {
		v.deps = map[string]bool{}
	}
	// The focus's entrypoints, in the skeleton's order (by path, each path
	// once): found by search, since a scan makes a view per group.
	var which []int
	if focus == nil {
		which = make([]int, len(s.entrypoints))
		for i := range which {
			which[i] = i
		}
	} else {
		for _, p := range focus {
			if i, ok := slices.BinarySearchFunc(s.entrypoints, p, func(e Entrypoint, p string) int { return strings.Compare(e.Path, p) }); ok {
				which = append(which, i)
			}
		}
		slices.Sort(which)
		which = slices.Compact(which)
	}
	for _, i := range which {
		e := s.entrypoints[i]
		v.Entrypoints = append(v.Entrypoints, &e)
		for _, cr := range e.Configs {
			v.dependOn(cr.File)
		}
		for _, f := range s.overrides[e.Path] {
			v.dependOn(f)
		}
	}
	v.analyseEntrypoints(c.jobs)
	return v
}

// EntrypointInfo is what the configs and the listing say of one entrypoint.
type EntrypointInfo struct {
	Path         string
	ServerDirApp bool
	Exempt       bool
	// Configs are the files of the config instances that name it, sorted,
	// with repeats.
	Configs []string
	// Overrides are the files with override instances (no entrypoint) of
	// the same type and dir as the entrypoint's server dir or a config
	// naming it, sorted.
	Overrides []string
}

// Entrypoints returns every entrypoint of the repository as the configs
// and the listing give them, sorted by path, without parsing any Python.
func (c *Cache) Entrypoints() []EntrypointInfo {
	s := c.skeletonOf()
	out := make([]EntrypointInfo, 0, len(s.entrypoints))
	for _, e := range s.entrypoints {
		info := EntrypointInfo{Path: e.Path, ServerDirApp: e.ServerDirApp, Exempt: e.Exemption != nil}
		for _, cr := range e.Configs {
			info.Configs = append(info.Configs, cr.File)
		}
		info.Overrides = s.overrides[e.Path]
		out = append(out, info)
	}
	return out
}

// findOverrides fills s.overrides, s.byPath and s.overrideRefs.
func (s *skeleton) findOverrides() {
	type dirKey = serverDir
	sets := map[dirKey]map[string]bool{}
	s.byPath = make(map[string]*configscan.File, len(s.configs))
	s.overrideRefs = map[serverDir][]OverrideRef{}
	order := 0
	for _, f := range s.configs {
		s.byPath[f.Path] = f
		for i := range f.Overrides {
			in := &f.Overrides[i]
			k := dirKey{in.Type, path.Clean(in.Dir)}
			if sets[k] == nil {
				sets[k] = map[string]bool{}
			}
			sets[k][f.Path] = true
			s.overrideRefs[k] = append(s.overrideRefs[k], OverrideRef{File: f, Instance: in, Order: order})
			order++
		}
	}
	s.overrides = map[string][]string{}
	if len(sets) == 0 {
		return
	}
	// Sorted once per key; an entrypoint with one key (the common case:
	// its server dir, and configs naming it from there) shares the slice.
	files := make(map[dirKey][]string, len(sets))
	for k, set := range sets {
		files[k] = slices.Sorted(maps.Keys(set))
	}
	for _, e := range s.entrypoints {
		var keys []dirKey
		add := func(k dirKey) {
			if _, ok := files[k]; ok && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		if parts := strings.SplitN(e.Path, "/", 2); len(parts) == 2 {
			add(dirKey{parts[0], path.Dir(parts[1])})
		}
		for _, cr := range e.Configs {
			add(dirKey{cr.Instance.Type, path.Clean(cr.Instance.Dir)})
		}
		switch len(keys) {
		case 0:
		case 1:
			s.overrides[e.Path] = files[keys[0]]
		default:
			var all []string
			for _, k := range keys {
				all = append(all, files[k]...)
			}
			slices.Sort(all)
			s.overrides[e.Path] = slices.Compact(all)
		}
	}
}

// noteRead counts one more view that read the module or source at p.
func (c *Cache) noteRead(p string) {
	c.mu.Lock()
	c.reads[p]++
	c.mu.Unlock()
}

// read returns, sorted, the modules and sources v read.
func (v *View) read() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	set := maps.Clone(v.seen)
	for p := range v.sourced {
		set[p] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// Evict forgets the parsed modules and the sources that v read and that no
// other view has read, nor a pin holds, once v is done with (a session
// analysing one group of entrypoints after another keeps only what
// several groups read). A view that asks for one later parses or reads
// it again, with the same result. The modules of overlaid files (open
// buffers) stay, and so do the framework's: most servers' views read some
// of them, and each would parse again what the first view's eviction
// dropped (on NeMo Gym, two 30 KB modules were parsed twice).
// Views still in use keep what they read.
func (c *Cache) Evict(v *View) {
	paths := v.read()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		if c.reads[p] > 1 || c.pins[p] > 0 || c.fs.Overlaid(p) || c.isFrameworkFile(p) {
			continue
		}
		delete(c.modules, p)
		delete(c.sources, p)
	}
}

// Pin keeps what v read until Unpin is called with what it returns, and
// takes v's reads back: a view made again later for the same entrypoints
// (a session that computed an entrypoint's family before it knows the
// group to analyse it in) does not count as a second reader. The modules
// of v's entrypoints themselves are not pinned but evicted (as Evict
// would): they are most of what a family's computation parses, and
// parsing one again costs less than holding every waiting entrypoint.
func (c *Cache) Pin(v *View) []string { return c.pin(v, false) }

// PinAll is Pin, the modules of v's entrypoints included.
func (c *Cache) PinAll(v *View) []string { return c.pin(v, true) }

func (c *Cache) pin(v *View, all bool) []string {
	paths := v.read()
	own := map[string]bool{}
	if !all {
		for _, e := range v.Entrypoints {
			own[e.Path] = true
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var pinned []string
	for _, p := range paths {
		c.reads[p]--
		if own[p] {
			if c.reads[p] <= 0 && c.pins[p] == 0 && !c.fs.Overlaid(p) {
				delete(c.modules, p)
				delete(c.sources, p)
			}
			continue
		}
		c.pins[p]++
		pinned = append(pinned, p)
	}
	return pinned
}

// Unpin takes back the pins of Pin.
func (c *Cache) Unpin(paths []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		if c.pins[p]--; c.pins[p] <= 0 {
			delete(c.pins, p)
		}
	}
}

// DropParsed forgets every parsed module and source, but those of overlaid
// files, and the composed runs: a one-shot scan that has analysed
// everything keeps no models for later edits. Views still in use keep
// what they read.
func (c *Cache) DropParsed() {
	c.DropPreparsed()
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.skel; s != nil {
		// The composed runs too: a view composes them again.
		s.runsMu.Lock()
		s.all = nil
		s.one.clear()
		s.shared.clear()
		s.runsMu.Unlock()
	}
	for p := range c.modules {
		if !c.fs.Overlaid(p) {
			delete(c.modules, p)
		}
	}
	for p := range c.sources {
		if !c.fs.Overlaid(p) {
			delete(c.sources, p)
		}
	}
}

// Readers returns how many views have read the module or source at p,
// counting each pin as one.
func (c *Cache) Readers(p string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return int(c.reads[p] + c.pins[p])
}
