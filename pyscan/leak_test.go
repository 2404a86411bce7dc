package pyscan

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// rss returns the resident set size of this process in bytes, or -1.
func rss() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}

// TestNoCLeak parses the same files many times and checks that the
// process does not grow: tree-sitter's trees, cursors and parsers live in
// C memory that only Close releases, and the Go binding has no finalizers.
// A leaked tree of the 40 KB module below is about a megabyte.
func TestNoCLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	before := rss()
	if before < 0 {
		t.Skip("no /proc/self/statm")
	}
	srcs := [][]byte{
		gymModule(40 << 10),
		[]byte("def f(:\n    x = (1,\nclass A(B):\n    pass\n" + strings.Repeat("y = [1, 2\n", 200)),
	}
	run := func(n int) {
		for i := 0; i < n; i++ {
			p := NewParser(Options{})
			for _, src := range srcs {
				p.Parse("m.py", src)
			}
			// Incremental parses keep a tree between versions.
			_, prev := p.ParseIncremental("m.py", srcs[0], nil)
			_, prev = p.ParseIncremental("m.py", append(srcs[0][:len(srcs[0]):len(srcs[0])], "x = 1\n"...), prev)
			prev.Close()
			p.Close()
		}
		runtime.GC()
		debug.FreeOSMemory()
	}
	run(20) // warm up allocator pools
	before = rss()
	run(150)
	after := rss()
	t.Logf("RSS %d MB -> %d MB", before>>20, after>>20)
	if grown := after - before; grown > 48<<20 {
		t.Errorf("RSS grew by %d MB over 150 parses: C memory is leaking", grown>>20)
	}
}

// TestFlattenNoLeak checks that flatten frees the C memory it takes: the
// cursor of its walk in C grows a stack as deep as the tree, about 20 KB
// for the tree below, so 30,000 copies would leak some 600 MB.
func TestFlattenNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if rss() < 0 {
		t.Skip("no /proc/self/statm")
	}
	src := []byte("x = " + strings.Repeat("(", 190) + "1" + strings.Repeat(")", 190) + "\n")
	p := NewParser(Options{})
	defer p.Close()
	tree, _ := p.parseTree(src, nil, nil)
	defer tree.Close()
	if tree.RootNode().HasError() {
		t.Fatal("the source does not parse")
	}
	buf := flatten(tree.RootNode(), nil)
	want := len(buf)
	run := func(n int) {
		for i := 0; i < n; i++ {
			if got := len(flatten(tree.RootNode(), buf)); got != want {
				t.Fatalf("%d nodes, want %d", got, want)
			}
		}
		runtime.GC()
		debug.FreeOSMemory()
	}
	run(1000)
	before := rss()
	run(30000)
	after := rss()
	t.Logf("RSS %d MB -> %d MB", before>>20, after>>20)
	if grown := after - before; grown > 64<<20 {
		t.Errorf("RSS grew by %d MB over 30,000 copies: flatten leaks", grown>>20)
	}
}
