package pyscan

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fixtureSources returns the Python files of the repository's fixtures.
func fixtureSources(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	_ = filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			if b, err := os.ReadFile(p); err == nil {
				out[p] = b
			}
		}
		return nil
	})
	if len(out) < 50 {
		t.Fatalf("only %d fixture modules", len(out))
	}
	return out
}

// TestParseIncrementalMatchesParse edits every fixture module many times
// as an editor does (characters typed and deleted, lines pasted and cut,
// syntax broken and mended) and checks that the module built from each
// incremental parse is identical to the one a fresh parse of the same text
// builds.
func TestParseIncrementalMatchesParse(t *testing.T) {
	inc, fresh := NewParser(Options{}), NewParser(Options{})
	defer inc.Close()
	defer fresh.Close()
	seed := int64(1)
	if v, err := strconv.ParseInt(os.Getenv("PYSCAN_INC_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewSource(seed))
	snippets := []string{"x", "(", ")", ":", "\n", "    ", "def f(self):\n        return 1\n", "class A(B):\n    pass\n",
		"\"\"\"", "'", "#", "app = S.run_webserver()\n", "é😀", "\t", "\\\n", "if __name__ == \"__main__\":\n    S.run_webserver()\n",
		"*", ",", "^ y & ", "with (a as b):\n    pass\n", "  # c\n", "\r\n", "f\"{x=}\"", "[*f(x)]", "(a) = 1\n", "a, b\n"}
	edits := 0
	sources := fixtureSources(t)
	paths := make([]string, 0, len(sources))
	for p := range sources {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		text := append([]byte(nil), sources[path]...)
		var prev *Retained
		for i := 0; i < 12; i++ {
			at := rng.Intn(len(text) + 1)
			switch rng.Intn(3) {
			case 0: // type
				s := snippets[rng.Intn(len(snippets))]
				text = append(text[:at:at], append([]byte(s), text[at:]...)...)
			case 1: // delete
				end := min(len(text), at+rng.Intn(40))
				text = append(text[:at:at], text[end:]...)
			case 2: // move a block
				end := min(len(text), at+rng.Intn(200))
				block := append([]byte(nil), text[at:end]...)
				text = append(text[:at:at], text[end:]...)
				to := rng.Intn(len(text) + 1)
				text = append(text[:to:to], append(block, text[to:]...)...)
			}
			var m *Module
			m, prev = inc.ParseIncremental(path, text, prev)
			want := fresh.Parse(path, text)
			if !reflect.DeepEqual(m, want) {
				t.Fatalf("%s, edit %d: the incremental parse's module differs from a fresh parse's (syntax error: %v / %v)\n%s", path, i, m.SyntaxError, want.SyntaxError, text)
			}
			if i%4 == 0 {
				checkInvariants(t, m, text)
			}
			edits++
		}
		prev.Close()
	}
	t.Logf("%d edits compared", edits)
}

// BenchmarkParseIncremental is one keystroke in a large module (about
// 170 KB, the size of the real repository's largest): the incremental
// parse against the baseline of parsing it from scratch.
func BenchmarkParseIncremental(b *testing.B) {
	var big []byte
	check := NewParser(Options{})
	defer check.Close()
	sources := fixtureSources(b)
	paths := make([]string, 0, len(sources))
	for p := range sources {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for len(big) < 170<<10 {
		for _, p := range paths {
			// Only modules that parse: a broken file is parsed afresh.
			if len(big) < 170<<10 && check.Parse(p, sources[p]).SyntaxError == nil {
				big = append(big, sources[p]...)
				big = append(big, '\n')
			}
		}
	}
	if m := check.Parse("big.py", big); m.SyntaxError != nil {
		b.Fatalf("the benchmark module does not parse: %v", m.SyntaxError)
	}
	mid := len(big)/2 + bytes.IndexByte(big[len(big)/2:], '\n') + 1 // a line start
	edited := append(append([]byte(nil), big[:mid]...), append([]byte("x = 1\n"), big[mid:]...)...)
	if m := check.Parse("big.py", edited); m.SyntaxError != nil {
		b.Fatalf("the edited benchmark module does not parse: %v", m.SyntaxError)
	}
	b.Run("fresh", func(b *testing.B) {
		p := NewParser(Options{})
		defer p.Close()
		b.SetBytes(int64(len(big)))
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				p.Parse("big.py", edited)
			} else {
				p.Parse("big.py", big)
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		p := NewParser(Options{})
		defer p.Close()
		_, prev := p.ParseIncremental("big.py", big, nil)
		b.SetBytes(int64(len(big)))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			src := big
			if i%2 == 0 {
				src = edited
			}
			_, prev = p.ParseIncremental("big.py", src, prev)
		}
		prev.Close()
	})
}

// FuzzParseIncremental parses a, then b incrementally from a's tree, and
// checks that b's module is the one a fresh parse builds.
func FuzzParseIncremental(f *testing.F) {
	f.Add([]byte("class A(B):\n    pass\n"), []byte("class A(B, C):\n    pass\n"))
	f.Add([]byte("if x:\n    y = 1\n"), []byte("if x:\n    y = (1\n"))
	f.Add([]byte("s = '''\n'''\n"), []byte("s = '''\n"))
	f.Add([]byte(""), []byte("def f():\n\treturn 1\n"))
	f.Add([]byte("if a:\n    x = 1\n"), []byte("if a:\n    x = 1  # noqa\n"))
	f.Add([]byte("y = a ^ b\n"), []byte("y = a ^ b & c\n"))
	// Each seed source against itself with a line cut out.
	for _, s := range seedSources() {
		cut := s
		if i := strings.IndexByte(s, '\n'); i >= 0 && i+1 < len(s) {
			j := strings.IndexByte(s[i+1:], '\n')
			if j >= 0 {
				cut = s[:i+1] + s[i+1+j+1:]
			}
		}
		f.Add([]byte(s), []byte(cut))
	}
	inc, fresh := NewParser(Options{}), NewParser(Options{})
	defer inc.Close()
	defer fresh.Close()
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_, prev := inc.ParseIncremental("m.py", a, nil)
		m, next := inc.ParseIncremental("m.py", b, prev)
		next.Close()
		if want := fresh.Parse("m.py", b); !reflect.DeepEqual(m, want) {
			t.Fatalf("incremental parse of %q after %q differs from a fresh parse", b, a)
		}
		checkInvariants(t, m, b)
	})
}
