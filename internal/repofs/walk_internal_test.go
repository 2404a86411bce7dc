package repofs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

// walkTree is a repository with what changes a listing: nested
// .gitignore files (one unreadable, one with too many patterns), excluded
// directories, go.mod files, links, hidden and skipped directories, an
// overlay file, and directories that cannot be listed.
func walkTree(t *testing.T) (string, Options) {
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":                "output/\n*.local.yaml\n/top.yaml\n",
		"top.yaml":                  "t: 1\n",
		"go.mod":                    "module x\n",
		"scratch/s.yaml":            "s: 1\n",
		"nemo_gym/__init__.py":      "",
		"bin/.gitignore":            "x\x00y\n",
		"bin/a.yaml":                "a: 1\n",
		".hidden/h.yaml":            "h: 1\n",
		"node_modules/m/app.py":     "m\n",
		"resources_servers/noisy/x": "x\n",
	}
	var many strings.Builder
	for i := 0; i < 2100; i++ {
		fmt.Fprintf(&many, "ignored%d.yaml\n", i)
	}
	files["resources_servers/many/.gitignore"] = many.String()
	files["resources_servers/many/ignored5.yaml"] = "i: 1\n"
	for i := 0; i < 60; i++ {
		s := fmt.Sprintf("resources_servers/s%02d", i)
		files[s+"/app.py"] = "a\n"
		files[s+"/configs/a.yaml"] = "a: 1\n"
		files[s+"/configs/a.local.yaml"] = "a: 1\n"
		files[s+"/output/o.yaml"] = "o: 1\n"
		if i%7 == 0 {
			files[s+"/.gitignore"] = "!*.local.yaml\ngenerated/\n"
			files[s+"/generated/g.yaml"] = "g: 1\n"
		}
		if i%11 == 0 {
			files[s+"/tool/go.mod"] = "module t\n"
			files[s+"/deep/a/b/c/d/app.py"] = "d\n"
		}
	}
	testtree.Write(t, dir, files)
	for _, l := range [][2]string{
		{"resources_servers/s03/configs", "resources_servers/linked"},
		{filepath.Join(t.TempDir(), "gone"), "resources_servers/dangling.yaml"},
		{filepath.Join(t.TempDir(), "elsewhere"), "resources_servers/s05/.gitignore"},
	} {
		target := l[0]
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, filepath.FromSlash(target))
		}
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(l[1]))); err != nil {
			t.Fatal(err)
		}
	}
	return dir, Options{Gitignore: true, Exclude: []string{"scratch", "**/s1*/configs"},
		Overlay: map[string][]byte{"resources_servers/new/app.py": []byte("n\n")}}
}

// A walk on several goroutines makes the listing of a walk on one, in
// the same order, problems included, whichever directories cannot be
// listed; and the file system keeps the same listings.
func TestWalkInParallelIsTheSerialWalk(t *testing.T) {
	dir, opts := walkTree(t)
	readDir := osReadDir
	t.Cleanup(func() { osReadDir = readDir })
	osReadDir = func(p string) ([]os.DirEntry, error) {
		if strings.HasSuffix(p, "s2"+"2") || strings.HasSuffix(p, filepath.Join("s44", "deep")) {
			return nil, os.ErrPermission
		}
		return readDir(p)
	}
	walk := func(extra int) (Listing, *FS) {
		f, err := New(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		l, ok := f.walk(extra)
		if !ok {
			t.Fatalf("the walk with %d more goroutines gave up", extra)
		}
		return l, f
	}
	want, wf := walk(0)
	if len(want.Problems) != 5 || len(want.GoMods) != 6 || len(want.Gitignores) != 13 || len(want.Dirs) < 140 {
		t.Fatalf("the tree is not the one meant: %d problems %v, %d go.mod, %d .gitignore, %d directories",
			len(want.Problems), want.Problems, len(want.GoMods), len(want.Gitignores), len(want.Dirs))
	}
	for _, extra := range []int{1, 2, 8} {
		for range 5 {
			got, gf := walk(extra)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%d more goroutines: the listing differs\n%+v\nwant\n%+v", extra, got, want)
			}
			if !reflect.DeepEqual(gf.dirs, wf.dirs) || !reflect.DeepEqual(gf.resolved, wf.resolved) {
				t.Fatalf("%d more goroutines: the file system kept other listings", extra)
			}
		}
	}
	for _, jobs := range []int{0, 1, 3} {
		o := opts
		o.Jobs = jobs
		if l := mustFS(t, dir, o).Walk(); !reflect.DeepEqual(l, want) {
			t.Fatalf("Walk's listing (Jobs %d) is not the serial walk's", jobs)
		}
	}
}

// Past MaxGitignoreWork a walk on several goroutines gives up, and Walk
// makes the walk on one, which stops applying the .gitignore files where
// it always did.
func TestWalkInParallelGivesUpPastTheBound(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, CostlyGitignoreTree())
	opts := Options{Gitignore: true}
	if _, ok := mustFS(t, dir, opts).walk(2); ok {
		t.Fatal("the walk with more goroutines went past the bound")
	}
	want, _ := mustFS(t, dir, opts).walk(0)
	got := mustFS(t, dir, opts).Walk()
	if !reflect.DeepEqual(got, want) || len(got.Problems) != 1 || !errors.Is(got.Problems[0], ErrGitignoreTooCostly) {
		t.Fatalf("Walk: problems %v, want the serial walk's %v", got.Problems, want.Problems)
	}
}

func mustFS(t *testing.T, dir string, opts Options) *FS {
	t.Helper()
	f, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
