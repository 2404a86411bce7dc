package gym

import (
	"path"
	"strings"

	"github.com/gymlint/gymlint/pyscan"
)

// ImportSection is the isort section of an import of module (level leading
// dots, then the dotted name) written in m, as ruff's isort decides it by
// default: a relative import is local; __future__ is the future; a module
// the configuration knows as first party (Options.KnownFirstParty, see
// knownFirstParty) is first party; then Python's standard library; then a
// module found in the repository (beside m or at the root, as ModuleFile
// finds it) is first party, and anything else third party. Suggested fixes
// place the imports they add by it.
func (v *View) ImportSection(m *pyscan.Module, module string, level int) pyscan.ImportSection {
	top, _, _ := strings.Cut(module, ".")
	switch {
	case level > 0:
		return pyscan.SectionLocal
	case top == "__future__":
		return pyscan.SectionFuture
	case knownFirstParty(v.Options.KnownFirstParty, module):
		return pyscan.SectionFirstParty
	case pyscan.IsStdlib(top):
		return pyscan.SectionStdlib
	case top != "" && v.ModuleFile(m.Path, 0, top) != "":
		return pyscan.SectionFirstParty
	}
	return pyscan.SectionThirdParty
}

// knownFirstParty reports whether an entry of known (known-first-party of
// ruff's or isort's settings) names the dotted module or a package it lies
// in: an entry matches the module, or one of its parents up to the
// top-level name, as it is or, when it has glob characters (* ? [), as a
// glob (path.Match: * matches dots too, as in ruff and isort). So `my_gym`
// and `my_gym.servers` both name my_gym.servers.calc; `my_gym.servers`
// does not name my_gym.
func knownFirstParty(known []string, module string) bool {
	if module == "" {
		return false
	}
	for _, e := range known {
		glob := strings.ContainsAny(e, "*?[")
		for m := module; ; {
			if e == m {
				return true
			}
			if glob {
				if ok, err := path.Match(e, m); ok && err == nil {
					return true
				}
			}
			i := strings.LastIndexByte(m, '.')
			if i < 0 {
				break
			}
			m = m[:i]
		}
	}
	return false
}

// Sectioner is ImportSection for the imports of m.
func (v *View) Sectioner(m *pyscan.Module) pyscan.Sectioner {
	return func(module string, level int) pyscan.ImportSection { return v.ImportSection(m, module, level) }
}
