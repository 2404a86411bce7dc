package goanalysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// The type cache. With Config.Cache, a module is loaded in two steps
// instead of packages.Load(loadMode):
//
//  1. packages.Load(metaMode): the same `go list -deps -compiled` run (same
//     hardened environment, flags and overlay), without parsing or
//     type-checking anything; it gives the import graph, files and errors.
//  2. typeLoader: the module's own packages (the roots, matched by ./...)
//     are parsed and type-checked from source every time, with full
//     types.Info, as the analyzers need. A dependency (the standard library,
//     a required module) is read from the cache as export data
//     (gcexportdata) when the cache has it; otherwise it is parsed and
//     type-checked from source, as packages.Load does, and its export data
//     is stored for the next run.
//
// An entry ("gotypes") is keyed by everything its types are computed from:
// gymlint's build (diskcache.BuildID, which covers the go/types version),
// the names of the analyzers with facts that run, the package's ID, import path and name, the language version of its
// module, the type sizes, the GOOS, GOARCH, GOFLAGS and GOEXPERIMENT that
// the go command was given, the Go release of the go command's GOROOT, the
// name and SHA-256 of each file go list selected for it (which the build
// tags, GOOS and GOARCH decide), and the import paths and keys of its
// direct imports (so, transitively, of all its dependencies). Only a
// package that is complete and correct is stored: not a root, no error of
// its own (go list, parse, type) or of a dependency, no file in the
// overlay, no dependency that is a root or is not stored itself. Such a
// package's types and facts cannot depend on anything the key leaves out.
//
// The export data of a package holds the declarations of its dependencies
// that it refers to ("deep" export data), so a warm run reads only the
// entries of the packages that the roots import directly. When one of
// those is missing (trimmed, corrupt: diskcache drops it), it is
// type-checked from source, and so are its missing dependencies; an entry
// whose dependencies had to be type-checked from source is not read
// either, so that every package has one *types.Package. Export data that
// does not decode makes the whole module load from source.
//
// The analyzers with facts (ctrlflow, which gosessions requires) also run
// on the dependencies; their facts are kept in the entries too (see
// typefacts.go). The loader replays packages.Load's handling of errors
// (the same packages.Error values, in the same order, the same IllTyped),
// so that findings are byte-identical with and without the cache; what it
// cannot replay (an import that go list did not resolve, a GOROOT without
// a VERSION file) makes it give way to packages.Load (errFallback).

// typesKind is the cache kind of a package's export data.
const typesKind = "gotypes"

// metaMode is what packages.Load gives the typeLoader: loadMode without
// syntax and types. It runs go list with the same flags as loadMode.
const metaMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule | packages.NeedTypesSizes

// errFallback is the typeLoader's error when the module must be loaded
// with packages.Load(loadMode) instead.
var errFallback = errors.New("fall back to packages.Load")

// cacheStats counts what a load did with the cache (for tests and
// benchmarks).
type cacheStats struct {
	Hits, Misses, Stored, Source int
	Fallback                     bool // export data did not decode: all from source
}

// pkgState is what the typeLoader knows of one package.
type pkgState struct {
	p         *packages.Package
	initial   bool
	cacheable bool
	key       diskcache.Key
	decided   bool   // source or hit is final
	source    bool   // type-checked from source
	data      []byte // the entry, for a hit
	done      chan struct{}

	export    []byte          // export data to store after the analysis
	facts     []gobFact       // the facts its fact analyzers' actions hold, to store
	factsDone map[string]bool // the fact analyzers whose facts are in facts
}

// typeLoader type-checks the packages of one module load.
type typeLoader struct {
	ctx     context.Context
	cache   *diskcache.Cache
	overlay map[string][]byte // by absolute path
	env     []string
	fset    *token.FileSet
	order   []*pkgState // dependencies first
	byPkg   map[*packages.Package]*pkgState
	goMinor int    // the go command's release, 1.goMinor
	release string // its GOROOT/VERSION line
	noRead  bool   // read nothing from the cache (after a decode failure)

	// factNames are the names of the analyzers with facts (see
	// typefacts.go), sorted; read are the facts of the packages read from
	// the cache, by analyzer name and package path.
	factNames []string
	factsMu   sync.Mutex
	read      map[string]map[string][]gobFact

	parseMu sync.Mutex
	parsed  map[string]*parsed
	// hashed are the files that keys read, by name, until they are
	// parsed: a package is type-checked from the bytes its key was made
	// of, even when its file changes during the run.
	hashed map[string][]byte

	statsMu sync.Mutex
	stats   cacheStats

	noteParsed func(file string, src []byte) // nil: none
}

