package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// useColor reports whether the full format is coloured: NO_COLOR (any
// value) turns colour off, FORCE_COLOR (any value but "" and "0") on;
// otherwise colour goes to a terminal only. getenv is os.Getenv (tests
// give their own).
func useColor(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	if v := getenv("FORCE_COLOR"); v != "" && v != "0" {
		return true
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTTY(f)
}

// cwdRelative shows a root-relative path as ruff and the go command print
// paths: relative to the current directory when the file is below it, else
// absolute (a path that climbs out with ../ is neither short nor stable).
// It is nil when the current directory is the root, or is unknown.
func cwdRelative(root string) func(string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	absRoot, err := filepath.Abs(root)
	if err != nil || absRoot == cwd {
		return nil
	}
	return func(p string) string {
		abs := filepath.Join(absRoot, filepath.FromSlash(p))
		if rel, err := filepath.Rel(cwd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
		return abs
	}
}
