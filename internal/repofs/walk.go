package repofs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gymlint/gymlint/internal/pathmatch"
)

// Walk lists the root's files. Overlay files that are not on disk are
// included. The result is sorted.
//
// With Options.Exclude, the files and directories that match one of its
// globs (pathmatch.Excluded) are left out; with Options.Gitignore, those
// that the root's .gitignore files ignore (the root's and those of the
// directories walked, with git's rules: pathmatch.ParseGitignore). A
// .gitignore that cannot be read, or that has more patterns than
// pathmatch.MaxGitignorePatterns, is a Problem (its patterns, or the
// first ones, still apply).
//
// Directories are listed by several goroutines (walkersPerProc for each
// processor of Options.Jobs): a cold scan of NeMo Gym (1,262
// directories) spent about 25 ms listing them on one goroutine while the
// other processor waited. Each directory's findings are kept in order
// and joined in the walk's order afterwards, so that
// the listing is the one a walk on one goroutine makes, Dirs, Gitignores
// and Problems in walk order included. The one thing that depends on that
// order is where the walk stops applying .gitignore files that cost too
// much (MaxGitignoreWork, counted in walk order): a walk whose matches
// pass the bound is given up and made again on one goroutine, which stops
// at the same place as ever.
func (f *FS) Walk() Listing {
	procs := f.jobs
	if procs <= 0 {
		procs = runtime.GOMAXPROCS(0)
	}
	if l, ok := f.walk(walkersPerProc * procs); ok {
		return l
	}
	l, _ := f.walk(0)
	return l
}

// walkersPerProc is how many goroutines a processor lists directories
// with: a listing is mostly system calls, which wait in the kernel.
// BenchmarkWalk on NeMo Gym, 2 processors, with .gitignore files: 21.7 ms
// on one goroutine, 17.3 ms on three, 12.8 ms on nine, no better on 17.
const walkersPerProc = 4

// walk is Walk with up to extra more goroutines listing directories; ok
// is false when a walk with extra goroutines passed MaxGitignoreWork.
func (f *FS) walk(extra int) (_ Listing, ok bool) {
	w := &walker{f: f, parallel: extra > 0, tokens: make(chan struct{}, extra)}
	root := &walkDir{rel: "."}
	w.dir(root, f.root, nil)
	w.wg.Wait()
	if w.parallel && w.overBudget.Load() {
		return Listing{}, false
	}
	var l Listing
	seen := map[string]bool{}
	add := func(rel string) {
		if seen[rel] {
			return
		}
		seen[rel] = true
		name := path.Base(rel)
		switch {
		case isYAMLName(name):
			l.YAML = append(l.YAML, rel)
		case name == "app.py":
			l.AppPy = append(l.AppPy, rel)
		}
	}
	var ignores []*pathmatch.Gitignore // every .gitignore read, for the overlay's files
	var join func(d *walkDir)
	join = func(d *walkDir) {
		l.Dirs = append(l.Dirs, d.rel)
		for _, e := range d.found {
			switch {
			case e.dir != nil:
				join(e.dir)
			case e.problem != nil:
				l.Problems = append(l.Problems, e.problem)
			case e.ignore != nil:
				ignores = append(ignores, e.ignore)
			case e.kind == foundGitignore:
				l.Gitignores = append(l.Gitignores, e.path)
			case e.kind == foundGoMod:
				l.GoMods = append(l.GoMods, d.rel)
			default:
				add(e.path)
			}
		}
	}
	join(root)
	f.mu.Lock()
	var overlaid []string
	for k := range f.overlay {
		overlaid = append(overlaid, k)
	}
	f.mu.Unlock()
	for _, k := range overlaid {
		if !inSkippedDir(k) && !f.leftOut(k, ignores) {
			add(k)
		}
	}
	sort.Strings(l.YAML)
	sort.Strings(l.AppPy)
	sort.Strings(l.GoMods)
	return l, true
}

// walker is one walk.
type walker struct {
	f *FS
	// parallel: subdirectories may be listed by other goroutines, one a
	// token (tokens' capacity), and the walk is given up past
	// MaxGitignoreWork. Without it, directories are listed in walk order,
	// and past the bound .gitignore files are no longer applied.
	parallel bool
	tokens   chan struct{}
	wg       sync.WaitGroup
	// work counts the segment matches of .gitignore patterns.
	work       atomic.Int64
	overBudget atomic.Bool
}

// walkDir is what the walk found in one directory, in the order a walk
// on one goroutine finds it.
type walkDir struct {
	rel   string
	found []found
}

