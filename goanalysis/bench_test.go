package goanalysis

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// BenchmarkRunNetHTTP measures one scan of a module with a net/http handler:
// go list, then parsing and type-checking the package and its standard
// library dependencies from source.
func BenchmarkRunNetHTTP(b *testing.B) {
	root := b.TempDir()
	gomod := "module example.com/p\n\ngo 1.26\n"
	src := `package p

import (
	"encoding/json"
	"net/http"
	"sync"
)

var (
	mu       sync.Mutex
	sessions = map[string]int{}
)

func badSeed(w http.ResponseWriter, r *http.Request) {
	var body struct{ ID string }
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	mu.Lock()
	sessions[body.ID] = 0
	mu.Unlock()
}
`
	for name, data := range map[string]string{"go.mod": gomod, "p.go": src} {
		if err := writeFile(root, name, data); err != nil {
			b.Fatal(err)
		}
	}
	cfg := Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv}
	for b.Loop() {
		res, err := Run(root, cfg)
		if err != nil || len(res.Diagnostics) != 1 {
			b.Fatalf("Run = %+v, %v", res, err)
		}
	}
}

// BenchmarkCheckModule measures the check of a module's files before it is
// loaded (checkModule: a walk of the module's tree, and go/build reading
// the headers of each package directory's Go files for cgo), on gymlint's
// own module: about 60 package directories and 500 files.
func BenchmarkCheckModule(b *testing.B) {
	rt, err := newRooted("..")
	if err != nil {
		b.Fatal(err)
	}
	c := &converter{root: rt}
	for b.Loop() {
		if mc := c.checkModule(".", 4<<20, nil); len(mc.problems) > 0 {
			b.Fatalf("problems: %+v", mc.problems)
		}
	}
}

// nativeServerModule writes the example native server (examples/nativeserver,
// its package and its command) as a module of its own.
func nativeServerModule(b *testing.B) string {
	root := b.TempDir()
	server, err := os.ReadFile("../examples/nativeserver/server.go")
	if err != nil {
		b.Fatal(err)
	}
	main, err := os.ReadFile("../examples/nativeserver/cmd/counterserver/main.go")
	if err != nil {
		b.Fatal(err)
	}
	for name, data := range map[string]string{
		"go.mod":                    "module example.com/nativeserver\n\ngo 1.26\n",
		"server.go":                 string(server),
		"cmd/counterserver/main.go": strings.ReplaceAll(string(main), "github.com/gymlint/gymlint/examples/nativeserver", "example.com/nativeserver"),
	} {
		if err := writeFile(root, name, data); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkRunNativeServer measures one scan of the example native server
// with gymlint's Go analyzers: without the type cache (every dependency
// parsed and type-checked from source, as before), with an empty cache
// (cold: the same work, and the entries written), and with a filled one
// (warm: only the module's two packages from source). Compare the three
// in one run: go test -bench RunNativeServer -count 5 ./goanalysis.
func BenchmarkRunNativeServer(b *testing.B) {
	root := nativeServerModule(b)
	cfg := Config{Env: testEnv}
	b.Run("nocache", func(b *testing.B) {
		for b.Loop() {
			if _, err := Run(root, cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			dir := b.TempDir()
			c, err := diskcache.Open(filepath.Join(dir, "c"+strconv.Itoa(b.N)), diskcache.Options{})
			if err != nil {
				b.Fatal(err)
			}
			cfg := cfg
			cfg.Cache = c
			b.StartTimer()
			if res, err := Run(root, cfg); err != nil || res.cache.Hits != 0 {
				b.Fatal(err, res.cache)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		c, err := diskcache.Open(b.TempDir(), diskcache.Options{})
		if err != nil {
			b.Fatal(err)
		}
		cfg := cfg
		cfg.Cache = c
		if _, err := Run(root, cfg); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if res, err := Run(root, cfg); err != nil || res.cache.Misses != 0 || res.cache.Hits == 0 {
				b.Fatal(err, res.cache)
			}
		}
	})
}
