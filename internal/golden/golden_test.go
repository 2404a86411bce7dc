package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// recorder is a testing.TB that records whether the check failed.
type recorder struct {
	testing.TB
	failed bool
	msgs   []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

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

func TestFindings(t *testing.T) {
	r := &recorder{TB: t}
	Findings(r, map[string]bool{"a.py:1 GL101": true, "b.py:2 GL101": true, "c.py:3 GL201": true},
		map[string][]string{"c.py:3 GL201": nil, "a.py:1 GL101": nil, "d.py:4 GL301": nil})
	want := []string{"expected but not reported: b.py:2 GL101", "reported but not expected: d.py:4 GL301"}
	if !slices.Equal(r.msgs, want) {
		t.Errorf("messages %q, want %q", r.msgs, want)
	}
}
