package gym_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The import forms a byte-level search must not miss: spaces around the
// dots, parentheses, line continuations, relative imports that load a
// package's __init__.py, namespace packages, a sibling import, imports in
// a function body and in the __main__ guard.
func TestClosureMayHoldFindsEveryImportForm(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/calc/app.py": `import spaced . inner
from parens import (
    deep,
)
from cont \
    import leaf
from .. import shared
from .sib import x
import ns.mod


def later():
    import lazy


if __name__ == "__main__":
    import mainonly
`,
		"resources_servers/calc/sib.py":       "NEEDLE = 1\n",
		"resources_servers/__init__.py":       "NEEDLE = 1\n",
		"resources_servers/shared.py":         "NEEDLE = 1\n",
		"spaced/__init__.py":                  "",
		"spaced/inner.py":                     "import further\nNEEDLE = 1\n",
		"further.py":                          "NEEDLE = 1\n",
		"parens/__init__.py":                  "",
		"parens/deep.py":                      "NEEDLE = 1\n",
		"cont/__init__.py":                    "",
		"cont/leaf.py":                        "NEEDLE = 1\n",
		"ns/mod.py":                           "NEEDLE = 1\n",
		"lazy.py":                             "NEEDLE = 1\n",
		"mainonly.py":                         "NEEDLE = 1\n",
		"unnamed/holder.py":                   "NEEDLE = 1\n",
		"resources_servers/calc/unnamed.py":   "NEEDLE = 1\n",
		"nemo_gym/__init__.py":                "",
		"nemo_gym/base_resources_server.py":   "NEEDLE = 1\n",
		"resources_servers/calc/plain.py":     "# no needle here\n",
		"resources_servers/calc/requirements": "",
	})
	v := build(t, root, gym.Options{})
	app := module(t, v, "resources_servers/calc/app.py")
	got, ok := v.ClosureMayHold([]*pyscan.Module{app}, "NEEDLE")
	if !ok {
		t.Fatal("the search gave up")
	}
	slices.Sort(got)
	want := []string{
		"cont/leaf.py", "further.py", "lazy.py", "mainonly.py", "ns/mod.py", "parens/deep.py",
		"resources_servers/__init__.py", "resources_servers/calc/sib.py", "resources_servers/shared.py",
		"spaced/inner.py",
	}
	if !slices.Equal(got, want) {
		t.Errorf("ClosureMayHold:\n  got  %v\n  want %v", got, want)
	}
	// Everything ImportClosure reaches that holds the needle is there.
	for _, r := range v.ImportClosure(app) {
		if r.Module != nil && strings.Contains(string(r.Module.Source()), "NEEDLE") && !slices.Contains(got, r.Path) {
			t.Errorf("ImportClosure reaches %s, which holds the needle; ClosureMayHold does not", r.Path)
		}
	}
}

// On every fixture repository (and the NeMo Gym checkout that
// GYMLINT_SNAPSHOT names, when it is set), the search reaches every module
// that ImportClosure reaches from each entrypoint.
func TestClosureMayHoldCoversImportClosure(t *testing.T) {
	beyond := 0 // modules the closures reach besides the roots
	repos := []string{"gymrepo", "rayrepo", "refusalrepo", "sessionsrepo_a", "sessionsrepo_b", "staterepo", "envrepo", "extframework", "frontendsrepo", "contracts/gen1", "contracts/gen2", "contracts/gen3"}
	for i := range repos {
		repos[i] = filepath.Join("..", "testdata", filepath.FromSlash(repos[i]))
	}
	if snap := os.Getenv("GYMLINT_SNAPSHOT"); snap != "" {
		repos = append(repos, snap)
	}
	for _, dir := range repos {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			v := build(t, dir, gym.Options{})
			var roots []*pyscan.Module
			for _, e := range v.Entrypoints {
				if e.Module != nil {
					roots = append(roots, e.Module)
				}
			}
			all, ok := v.ClosureMayHold(roots, "")
			if !ok {
				t.Fatal("the search gave up")
			}
			for _, r := range roots {
				for _, imp := range v.ImportClosure(r) {
					if imp.By != nil {
						beyond++
					}
					if !slices.Contains(all, imp.Path) {
						t.Errorf("ImportClosure(%s) reaches %s; ClosureMayHold does not", r.Path, imp.Path)
					}
				}
			}
		})
	}
	if beyond < 10 {
		t.Errorf("the fixtures' closures reach %d modules beyond their roots: too few to test the search", beyond)
	}
}

// A chain of directories deeper than the search follows makes it give up
// rather than answer.
func TestClosureMayHoldGivesUpPastItsBounds(t *testing.T) {
	deep := strings.Repeat("a/", 40)
	root := writeRepo(t, map[string]string{
		"resources_servers/calc/app.py": "import a\n",
		deep + "m.py":                   "NEEDLE = 1\n",
	})
	v := build(t, root, gym.Options{})
	app := module(t, v, "resources_servers/calc/app.py")
	if got, ok := v.ClosureMayHold([]*pyscan.Module{app}, "NEEDLE"); ok {
		t.Errorf("ClosureMayHold = %v, true past its depth bound; want false", got)
	}
}

// ClosureMayHoldWords counts whole words: a word of a comment or a string
// does, a longer word that holds it does not; the roots' own words are
// not asked about. It gives every file it reached, the roots first, and
// says when a module other than a root may import a root.
func TestClosureMayHoldWords(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/calc/app.py":   "import ray\nimport lookalike, commented, texted, onward\n",
		"resources_servers/calc/other.py": "import lookalike\n",
		"lookalike.py":                    "import array\nx = bytearray(b'')  # an x_ray\n",
		"commented.py":                    "# ray is not used here\n",
		"texted.py":                       "NAME = 'nemo_gym'\n",
		"onward.py":                       "import back\n",
		"back.py":                         "from resources_servers.calc import other\n",
	})
	v := build(t, root, gym.Options{})
	app := module(t, v, "resources_servers/calc/app.py")
	r, ok := v.NewImportGraph().ClosureMayHoldWords([]*pyscan.Module{app}, []string{"ray", "nemo_gym"})
	if !ok {
		t.Fatal("the search gave up")
	}
	if want := []string{"commented.py", "texted.py"}; !slices.Equal(sorted(r.Holding), sorted(want)) {
		t.Errorf("holding %v, want %v", r.Holding, want)
	}
	if len(r.Reached) == 0 || r.Reached[0] != app.Path {
		t.Fatalf("reached %v: the root first", r.Reached)
	}
	for _, p := range []string{"lookalike.py", "onward.py", "back.py", "resources_servers/calc/other.py"} {
		if !slices.Contains(r.Reached, p) {
			t.Errorf("reached %v, without %s", r.Reached, p)
		}
	}
	if r.Back {
		t.Error("Back with one root, which no module imports")
	}
	// other.py is imported by back.py: as a root too, it is imported back.
	other := module(t, v, "resources_servers/calc/other.py")
	if r, ok := v.NewImportGraph().ClosureMayHoldWords([]*pyscan.Module{app, other}, []string{"ray"}); !ok || !r.Back {
		t.Errorf("Back %v (ok %v) with other.py a root, which back.py imports", r.Back, ok)
	}
	if r, ok := v.NewImportGraph().ClosureMayHoldWords([]*pyscan.Module{other, app}, []string{"ray"}); !ok || !r.Back {
		t.Errorf("Back %v (ok %v) with the roots the other way round", r.Back, ok)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
