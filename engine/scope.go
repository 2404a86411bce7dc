package engine

import (
	"slices"

	"github.com/gymlint/gymlint/diag"
)

// Scope is what a run reports on: some of the root's files and
// directories (root-relative, slash-separated), or all of it. The whole
// root is always scanned; a finding is in scope when it lies in one of
// the paths, or when one of its related positions does (the config that
// names an entrypoint, the module of a parent class, the changed helper
// whose `import ray` the finding is about): it is about the code there.
type Scope struct {
	paths []string // nil: everything
}

// Everything is the scope of the whole root.
func Everything() *Scope { return &Scope{} }

// NewScope is the scope of the paths: nothing when there are none (a
// pre-commit batch of no files), everything when one of them is the root
// (".").
func NewScope(paths []string) *Scope {
	if slices.Contains(paths, ".") {
		return Everything()
	}
	return &Scope{paths: sortedUnique(append([]string{}, paths...))}
}

// All reports whether the scope is the whole root.
func (s *Scope) All() bool { return s == nil || s.paths == nil }

// Paths are the scope's paths, sorted; nil for the whole root (and empty,
// not nil, for nothing).
func (s *Scope) Paths() []string { return s.paths }

// Has reports whether a root-relative path is in scope.
func (s *Scope) Has(p string) bool {
	if s.All() {
		return true
	}
	for _, q := range s.paths {
		if under(p, q) {
			return true
		}
	}
	return false
}

// Touches reports whether a finding or one of its related positions lies
// in scope.
func (s *Scope) Touches(d diag.Diagnostic) bool {
	if s.Has(d.Path) {
		return true
	}
	for _, r := range d.Related {
		if s.Has(r.Path) {
			return true
		}
	}
	return false
}

// Keep returns the findings in scope, in order.
func (s *Scope) Keep(ds []diag.Diagnostic) []diag.Diagnostic {
	if s.All() {
		return ds
	}
	out := make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if s.Touches(d) {
			out = append(out, d)
		}
	}
	return out
}
