package gym

import (
	"path"
	"strings"
	"unicode"

	"github.com/gymlint/gymlint/pyscan"
)

// This file is the view's one name resolver: what a name or attribute
// chain written at module scope of a module denotes, through imports,
// `Alias = name` assignments, star imports and re-exports, across the
// repository's modules. Every rule's name questions go through it:
// "is this the framework's ResourcesSessionFences?", "is this
// fastapi.HTTPException?", "which repository class is this base?".

// SymbolKind says what a name refers to.
type SymbolKind int

// Kinds of symbol.
const (
	// Unknown: the name is bound to something gymlint does not follow (a
	// for target, a computed value), or a module of the repository does
	// not bind it.
	Unknown SymbolKind = iota
	// RepoClass: a class defined in a module of the repository.
	RepoClass
	// RepoModule: a module of the repository.
	RepoModule
	// External: a module or a name in a module outside the repository,
	// known by its dotted name.
	External
	// RepoFunction: a function defined at module scope of a repository
	// module.
	RepoFunction
	// RepoValue: a name a repository module binds to a value by
	// assignment (not an alias of another name).
	RepoValue
	// Member: an attribute of a class, function or value of the
	// repository (`Fences.fence`): gymlint knows whose attribute it is
	// (Class, or Dotted) but does not look the attribute up.
	Member
	// Builtin: a name no statement of the module binds, which Python looks
	// up in builtins ("builtins.KeyError").
	Builtin
)

