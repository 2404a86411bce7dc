package contract

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/internal/testtree"
	"github.com/gymlint/gymlint/pyscan"
)

// DetectModules gives the modules it parsed without a syntax error, by
// their root-relative paths, each with the steps its parse took, and the
// framework Detect gives; none for a framework outside the root.
func TestDetectModules(t *testing.T) {
	files := map[string]string{
		"vendor/nemo_gym/__init__.py":     "",
		"vendor/nemo_gym/server_utils.py": "class BaseServer:\n    def multiple_workers_unsupported_reason(self):\n        return None\n",
		"vendor/nemo_gym/broken.py":       "class ResourcesSessionLocks(:\n    pass\n",
		"vendor/nemo_gym/plain.py":        "def helper():\n    return 1\n",
		"vendor/nemo_gym/sub/locks.py":    "class ResourcesSessionLocks:\n    pass\n",
	}
	root := testtree.New(t, files)
	fsys, err := repofs.New(root, repofs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{FS: fsys, FrameworkPath: "vendor"}
	fw, parsed := DetectModules(o)
	if want := Detect(o); !reflect.DeepEqual(fw, want) {
		t.Fatalf("DetectModules' framework %+v, Detect's %+v", fw, want)
	}
	var paths []string
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	for _, m := range parsed {
		paths = append(paths, m.Module.Path)
		// The steps are those of a parse of the file's text.
		b := pyscan.NewBudget(1 << 40)
		again := p.ParseWithin(m.Module.Path, []byte(files[m.Module.Path]), b)
		if m.Steps != b.Spent() || !reflect.DeepEqual(again, m.Module) {
			t.Errorf("%s: %d steps, a parse of the file takes %d", m.Module.Path, m.Steps, b.Spent())
		}
	}
	slices.Sort(paths)
	if want := []string{"vendor/nemo_gym/server_utils.py", "vendor/nemo_gym/sub/locks.py"}; !slices.Equal(paths, want) {
		t.Fatalf("modules %q, want %q (no syntax error, no module without a fact's name)", paths, want)
	}

	// $VIRTUAL_ENV outside the root: read there, its modules not given.
	venv := map[string]string{}
	for p, c := range files {
		venv[path.Join("lib/python3.11/site-packages", p[len("vendor/"):])] = c
	}
	inRoot, err := repofs.New(testtree.New(t, map[string]string{"app.py": ""}), repofs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fw, parsed = DetectModules(Options{FS: inRoot, VirtualEnv: testtree.New(t, venv)})
	if !fw.Found || fw.Where != VirtualEnv || len(parsed) != 0 {
		t.Fatalf("outside the root: found %v (%s), %s", fw.Found, fw.Where, fmt.Sprint(len(parsed), " modules"))
	}
}