type parsed struct {
	ready chan struct{}
	f     *ast.File
	err   error
}

// loadTypes type-checks the packages that packages.Load(metaMode)
// returned (the roots) and their dependencies, filling in Fset, Types,
// TypesInfo, Syntax, IllTyped, TypeErrors and Errors as
// packages.Load(loadMode) would.
func loadTypes(ctx context.Context, cache *diskcache.Cache, overlay map[string][]byte, env []string, roots []*packages.Package, factNames []string) (*typeLoader, error) {
	return loadTypesNoting(ctx, cache, overlay, env, roots, factNames, nil)
}

// loadTypesNoting is loadTypes that calls noteParsed (when not nil) with
// each file parsed and the bytes it was parsed from.
func loadTypesNoting(ctx context.Context, cache *diskcache.Cache, overlay map[string][]byte, env []string, roots []*packages.Package, factNames []string, noteParsed func(file string, src []byte)) (*typeLoader, error) {
	l := &typeLoader{ctx: ctx, cache: cache, overlay: overlay, env: env, fset: token.NewFileSet(),
		byPkg: map[*packages.Package]*pkgState{}, parsed: map[string]*parsed{}, factNames: factNames, noteParsed: noteParsed}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if l.byPkg[p] != nil {
			return
		}
		s := &pkgState{p: p, done: make(chan struct{})}
		l.byPkg[p] = s
		for _, ip := range slices.Sorted(maps.Keys(p.Imports)) {
			visit(p.Imports[ip])
		}
		l.order = append(l.order, s)
	}
	for _, p := range roots {
		visit(p)
	}
	for _, p := range roots {
		l.byPkg[p].initial = true
	}
	if !l.findRelease() {
		return l, errFallback
	}
	l.keys()
	for {
		l.decide()
		for _, s := range l.order {
			if !s.source {
				for _, f := range s.p.CompiledGoFiles {
					delete(l.hashed, f) // not parsed
				}
			}
		}
		err := l.decode()
		if err == nil {
			break
		}
		if l.noRead {
			return l, err
		}
		// Export data that does not decode (a gymlint bug): start again,
		// all from source, and store fresh entries over the bad ones.
		l.noRead = true
		l.stats = cacheStats{Fallback: true}
		l.read = nil
		for _, s := range l.order {
			s.decided, s.source, s.data = false, false, nil
			if s.p.PkgPath != "unsafe" {
				s.p.Types = nil
			}
		}
	}
	if err := l.check(); err != nil {
		return l, err
	}
	for _, s := range l.order {
		s.p.Fset = l.fset
	}
	return l, nil
}

// findRelease reads the go command's release from its GOROOT's VERSION
// file (GOROOT is where the standard library's packages are), as
// packages.Load learns it from `go list`. It reports false when it cannot.
func (l *typeLoader) findRelease() bool {
	for _, s := range l.order {
		p := s.p
		if p.Module != nil || p.PkgPath == "unsafe" || len(p.CompiledGoFiles) == 0 || strings.Contains(p.PkgPath, ".") || p.ID != p.PkgPath {
			continue
		}
		dir := filepath.Dir(p.CompiledGoFiles[0])
		suffix := string(filepath.Separator) + "src" + string(filepath.Separator) + filepath.FromSlash(p.PkgPath)
		if !strings.HasSuffix(dir, suffix) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(strings.TrimSuffix(dir, suffix), "VERSION"))
		if err != nil {
			return false
		}
		line, _, _ := strings.Cut(string(data), "\n")
		var minor int
		if _, err := fmt.Sscanf(line, "go1.%d", &minor); err != nil {
			return false
		}
		l.goMinor, l.release = minor, line
		return true
	}
	// No standard-library package: nothing is read from or stored in the
	// cache, and no error can be about the release.
	l.goMinor = -1
	return true
}

// overlaid returns the overlay's content of file, as packages.Load finds
// it (the same name, or a name of the same file).
func (l *typeLoader) overlaid(file string) ([]byte, bool) {
	if data, ok := l.overlay[file]; ok {
		return data, true
	}
	for f, data := range l.overlay {
		if filepath.Base(f) != filepath.Base(file) {
			continue
		}
		fi, err1 := os.Stat(f)
		fj, err2 := os.Stat(file)
		if err1 == nil && err2 == nil && os.SameFile(fi, fj) {
			return data, true
		}
	}
	return nil, false
}

