package fixes

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

// TestWriteFiles: WriteFiles writes the files that hold the content the
// analysis read, keeping their permissions, and leaves as they are, with
// why, a file changed since the analysis, one changed while it was
// writing, a symbolic link that leads outside the root, and a path that
// is not inside the root.
func TestWriteFiles(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.py": "x = 1\n"})
	root := writeTree(t, map[string]string{
		"a.py":     "x = 1\n",
		"b.yaml":   "k: v\n",
		"stale.py": "x = 2\n",
		"late.py":  "x = 1\n",
	})
	if err := os.Chmod(filepath.Join(root, "a.py"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(root, "link.py")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	analysed := map[string]string{"a.py": "x = 1\n", "b.yaml": "k: v\n", "stale.py": "x = 1\n", "late.py": "x = 1\n", "link.py": "x = 1\n"}
	comment := func(p string) []diag.TextEdit { return []diag.TextEdit{edit(p, 5, 5, "  # c")} }
	edits := map[string][]diag.TextEdit{
		"a.py": comment("a.py"), "b.yaml": {edit("b.yaml", 4, 4, "  # c")}, "stale.py": comment("stale.py"),
		"late.py": comment("late.py"), "link.py": comment("link.py"), "../up.py": comment("../up.py"),
	}
	testHookBeforeLastCheck = func(p string) {
		if p == "late.py" {
			os.WriteFile(filepath.Join(root, "late.py"), []byte("x = 3\n"), 0o644)
		}
	}
	defer func() { testHookBeforeLastCheck = nil }()
	w, err := WriteFiles(root, edits, Options{Analysed: analysedAs(analysed)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.py", "b.yaml"}; !reflect.DeepEqual(w.Files, want) {
		t.Errorf("written %v, want %v", w.Files, want)
	}
	var left []string
	for _, l := range w.Left {
		left = append(left, l.Path)
	}
	if want := []string{"../up.py", "late.py", "link.py", "stale.py"}; !reflect.DeepEqual(left, want) {
		t.Errorf("left %v (%v), want %v", left, w.Left, want)
	}
	for p, want := range map[string]string{"a.py": "x = 1  # c\n", "b.yaml": "k: v  # c\n", "stale.py": "x = 2\n", "late.py": "x = 3\n"} {
		if got, _ := os.ReadFile(filepath.Join(root, p)); string(got) != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "secret.py")); string(got) != "x = 1\n" {
		t.Errorf("the file outside the root was written: %q", got)
	}
	if st, _ := os.Stat(filepath.Join(root, "a.py")); st.Mode().Perm() != 0o600 {
		t.Errorf("a.py mode %v, want 0600 kept", st.Mode().Perm())
	}
}
