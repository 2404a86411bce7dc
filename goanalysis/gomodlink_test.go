package goanalysis

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestSymlinkedGoMod checks a go.mod that is a symbolic link: the module is
// found and analyzed when the link leads to a regular file inside the root
// (as the go command, which follows it, loads it), and is one GL008 that
// says why not otherwise: a link out of the root (the same message whether
// or not its target exists), a dangling link, a loop, a link to a
// directory; a named pipe called go.mod is reported too. None of them
// vanishes.
func TestSymlinkedGoMod(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"go.mod": "module example.com/outside\n\ngo 1.26\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"shared/go.mod":    "module example.com/linked\n\ngo 1.26\n",
		"linked/l.go":      "package linked\n\nfunc badLinked() {}\n",
		"out/o.go":         "package o\n\nfunc badOut() {}\n",
		"outmissing/o.go":  "package o\n\nfunc badOutMissing() {}\n",
		"dangling/d.go":    "package d\n\nfunc badDangling() {}\n",
		"loop/l.go":        "package l\n\nfunc badLoop() {}\n",
		"todir/t.go":       "package t\n\nfunc badToDir() {}\n",
		"fifo/f.go":        "package f\n\nfunc badFifo() {}\n",
		"adir/keep.txt":    "",
		"regular/go.mod":   "module example.com/regular\n\ngo 1.26\n",
		"regular/r.go":     "package regular\n\nfunc badRegular() {}\n",
		"shared/s/keep.go": "package s\n",
	})
	symlink(t, "../shared/go.mod", filepath.Join(root, "linked/go.mod"))
	symlink(t, filepath.Join(outside, "go.mod"), filepath.Join(root, "out/go.mod"))
	symlink(t, filepath.Join(outside, "missing/go.mod"), filepath.Join(root, "outmissing/go.mod"))
	symlink(t, "../nothing/go.mod", filepath.Join(root, "dangling/go.mod"))
	symlink(t, "go.mod", filepath.Join(root, "loop/go.mod"))
	symlink(t, "../adir", filepath.Join(root, "todir/go.mod"))
	mkfifo(t, filepath.Join(root, "fifo/go.mod"))

	mods, err := Modules(root)
	if err != nil {
		t.Fatal(err)
	}
	wantMods := []string{"dangling", "fifo", "linked", "loop", "out", "outmissing", "regular", "shared", "todir"}
	if !slices.Equal(mods, wantMods) {
		t.Fatalf("Modules = %q, want %q", mods, wantMods)
	}
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.Code == testRule.Code {
			found[d.Path] = true
		}
	}
	for _, f := range []string{"linked/l.go", "regular/r.go"} {
		if !found[f] || !slices.Contains(res.Files, f) {
			t.Errorf("%s is not analyzed (findings at %v, files %q)", f, found, res.Files)
		}
	}
	if len(found) != 2 {
		t.Errorf("findings of the analyzer at %v, want linked/l.go and regular/r.go only", found)
	}
	got := loadErrorsByPath(res)
	want := map[string]string{
		"out/go.mod":        "Go module out is not loaded: out/go.mod is a symbolic link that leads out of the repository root",
		"outmissing/go.mod": "Go module outmissing is not loaded: outmissing/go.mod is a symbolic link that leads out of the repository root",
		"dangling/go.mod":   "Go module dangling is not loaded: dangling/go.mod is a symbolic link to a file that does not exist",
		"loop/go.mod":       "Go module loop is not loaded: loop/go.mod is a symbolic link in a loop of links",
		"todir/go.mod":      "Go module todir is not loaded: todir/go.mod is a symbolic link to a directory, not a regular file",
		"fifo/go.mod":       "Go module fifo is not loaded: fifo/go.mod is a named pipe (FIFO), not a regular file",
	}
	for p, msg := range want {
		if len(got[p]) != 1 || got[p][0] != msg {
			t.Errorf("%s: GL008 %q, want %q", p, got[p], msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("GL008 = %q", got)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, outside) {
			t.Errorf("a message names the outside directory: %s", d.Message)
		}
	}
}

// TestDanglingNestedGoMod checks that a directory whose go.mod is a
// dangling link is checked with the module that holds it: the go command
// (os.Stat of go.mod) does not see a module boundary there, so `./...` of
// the outer module loads its packages, and a link out of the root among
// their files must stop the outer module as it does anywhere else in it.
func TestDanglingNestedGoMod(t *testing.T) {
	outside := t.TempDir()
	const marker = "GYMLINT_OUTSIDE_MARKER_7f3e"
	writeFiles(t, outside, map[string]string{"secret.go": "package sub\n\nfunc badSecret() {} // " + marker + "\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":   "module example.com/outer\n\ngo 1.26\n",
		"o.go":     "package outer\n",
		"sub/s.go": "package sub\n",
	})
	symlink(t, "../gone/go.mod", filepath.Join(root, "sub/go.mod"))
	symlink(t, filepath.Join(outside, "secret.go"), filepath.Join(root, "sub/secret.go"))
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		if d.Code == testRule.Code || strings.Contains(d.Message, marker) {
			t.Errorf("a file outside the root was loaded: %s: %s", d.Path, d.Message)
		}
	}
	got := loadErrorsByPath(res)
	if m := got["sub/secret.go"]; len(m) != 1 || !strings.Contains(m[0], "Go module . is not loaded: sub/secret.go is a symbolic link") {
		t.Errorf("sub/secret.go: GL008 %q, want the outer module not loaded", m)
	}
	if m := got["sub/go.mod"]; len(m) != 1 || !strings.Contains(m[0], "is a symbolic link to a file that does not exist") {
		t.Errorf("sub/go.mod: GL008 %q", m)
	}
	if len(got) != 2 {
		t.Errorf("GL008 = %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "sub", "go.sum")); err == nil {
		t.Error("go.sum written")
	}
}