// envValue is the last value of a variable in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// keys finds the packages that may be cached and computes their keys.
func (l *typeLoader) keys() {
	if l.cache == nil || l.goMinor < 0 {
		return
	}
	var goenv strings.Builder
	for _, v := range []string{"GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOPPC64", "GORISCV64", "GOWASM"} {
		fmt.Fprintf(&goenv, "%s=%s\n", v, envValue(l.env, v))
	}
	for _, s := range l.order {
		p := s.p
		if s.initial || p.PkgPath == "unsafe" || p.ID != p.PkgPath || len(p.Errors) > 0 || len(p.CompiledGoFiles) == 0 || p.TypesSizes == nil {
			continue
		}
		ok := true
		for _, q := range p.Imports {
			if q.PkgPath != "unsafe" && !l.byPkg[q].cacheable {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		h := diskcache.NewHasher(typesKind).String(diskcache.BuildID()).String(l.release).String(goenv.String()).
			String(strings.Join(l.factNames, ",")).
			String(p.ID).String(p.PkgPath).String(p.Name).String(fmt.Sprintf("%#v", p.TypesSizes))
		if p.Module != nil {
			h.String("module " + p.Module.Path + " go " + p.Module.GoVersion)
		} else {
			h.String("no module")
		}
		h.Int(int64(len(p.CompiledGoFiles)))
		for _, f := range p.CompiledGoFiles {
			if _, over := l.overlaid(f); over {
				ok = false
				break
			}
			data, err := os.ReadFile(f)
			if err != nil {
				ok = false
				break
			}
			sum := diskcache.Sum(data)
			h.String(f).Bytes(sum[:])
			if l.hashed == nil {
				l.hashed = map[string][]byte{}
			}
			l.hashed[f] = data
		}
		if !ok {
			continue
		}
		h.Int(int64(len(p.Imports)))
		for _, ip := range slices.Sorted(maps.Keys(p.Imports)) {
			q := p.Imports[ip]
			h.String(ip).String(q.ID)
			if q.PkgPath != "unsafe" {
				k := l.byPkg[q].key
				h.Bytes(k[:])
			}
		}
		s.key, s.cacheable = h.Key(), true
	}
}

// decide chooses, for each package needed, whether it is type-checked from
// source or read from the cache: the roots from source; the direct
// imports of a package from source, from the cache when it has them, else
// from source; a cached package whose dependencies include one from
// source, from source too (so that no package is both).
func (l *typeLoader) decide() {
	var queue []*pkgState
	source := func(s *pkgState) {
		if !s.decided || !s.source {
			s.decided, s.source, s.data = true, true, nil
			queue = append(queue, s)
		}
	}
	for _, s := range l.order {
		if s.initial {
			source(s)
		}
	}
	for {
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, q := range s.p.Imports {
				d := l.byPkg[q]
				if d.decided || q.PkgPath == "unsafe" {
					continue
				}
				if d.cacheable && !l.noRead {
					if data, ok := l.cache.Get(typesKind, d.key); ok {
						d.decided, d.data = true, data
						continue
					}
				}
				source(d)
			}
		}
		// A cached package that depends on one from source is demoted.
		withSource := map[*pkgState]bool{}
		demoted := false
		for _, s := range l.order { // dependencies first
			for _, q := range s.p.Imports {
				d := l.byPkg[q]
				if d.decided && d.source || withSource[d] {
					withSource[s] = true
					break
				}
			}
			if withSource[s] && s.decided && !s.source {
				source(s)
				demoted = true
			}
		}
		if !demoted {
			break
		}
	}
	for _, s := range l.order {
		if !s.decided || s.source {
			continue
		}
		l.stats.Hits++
	}
}

// decode reads the export data of the packages read from the cache, into
// one map of packages by path (they are all distinct packages with
// distinct paths: test variants are never cached).
func (l *typeLoader) decode() (err error) {
	imports := map[string]*types.Package{}
	read := map[string]map[string][]gobFact{}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("export data: %v", r)
		}
	}()
	for _, s := range l.order {
		if !s.decided || s.source {
			continue
		}
		e, err := decodeEntry(s.data)
		if err != nil {
			return err
		}
		pkg, err := gcexportdata.Read(bytes.NewReader(e.Types), l.fset, imports, s.p.PkgPath)
		if err != nil {
			return err
		}
		for _, f := range e.Facts {
			if read[f.Analyzer] == nil {
				read[f.Analyzer] = map[string][]gobFact{}
			}
			read[f.Analyzer][f.PkgPath] = append(read[f.Analyzer][f.PkgPath], f)
		}
		if pkg.Name() != s.p.Name || !pkg.Complete() {
			return fmt.Errorf("export data of %s: package %s, complete %v", s.p.PkgPath, pkg.Name(), pkg.Complete())
		}
		s.p.Types, s.data = pkg, nil
	}
	// The packages that only the cached ones depend on get the
	// *types.Package that their export data made (holding what they
	// refer to), or an empty one: the checker runs the fact analyzers on
	// them too (see typefacts.go).
	for _, s := range l.order {
		if !s.decided && s.p.PkgPath != "unsafe" {
			if s.p.Types = imports[s.p.PkgPath]; s.p.Types == nil {
				s.p.Types = types.NewPackage(s.p.PkgPath, s.p.Name)
			}
		}
	}
	l.read = read
	return nil
}

