package repofs

import (
	"os"
	"path/filepath"
	"testing"
)

// A directory that its parent's listing lacks is answered from that
// listing: looking for a package in a folder that does not have it makes
// no system call.
func TestAbsentDirectoryFromParentListing(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "srv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "srv", "app.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !f.IsFile("srv/app.py") {
		t.Fatal("srv/app.py is not a file")
	}
	calls := watchCalls(t)
	for _, p := range []string{"srv/numpy/__init__.py", "srv/json/__init__.py", "srv/a/b/c/__init__.py", "srv/numpy.py"} {
		if f.IsFile(p) {
			t.Errorf("IsFile(%s) = true", p)
		}
	}
	if got := calls(); len(got) != 0 {
		t.Errorf("calls for paths that srv's listing lacks: %v, want none", got)
	}
	// A directory that is there is still resolved and listed.
	if err := os.MkdirAll(filepath.Join(dir, "srv", "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "srv", "lib", "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.Forget("srv/lib")
	if !f.IsFile("srv/lib/__init__.py") {
		t.Error("srv/lib/__init__.py, created and forgotten, is not a file")
	}
}

// What the listings answer is not kept besides them: asking about absent
// files and packages, as import resolution does for every import in every
// folder, adds no entry to the file system's tables, and the answers stay
// the same (and take no system call) when asked again.
func TestAbsentPathsAreNotKept(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"srv/app.py", "srv/helpers.py", "srv/pkg/__init__.py"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Walk()
	present := []string{"srv/app.py", "srv/helpers.py", "srv/pkg/__init__.py"}
	for _, p := range present {
		if !f.IsFile(p) {
			t.Fatalf("%s is not a file", p)
		}
	}
	stats, dirs := len(f.stats), len(f.dirs)
	calls := watchCalls(t)
	for range 2 {
		for _, mod := range []string{"json", "numpy", "os/path", "pkg/absent", "helpers/sub"} {
			for _, p := range []string{"srv/" + mod + ".py", "srv/" + mod + "/__init__.py", mod + ".py", mod + "/__init__.py"} {
				if f.IsFile(p) {
					t.Fatalf("IsFile(%s) = true", p)
				}
			}
		}
		for _, p := range present {
			if !f.IsFile(p) {
				t.Fatalf("%s is no longer a file", p)
			}
		}
	}
	if len(f.stats) != stats || len(f.dirs) != dirs {
		t.Errorf("absent paths kept: %d answers and %d listings, %d and %d before", len(f.stats), len(f.dirs), stats, dirs)
	}
	if got := calls(); len(got) != 0 {
		t.Errorf("system calls for absent paths: %v", got)
	}
	if names := f.Names("srv/numpy"); names == nil || len(names) != 0 {
		t.Errorf("Names of an absent directory: %#v, want an empty list", names)
	}
}
