package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// TestAnalysedSums: Result.Analysed knows a file's content from any of
// what the scan read of it (the Python side's reads, a warm scan's stamps
// for findings taken from the cache, the Go analyzers' parse), and from
// none when two of them differ or one read it twice unlike: the file
// changed during the scan, and its fixes are not applied.
func TestAnalysedSums(t *testing.T) {
	root := writeTree(t, map[string]string{"read.py": "a = 1\n", "varied.py": "b = 1\n", "both.py": "c = 1\n", "mixed.py": "d = 1\n"})
	fsys, err := repofs.New(root, repofs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fsys.KeepSums()
	for _, p := range []string{"read.py", "varied.py", "both.py", "mixed.py"} {
		fsys.Read(p)
	}
	if err := os.WriteFile(filepath.Join(root, "varied.py"), []byte("b = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys.Read("varied.py")
	sum := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	hexSum := func(s string) string { h := sum(s); return hex.EncodeToString(h[:]) }
	h := newHashes(fsys, root, nil)
	h.memo["stamped.py"] = stamp{Hash: hexSum("e = 1\n")}
	h.memo["both.py"] = stamp{Hash: hexSum("c = 1\n")}
	h.memo["mixed.py"] = stamp{Hash: hexSum("d = 0\n")}
	h.memo["absent.py"] = stamp{Hash: absent}
	h.memo["dir/"] = stamp{Hash: "dir:0123"}
	goSums := func(p string) ([sha256.Size]byte, bool, bool) {
		switch p {
		case "main.go":
			return sum("package main\n"), true, false
		case "edited.go":
			return sum("package x\n"), true, true
		}
		return [sha256.Size]byte{}, false, false
	}
	analysed := analysedSums(fsys, h, goSums)
	for p, want := range map[string]string{"read.py": "a = 1\n", "./both.py": "c = 1\n", "stamped.py": "e = 1\n", "main.go": "package main\n"} {
		if got, ok := analysed(p); !ok || got != sum(want) {
			t.Errorf("Analysed(%s) = %x, %v; want the sum of %q", p, got, ok, want)
		}
	}
	for _, p := range []string{"varied.py", "mixed.py", "edited.go", "absent.py", "dir/", "never.py", "../out.py"} {
		if got, ok := analysed(p); ok {
			t.Errorf("Analysed(%s) = %x, want none", p, got)
		}
	}
	if _, ok := (&Result{}).Analysed("read.py"); ok {
		t.Error("a Result without a scan knows a file")
	}
}