// check type-checks the packages decided for source, in parallel,
// dependencies first, and stores those that may be cached.
func (l *typeLoader) check() error {
	for _, s := range l.order {
		if s.p.PkgPath == "unsafe" {
			p := s.p
			p.Types, p.Syntax, p.TypesInfo = types.Unsafe, []*ast.File{}, newTypesInfo()
		}
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var fallback sync.Once
	var fallbackErr error
	for _, s := range l.order {
		if !s.decided || !s.source || s.p.PkgPath == "unsafe" {
			close(s.done)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(s.done)
			for _, q := range s.p.Imports {
				<-l.byPkg[q].done
			}
			if l.ctx.Err() != nil {
				return
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := l.checkPackage(s); err != nil {
				fallback.Do(func() { fallbackErr = err })
			}
		}()
	}
	wg.Wait()
	if err := l.ctx.Err(); err != nil {
		return err
	}
	return fallbackErr
}

// newTypesInfo is the types.Info that packages.Load gives each package.
func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
}

// parseFile parses one file (once, for all the packages that list it),
// as packages.Load does.
func (l *typeLoader) parseFile(file string) (*ast.File, error) {
	l.parseMu.Lock()
	v, ok := l.parsed[file]
	if !ok {
		v = &parsed{ready: make(chan struct{})}
		l.parsed[file] = v
	}
	l.parseMu.Unlock()
	if ok {
		<-v.ready
		return v.f, v.err
	}
	defer close(v.ready)
	src, over := l.overlaid(file)
	if !over {
		l.parseMu.Lock()
		src, over = l.hashed[file]
		delete(l.hashed, file)
		l.parseMu.Unlock()
	}
	if !over {
		var err error
		if src, err = os.ReadFile(file); err != nil {
			v.err = err
			return nil, err
		}
	}
	if l.noteParsed != nil {
		l.noteParsed(file, src)
	}
	v.f, v.err = parser.ParseFile(l.fset, file, src, parser.AllErrors|parser.ParseComments)
	return v.f, v.err
}

// checkPackage parses and type-checks one package from source, replaying
// packages.Load's loadPackage: the same errors in the same order.
func (l *typeLoader) checkPackage(s *pkgState) error {
	p := s.p
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.Fset = l.fset
	appendError := func(err error) {
		switch err := err.(type) {
		case packages.Error:
			p.Errors = append(p.Errors, err)
		case *os.PathError:
			p.Errors = append(p.Errors, packages.Error{Pos: err.Path + ":1", Msg: err.Err.Error(), Kind: packages.ParseError})
		case scanner.ErrorList:
			for _, err := range err {
				p.Errors = append(p.Errors, packages.Error{Pos: err.Pos.String(), Msg: err.Msg, Kind: packages.ParseError})
			}
		case types.Error:
			p.TypeErrors = append(p.TypeErrors, err)
			p.Errors = append(p.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
		default:
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		}
	}
	var runtimeMinor int
	if _, err := fmt.Sscanf(runtime.Version(), "go1.%d", &runtimeMinor); err == nil && runtimeMinor < l.goMinor {
		defer func() {
			if len(p.Errors) > 0 {
				appendError(packages.Error{
					Pos:  "-",
					Msg:  fmt.Sprintf("This application uses version go1.%d of the source-processing packages but runs version go1.%d of 'go list'. It may fail to process source files that rely on newer language features. If so, rebuild the application using a newer version of Go.", runtimeMinor, l.goMinor),
					Kind: packages.UnknownError,
				})
			}
		}()
	}
	// (packages.Load falls back to export data when a package has no
	// CompiledGoFiles but an ExportFile: there is never an ExportFile
	// without -export.)
	files := make([]*ast.File, len(p.CompiledGoFiles))
	errs := make([]error, len(p.CompiledGoFiles))
	var wg sync.WaitGroup
	for i, f := range p.CompiledGoFiles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i], errs[i] = l.parseFile(f)
		}()
	}
	wg.Wait()
	files = slices.DeleteFunc(files, func(f *ast.File) bool { return f == nil })
	for _, err := range errs {
		if err != nil {
			appendError(err)
		}
	}
	p.Syntax = files
	if l.ctx.Err() != nil {
		return nil
	}
	var info *types.Info
	if s.initial || len(l.factNames) > 0 {
		info = newTypesInfo() // the fact analyzers analyse the dependencies too
	}
	p.TypesInfo = info
	var missing error
	importer := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		ipkg := p.Imports[path]
		if ipkg == nil || ipkg.Types == nil || !ipkg.Types.Complete() {
			// packages.Load says why (a cycle, a missing package) in
			// words this loader does not have: let it.
			missing = errFallback
			return nil, errFallback
		}
		return ipkg.Types, nil
	})
	tc := &types.Config{Importer: importer, Error: appendError, Sizes: p.TypesSizes}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	typErr := types.NewChecker(tc, l.fset, p.Types, info).Files(p.Syntax)
	if missing != nil {
		return missing
	}
	if typErr != nil && len(p.Errors) == 0 && len(p.Syntax) > 0 {
		if msg := typErr.Error(); strings.HasPrefix(msg, "package requires newer Go version") {
			appendError(types.Error{Fset: l.fset, Pos: p.Syntax[0].Package, Msg: msg})
		}
	}
	if typErr != nil && len(p.Errors) == 0 {
		appendError(typErr)
	}
	ill := len(p.Errors) > 0
	for _, q := range p.Imports {
		ill = ill || q.IllTyped
	}
	p.IllTyped = ill
	l.statsMu.Lock()
	l.stats.Source++
	if s.cacheable && !l.noRead {
		l.stats.Misses++
	}
	l.statsMu.Unlock()
	if s.cacheable && !ill && l.cache != nil {
		var buf bytes.Buffer
		if err := gcexportdata.Write(&buf, l.fset, p.Types); err == nil {
			s.export = buf.Bytes()
		}
	}
	return nil
}

