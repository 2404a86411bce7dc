package goanalysis

import (
	"testing"

	"golang.org/x/tools/go/analysis"
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