// Symbol is what a name in a module refers to.
type Symbol struct {
	Kind     SymbolKind
	Module   *pyscan.Module   // RepoClass, RepoFunction, RepoValue: the defining module; RepoModule: the module
	Class    *pyscan.Class    // RepoClass; Member of a class: the class
	Function *pyscan.Function // RepoFunction
	Binding  *pyscan.Binding  // RepoValue
	// Dotted is the absolute dotted name: where a repository name is
	// defined ("pkg.mod.Class", "pkg.mod.Class.method" for a Member), the
	// name as imported for a name outside the repository
	// ("fastapi.HTTPException"), "builtins.X" for a builtin.
	Dotted string
	// IsModule is set for an External symbol that a plain `import a.b`
	// binds: a module, not a name in one.
	IsModule bool
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
	top := v.cache.baseOf(fromPath).prefix // the root the module lies in
	if level > 0 {
		for i := 1; i < level; i++ {
			if dir == top {
				return ""
			}
			dir = path.Dir(dir)
		}
		if dir == top {
			// The root is not a package: Python refuses to go beyond the
			// top-level package.
			return ""
		}
		bases = []string{dir}
	} else {
		if dotted == "" {
			return ""
		}
		// The module's folder, then sys.path: the extra roots, the root.
		bases = []string{dir}
		for _, b := range v.cache.importBases() {
			if b != dir {
				bases = append(bases, b)
			}
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
// scope of m. Only module-scope bindings count: a name bound inside a
// function body is not seen (rules that read a body ask the function's
// locals first).
func (v *View) Resolve(m *pyscan.Module, dotted string) Symbol {
	if m == nil || dotted == "" {
		return Symbol{}
	}
	key := resolveKey{m, dotted}
	if s, ok := v.resolved.Load(key); ok {
		return s.(Symbol)
	}
	r := &resolver{v: v, seen: map[string]bool{}}
	s := r.dotted(m, dotted)
	v.resolved.Store(key, s)
	return s
}

type resolveKey struct {
	m      *pyscan.Module
	dotted string
}

// ResolveExpr is Resolve for a name or attribute chain of names; a Symbol
// of kind Unknown for any other expression.
func (v *View) ResolveExpr(m *pyscan.Module, e pyscan.Expr) Symbol {
	return v.Resolve(m, pyscan.Dotted(e))
}

// QualifiedName is the absolute dotted name an expression denotes at
// module scope of m ("fastapi.HTTPException", "builtins.KeyError",
// "pkg.mod.helper"), or "" when it is not a name gymlint follows.
func (v *View) QualifiedName(m *pyscan.Module, e pyscan.Expr) string {
	return v.ResolveExpr(m, e).Dotted
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
	first, rest, _ := strings.Cut(dotted, ".")
	sym := r.name(m, first)
	for rest != "" {
		var attr string
		attr, rest, _ = strings.Cut(rest, ".")
		sym = r.attribute(sym, attr)
	}
	return sym
}

// attribute resolves sym.attr.
func (r *resolver) attribute(sym Symbol, attr string) Symbol {
	v := r.v
	switch sym.Kind {
	case RepoModule:
		if s := r.name(sym.Module, attr); s.Kind != Unknown && s.Kind != Builtin {
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
	case RepoClass, RepoFunction, RepoValue, Member:
		return Symbol{Kind: Member, Module: sym.Module, Class: sym.Class, Dotted: sym.Dotted + "." + attr}
	case Builtin:
		return Symbol{Kind: Builtin, Dotted: sym.Dotted + "." + attr}
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
	ix := r.v.index(m)
	b := ix.binding[name]
	// A star import after the last explicit binding rebinds the name, as
	// Python runs the statements in order; the later star import wins.
	after := int32(-1)
	if b != nil {
		after = b.Span.Start
	}
	if s := r.star(m, name, after); s.Kind != Unknown {
		return s
	}
	if b == nil {
		return Symbol{Kind: Builtin, Dotted: "builtins." + name}
	}
	switch b.Kind {
	case pyscan.BindClass:
		if cl := ix.class[b.Span]; cl != nil && cl.Name == name {
			return Symbol{Kind: RepoClass, Module: m, Class: cl, Dotted: m.Name + "." + name}
		}
	case pyscan.BindDef:
		if f := ix.function[b.Span]; f != nil && f.Name == name {
			return Symbol{Kind: RepoFunction, Module: m, Function: f, Dotted: m.Name + "." + name}
		}
	case pyscan.BindImport:
		if imp := ix.imports[importKey{b.Span, name}]; imp != nil {
			return r.importSym(m, imp)
		}
	case pyscan.BindAssign, pyscan.BindAnnAssign:
		// `Alias = Base` makes Alias another name for Base.
		if d := pyscan.Dotted(b.Value); d != "" {
			return r.dotted(m, d)
		}
		return Symbol{Kind: RepoValue, Module: m, Binding: b, Dotted: m.Name + "." + name}
	}
	return Symbol{}
}

// star looks a name up through the module-scope `from X import *`
// statements that come after offset, the last one first. A star import of
// a framework module outside the repository is taken to provide a name
// that the module binds nowhere else and that is not one of Python's
// builtins (gymlint cannot read what it exports).
func (r *resolver) star(m *pyscan.Module, name string, after int32) Symbol {
	v := r.v
	stars := v.index(m).stars
	for i := len(stars) - 1; i >= 0; i-- {
		imp := stars[i]
		if imp.Span.Start < after {
			continue
		}
		if mod := v.repoModule(v.ModuleFile(m.Path, imp.Level, imp.Module)); mod != nil {
			if s := r.name(mod, name); s.Kind != Unknown && s.Kind != Builtin {
				return s
			}
			continue
		}
		abs, ok := AbsoluteModule(m, imp.Level, imp.Module)
		if ok && v.IsFrameworkModule(abs) && after < 0 && !pyBuiltins[name] {
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
			if mod := v.repoModule(v.ModuleFile("", 0, target)); mod != nil {
				return Symbol{Kind: RepoModule, Module: mod, Dotted: mod.Name}
			}
		}
		return Symbol{Kind: External, Dotted: target, IsModule: true}
	}
	abs, ok := AbsoluteModule(m, imp.Level, imp.Module)
	if !ok {
		// A relative import beyond the top-level package fails in Python.
		return Symbol{}
	}
	file := v.ModuleFile(m.Path, imp.Level, imp.Module)
	if mod := v.repoModule(file); mod != nil {
		if s := r.name(mod, imp.Name); s.Kind != Unknown && s.Kind != Builtin {
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

// moduleIndex is what name resolution looks up in a module, by key
// instead of by scanning: a module of many thousands of names would
// otherwise cost time quadratic in its size.
type moduleIndex struct {
	binding  map[string]*pyscan.Binding // the one Module.Binding returns
	class    map[pyscan.Span]*pyscan.Class
	function map[pyscan.Span]*pyscan.Function
	imports  map[importKey]*pyscan.Import // the last import of that statement binding that name
	stars    []*pyscan.Import             // module-scope star imports, in order
	// count and conditional say, per name, how many module-scope
	// bindings it has and whether one is not run unconditionally.
	count       map[string]int
	conditional map[string]bool
}

type importKey struct {
	span  pyscan.Span
	bound string
}

// index returns the module's index, built on first use: for a module
// that other views read too (the framework's modules, shared helpers),
// once per cache entry, which those views share; else once per view, so
// that it goes with the view: a module that one view read (an entrypoint,
// most of them) may stay parsed while its group waits (Cache.Pin), and
// its index would stay with it (on a 2,000-server repository, 20 MB more
// at the peak).
func (v *View) index(m *pyscan.Module) *moduleIndex {
	if ix, ok := v.indexes.Load(m); ok {
		return ix.(*moduleIndex)
	}
	v.mu.Lock()
	e := v.mods[m.Path]
	v.mu.Unlock()
	var ix *moduleIndex
	if e != nil && e.mod == m && v.cache.Readers(m.Path) > 1 {
		e.ixOnce.Do(func() { e.ix = newModuleIndex(m) })
		ix = e.ix
	} else {
		ix = newModuleIndex(m)
	}
	got, _ := v.indexes.LoadOrStore(m, ix)
	return got.(*moduleIndex)
}

// newModuleIndex builds the index of m.
func newModuleIndex(m *pyscan.Module) *moduleIndex {
	// Sized for the bindings, which seldom share a name: a map grown
	// from empty allocates about twice its final size on the way.
	ix := &moduleIndex{
		binding:     make(map[string]*pyscan.Binding, len(m.Bindings)),
		class:       make(map[pyscan.Span]*pyscan.Class, len(m.Classes)),
		function:    make(map[pyscan.Span]*pyscan.Function, len(m.Functions)),
		imports:     make(map[importKey]*pyscan.Import, len(m.Imports)),
		count:       make(map[string]int, len(m.Bindings)),
		conditional: map[string]bool{},
	}
	for _, b := range m.Bindings {
		ix.count[b.Name]++
		if b.Where != (pyscan.Where{}) {
			ix.conditional[b.Name] = true
		}
		// Binding's choice: the last outside the __main__ guard, else the
		// last (one in the guard replaces only one in the guard).
		if old, ok := ix.binding[b.Name]; !ok || !b.Where.InMainGuard || old.Where.InMainGuard {
			ix.binding[b.Name] = b
		}
	}
	for _, c := range m.Classes {
		if _, ok := ix.class[c.NameSpan]; !ok {
			ix.class[c.NameSpan] = c
		}
	}
	for _, f := range m.Functions {
		if _, ok := ix.function[f.NameSpan]; !ok {
			ix.function[f.NameSpan] = f
		}
	}
	for _, imp := range m.Imports {
		ix.imports[importKey{imp.Span, imp.Bound}] = imp
		if imp.Name == "*" && imp.ModuleScope {
			ix.stars = append(ix.stars, imp)
		}
	}
	return ix
}

// FrameworkName returns the name the framework exports (for example
// "ResourcesSessionLostError", "lost_session_verification",
// "ResourcesSessionFences.fence", "SESSION_ID_KEY") that a dotted name
// written at module scope of m refers to, through imports, aliases and
// re-exports, whether the framework package is part of the repository or
// installed elsewhere; "" when it is not a framework name (or is a
// framework module).
//
// Where the module path ends is known from the files when the framework is
// part of the repository; for an installed framework the exported name is
// taken to start at the first component that begins with an upper-case
// letter, else to be the last component
// ("nemo_gym.x.lost_session_verification"). A module bound by a
// from-import of an installed framework (`from nemo_gym import
// base_resources_server as brs`) gives its last component, which no
// contract name equals.
func (v *View) FrameworkName(m *pyscan.Module, dotted string) string {
	return v.SymbolFrameworkName(v.Resolve(m, dotted))
}

// FrameworkNameOf is FrameworkName for an expression (a name or attribute
// chain).
func (v *View) FrameworkNameOf(m *pyscan.Module, e pyscan.Expr) string {
	return v.FrameworkName(m, pyscan.Dotted(e))
}

// SymbolFrameworkName is FrameworkName for a resolved symbol.
func (v *View) SymbolFrameworkName(s Symbol) string {
	switch s.Kind {
	case RepoClass, RepoFunction, RepoValue, Member:
		if s.Module == nil || !v.IsFrameworkModule(s.Module.Name) {
			return ""
		}
		return strings.TrimPrefix(s.Dotted, s.Module.Name+".")
	case External:
		if s.IsModule {
			return ""
		}
		parts := strings.Split(s.Dotted, ".")
		if len(parts) < 2 || !v.IsFrameworkModule(parts[0]) {
			return ""
		}
		for i := 1; i < len(parts); i++ {
			if r := []rune(parts[i]); len(r) > 0 && unicode.IsUpper(r[0]) {
				return strings.Join(parts[i:], ".")
			}
		}
		return parts[len(parts)-1]
	}
	return ""
}

// pyBuiltins are the names of Python's builtins module.
var pyBuiltins = map[string]bool{
	"ArithmeticError": true, "AssertionError": true, "AttributeError": true, "BaseException": true,
	"BaseExceptionGroup": true, "BlockingIOError": true, "BrokenPipeError": true, "BufferError": true,
	"BytesWarning": true, "ChildProcessError": true, "ConnectionAbortedError": true,
	"ConnectionError": true, "ConnectionRefusedError": true, "ConnectionResetError": true,
	"DeprecationWarning": true, "EOFError": true, "Ellipsis": true, "EncodingWarning": true,
	"EnvironmentError": true, "Exception": true, "ExceptionGroup": true, "False": true,
	"FileExistsError": true, "FileNotFoundError": true, "FloatingPointError": true,
	"FutureWarning": true, "GeneratorExit": true, "IOError": true, "ImportError": true,
	"ImportWarning": true, "IndentationError": true, "IndexError": true, "InterruptedError": true,
	"IsADirectoryError": true, "KeyError": true, "KeyboardInterrupt": true, "LookupError": true,
	"MemoryError": true, "ModuleNotFoundError": true, "NameError": true, "None": true,
	"NotADirectoryError": true, "NotImplemented": true, "NotImplementedError": true, "OSError": true,
	"OverflowError": true, "PendingDeprecationWarning": true, "PermissionError": true,
	"ProcessLookupError": true, "RecursionError": true, "ReferenceError": true,
	"ResourceWarning": true, "RuntimeError": true, "RuntimeWarning": true, "StopAsyncIteration": true,
	"StopIteration": true, "SyntaxError": true, "SyntaxWarning": true, "SystemError": true,
	"SystemExit": true, "TabError": true, "TimeoutError": true, "True": true, "TypeError": true,
	"UnboundLocalError": true, "UnicodeDecodeError": true, "UnicodeEncodeError": true,
	"UnicodeError": true, "UnicodeTranslateError": true, "UnicodeWarning": true, "UserWarning": true,
	"ValueError": true, "Warning": true, "ZeroDivisionError": true, "abs": true, "aiter": true,
	"all": true, "anext": true, "any": true, "ascii": true, "bin": true, "bool": true,
	"breakpoint": true, "bytearray": true, "bytes": true, "callable": true, "chr": true,
	"classmethod": true, "compile": true, "complex": true, "copyright": true, "credits": true,
	"delattr": true, "dict": true, "dir": true, "divmod": true, "enumerate": true, "eval": true,
	"exec": true, "exit": true, "filter": true, "float": true, "format": true, "frozenset": true,
	"getattr": true, "globals": true, "hasattr": true, "hash": true, "help": true, "hex": true,
	"id": true, "input": true, "int": true, "isinstance": true, "issubclass": true, "iter": true,
	"len": true, "license": true, "list": true, "locals": true, "map": true, "max": true,
	"memoryview": true, "min": true, "next": true, "object": true, "oct": true, "open": true,
	"ord": true, "pow": true, "print": true, "property": true, "quit": true, "range": true,
	"repr": true, "reversed": true, "round": true, "set": true, "setattr": true, "slice": true,
	"sorted": true, "staticmethod": true, "str": true, "sum": true, "super": true, "tuple": true,
	"type": true, "vars": true, "zip": true,
}
