package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// The scan of a repository cold (no cache), warm (nothing changed) and
// after one server file changed, in the same run: report them as ratios
// of the cold scan. GYMLINT_BENCH_REPO=DIR benchmarks a copy of DIR
// instead of testdata/gymrepo. The scans count fixes only, as the command
// line's default text output does (Options.FixesCounted).
func BenchmarkScanCache(b *testing.B) {
	name := "gymrepo"
	if d := os.Getenv("GYMLINT_BENCH_REPO"); d != "" {
		name = d
	}
	root := benchCopy(b, name)
	// Past the racy second of the copy's change times (benchCopy sets
	// back the modification times; no one can set back a change time).
	time.Sleep(1100 * time.Millisecond)
	cache, err := diskcache.Open(b.TempDir(), diskcache.Options{})
	if err != nil {
		b.Fatal(err)
	}
	scan := func(b *testing.B, c *diskcache.Cache) *Result {
		e, err := New(Options{Root: root, NoGo: true, Cache: c, FixesCounted: true})
		if err != nil {
			b.Fatal(err)
		}
		res, err := e.Scan(nil)
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	first := scan(b, cache)
	edit := ""
	for _, d := range []string{"resources_servers"} {
		if m, _ := filepath.Glob(filepath.Join(root, d, "*", "app.py")); len(m) > 0 {
			edit = m[0]
		}
	}
	if edit == "" || first.Entrypoints == 0 {
		b.Skip("no server file to edit")
	}
	time.Sleep(1100 * time.Millisecond) // past the racy second
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			scan(b, nil)
		}
	})
	b.Run("warm", func(b *testing.B) {
		for range b.N {
			scan(b, cache)
		}
	})
	b.Run("edit", func(b *testing.B) {
		analysed := 0
		for i := range b.N {
			f, err := os.OpenFile(edit, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(f, "# edit %d\n", i)
			f.Close()
			analysed += scan(b, cache).Cache.AnalysedEntrypoints
		}
		b.ReportMetric(float64(analysed)/float64(b.N), "entrypoints-analysed/op")
	})
}

// benchCopy copies testdata/NAME (or the directory NAME) for a benchmark,
// dated an hour back.
func benchCopy(b *testing.B, name string) string {
	src := filepath.Join("..", "testdata", name)
	if filepath.IsAbs(name) {
		src = name
	}
	dst := filepath.Join(b.TempDir(), filepath.Base(name))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	then := time.Now().Add(-time.Hour)
	filepath.Walk(dst, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			os.Chtimes(p, then, then)
		}
		return nil
	})
	return dst
}
