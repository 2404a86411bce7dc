package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// parseCheckArgs parses the arguments of a check: flags before or after the
// positional arguments, and "--" ending the flags. Without --pre-commit it
// is parseArgs: at most one DIR. With --pre-commit every positional
// argument is a FILE (pre-commit appends the staged file names to the
// hook's entry), and DIR is the current directory.
func parseCheckArgs(fs *flag.FlagSet, args []string, preCommit *bool, stderr io.Writer) (root string, files []string, code int, ok bool) {
	positional, code, ok := parseFlags(fs, args)
	if !ok {
		return "", nil, code, false
	}
	if *preCommit {
		return ".", positional, 0, true
	}
	if len(positional) > 1 {
		fmt.Fprintf(stderr, "gymlint: expected at most one directory, got %d: %s (give --pre-commit to check files)\n", len(positional), strings.Join(positional, " "))
		fs.Usage()
		return "", nil, ExitError, false
	}
	root = "."
	if len(positional) == 1 {
		root = positional[0]
	}
	return root, nil, 0, true
}

// fileSet is the set of files given with --pre-commit, as slash-separated
// paths relative to the scanned root.
type fileSet map[string]bool

// newFileSet normalises the FILE arguments: relative to the current
// directory (which is the scanned root) or absolute.
func newFileSet(files []string) (fileSet, error) {
	set := fileSet{}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		p := filepath.Clean(f)
		if filepath.IsAbs(p) {
			if rel, err := filepath.Rel(wd, p); err == nil {
				p = rel
			}
		}
		set[filepath.ToSlash(p)] = true
	}
	return set, nil
}

// touches reports whether a finding is in one of the files, or names one
// of them as a related position (the config that names an entrypoint, the
// module of a parent class): the finding is about a server the files touch.
func (s fileSet) touches(d diag.Diagnostic) bool {
	if s[d.Path] {
		return true
	}
	for _, r := range d.Related {
		if s[r.Path] {
			return true
		}
	}
	return false
}

// findingFilter returns the filter that --new-from-rev and --pre-commit
// put on the findings, after the policy (suppressions, configuration). It
// checks the revision up front, so that a bad one is an error before the
// scan. The changed lines are read again on each call, so that the check
// after --fix sees the fixed working tree.
func findingFilter(root, rev string, preCommit bool, files []string) (func([]diag.Diagnostic) ([]diag.Diagnostic, error), error) {
	var set fileSet
	if preCommit {
		var err error
		if set, err = newFileSet(files); err != nil {
			return nil, err
		}
	}
	if rev != "" {
		if err := checkRev(root, rev); err != nil {
			return nil, err
		}
	}
	return func(ds []diag.Diagnostic) ([]diag.Diagnostic, error) {
		if preCommit {
			kept := make([]diag.Diagnostic, 0, len(ds))
			for _, d := range ds {
				if set.touches(d) {
					kept = append(kept, d)
				}
			}
			ds = kept
		}
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
