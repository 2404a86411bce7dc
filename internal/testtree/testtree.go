// Package testtree writes trees of files for tests.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files (slash-separated path relative to dir → content)
// under dir, making the directories they need.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// New writes files under a new temporary directory and returns it.
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return dir
}
