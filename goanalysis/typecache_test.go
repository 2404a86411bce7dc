package goanalysis

import (
	"context"
	"encoding/hex"
	"errors"
	"go/ast"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// noReturnAnalyzer reports every call whose callee never returns, as
// ctrlflow decides it, from its noReturn facts about the dependencies: the
// facts that a run with the type cache must give it as a run without does.
var noReturnAnalyzer = &analysis.Analyzer{
	Name:     "noreturn",
	Doc:      "reports calls that never return",
	Requires: []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
		ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
			call := n.(*ast.CallExpr)
			if fn := typeutil.StaticCallee(pass.TypesInfo, call); fn != nil && cfgs.NoReturn(fn) {
				pass.Report(analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Category: "GL998",
					Message: fn.FullName() + " never returns"})
			}
		})
		return nil, nil
	},
}

// cacheFixture writes a repository with two modules: fx, with the example
// native server and the Go analyzers' test packages that import only the
// standard library (so the real analyzers find things), calls of functions
// that never return (log.Fatal, a method of log.Logger reached through
// net/http without importing log, a helper of a local module), a package
// that does not type-check and one that imports it; and lib, a module that
// fx requires and replaces with its directory (a dependency inside the
// repository, cached like any other).
func cacheFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"fx/go.mod":  "module example.com/fx\n\ngo 1.26\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"lib/go.mod": "module example.com/lib\n\ngo 1.26\n",
		"lib/lib.go": "package lib\n\nimport \"os\"\n\n// Die ends the process.\nfunc Die(code int) { os.Exit(code) }\n\n// Maybe returns.\nfunc Maybe(code int) {\n\tif code > 0 {\n\t\tos.Exit(code)\n\t}\n}\n",
		"fx/exits/exits.go": `package exits

import (
	"log"
	"net/http"

	"example.com/lib"
)

func Run(srv *http.Server) {
	if srv == nil {
		log.Fatal("no server")
	}
	if srv.Addr == "" {
		srv.ErrorLog.Fatalf("no address") // *log.Logger, through net/http
	}
	lib.Die(2)
	lib.Maybe(3)
}
`,
		"fx/broken/broken.go":   "package broken\n\nfunc F() int { return undefinedName }\n",
		"fx/usesbroken/uses.go": "package usesbroken\n\nimport \"example.com/fx/broken\"\n\nvar X = broken.F()\n",
	}
	server, err := os.ReadFile("../examples/nativeserver/server.go")
	if err != nil {
		t.Fatal(err)
	}
	files["fx/nativeserver/server.go"] = string(server)
	main, err := os.ReadFile("../examples/nativeserver/cmd/counterserver/main.go")
	if err != nil {
		t.Fatal(err)
	}
	files["fx/cmd/counterserver/main.go"] = strings.ReplaceAll(string(main), "github.com/gymlint/gymlint/examples/nativeserver", "example.com/fx/nativeserver")
	for _, an := range []string{"gosessions", "goworkers", "gonative", "gostate"} {
		src := filepath.Join("..", "analyzers", an, "testdata", "src")
		ents, _ := os.ReadDir(src)
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			pkg := map[string]string{}
			stdOnly := true
			filepath.WalkDir(filepath.Join(src, e.Name()), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				if d.Name() != filepath.Base(p) || filepath.Dir(p) != filepath.Join(src, e.Name()) || !strings.HasSuffix(p, ".go") {
					stdOnly = false // a nested package or another file: leave the directory out
					return nil
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				for _, line := range strings.Split(string(data), "\n") {
					line = strings.TrimSpace(line)
					if strings.HasPrefix(line, "\"") && strings.HasSuffix(line, "\"") && (strings.Contains(strings.SplitN(line, "/", 2)[0], ".") || !strings.Contains(line, "/") && !stdlib[strings.Trim(line, "\"")]) {
						stdOnly = false
					}
				}
				pkg[d.Name()] = string(data)
				return nil
			})
			if !stdOnly {
				continue
			}
			for name, data := range pkg {
				files["fx/"+an+"_"+e.Name()+"/"+name] = data
			}
		}
	}
	writeFiles(t, root, files)
	return root
}

