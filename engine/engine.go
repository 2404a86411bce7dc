// Package engine is gymlint's one pipeline: the command line, the language
// server and the go vet driver are thin front ends over it.
//
// An Engine is made once per repository root and configuration (New):
//
//   - the configuration (.gymlint.yaml, or pyproject.toml's [tool.gymlint])
//     becomes the scan's options once;
//   - the rule set is chosen before anything runs: a rule the configuration
//     disables is not run (its checks, or a Go analyzer all of whose rules
//     are disabled), so the modules only it would read are not parsed;
//   - the Python rules (package lint) and the Go analyzers (package
//     goanalysis) run at the same time;
//   - a rule that panics becomes one GL011 internal-error diagnostic per
//     file it failed on, and every other finding stands;
//   - the walk leaves out the configuration's excluded paths and, unless
//     Options.NoGitignore, what the repository's .gitignore files ignore;
//   - inline suppressions (package suppress), then the configuration's
//     excludes, per-path ignores and severities (package policy), apply to
//     what is left, the same way whichever front end asks (Finish).
//
// Scan is the batch scan of `gymlint`; NewSession and RunGo are what the
// language server keeps up to date as files change; VetAnalyzers are the
// analyzers `go vet -vettool` runs, with the same suppressions and
// configuration. FindRoot finds the repository a path lies in, and Scope
// keeps the findings about some of its paths.
package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
	"github.com/gymlint/gymlint/settings/policy"
	"github.com/gymlint/gymlint/suppress"
)

// Options say how an Engine scans.
type Options struct {
	// Root is the repository root (see FindRoot).
	Root string
	// Settings is the configuration; nil loads it from Root.
	Settings *settings.Settings
	// Jobs is the number of parallel parsers; 0: GOMAXPROCS, the CPUs the
	// process may use.
	Jobs int
	// MaxFileSize overrides the configuration's cap on a file's size.
	MaxFileSize int64
	// ParseBudget is the parsing work, in steps, that one scan's parses
	// may take together (--parse-budget); 0: the default
	// (pyscan.DefaultScanSteps). See gym.Options.ParseBudget.
	ParseBudget int64
	// Exempt are exemptions in addition to the configuration's (--exempt).
	Exempt []gym.Exemption
	// Overlay is read instead of the disk: root-relative path → content
	// (a file that is not on disk is added). The Python side reads it,
	// and so does Scan's Go side (gymlint --stdin-filename); the language
	// server gives RunGo its own.
	Overlay map[string][]byte
	// FixesCounted: the caller only counts the findings' fixes, never
	// shows or applies them (gym.Options.FixesCounted).
	FixesCounted bool
	// NoGo leaves the Go modules out.
	NoGo bool
	// NoGitignore walks what the repository's .gitignore files ignore too
	// (--no-respect-gitignore); by default the walk leaves it out
	// (gym.Options.Gitignore).
	NoGitignore bool
	// GoEnv is added to the environment of `go list`.
	GoEnv []string
	// GoNetwork lets the go command download missing dependencies
	// (goanalysis.Config.Network).
	GoNetwork bool
	// Contract overrides the configuration's contract mode (--contract);
	// "": the configuration's, auto by default.
	Contract contract.Mode
	// VirtualEnv is the user's virtual environment ($VIRTUAL_ENV), where
	// the framework may be installed (contract.Options.VirtualEnv).
	VirtualEnv string

	// ExtraRoots are the user's plugin server roots (--extra-root, then
	// NEMO_GYM_EXTRA_ROOTS): absolute directories, searched in order
	// before the root for a server directory a config names (see
	// gym.Options.ExtraRoots). The configuration's extra_roots, inside the
	// root, come after them.
	ExtraRoots []string
	// IncludeExtraRoots reports the findings in files of extra roots
	// outside the root (--include-extra-roots); by default those servers
	// are analysed, so that what the root's configs say of them is known,
	// and their own findings dropped.
	IncludeExtraRoots bool

	// Cache is the disk cache that a batch scan reads and writes (nil:
	// none): the Python side's findings and the configs' parses
	// (warm.go), the contract (contractcache.go), and the Go dependencies'
	// type information (goanalysis.Config.Cache). A scan with an Overlay
	// does not use it for the Python side.
	Cache *diskcache.Cache
	// ExitAfterScan says that the process ends after the scan, as the
	// command line's does. A warm scan that analyses little raises the
	// collector's pace (GOGC 400: its heap stays small) for the scan and
	// by default restores it at the end; with ExitAfterScan it leaves it
	// raised, since restoring it starts a collection of the whole heap
	// that the exit makes useless (NeMo Gym, one server file edited: 4 ms
	// of a 70 ms scan).
	ExitAfterScan bool

	// Checks replaces the Python rules' checks (lint.Checks), and
	// GoAnalyzers the Go analyzers (goanalysis.Analyzers): for tests, such
	// as one that injects a rule that panics. The configuration still
	// chooses among them.
	Checks      []gym.Check
	GoAnalyzers []*analysis.Analyzer
}

