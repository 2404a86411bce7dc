package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/testtree"
)

// TestScanSymlinkedGoMod checks that a scan takes the Go modules whose
// go.mod is a symbolic link from its walk: one whose link leads to a
// regular file inside the root is analyzed (its type error is reported),
// one whose link leads out of the root is a GL008 that says so. Neither
// vanishes.
func TestScanSymlinkedGoMod(t *testing.T) {
	outside := t.TempDir()
	testtree.Write(t, outside, map[string]string{"go.mod": "module example.com/outside\n\ngo 1.22\n"})
	root := testtree.New(t, map[string]string{
		"shared/go.mod": "module example.com/svc\n\ngo 1.22\n",
		"svc/main.go":   "package main\n\nfunc main() { var x int = \"s\"; _ = x }\n",
		"out/o.go":      "package o\n",
	})
	for link, target := range map[string]string{
		"svc/go.mod": "../shared/go.mod",
		"out/go.mod": filepath.Join(outside, "go.mod"),
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Skipf("symlink: %v", err)
		}
	}
	res := scan(t, Options{Root: root})
	got := map[string]string{}
	for _, d := range res.Diagnostics {
		if d.Code == core.GoLoadError.Code {
			got[d.Path] = d.Message
		}
	}
	if m := got["svc/main.go"]; !strings.Contains(m, "Go package example.com/svc does not type-check") {
		t.Errorf("svc/main.go: %q, want the module behind the link analyzed (findings %q)", m, keys(res.Diagnostics))
	}
	if m := got["out/go.mod"]; m != "Go module out is not loaded: out/go.mod is a symbolic link that leads out of the repository root" {
		t.Errorf("out/go.mod: %q (findings %q)", m, keys(res.Diagnostics))
	}
	if res.Go == nil || !slices.Contains(res.Go.Modules, "svc") {
		t.Errorf("modules checked: %+v", res.Go)
	}
}
