package lint_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layers is the house (../shared/docs/architecture.md, "Folders as
// layers"): each package's layer, from the ground (0) up. A package may
// import only packages of its own layer or below, so data flows one way.
// A package that is not listed fails the test: a new folder must be given
// its place.
var layers = map[string]int{
	"internal/boolmin": 0, "internal/clip": 0, "internal/testbin": 0, "internal/mdfence": 0, "internal/diskcache": 0, "internal/golden": 0, "internal/lineends": 0,
	"internal/pathmatch": 0, "internal/repofs": 0, "internal/testtree": 0, "internal/workers": 0,
	"diag": 1, "diag/core": 1, "lsp/protocol": 1,
	"pyscan": 2, "configscan": 2, "contract": 2, "output": 2, "suppress": 2, "fixes": 2,
	"gym":               3,
	"facts":             4,
	"analyzers/configs": 5, "analyzers/pyfix": 5, "analyzers/gohelp": 5, "analyzers/gohelp/gohelptest": 5, "analyzers/gonative": 5,
	"analyzers/gosessions": 5, "analyzers/gostate": 5, "analyzers/goworkers": 5, "analyzers/rayenabled": 5,
	"analyzers/sessions": 5, "analyzers/workers": 5, "analyzers/workers/refusal": 5,
	"inventory": 6, "lint": 6, "goanalysis": 6,
	"settings": 7, "settings/policy": 7, "schema": 7,
	"engine": 8,
	"lsp":    9, "gymtest": 9,
	"cli":         10,
	"cmd/gymlint": 11,
	// Tools beside the house: they may import any layer, and none imports them.
	"bench/gen": 12, "bench/genrepo": 12, "bench/tsparse": 12,
	"examples/nativeserver": 12, "examples/nativeserver/cmd/counterserver": 12,
}

// TestLayers checks every import between gymlint's packages (tests
// aside) against layers.
func TestLayers(t *testing.T) {
	const module = "github.com/gymlint/gymlint/"
	root := ".."
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || (strings.HasPrefix(n, ".") && p != root) || strings.HasPrefix(n, "_") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		from, ok := layers[pkg]
		if !ok {
			if !seen[pkg] {
				t.Errorf("package %s has no layer: give it one in layers", pkg)
			}
			seen[pkg] = true
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			dep, ok := strings.CutPrefix(ip, module)
			if !ok {
				continue
			}
			to, known := layers[dep]
			switch {
			case !known:
				t.Errorf("%s imports %s, which has no layer", p, dep)
			case to > from:
				t.Errorf("%s (layer %d) imports %s (layer %d): data flows down only", p, from, dep, to)
			case from == 0 && !strings.HasPrefix(dep, "internal/"):
				t.Errorf("%s: internal/ imports %s, outside internal/", p, dep)
			case from < 12 && (path.Dir(dep) == "bench" || strings.HasPrefix(dep, "examples/")):
				t.Errorf("%s imports the tool %s", p, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range layers {
		if !seen[pkg] {
			t.Errorf("layers lists %s, which has no Go file", pkg)
		}
	}
}
