// Package testtree writes trees of files for tests.
package testtree

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
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

// MainWithCacheDir runs a package's tests (from TestMain) with a gymlint
// cache directory and cache key of their own (GYMLINT_CACHE_DIR and
// GYMLINT_CACHE_KEY, inherited by the gymlint processes the tests start),
// so that they exercise the cache as users' checks do and never write to
// the user's cache or configuration directory; it returns the exit status
// for os.Exit.
func MainWithCacheDir(m *testing.M) int {
	dir, err := os.MkdirTemp("", "gymlint-test-cache-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("GYMLINT_CACHE_DIR", dir)
	os.Setenv("GYMLINT_CACHE_KEY", "the tests' own key for "+dir)
	return m.Run()
}

// SyncBuffer is a bytes.Buffer that several goroutines may write to (a
// log, a progress line), and a test read.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
