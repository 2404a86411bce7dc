package gym

import (
	"slices"
	"strings"

	"github.com/gymlint/gymlint/pyscan"
)

// ImportSection is the isort section of an import of module (level leading
// dots, then the dotted name) written in m, as ruff's isort decides it by
// default: a relative import is local; __future__ is the future; a
// top-level name the configuration knows as first party
// (Options.KnownFirstParty) is first party; then Python's standard
// library; then a module found in the repository (beside m or at the root,
// as ModuleFile finds it) is first party, and anything else third party.
// Suggested fixes place the imports they add by it.
func (v *View) ImportSection(m *pyscan.Module, module string, level int) pyscan.ImportSection {
	top, _, _ := strings.Cut(module, ".")
	switch {
	case level > 0:
		return pyscan.SectionLocal
	case top == "__future__":
		return pyscan.SectionFuture
	case slices.Contains(v.Options.KnownFirstParty, top):
		return pyscan.SectionFirstParty
	case pyscan.IsStdlib(top):
		return pyscan.SectionStdlib
	case top != "" && v.ModuleFile(m.Path, 0, top) != "":
		return pyscan.SectionFirstParty
	}
	return pyscan.SectionThirdParty
}

// Sectioner is ImportSection for the imports of m.
func (v *View) Sectioner(m *pyscan.Module) pyscan.Sectioner {
	return func(module string, level int) pyscan.ImportSection { return v.ImportSection(m, module, level) }
}
