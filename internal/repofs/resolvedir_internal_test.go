package repofs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// resolveDir resolves a directory from its parent's remembered
// resolution, with one Lstat; its answers are resolve's, for directories
// behind links of every kind, files used as directories, absent paths,
// loops and links out of the root, in any order of asking.
func TestResolveDirAsResolve(t *testing.T) {
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "d", "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"a/b/c", "x/y", "srv/pkg/sub"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "file.py"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for rel, target := range map[string]string{
		"a/up":        "..",                        // back to the root
		"a/b/tox":     "../../x",                   // relative, inside
		"a/abs":       filepath.Join(dir, "srv"),   // absolute, inside
		"a/out":       filepath.Join(outside, "d"), // absolute, outside
		"a/relout":    "../../" + filepath.Base(outside) + "/d",
		"a/loop1":     "loop2",
		"a/loop2":     "loop1",
		"a/dangling":  "nothere",
		"a/tofile":    "file.py",
		"x/y/chain":   "../../a/b/tox",
		"srv/pkg/toa": "../../a",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		"a", "a/b", "a/b/c", "a/up", "a/up/a/b", "a/up/x/y", "a/b/tox", "a/b/tox/y", "a/abs", "a/abs/pkg/sub",
		"a/out", "a/out/e", "a/relout", "a/relout/e", "a/loop1", "a/loop1/z", "a/dangling", "a/dangling/z",
		"a/tofile", "a/tofile/z", "a/file.py", "a/file.py/z", "x/y/chain", "x/y/chain/y", "srv/pkg/toa/b/c",
		"srv/pkg/toa/up/srv/pkg/toa/b", "nothere", "nothere/z", "a/b/c/d/e",
	}
	for _, order := range [][]string{paths, reversed(paths)} {
		f, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range order {
			want, wantErr := f.resolve(p)
			got, err := f.resolveDir(p)
			if got != want || !errors.Is(err, wantErr) && errString(err) != errString(wantErr) {
				t.Errorf("resolveDir(%s) = %q, %v; resolve: %q, %v", p, got, err, want, wantErr)
			}
		}
	}
}

func reversed(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// The walk's listings stand: after a walk, reading a file in a walked
// directory (a .gitignore the walk reads, a module a scan reads) and
// looking for absent ones list no directory and resolve none again: one
// lstat of the file, its open.
func TestWalkKeepsListings(t *testing.T) {
	dir := t.TempDir()
	for p, text := range map[string]string{
		"resources_servers/a/app.py":        "x = 1\n",
		"resources_servers/a/lib/helper.py": "y = 2\n",
		"resources_servers/a/.gitignore":    "*.log\n",
		"nemo_gym/base.py":                  "z = 3\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := New(dir, Options{Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	calls := watchCalls(t)
	l := f.Walk()
	if len(l.AppPy) != 1 {
		t.Fatalf("walk: %+v", l)
	}
	walked := map[string]int{}
	for _, c := range calls() {
		if c.op == "readdir" {
			walked[c.path]++
		}
	}
	if len(walked) != 5 {
		t.Errorf("the walk listed %v, want the 5 directories", walked)
	}
	calls = watchCalls(t)
	for _, p := range []string{"resources_servers/a/lib/helper.py", "nemo_gym/base.py", "resources_servers/a/app.py"} {
		if _, err := f.Read(p); err != nil {
			t.Errorf("Read(%s) = %v", p, err)
		}
	}
	for _, p := range []string{"resources_servers/a/lib/json/__init__.py", "nemo_gym/absent.py", "resources_servers/b/app.py"} {
		if f.IsFile(p) {
			t.Errorf("IsFile(%s)", p)
		}
	}
	var ops []string
	for _, c := range calls() {
		if c.op != "lstat" && c.op != "open" {
			ops = append(ops, c.op+" "+c.path)
		}
	}
	if len(ops) != 0 {
		t.Errorf("after the walk: %v, want only the lstat and open of each file read", ops)
	}
}