// stdlib are the standard-library packages without a slash that the
// analyzers' test packages import.
var stdlib = map[string]bool{"sync": true, "errors": true, "time": true, "strings": true, "io": true, "context": true,
	"strconv": true, "log": true, "fmt": true, "os": true, "bytes": true, "sort": true, "math": true}

// TestTypeCacheSameFindings runs the analyzers on the fixture without a
// cache, then with an empty cache (cold), a filled one (warm), one whose
// entries are corrupt on disk, one whose entry holds export data that does
// not decode, and with an overlay of the local dependency, and compares the
// results.
func TestTypeCacheSameFindings(t *testing.T) {
	root := cacheFixture(t)
	analyzers := append([]*analysis.Analyzer{noReturnAnalyzer}, Analyzers...)
	base := Config{Analyzers: analyzers, Env: testEnv, Modules: []string{"fx"}}
	run := func(name string, cfg Config) *Result {
		t.Helper()
		res, err := Run(root, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	same := func(name string, got, want *Result) {
		t.Helper()
		if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || got.Packages != want.Packages || !reflect.DeepEqual(got.Files, want.Files) {
			t.Errorf("%s: results differ from the run without a cache:\n%s\nwant\n%s", name, render(got), render(want))
		}
	}
	want := run("no cache", base)
	t.Logf("%d packages, %d diagnostics:\n%s", want.Packages, len(want.Diagnostics), render(want))
	for _, must := range []string{"GL998 log.Fatal never returns", "GL998 (*log.Logger).Fatalf never returns", "GL998 example.com/lib.Die never returns",
		"GL008 Go package example.com/fx/broken does not type-check"} {
		if !strings.Contains(render(want), must) {
			t.Errorf("the fixture does not give %q", must)
		}
	}
	if strings.Contains(render(want), "lib.Maybe never returns") {
		t.Error("lib.Maybe is said never to return")
	}
	codes := map[string]bool{}
	for _, d := range want.Diagnostics {
		codes[d.Code] = true
	}
	if len(codes) < 4 {
		t.Errorf("the real analyzers find little in the fixture: codes %v", codes)
	}

	dir := t.TempDir()
	cache, err := diskcache.Open(dir, diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	withCache := base
	withCache.Cache = cache

	cold := run("cold", withCache)
	same("cold", cold, want)
	if cold.cache.Stored == 0 || cold.cache.Hits != 0 {
		t.Errorf("cold: %+v, want entries stored and no hit", cold.cache)
	}
	warm := run("warm", withCache)
	same("warm", warm, want)
	// Of the fx module's packages, all from source; of the dependencies,
	// those that the broken package imports none, so none from source.
	if warm.cache.Hits == 0 || warm.cache.Stored != 0 || warm.cache.Misses != 0 || warm.cache.Fallback {
		t.Errorf("warm: %+v, want hits only", warm.cache)
	}
	if warm.cache.Source != want.Packages {
		t.Errorf("warm: %d packages from source, want the module's %d", warm.cache.Source, want.Packages)
	}

	// Corrupt every entry on disk (a flipped byte): diskcache drops them,
	// the run is a cold one again.
	entries := cacheEntries(t, dir)
	for _, p := range entries {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)-1] ^= 0xff
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	corrupt := run("corrupt", withCache)
	same("corrupt entries", corrupt, want)
	if corrupt.cache.Hits != 0 || corrupt.cache.Stored == 0 {
		t.Errorf("corrupt: %+v, want no hit and entries stored again", corrupt.cache)
	}
	same("warm again", run("warm again", withCache), want)

	// An entry that diskcache vouches for but whose content does not
	// decode: the module loads from source.
	for _, p := range cacheEntries(t, dir) {
		var k diskcache.Key
		if n, err := hex.Decode(k[:], []byte(filepath.Base(p))); err != nil || n != len(k) {
			t.Fatalf("entry name %s: %v", p, err)
		}
		if err := cache.Put(typesKind, k, []byte("not an entry")); err != nil {
			t.Fatal(err)
		}
	}
	bad := run("undecodable", withCache)
	same("undecodable entries", bad, want)
	if !bad.cache.Fallback {
		t.Errorf("undecodable: %+v, want the fallback", bad.cache)
	}
	same("warm after undecodable", run("warm after undecodable", withCache), want)

	// An overlay of the local dependency: its new content is what counts,
	// with and without the cache.
	overlay := map[string][]byte{"lib/lib.go": []byte("package lib\n\nfunc Die(code int) {}\n\nfunc Maybe(code int) { panic(code) }\n")}
	over := base
	over.Overlay = overlay
	wantOver := run("overlay, no cache", over)
	if strings.Contains(render(wantOver), "lib.Die never returns") || !strings.Contains(render(wantOver), "lib.Maybe never returns") {
		t.Errorf("the overlay is not read:\n%s", render(wantOver))
	}
	over.Cache = cache
	same("overlay", run("overlay", over), wantOver)
	same("overlay, warm", run("overlay, warm", over), wantOver)
	same("after the overlay", run("after the overlay", withCache), want)

	// With test files (test variants are never cached).
	tests := base
	tests.Tests = true
	wantTests := run("tests, no cache", tests)
	tests.Cache = cache
	same("tests, cold", run("tests, cold", tests), wantTests)
	same("tests, warm", run("tests, warm", tests), wantTests)
}

// TestTypeCacheChangedDependency changes a dependency's file on disk
// between two runs: the entry of the old content is not used.
func TestTypeCacheChangedDependency(t *testing.T) {
	root := cacheFixture(t)
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Analyzers: []*analysis.Analyzer{noReturnAnalyzer}, Env: testEnv, Modules: []string{"fx"}, Cache: cache}
	if _, err := Run(root, cfg); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"lib/lib.go": "package lib\n\nfunc Die(code int) {}\n\nfunc Maybe(code int) { panic(code) }\n"})
	res, err := Run(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out := render(res); strings.Contains(out, "lib.Die never returns") || !strings.Contains(out, "lib.Maybe never returns") {
		t.Errorf("a stale entry was used:\n%s", out)
	}
	if res.cache.Misses != 1 {
		t.Errorf("%+v, want one miss (lib)", res.cache)
	}
}

func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(dir, typesKind), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatal("no cache entries")
	}
	return out
}

func render(res *Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		b.WriteString(d.Path + ":" + strconv.Itoa(d.Start.Line) + ":" + strconv.Itoa(d.Start.Col) + ": " + d.Code + " " + d.Message + "\n")
	}
	return b.String()
}

// TestTypeCacheCanceled: a load whose context ends while the packages are
// type-checked returns the context's error (Run makes it a timeout's
// GL008, or ErrInterrupted), and a timeout with the cache is reported as
// without.
func TestTypeCacheCanceled(t *testing.T) {
	root := cacheFixture(t)
	dir := filepath.Join(root, "fx")
	pkgs, err := packages.Load(&packages.Config{Mode: metaMode, Dir: dir, Env: append(os.Environ(), testEnv...)}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := loadTypes(ctx, nil, nil, nil, pkgs, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("loadTypes with a canceled context: %v, want context.Canceled", err)
	}
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{noReturnAnalyzer}, Env: testEnv, Modules: []string{"fx"}, Cache: cache, LoadTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if out := render(res); !strings.Contains(out, "GL008 Go module fx is not analyzed: loading it (go list, then type-checking its packages) did not finish within 1ms") {
		t.Errorf("timeout: %s", out)
	}
}
