package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
)

// target is what a check reads and what it reports: the repository root,
// and the scope of the paths given on the command line.
type target struct {
	// root is the root as the check names it: as given when it is the
	// directory given, else relative to the current directory.
	root   string
	marker string // engine.Root.Marker
	scope  *engine.Scope
	shown  []string // the scope's paths relative to the root, for the summary
}

// findTarget finds the root (rootFlag, else engine.FindRoot of the first
// path, else of the current directory; with --pre-commit always the
// current directory's) and the scope of paths (by default the current
// directory), which must lie inside it and, without --pre-commit, exist.
func findTarget(rootFlag string, paths []string, preCommit bool) (*target, error) {
	if len(paths) == 0 && !preCommit {
		paths = []string{"."} // the current directory, which may lie below the root
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil && !(preCommit && errors.Is(err, fs.ErrNotExist)) {
			return nil, err
		}
	}
	start := "."
	if len(paths) > 0 && !preCommit {
		start = paths[0]
	}
	r, err := rootOf(rootFlag, start)
	if err != nil {
		return nil, err
	}
	t := &target{marker: r.Marker, root: displayRoot(r.Dir, rootFlag, start)}
	var rels []string
	for _, p := range paths {
		rel, err := r.Rel(p)
		if err != nil {
			how := "found from " + start
			if rootFlag != "" {
				how = "given with --root"
			}
			return nil, fmt.Errorf("%s is outside the repository root %s (%s): check it on its own, or choose the root with --root", p, t.root, how)
		}
		rels = append(rels, rel)
		t.shown = append(t.shown, rel)
	}
	t.scope = engine.NewScope(rels)
	return t, nil
}

// displayRoot names the root dir: as the user wrote it when it is the
// directory they gave (or --root), else relative to the current directory
// (absolute when that fails).
func displayRoot(dir, rootFlag, start string) string {
	for _, given := range []string{rootFlag, start} {
		if given == "" {
			continue
		}
		if abs, err := filepath.Abs(given); err == nil && abs == dir {
			return given
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, dir); err == nil {
			return rel
		}
	}
	return dir
}

// describeRoot is the root as the summary names it, with what marks it.
func (t *target) describeRoot() string {
	switch t.marker {
	case "", "--root":
		return t.root
	}
	return t.root + " (" + t.marker + ")"
}

// findingFilter returns the filter that the scope and --new-from-rev put
// on the findings, after suppressions and configuration. It checks the
// revision up front, so that a bad one is an error before the scan. The
// changed lines are read again on each call, so that the check after
// --fix sees the fixed working tree.
func findingFilter(root, rev string, scope *engine.Scope) (func([]diag.Diagnostic) ([]diag.Diagnostic, error), error) {
	if rev != "" {
		if err := checkRev(root, rev); err != nil {
			return nil, err
		}
	}
	return func(ds []diag.Diagnostic) ([]diag.Diagnostic, error) {
		ds = scope.Keep(ds)
		if rev != "" {
			changed, err := changedSince(root, rev)
			if err != nil {
				return nil, err
			}
			ds = keepChanged(ds, changed)
		}
		return ds, nil
	}, nil
}

// rootOf is the repository root: the --root directory when one is given,
// else the root found from start (engine.FindRoot).
func rootOf(rootFlag, start string) (engine.Root, error) {
	if rootFlag == "" {
		return engine.FindRoot(start)
	}
	st, err := os.Stat(rootFlag)
	if err != nil {
		return engine.Root{}, fmt.Errorf("--root: %v", err)
	}
	if !st.IsDir() {
		return engine.Root{}, fmt.Errorf("--root %s is not a directory", rootFlag)
	}
	abs, err := filepath.Abs(rootFlag)
	if err != nil {
		return engine.Root{}, err
	}
	return engine.Root{Dir: abs, Marker: "--root"}, nil
}