// Engine is the pipeline for one repository root and configuration. It is
// safe for concurrent use.
type Engine struct {
	// contractFrom says where the contract came from, for tests: "cache",
	// "restamped" (the cache's, its stamps made again), "detected" (read
	// from the framework), "" (no cache).
	contractFrom string
	// paced: a scan raised the collector's pace and left it raised
	// (Options.ExitAfterScan); gcBefore is the pace before.
	paced       bool
	gcBefore    int
	exitAfter   bool // Options.ExitAfterScan
	root        string
	conf        *settings.Settings
	opts        gym.Options
	checks      []gym.Check
	goAnalyzers []*analysis.Analyzer
	noGo        bool
	goNetwork   bool
	framework   *contract.Framework
	mode        contract.Mode
	skipped     []contract.Skipped // rules not applied under the contract found
	goEnv       []string
	diags       []diag.Diagnostic // the configuration files not read (GL002)
	// includeExtra keeps the findings in extra roots outside the root.
	includeExtra bool
	cache        *diskcache.Cache
	current      atomic.Pointer[lint.Session] // the session of the running scan
}

// New makes the engine of a root: it reads the configuration (an error in
// it is New's error) and chooses the rules to run. A configuration file
// that cannot be read as a file (settings.Load) is no error: the defaults
// stand in for it, and Diagnostics reports it.
func New(o Options) (*Engine, error) {
	conf := o.Settings
	if conf == nil {
		var err error
		if conf, err = settings.Load(o.Root); err != nil {
			return nil, fmt.Errorf("configuration error: %w", err)
		}
	}
	e := &Engine{root: o.Root, conf: conf, noGo: o.NoGo, goEnv: o.GoEnv, goNetwork: o.GoNetwork, includeExtra: o.IncludeExtraRoots, cache: o.Cache, exitAfter: o.ExitAfterScan}
	extra, err := extraRoots(o.Root, o.ExtraRoots, conf.ExtraRoots)
	if err != nil {
		return nil, fmt.Errorf("configuration error: %w", err)
	}
	for _, u := range conf.Unread {
		start := diag.Pos{Line: 1, Col: 1}
		e.diags = append(e.diags, core.UnreadableFile.New(u.File, start, start, u.Msg))
	}
	e.opts = gym.Options{
		ServerTypes:      conf.ServerTypes,
		FrameworkPackage: conf.FrameworkPackage,
		MaxFileSize:      conf.MaxFileSize,
		Exemptions:       append(slices.Clone(conf.Exempt), o.Exempt...),
		Jobs:             o.Jobs,
		Overlay:          o.Overlay,
		ParseBudget:      o.ParseBudget,
		Exclude:          conf.Exclude,
		Gitignore:        !o.NoGitignore,
		ExtraRoots:       extra,
		Words:            conf.Words,
		KnownFirstParty:  conf.KnownFirstParty,
		FixesCounted:     o.FixesCounted,
	}
	if o.MaxFileSize > 0 {
		e.opts.MaxFileSize = o.MaxFileSize
	}
	e.detectContract(o)
	checks := o.Checks
	if checks == nil {
		checks = lint.Checks()
	}
	for _, c := range checks {
		if e.Enabled(c.Rule.Code) && e.applies(c.Rule) {
			e.checks = append(e.checks, c)
		}
	}
	analyzers := o.GoAnalyzers
	if analyzers == nil {
		analyzers = goanalysis.Analyzers
	}
	for _, a := range analyzers {
		if e.analyzerEnabled(a.Name) {
			e.goAnalyzers = append(e.goAnalyzers, a)
		}
	}
	return e, nil
}

// Root is the repository root.
func (e *Engine) Root() string { return e.root }

// Diagnostics are the engine's own findings, before suppressions and
// configuration: a GL002 unreadable-file for each configuration file that
// could not be read (a named pipe, a link out of the root...), whose
// defaults are used instead. Scan adds them to its findings; a front end
// that does not call Scan (the language server) should show them.
func (e *Engine) Diagnostics() []diag.Diagnostic { return slices.Clone(e.diags) }

// Settings is the configuration in effect.
func (e *Engine) Settings() *settings.Settings { return e.conf }

// GymOptions are the options of the repository's view.
func (e *Engine) GymOptions() gym.Options { return e.opts }

// Enabled reports whether the configuration runs the rule with this code.
func (e *Engine) Enabled(code string) bool { return policy.Enabled(e.conf, code) }

// analyzerEnabled reports whether a Go analyzer has an enabled rule (an
// analyzer the catalogue lists no rule of runs: its rules are not known).
func (e *Engine) analyzerEnabled(name string) bool {
	known := false
	for _, r := range lint.Rules() {
		if r.Analyzer != name {
			continue
		}
		known = true
		if e.Enabled(r.Code) {
			return true
		}
	}
	return !known
}

// ran reports whether a rule was run: every rule that is enabled and
// applies under the contract (a core rule is always run; whether enabled
// or not, the policy keeps or drops its findings).
func (e *Engine) ran(code string) bool {
	if r := lint.Lookup(code); r != nil && !e.applies(r) {
		return false
	}
	return e.Enabled(code)
}