// found is one finding of a directory: one of a subdirectory walked, a
// problem, a .gitignore read (its path, then its patterns), a go.mod, a
// file for the listing.
type found struct {
	kind    uint8
	path    string
	dir     *walkDir
	problem *PathError
	ignore  *pathmatch.Gitignore
}

const (
	foundFile = iota
	foundGitignore
	foundGoMod
)

// MaxGitignoreWork bounds the work of matching one walk's entries against
// .gitignore patterns, in segment matches: about a second. NeMo Gym's
// checkout (245 .gitignore files, 969 patterns) takes about 750,000.
const MaxGitignoreWork = 50_000_000

// ignored reports whether the .gitignore files of stack ignore child, a
// child of d. Past MaxGitignoreWork it reports false, and the walk on one
// goroutine has a Problem, in d, that says so.
func (w *walker) ignored(d *walkDir, stack []*pathmatch.Gitignore, child string, isDir bool) bool {
	if len(stack) == 0 || w.overBudget.Load() {
		return false
	}
	var work int64
	ign := pathmatch.IgnoredCounting(stack, child, isDir, &work)
	if w.work.Add(work) > MaxGitignoreWork && w.overBudget.CompareAndSwap(false, true) && !w.parallel {
		d.found = append(d.found, found{problem: &PathError{Path: stack[len(stack)-1].File(), Err: fmt.Errorf("%w: from %s on, the walk does not apply .gitignore files", ErrGitignoreTooCostly, child)}})
	}
	return ign
}

// dir walks the directory d (abs on disk), below the .gitignore files of
// stack (those of its parents, the root's first).
func (w *walker) dir(d *walkDir, abs string, stack []*pathmatch.Gitignore) {
	if w.parallel && w.overBudget.Load() {
		return // given up
	}
	rel := d.rel
	entries, err := osReadDir(abs)
	if err != nil {
		if rel != "." {
			d.found = append(d.found, found{problem: &PathError{Path: rel, Err: bare(err)}})
		}
		return
	}
	w.f.keepListing(rel, entries)
	join := func(name string) string {
		if rel == "." {
			return name
		}
		return rel + "/" + name
	}
	if w.f.gitignore {
		for _, e := range entries {
			if e.Name() == ".gitignore" && !e.IsDir() {
				p := join(e.Name())
				d.found = append(d.found, found{kind: foundGitignore, path: p})
				if g := w.readGitignore(d, p); g != nil {
					stack = append(stack[:len(stack):len(stack)], g)
					d.found = append(d.found, found{ignore: g})
				}
				break
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		child := join(name)
		if e.IsDir() {
			if skipDir(name) || pathmatch.Excluded(w.f.exclude, child) || w.ignored(d, stack, child, true) {
				continue
			}
			sub := &walkDir{rel: child}
			d.found = append(d.found, found{dir: sub})
			w.sub(sub, filepath.Join(abs, name), stack)
			continue
		}
		if name == "go.mod" { // a regular file, or a link or special file that loading the module checks
			d.found = append(d.found, found{kind: foundGoMod})
		}
		// Regular files and symbolic links (checked when read).
		if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 || !isYAMLName(name) && name != "app.py" {
			continue
		}
		if pathmatch.Excluded(w.f.exclude, child) || w.ignored(d, stack, child, false) {
			continue
		}
		d.found = append(d.found, found{path: child})
	}
}

// sub walks a subdirectory: on another goroutine when a token is free,
// else on this one.
func (w *walker) sub(d *walkDir, abs string, stack []*pathmatch.Gitignore) {
	select {
	case w.tokens <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer func() {
				<-w.tokens
				w.wg.Done()
			}()
			w.dir(d, abs, stack)
		}()
	default:
		w.dir(d, abs, stack)
	}
}

// readGitignore reads and parses the .gitignore at p, in the directory
// d; nil when it cannot be read (a Problem).
func (w *walker) readGitignore(d *walkDir, p string) *pathmatch.Gitignore {
	data, err := w.f.Read(p)
	if err != nil {
		var pe *PathError
		if !errors.As(err, &pe) {
			pe = &PathError{Path: p, Err: err}
		}
		d.found = append(d.found, found{problem: pe})
		return nil
	}
	g, more := pathmatch.ParseGitignore(d.rel, string(data))
	if more {
		d.found = append(d.found, found{problem: &PathError{Path: p, Err: fmt.Errorf("%w: gymlint applies the first %d and not the rest", ErrTooManyPatterns, pathmatch.MaxGitignorePatterns)}})
	}
	return g
}
