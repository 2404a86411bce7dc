package cli

import (
	"strings"
	"testing"
)

func TestMemoryGuard(t *testing.T) {
	var used uint64 = 100 << 20
	code := -1
	var log strings.Builder
	g := newMemoryGuard(200, &log, func() uint64 { return used }, func(c int) { code = c })
	if g.over() || code != -1 {
		t.Fatalf("under the bound: stopped (code %d)", code)
	}
	used = 201 << 20
	if !g.over() || code != ExitError {
		t.Fatalf("over the bound: code %d", code)
	}
	if want := "gymlint: memory limit reached: 201 MB in use, over the bound of 200 MB (--max-memory)"; !strings.HasPrefix(log.String(), want) {
		t.Errorf("message %q, want %q...", log.String(), want)
	}
	if newMemoryGuard(0, &log, nil, nil) != nil {
		t.Error("--max-memory 0 still guards")
	}
	if g := newMemoryGuard(-1, &log, nil, nil); g != nil && (g.limit == 0 || !strings.Contains(g.what, "90% of")) {
		t.Errorf("default bound: %d bytes, %q", g.limit, g.what)
	}
	var f memoryFlag
	for _, bad := range []string{"-1", "x", "9223372036854775807"} {
		if f.Set(bad) == nil {
			t.Errorf("--max-memory %s accepted", bad)
		}
	}
	if f.megabytes() != -1 || f.Set("512") != nil || f.megabytes() != 512 {
		t.Errorf("memoryFlag: %+v", f)
	}
}