// detectContract finds the repository's framework and decides which
// rules its contract lets apply.
func (e *Engine) detectContract(o Options) {
	e.mode = e.conf.Contract
	if o.Contract != "" {
		e.mode = o.Contract
	}
	if e.mode == "" {
		e.mode = contract.Auto
	}
	pkg := e.conf.FrameworkPackage
	e.framework = &contract.Framework{Package: cmp.Or(pkg, contract.DefaultPackage)}
	if fsys, err := repofs.New(e.root, repofs.Options{MaxFileSize: e.opts.MaxFileSize, Overlay: o.Overlay}); err == nil {
		var fw *contract.Framework
		var store func(*contract.Framework)
		if e.cache != nil && len(o.Overlay) == 0 {
			fw, store = e.cachedContract(fsys, cmp.Or(pkg, contract.DefaultPackage))
		}
		if fw == nil {
			var parsed []contract.Parsed
			fw, parsed = contract.DetectModules(contract.Options{FS: fsys, Package: pkg, FrameworkPath: e.conf.FrameworkPath, VirtualEnv: o.VirtualEnv, Jobs: o.Jobs})
			if store != nil {
				store(fw)
			}
			// The scan takes those it would parse again.
			e.opts.Preparsed = gym.NewPreparsed(parsed)
		}
		e.framework = fw
	}
	e.opts.Framework = e.framework
	e.opts.InstallRoot = installRoot(e.root, e.framework)
	for _, r := range lint.Rules() {
		if !e.framework.Applies(e.mode, r.Needs) && e.Enabled(r.Code) {
			e.skipped = append(e.skipped, contract.Skipped{Code: r.Code, Missing: e.framework.Missing(r.Needs)})
		}
	}
}

// applies reports whether the contract in force lets the rule apply.
func (e *Engine) applies(r *diag.Rule) bool { return e.framework.Applies(e.mode, r.Needs) }

// Framework is the framework found, and the contract mode in force.
func (e *Engine) Framework() (*contract.Framework, contract.Mode) { return e.framework, e.mode }

// Skipped are the enabled rules that were not applied because the
// framework lacks what they need (none with --contract latest).
func (e *Engine) Skipped() []contract.Skipped { return slices.Clone(e.skipped) }

// ContractNotes are the short lines that say which contract the rules
// were judged by (contract.Notes): the rules the configuration or the
// command line named one by one that the contract leaves out, each with
// why, and how many others it leaves out. None when there is nothing to
// say.
func (e *Engine) ContractNotes() []string {
	return contract.Notes(e.framework, e.mode, e.skipped, e.conf.Named, e.ruleOrder())
}

// ContractDetail is the long form of ContractNotes' count: each group of
// rules left out, with why (contract.Detail).
func (e *Engine) ContractDetail() []string {
	return contract.Detail(e.skipped, e.ruleOrder())
}

// ruleOrder is every rule code in the catalogue's order.
func (e *Engine) ruleOrder() []string {
	var order []string
	for _, r := range lint.Rules() {
		order = append(order, r.Code)
	}
	return order
}

// Finish applies the inline suppressions, then the configuration, to
// diagnostics: the last steps of every front end. scanned are the files
// whose suppressions are checked for use although they may have no
// diagnostics (entrypoints, configs, the Go files analyzed); read gives a
// file's content as the analysis read it. The result is sorted. A file
// that ds says was not analysed (suppress.NotAnalysed: a GL001, GL002,
// GL003, GL008 or GL011 at it) has no unused suppression, so no fix that
// removes one: Finish works file by file, and each file's findings carry
// that fact with them.
func (e *Engine) Finish(ds []diag.Diagnostic, scanned []string, read func(string) ([]byte, error)) []diag.Diagnostic {
	if !e.includeExtra {
		ds = dropExtra(ds)
	}
	ds = noExtraFixes(ds)
	ds = suppress.ApplyConfig(ds, scanned, read, suppress.Config{Lookup: lint.Lookup, Ran: e.ran, Jobs: e.opts.Jobs})
	ds = policy.Apply(e.conf, ds)
	diag.Sort(ds)
	return ds
}

// NewSession opens an incremental session of the root (see lint.Session)
// that runs the enabled rules.
func (e *Engine) NewSession() (*lint.Session, error) {
	return e.newSession(lint.SessionOptions{})
}

// newSession opens a session of the root with session options.
func (e *Engine) newSession(so lint.SessionOptions) (*lint.Session, error) {
	checks := e.checks
	if checks == nil {
		checks = []gym.Check{} // none enabled (nil would be every check)
	}
	return lint.NewSessionWith(e.root, e.opts, checks, so)
}

// InternalErrors counts the GL011 diagnostics of ds.
func InternalErrors(ds []diag.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Code == core.InternalError.Code {
			n++
		}
	}
	return n
}

// sortedUnique sorts a list of paths and drops repeats.
func sortedUnique(ps []string) []string {
	sort.Strings(ps)
	return slices.Compact(ps)
}
