package gym

import (
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/pyscan"
)

// Imported is a repository module that ImportClosure reaches.
type Imported struct {
	// Path is the module's root-relative file.
	Path string
	// Module is nil when the file could not be read (Err says why; the view
	// has reported it as a core diagnostic).
	Module *pyscan.Module
	Err    error
	// By is the record of the module whose import statement reached this
	// module first, and Import is that statement; both are nil for a root.
	By     *Imported
	Import *pyscan.Import
}

// ImportClosure returns the repository modules that Python loads when it
// runs roots[0] as a script and loads the other roots: the roots themselves,
// then, breadth first, every repository module that a loaded module
// imports through a module-scope import statement (one outside any function
// or class body, inside if/try/with blocks included), directly or through
// other repository modules. Imports in a function or class body are not
// followed: they run only when that code runs.
//
// An import loads every package on its way: `import a.b.c` loads a, a.b and
// a.b.c, and `from pkg import sub` loads pkg and, when sub is a module of
// pkg, pkg.sub. Modules are found as View.ModuleFile finds them (relative
// imports, the importing module's own folder first, then the root).
// Modules of the framework package (View.IsFrameworkModule) are left out
// and not followed, as are modules outside the repository.
//
// Only roots[0] runs as __main__: the imports in the body of its
// `if __name__ == "__main__":` guard are followed, those in the guard of
// any other module are not, since that code does not run on import.
//
// Each module appears once, at its first discovery, so import cycles end;
// each is parsed at most once, through the view's module cache. Nil roots
// and framework roots are skipped.
func (v *View) ImportClosure(roots ...*pyscan.Module) []*Imported {
	return v.NewImportGraph().Closure(roots...)
}

// ImportGraph remembers, for repeated ImportClosure computations over one
// view, which repository files each module's module-scope imports load,
// so that each import is resolved against the file system once. It is
// safe for concurrent use.
type ImportGraph struct {
	v     *View
	mu    sync.Mutex
	edges map[string][]importEdge // by module path
	files map[string]string       // ModuleFile answers, see moduleFile
}

type importEdge struct {
	imp   *pyscan.Import
	files []string
}

// NewImportGraph returns an empty graph over the view's modules.
func (v *View) NewImportGraph() *ImportGraph {
	return &ImportGraph{v: v, edges: map[string][]importEdge{}, files: map[string]string{}}
}

// edgesOf returns the module-scope imports of m with the files they load.
func (g *ImportGraph) edgesOf(m *pyscan.Module) []importEdge {
	g.mu.Lock()
	es, ok := g.edges[m.Path]
	g.mu.Unlock()
	if ok {
		return es
	}
	for _, imp := range m.Imports {
		if imp.ModuleScope {
			es = append(es, importEdge{imp, g.v.importFiles(m, imp, g.moduleFile)})
		}
	}
	g.mu.Lock()
	g.edges[m.Path] = es
	g.mu.Unlock()
	return es
}

// Roots returns the records Closure(roots...) starts with: each root once,
// in order, nil and framework roots left out.
func (g *ImportGraph) Roots(roots ...*pyscan.Module) []*Imported {
	v := g.v
	seen := map[string]bool{}
	var out []*Imported
	for _, r := range roots {
		if r == nil || seen[r.Path] || v.IsFrameworkModule(r.Name) {
			continue
		}
		seen[r.Path] = true
		out = append(out, &Imported{Path: r.Path, Module: r})
	}
	return out
}

// Closure is View.ImportClosure with the graph's memory.
func (g *ImportGraph) Closure(roots ...*pyscan.Module) []*Imported {
	v := g.v
	out := g.Roots(roots...)
	seen := map[string]bool{}
	for _, r := range out {
		seen[r.Path] = true
	}
	var script *pyscan.Module
	if len(roots) > 0 {
		script = roots[0]
	}
	for i := 0; i < len(out); i++ {
		cur := out[i]
		m := cur.Module
		if m == nil {
			continue
		}
		for _, e := range g.edgesOf(m) {
			imp := e.imp
			if imp.Where.InMainGuard && m != script {
				continue
			}
			for _, file := range e.files {
				if seen[file] {
					continue
				}
				seen[file] = true
				mod, err := v.Module(file)
				out = append(out, &Imported{Path: file, Module: mod, Err: err, By: cur, Import: imp})
			}
		}
	}
	return out
}

// ImportFiles returns the repository files of the modules that an import
// statement of m loads, outermost package first, framework modules left
// out: for `import a.b.c` the files of a, a.b and a.b.c that exist; for
// `from ..p.q import x` those of the package `..`, of ..p and ..p.q, and of
// ..p.q.x when x is a module. A file is listed once.
func (v *View) ImportFiles(m *pyscan.Module, imp *pyscan.Import) []string {
	return v.importFiles(m, imp, v.ModuleFile)
}

// importFiles is ImportFiles with the ModuleFile lookup given.
func (v *View) importFiles(m *pyscan.Module, imp *pyscan.Import, find func(from string, level int, dotted string) string) []string {
	if imp.Level == 0 && v.IsFrameworkModule(imp.Module) {
		return nil // everything it could load is the framework's
	}
	var out []string
	last := "" // the file of the last module looked up
	add := func(level int, dotted string) {
		f := find(m.Path, level, dotted)
		last = f
		if f == "" {
			return
		}
		if name, _ := pyscan.ModuleName(f); v.IsFrameworkModule(name) {
			return
		}
		for _, o := range out {
			if o == f {
				return
			}
		}
		out = append(out, f)
	}
	if imp.Level > 0 {
		add(imp.Level, "")
	}
	prefix := ""
	if imp.Module != "" {
		for _, part := range strings.Split(imp.Module, ".") {
			if prefix != "" {
				prefix += "."
			}
			prefix += part
			add(imp.Level, prefix)
		}
	}
	// `from pkg import x` loads pkg.x when it is a module. A plain module
	// (not a package's __init__.py) has none; an unresolved one may be a
	// namespace package.
	if imp.IsFrom() && imp.Name != "*" && (last == "" || path.Base(last) == "__init__.py") {
		sub := imp.Name
		if prefix != "" {
			sub = prefix + "." + imp.Name
		}
		add(imp.Level, sub)
	}
	return out
}

// moduleFile is View.ModuleFile, remembered: the answer depends only on the
// importing module's folder, the level and the name.
func (g *ImportGraph) moduleFile(from string, level int, dotted string) string {
	key := path.Dir(from) + "\x00" + strconv.Itoa(level) + "\x00" + dotted
	g.mu.Lock()
	f, ok := g.files[key]
	g.mu.Unlock()
	if ok {
		return f
	}
	f = g.v.ModuleFile(from, level, dotted)
	g.mu.Lock()
	g.files[key] = f
	g.mu.Unlock()
	return f
}
