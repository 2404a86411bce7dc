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
