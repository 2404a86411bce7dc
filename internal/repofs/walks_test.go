package repofs_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// Unwalked tells the files Walk lists from the others exactly, with each
// option: it is Walk's rules applied to a path.
func TestUnwalkedIsTheWalksComplement(t *testing.T) {
	dir := ignoreTree(t)
	writeTree(t, dir, map[string]string{
		".hidden/h.yaml":          "h: 1\n",
		"node_modules/n/app.py":   "n\n",
		"configs/UPPER.YAML":      "u: 1\n",
		"configs/notes.txt":       "n\n",
		"resources_servers/x.yml": "y: 1\n",
		"excluded/e.yaml":         "e: 1\n",
		`configs\back.yaml`:       "b: 1\n",
	})
	var all []string
	for _, p := range []string{
		".hidden/h.yaml", "node_modules/n/app.py", "configs/UPPER.YAML", "configs/notes.txt",
		"resources_servers/x.yml", "excluded/e.yaml", "./top.yaml", "a/../top.yaml", "../x.yaml", `configs\back.yaml`,
	} {
		all = append(all, p)
	}
	for _, opts := range []repofs.Options{{}, {Gitignore: true}, {Gitignore: true, Exclude: []string{"excluded", "scratch/*.yaml"}}} {
		f := open(t, dir, opts)
		l := f.Walk()
		paths := append(append(slices.Clone(all), l.YAML...), l.AppPy...)
		// Every file of the tree, walked or not.
		paths = append(paths, "top.yaml", "sub/top.yaml", "output/run1/conf.yaml", "output/run1/app.py",
			"resources_servers/a/configs/a.local.yaml", "resources_servers/a/output/x.yaml", "cache/c.yaml",
			"resources_servers/b/generated/g.yaml", "scratch/s.yaml")
		walked := map[string]bool{}
		for _, p := range append(slices.Clone(l.YAML), l.AppPy...) {
			walked[p] = true
		}
		got := f.Unwalked(paths)
		for _, p := range paths {
			if got[p] == walked[p] {
				t.Errorf("%+v: %s: walked %v, Unwalked %v", opts, p, walked[p], got[p])
			}
		}
		if len(walked) == 0 || len(got) == 0 {
			t.Errorf("%+v: walked %v, unwalked %v", opts, walked, slices.Sorted(maps.Keys(got)))
		}
	}
}
