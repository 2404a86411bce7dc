package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPythonFilesSelection(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.py", "x = 1\n")
	write("pkg/b.py", "def f(:\n") // a syntax error still parses (with ERROR nodes)
	write("pkg/notes.txt", "")
	write(".git/hooks/c.py", "")
	write("pkg/.venv/d.py", "")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "e.py"), []byte("y = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "e.py"), filepath.Join(root, "link.py")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}

	files, err := pythonFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "a.py"), filepath.Join(root, "pkg", "b.py")}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("pythonFiles = %q, want %q", files, want)
	}
	for _, readOnly := range []bool{false, true} {
		for _, jobs := range []int{1, 3} {
			n, size, err := parseAll(files, jobs, readOnly)
			if err != nil {
				t.Fatal(err)
			}
			if n != 2 || size != int64(len("x = 1\n")+len("def f(:\n")) {
				t.Errorf("-j %d -read=%v: %d files, %d bytes", jobs, readOnly, n, size)
			}
		}
	}
	if _, _, err := parseAll([]string{filepath.Join(root, "missing.py")}, 2, false); err == nil {
		t.Error("missing file: want an error")
	}
}
