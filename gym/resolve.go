package gym

import (
	"path"
	"strings"

	"github.com/gymlint/gymlint/pyscan"
)

// SymbolKind says what a name refers to.
type SymbolKind int

// Kinds of symbol.
const (
	// Unknown: the name is not bound, or bound to something gymlint does
	// not follow (a computed value).
	Unknown SymbolKind = iota
	// RepoClass: a class defined in a module of the repository.
	RepoClass
	// RepoModule: a module of the repository.
	RepoModule
	// External: a module or a name in a module outside the repository,
	// known by its dotted name.
	External
)

// Symbol is what a name in a module refers to.
type Symbol struct {
	Kind   SymbolKind
	Module *pyscan.Module // RepoClass: the defining module; RepoModule: the module
	Class  *pyscan.Class  // RepoClass
	// Dotted is the absolute dotted name: the external name, or the
	// repository module's name, or module.Class.
	Dotted string
}

// ClassRef is a class together with the module that defines it.
type ClassRef struct {
	Module *pyscan.Module
	Class  *pyscan.Class
}

// maxResolveDepth bounds chains of imports and aliases (and breaks cycles).
const maxResolveDepth = 24

// ModuleFile finds the repository file of a module imported from the
// module at fromPath: `level` leading dots, then the dotted name. An
// absolute import is looked up in the importing module's own folder first
// (a bare sibling import, as a script's folder is sys.path[0]) and then at
// the root. It returns "" when the module is not in the repository.
func (v *View) ModuleFile(fromPath string, level int, dotted string) string {
	rel := strings.ReplaceAll(dotted, ".", "/")
	var bases []string
	dir := path.Dir(fromPath)
	if level > 0 {
		for i := 1; i < level; i++ {
			if dir == "." {
				return ""
			}
			dir = path.Dir(dir)
		}
		bases = []string{dir}
	} else {
		if dotted == "" {
			return ""
		}
		bases = []string{dir, "."}
		if dir == "." {
			bases = bases[1:]
		}
	}
	for _, b := range bases {
		stem := path.Join(b, rel)
		if rel == "" {
			stem = b
		}
		if stem == "." || strings.HasPrefix(stem, "../") {
			continue
		}
		if rel != "" && v.FS.IsFile(stem+".py") {
			return stem + ".py"
		}
		if v.FS.IsFile(stem + "/__init__.py") {
			return stem + "/__init__.py"
		}
	}
	return ""
}

// absoluteName returns the absolute dotted name of an import's module.
func absoluteName(m *pyscan.Module, level int, dotted string) string {
	if level == 0 {
		return dotted
	}
	pkg := m.Name
	if !m.IsPackage {
		if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
			pkg = pkg[:i]
		} else {
			pkg = ""
		}
	}
	for i := 1; i < level; i++ {
		if j := strings.LastIndexByte(pkg, '.'); j >= 0 {
			pkg = pkg[:j]
		} else {
			pkg = ""
		}
	}
	switch {
	case pkg == "":
		return dotted
	case dotted == "":
		return pkg
	}
	return pkg + "." + dotted
}

// repoModule loads a repository module by file; nil when it cannot be read.
func (v *View) repoModule(file string) *pyscan.Module {
	if file == "" {
		return nil
	}
	m, err := v.Module(file)
	if err != nil {
		return nil
	}
	return m
}

// Resolve returns what a name (possibly dotted, "mod.Base") means at module
// scope of m.
func (v *View) Resolve(m *pyscan.Module, dotted string) Symbol {
	return v.resolveDotted(m, dotted, 0)
}

func (v *View) resolveDotted(m *pyscan.Module, dotted string, depth int) Symbol {
	parts := strings.Split(dotted, ".")
	sym := v.resolveName(m, parts[0], depth)
	for _, attr := range parts[1:] {
		sym = v.attribute(sym, attr, depth+1)
	}
	return sym
}

