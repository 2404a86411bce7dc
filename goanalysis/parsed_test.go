package goanalysis

import (
	"crypto/sha256"
	"path/filepath"
	"testing"

	"github.com/gymlint/gymlint/internal/diskcache"
	"golang.org/x/tools/go/analysis"
)

// TestParsedSum: the Result knows the SHA-256 of each Go file of the root
// as the analyzers parsed it (the bytes their fixes' offsets are into), an
// editor's buffer when one is overlaid, with and without the type cache;
// a file parsed twice with different contents is varied.
func TestParsedSum(t *testing.T) {
	const src = "package p\n\nfunc badP() {}\n"
	const buffer = "package p\n\n// edited\nfunc badQ() {}\n"
	for _, cached := range []bool{false, true} {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"go.mod": "module example.com/p\n\ngo 1.26\n", "p.go": src, "q.go": "package p\n"})
		cfg := Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv,
			Overlay: map[string][]byte{"q.go": []byte(buffer)}}
		if cached {
			c, err := diskcache.Open(t.TempDir(), diskcache.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Cache = c
		}
		res, err := Run(root, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Diagnostics) != 2 {
			t.Fatalf("cached %v: %+v", cached, res.Diagnostics)
		}
		for p, want := range map[string]string{"p.go": src, "q.go": buffer} {
			if sum, parsed, varied := res.ParsedSum(p); !parsed || varied || sum != sha256.Sum256([]byte(want)) {
				t.Errorf("cached %v: ParsedSum(%s) = %x %v %v, want the sum of %q", cached, p, sum, parsed, varied, want)
			}
		}
		if _, parsed, _ := res.ParsedSum("go.mod"); parsed {
			t.Errorf("cached %v: go.mod parsed", cached)
		}
	}

	rt, err := newRooted(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &converter{root: rt}
	c.noteParsed(filepath.Join(rt.abs, "a.go"), []byte("package a\n"))
	c.noteParsed(filepath.Join(rt.abs, "a.go"), []byte("package a\n"))
	c.noteParsed(filepath.Join(rt.abs, "b.go"), []byte("package b\n"))
	c.noteParsed(filepath.Join(rt.abs, "b.go"), []byte("// changed\npackage b\n"))
	c.noteParsed(filepath.Join(t.TempDir(), "outside.go"), []byte("package o\n"))
	res := &Result{parsed: c.parsed.m}
	if _, parsed, varied := res.ParsedSum("a.go"); !parsed || varied {
		t.Errorf("a.go parsed twice alike: parsed %v varied %v", parsed, varied)
	}
	if _, parsed, varied := res.ParsedSum("b.go"); !parsed || !varied {
		t.Errorf("b.go parsed twice unlike: parsed %v varied %v", parsed, varied)
	}
	if len(res.parsed) != 2 {
		t.Errorf("%d files noted, want a.go and b.go (not a file outside the root)", len(res.parsed))
	}
}
