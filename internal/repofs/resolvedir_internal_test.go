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
