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