// store writes the entries of the packages type-checked from source that
// may be cached, once the analysis has run: their export data, and the
// facts of each fact analyzer, which the analysis computed. A package
// whose facts are not all known (an analyzer failed) is not stored.
func (l *typeLoader) store() {
	for _, s := range l.order {
		if s.export == nil {
			continue
		}
		if slices.ContainsFunc(l.factNames, func(n string) bool { return !s.factsDone[n] }) {
			continue
		}
		data, err := encodeEntry(entry{Types: s.export, Facts: s.facts})
		s.export, s.facts = nil, nil
		if err != nil {
			continue
		}
		if l.cache.Put(typesKind, s.key, data) == nil {
			l.stats.Stored++
		}
	}
}

// importerFunc is a types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// load loads a module's packages ("./..." in cfg.Dir) with syntax and
// types: with c.cfg.Cache, through the type cache (metaMode, then
// loadTypes); else, or when the type cache gives way (errFallback), with
// packages.Load(loadMode). With the type cache it returns the loader, to
// wrap the analyzers with (typeLoader.wrap) and to store the entries with
// after the analysis (typeLoader.store); else nil.
func (c *converter) load(ctx context.Context, cfg *packages.Config, analyzers []*analysis.Analyzer) ([]*packages.Package, *typeLoader, error) {
	cfg.ParseFile = c.parseFile
	if c.cfg == nil || c.cfg.Cache == nil {
		pkgs, err := packages.Load(cfg, "./...")
		return pkgs, nil, err
	}
	meta := *cfg
	meta.Mode = metaMode
	pkgs, err := packages.Load(&meta, "./...")
	if err != nil {
		return nil, nil, err
	}
	l, err := loadTypesNoting(ctx, c.cfg.Cache, cfg.Overlay, cfg.Env, pkgs, factAnalyzers(analyzers), c.noteParsed)
	if errors.Is(err, errFallback) {
		c.cacheStats.Fallback = true
		pkgs, err := packages.Load(cfg, "./...")
		return pkgs, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	return pkgs, l, nil
}

// addStats adds a load's cache statistics to the converter's.
func (c *converter) addStats(s cacheStats) {
	c.cacheStats.Hits += s.Hits
	c.cacheStats.Misses += s.Misses
	c.cacheStats.Stored += s.Stored
	c.cacheStats.Source += s.Source
	c.cacheStats.Fallback = c.cacheStats.Fallback || s.Fallback
}