// attribute resolves sym.attr.
func (v *View) attribute(sym Symbol, attr string, depth int) Symbol {
	switch sym.Kind {
	case RepoModule:
		if s := v.resolveName(sym.Module, attr, depth); s.Kind != Unknown {
			return s
		}
		// A submodule of a package.
		if sym.Module.IsPackage {
			file := v.ModuleFile(sym.Module.Path, 1, attr)
			if mod := v.repoModule(file); mod != nil {
				return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
			}
		}
		return Symbol{Kind: External, Dotted: sym.Dotted + "." + attr}
	case External:
		// `import a.b` binds a; a.b may still be a module of the
		// repository when a is a namespace package (no __init__.py).
		dotted := sym.Dotted + "." + attr
		if mod := v.repoModule(v.ModuleFile("", 0, dotted)); mod != nil {
			return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
		}
		return Symbol{Kind: External, Dotted: dotted}
	}
	return Symbol{}
}

// binding returns the binding of name at module scope of m that an importer
// sees: the last one outside the __main__ guard, else the last one.
func binding(m *pyscan.Module, name string) *pyscan.Binding {
	var last, lastVisible *pyscan.Binding
	for _, b := range m.Bindings {
		if b.Name != name {
			continue
		}
		last = b
		if !b.Where.InMainGuard {
			lastVisible = b
		}
	}
	if lastVisible != nil {
		return lastVisible
	}
	return last
}

func (v *View) resolveName(m *pyscan.Module, name string, depth int) Symbol {
	if depth > maxResolveDepth || m == nil {
		return Symbol{}
	}
	b := binding(m, name)
	if b == nil {
		return v.resolveStar(m, name, depth)
	}
	switch b.Kind {
	case pyscan.BindClass:
		var c *pyscan.Class
		for _, cl := range m.Classes {
			if cl.Name == name && cl.NameSpan == b.Span {
				c = cl
			}
		}
		if c != nil {
			return Symbol{Kind: RepoClass, Module: m, Class: c, Dotted: m.Name + "." + name}
		}
	case pyscan.BindImport:
		for i := len(m.Imports) - 1; i >= 0; i-- {
			imp := m.Imports[i]
			if imp.Bound == name && imp.Span == b.Span {
				return v.resolveImport(m, imp, depth+1)
			}
		}
	case pyscan.BindAssign, pyscan.BindAnnAssign:
		// `Alias = Base` makes Alias another name for Base.
		if b.Value != nil && b.Value.Dotted != "" && !b.Value.Call && len(b.Value.Args) == 0 {
			return v.resolveDotted(m, b.Value.Dotted, depth+1)
		}
	}
	return Symbol{}
}

// resolveStar looks a name up through `from X import *`.
func (v *View) resolveStar(m *pyscan.Module, name string, depth int) Symbol {
	for _, imp := range m.Imports {
		if imp.Name != "*" || !imp.ModuleScope {
			continue
		}
		if mod := v.repoModule(v.ModuleFile(m.Path, imp.Level, imp.Module)); mod != nil {
			if s := v.resolveName(mod, name, depth+1); s.Kind != Unknown {
				return s
			}
			continue
		}
		abs := absoluteName(m, imp.Level, imp.Module)
		if v.IsFrameworkModule(abs) && v.serverBases[name] {
			return Symbol{Kind: External, Dotted: abs + "." + name}
		}
	}
	return Symbol{}
}

func (v *View) resolveImport(m *pyscan.Module, imp *pyscan.Import, depth int) Symbol {
	if !imp.IsFrom() {
		// `import a.b` binds a; `import a.b as c` binds c to a.b.
		target := imp.Module
		if imp.Bound != target && !strings.Contains(imp.Bound, ".") && strings.HasPrefix(target, imp.Bound+".") {
			target = imp.Bound
		}
		if mod := v.repoModule(v.ModuleFile(m.Path, 0, target)); mod != nil {
			return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
		}
		return Symbol{Kind: External, Dotted: target}
	}
	file := v.ModuleFile(m.Path, imp.Level, imp.Module)
	if mod := v.repoModule(file); mod != nil {
		if s := v.resolveName(mod, imp.Name, depth); s.Kind != Unknown {
			return s
		}
	}
	// `from pkg import sub` where sub is a module of the package, including
	// namespace packages without an __init__.py.
	sub := imp.Name
	if imp.Module != "" {
		sub = imp.Module + "." + imp.Name
	}
	if mod := v.repoModule(v.ModuleFile(m.Path, imp.Level, sub)); mod != nil {
		return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
	}
	if file != "" {
		// The module is in the repository but does not bind the name.
		return Symbol{}
	}
	return Symbol{Kind: External, Dotted: absoluteName(m, imp.Level, imp.Module) + "." + imp.Name}
}
