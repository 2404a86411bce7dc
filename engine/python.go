package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/repofs"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
)

// pySide is the outcome of the Python side of a batch scan, before
// Finish.
type pySide struct {
	diags []diag.Diagnostic
	// entrypoints and configs are the files whose suppressions are checked
	// (with the Go files analysed), sorted.
	entrypoints, configs []string
	modules              int // modules parsed, each once (Cache.ModulesParsed)
	source               func(string) ([]byte, error)
	cache                CacheStats
	close                func()
	// fs is the session's reader, which keeps the sum of every read
	// (Result.Analysed); stamps are a warm scan's, nil without a cache.
	fs     *repofs.FS
	stamps *hashes
}

// CacheStats say what the disk cache did for a scan's Python side.
type CacheStats struct {
	// Used: a disk cache was open for the scan.
	Used bool
	// Groups is how many groups of entrypoints the repository has, and
	// Analysed how many of them were analysed (the others' findings came
	// from the cache); AnalysedEntrypoints counts the entrypoints of those.
	Groups, Analysed, AnalysedEntrypoints int
	// Reason says why nothing was reused ("" when something was, or when
	// no cache is used): "no entry", "configs or listing changed", ...
	Reason string
}

// scanPython analyses every entrypoint of the root, group by group
// (lint.Session), reading and writing the disk cache when the engine has
// one: a group whose dependencies are unchanged since the run that cached
// it is not analysed again. The findings are the same either way. Its
// diagnostics are finished (Finish: suppressions, configuration), with
// the engine's own.
//
// listed, when not nil, is called once with the root's listing as soon as
// it is known (before the analysis), or with nil when the scan fails
// before: the Go side takes its modules from it.
func (e *Engine) scanPython(listed func(*repofs.Listing)) (*pySide, error) {
	var once sync.Once
	publish := func(l *repofs.Listing) {
		if listed != nil {
			once.Do(func() { listed(l) })
		}
	}
	defer publish(nil)
	// A batch scan updates its session once: it keeps no parsed module
	// for edits to come. Without a cache to save its state in, it keeps
	// no dependencies either.
	warm := e.cache != nil && len(e.opts.Overlay) == 0
	s, err := e.newSession(lint.SessionOptions{OneShot: true, NoDependencies: !warm})
	if err != nil {
		return nil, err
	}
	// One batch scan spends one scan's parse budget, whatever the groups.
	s.Cache().ShareBudget()
	e.current.Store(s)
	// Every read is hashed: --fix applies a fix only to the content it
	// was computed from (Result.Analysed).
	s.Cache().FS().KeepSums()
	out := &pySide{source: s.Cache().Source, close: s.Close, fs: s.Cache().FS()}
	if warm {
		e.warmPython(s, out, publish)
		return out, nil
	}
	l := s.Cache().Listing()
	publish(&l)
	stats := update(s, nil)
	out.cache = CacheStats{Groups: stats.Groups, Analysed: stats.Groups, AnalysedEntrypoints: stats.Analysed}
	e.finishPython(s, out)
	return out, nil
}

// finishPython fills out from the session's state: its findings finished,
// the files scanned, the modules parsed.
func (e *Engine) finishPython(s *lint.Session, out *pySide) {
	e.finishPythonFrom(s, s.State(), out, nil, nil)
}

// errNoDirective is finishRead's answer for a file whose content holds no
// suppression directive.
var errNoDirective = errors.New("no suppression directive")

// finishRead is the read of Finish on the Python side: the cache's
// content of a file, but none for a file that the cache found, when it
// read it for the analysis, to hold no suppression directive (which
// suppress takes for a file with nothing to suppress): the pass need not
// read every entrypoint and config again (on a 2,000-server repository,
// 5,700 files at the end of the scan).
func finishRead(c *gym.Cache) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if c.HoldsNoDirective(p) {
			return nil, errNoDirective
		}
		return c.Source(p)
	}
}

// finishPythonFrom is finishPython that, given the record of an earlier
// scan and the paths whose content changed since, finishes again only the
// files whose content, findings or being scanned changed: Finish works
// file by file (suppressions are a file's, the configuration applies to
// each finding), so the record's finished findings of the other files
// stand. It returns the digests of each file's findings, for the next
// record.
func (e *Engine) finishPythonFrom(s *lint.Session, st *lint.State, out *pySide, old *pyRecord, changed []string) map[string]string {
	out.entrypoints = slices.Sorted(maps.Keys(st.Infos))
	out.configs = st.Configs
	out.modules = s.Cache().ModulesParsed()
	scanned := sortedUnique(append(slices.Clone(out.entrypoints), out.configs...))
	pre := withOwn(s.Diagnostics(), e.diags)
	sums := digests(pre)
	if old == nil || old.Final == nil || old.PreSums == nil {
		out.diags = e.Finish(pre, scanned, finishRead(s.Cache()))
		return sums
	}
	dirty := map[string]bool{}
	for _, p := range changed {
		dirty[p] = true
	}
	for p, sum := range sums {
		if old.PreSums[p] != sum {
			dirty[p] = true
		}
	}
	for p := range old.PreSums {
		if _, ok := sums[p]; !ok {
			dirty[p] = true
		}
	}
	was := map[string]bool{}
	for _, p := range old.Configs {
		was[p] = true
	}
	for p := range old.Infos {
		was[p] = true
	}
	now := map[string]bool{}
	for _, p := range scanned {
		now[p] = true
		if !was[p] {
			dirty[p] = true
		}
	}
	for p := range was {
		if !now[p] {
			dirty[p] = true
		}
	}
	var again []diag.Diagnostic
	for _, d := range pre {
		if dirty[d.Path] {
			again = append(again, d)
		}
	}
	var scanAgain []string
	for _, p := range scanned {
		if dirty[p] {
			scanAgain = append(scanAgain, p)
		}
	}
	final := e.Finish(again, scanAgain, finishRead(s.Cache()))
	for _, d := range old.Final {
		if !dirty[d.Path] {
			final = append(final, d)
		}
	}
	diag.Sort(final)
	out.diags = final
	return sums
}

// digests are, per path, a digest of the findings on it (their order
// included: Finish sorts them).
func digests(ds []diag.Diagnostic) map[string]string {
	by := map[string][]diag.Diagnostic{}
	for _, d := range ds {
		by[d.Path] = append(by[d.Path], d)
	}
	out := make(map[string]string, len(by))
	for p, list := range by {
		b, err := json.Marshal(list)
		if err != nil {
			b = []byte(fmt.Sprint(list))
		}
		out[p] = diskcache.Sum(b).String()
	}
	return out
}

// Progress is how far a scan has gone (Engine.Progress).
type Progress struct {
	// Modules is how many Python modules have been parsed, each once; Done of Total
	// entrypoints have been analysed (Total grows as the scan learns how
	// the entrypoints group: one analysed alone first and again with its
	// group counts twice).
	Modules, Done, Total int
}

// Progress says how far the running scan's Python side has gone: for a
// front end that shows a long scan going on. It is safe to call while
// Scan runs; before, it is zero.
func (e *Engine) Progress() Progress {
	s := e.current.Load()
	if s == nil {
		return Progress{}
	}
	done, total := s.Progress()
	return Progress{Modules: s.Cache().ModulesParsed(), Done: done, Total: total}
}

// update is s.Update, with the count of groups.
func update(s *lint.Session, changed []string) lint.UpdateStats {
	_, stats := s.Update(changed)
	return stats
}
