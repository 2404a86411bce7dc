package repofs_test

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// TestKeepSumsVaried: a file read twice with the same content has one
// sum; read again after it changed, its sum is marked Varied for the rest
// of the scan (what was computed from its reads is not of one content),
// even when it changes back.
func TestKeepSumsVaried(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n", "b.py": "y = 2\n"})
	f := open(t, dir, repofs.Options{})
	f.KeepSums()
	for range 2 {
		f.Read("a.py")
		f.Read("b.py")
	}
	if rs, ok := f.Sum("a.py"); !ok || rs.Varied || rs.Sum != sha256.Sum256([]byte("x = 1\n")) {
		t.Fatalf("a.py read twice, unchanged: %+v %v", rs, ok)
	}
	for i, content := range []string{"# prepended\nx = 1\n", "x = 1\n"} {
		if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		f.Read("a.py")
		if rs, ok := f.Sum("a.py"); !ok || !rs.Varied || rs.Sum != sha256.Sum256([]byte(content)) {
			t.Errorf("read %d after a change: %+v %v, want Varied and the last content's sum", i+3, rs, ok)
		}
	}
	if rs, _ := f.Sum("b.py"); rs.Varied {
		t.Error("b.py: Varied")
	}
}
