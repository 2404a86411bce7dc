package engine

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/internal/testtree"
)

// The Go modules a scan takes from the Python side's walk are those
// goanalysis.Modules finds, once both leave out what the configuration
// excludes and .gitignore ignores.
func TestGoModulesFromTheWalk(t *testing.T) {
	mod := "module m\n\ngo 1.22\n"
	tree := testtree.New(t, map[string]string{
		"go.mod":                      mod,
		"svc/go.mod":                  mod,
		"svc/inner/go.mod":            mod,
		"vendor/dep/go.mod":           mod,
		"tools/testdata/fx/go.mod":    mod,
		".hidden/go.mod":              mod,
		"node_modules/x/go.mod":       mod,
		"ignored/go.mod":              mod,
		"excluded/go.mod":             mod,
		".gitignore":                  "ignored/\n",
		"resources_servers/s/app.py":  "",
		"resources_servers/s/go.mod":  mod,
		"resources_servers/s/sub/x.y": "",
	})
	root, _ := filepath.Abs(filepath.Join("..", "examples"))
	for _, dir := range []string{tree, root} {
		opts := repofs.Options{Gitignore: true, Exclude: []string{"excluded"}}
		fsys, err := repofs.New(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := goanalysis.Modules(dir)
		if err != nil {
			t.Fatal(err)
		}
		want = slices.DeleteFunc(want, fsys.IgnoredDir)
		got := slices.DeleteFunc(goModules(fsys.Walk().GoMods), fsys.IgnoredDir)
		if dir == tree && !slices.Equal(want, []string{".", "resources_servers/s", "svc", "svc/inner"}) {
			t.Fatalf("goanalysis.Modules found %q", want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: from the walk %q, goanalysis.Modules %q", dir, got, want)
		}
	}
}
