package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records whether the check failed.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	if Check(r, path, []byte("a\n"), false, "update"); r.failed {
		t.Error("equal output reported as different")
	}
	if Check(r, path, []byte("b\n"), false, "update"); !r.failed {
		t.Error("different output not reported")
	}
	r.failed = false
	if Check(r, path, []byte("b\n"), true, "update"); r.failed {
		t.Error("update did not accept the new output")
	}
	if data, _ := os.ReadFile(path); string(data) != "b\n" {
		t.Errorf("after update the file holds %q", data)
	}
}
