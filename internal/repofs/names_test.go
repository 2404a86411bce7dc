package repofs_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// Names lists files, directories and links alike, with the overlay's
// entries; the disk's answer stays until Forget of a path in the directory,
// and nothing outside the root is listed.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"pkg/a.py": "", "pkg/sub/b.py": "", "top.py": ""})
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.py": ""})
	link(t, dir, "pkg/ln", "sub")
	link(t, dir, "away", outside)
	f := open(t, dir, repofs.Options{Overlay: map[string][]byte{"pkg/new.py": nil, "pkg/gen/c.py": nil}})
	if got, want := f.Names("pkg"), []string{"a.py", "gen", "ln", "new.py", "sub"}; !slices.Equal(got, want) {
		t.Errorf("Names(pkg) = %q, want %q", got, want)
	}
	if got := f.Names("away"); len(got) != 0 {
		t.Errorf("Names(away) = %q through a link out of the root, want nothing", got)
	}
	if got := f.Names("../" + filepath.Base(outside)); len(got) != 0 {
		t.Errorf("Names above the root = %q, want nothing", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "later.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := f.Names("pkg"); slices.Contains(got, "later.py") {
		t.Errorf("Names(pkg) = %q sees a file created since, before Forget", got)
	}
	f.Forget("pkg/later.py")
	if got := f.Names("pkg"); !slices.Contains(got, "later.py") {
		t.Errorf("Names(pkg) = %q after Forget, want later.py in it", got)
	}
}
