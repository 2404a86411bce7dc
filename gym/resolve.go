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
		if dir == "." {
			// The root is not a package: Python refuses to go beyond the
			// top-level package.
			return ""
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
		if rel != "" && v.isFile(stem+".py") {
			return stem + ".py"
		}
		if v.isFile(stem + "/__init__.py") {
			return stem + "/__init__.py"
		}
	}
	return ""
}

// AbsoluteModule returns the absolute dotted name of a module imported from
// m with level leading dots. ok is false for a relative import that climbs
// beyond the top-level package, which Python refuses.
func AbsoluteModule(m *pyscan.Module, level int, dotted string) (string, bool) {
	if level == 0 {
		return dotted, true
	}
	pkg := m.Name
	if !m.IsPackage {
		i := strings.LastIndexByte(pkg, '.')
		if i < 0 {
			return "", false
		}
		pkg = pkg[:i]
	}
	for i := 1; i < level; i++ {
		j := strings.LastIndexByte(pkg, '.')
		if j < 0 {
			return "", false
		}
		pkg = pkg[:j]
	}
	if dotted == "" {
		return pkg, true
	}
	return pkg + "." + dotted, true
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
	r := &resolver{v: v, seen: map[string]bool{}}
	return r.dotted(m, dotted)
}

// resolver is one resolution: it visits each (module, name) pair at most
// once, which ends import cycles and keeps star-import webs linear.
type resolver struct {
	v     *View
	seen  map[string]bool
	steps int
}

// maxResolveSteps bounds the work of one resolution.
const maxResolveSteps = 10000

func (r *resolver) dotted(m *pyscan.Module, dotted string) Symbol {
	parts := strings.Split(dotted, ".")
	sym := r.name(m, parts[0])
	for _, attr := range parts[1:] {
		sym = r.attribute(sym, attr)
	}
	return sym
}

// attribute resolves sym.attr.
func (r *resolver) attribute(sym Symbol, attr string) Symbol {
	v := r.v
	switch sym.Kind {
	case RepoModule:
		if s := r.name(sym.Module, attr); s.Kind != Unknown {
			return s
		}
		// A submodule of a package.
		if sym.Module.IsPackage {
			if mod := v.repoModule(v.ModuleFile(sym.Module.Path, 1, attr)); mod != nil {
				return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
			}
		}
		// The module is in the repository and does not bind the name.
		return Symbol{}
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

func (r *resolver) name(m *pyscan.Module, name string) Symbol {
	if m == nil {
		return Symbol{}
	}
	key := m.Path + "\x00" + name
	if r.seen[key] || r.steps > maxResolveSteps {
		return Symbol{}
	}
	r.seen[key] = true
	r.steps++
	b := m.Binding(name)
	// A star import after the last explicit binding rebinds the name, as
	// Python runs the statements in order; the later star import wins.
	after := -1
	if b != nil {
		after = b.Span.Start.Offset
	}
	if s := r.star(m, name, after); s.Kind != Unknown {
		return s
	}
	if b == nil {
		return Symbol{}
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
				return r.importSym(m, imp)
			}
		}
	case pyscan.BindAssign, pyscan.BindAnnAssign:
		// `Alias = Base` makes Alias another name for Base.
		if b.Value != nil && b.Value.Dotted != "" && !b.Value.Call && len(b.Value.Args) == 0 {
			return r.dotted(m, b.Value.Dotted)
		}
	}
	return Symbol{}
}

// star looks a name up through the module-scope `from X import *`
// statements that come after offset, the last one first.
func (r *resolver) star(m *pyscan.Module, name string, after int) Symbol {
	v := r.v
	for i := len(m.Imports) - 1; i >= 0; i-- {
		imp := m.Imports[i]
		if imp.Name != "*" || !imp.ModuleScope || imp.Span.Start.Offset < after {
			continue
		}
		if mod := v.repoModule(v.ModuleFile(m.Path, imp.Level, imp.Module)); mod != nil {
			if s := r.name(mod, name); s.Kind != Unknown {
				return s
			}
			continue
		}
		abs, ok := AbsoluteModule(m, imp.Level, imp.Module)
		if ok && v.IsFrameworkModule(abs) && v.serverBases[name] {
			return Symbol{Kind: External, Dotted: abs + "." + name}
		}
	}
	return Symbol{}
}

func (r *resolver) importSym(m *pyscan.Module, imp *pyscan.Import) Symbol {
	v := r.v
	if !imp.IsFrom() {
		// `import a.b` binds a; `import a.b as c` binds c to a.b.
		target := imp.Module
		if imp.Bound != target && !strings.Contains(imp.Bound, ".") && strings.HasPrefix(target, imp.Bound+".") {
			target = imp.Bound
		}
		if mod := v.repoModule(v.ModuleFile(m.Path, 0, target)); mod != nil {
			return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
		}
		if imp.Bound != target {
			// `import a.b as c` where a.b is a module of a namespace package.
			if s := r.attributePath(target); s.Kind != Unknown {
				return s
			}
		}
		return Symbol{Kind: External, Dotted: target}
	}
	abs, ok := AbsoluteModule(m, imp.Level, imp.Module)
	if !ok {
		// A relative import beyond the top-level package fails in Python.
		return Symbol{}
	}
	file := v.ModuleFile(m.Path, imp.Level, imp.Module)
	if mod := v.repoModule(file); mod != nil {
		if s := r.name(mod, imp.Name); s.Kind != Unknown {
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
	if file != "" || imp.Level > 0 {
		// The module is in the repository but does not bind the name, or a
		// relative import names a module that is not there.
		return Symbol{}
	}
	return Symbol{Kind: External, Dotted: abs + "." + imp.Name}
}

// attributePath resolves an absolute dotted module path from the root.
func (r *resolver) attributePath(dotted string) Symbol {
	if mod := r.v.repoModule(r.v.ModuleFile("", 0, dotted)); mod != nil {
		return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
	}
	return Symbol{}
}
