// Package policy applies the rule selection of gymlint's configuration to
// findings: enable/disable (with the command line's --select,
// --extend-select and --ignore folded in, settings.Selection), excluded
// paths, per-path ignores and severity overrides.
package policy

import (
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/pathmatch"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
)

// Enabled reports whether the rule with this code runs under s.
func Enabled(s *settings.Settings, code string) bool {
	if s == nil {
		return true
	}
	if s.Enable != nil && !contains(s.Enable, code) {
		return false
	}
	return !contains(s.Disable, code)
}

// EnabledCodes lists the codes of every enabled rule, in code order.
func EnabledCodes(s *settings.Settings) []string {
	var out []string
	for _, r := range lint.Rules() {
		if Enabled(s, r.Code) {
			out = append(out, r.Code)
		}
	}
	return out
}

// Apply drops the findings of disabled rules, in excluded files and of
// per-path ignores, and overrides severities. It returns a new slice; order is kept.
func Apply(s *settings.Settings, ds []diag.Diagnostic) []diag.Diagnostic {
	if s == nil {
		return ds
	}
	out := make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !Enabled(s, d.Code) || Excluded(s, d.Path) || ignored(s, d) {
			continue
		}
		if sev, ok := s.Severity[d.Code]; ok {
			d.Severity = sev
		}
		out = append(out, d)
	}
	return out
}

// Excluded reports whether the root-relative path p is excluded by the
// configuration's exclude globs: p or a directory it lies in matches one.
func Excluded(s *settings.Settings, p string) bool {
	return s != nil && pathmatch.Excluded(s.Exclude, p)
}

func ignored(s *settings.Settings, d diag.Diagnostic) bool {
	for _, pi := range s.PerPathIgnores {
		if !contains(pi.Rules, d.Code) {
			continue
		}
		for _, g := range pi.Paths {
			if pathmatch.Glob(g, d.Path) {
				return true
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
