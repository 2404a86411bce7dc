package lint

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gymlint/gymlint/bench/gen"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The benchmarks run on a generated repository of the real NeMo Gym
// repository's shape, scaled to 2,000 servers. BenchmarkParseAllPython is
// the baseline in the same run: tree-sitter parsing of every Python file of
// that repository, which is what a linter that parses everything pays.
// Compare BenchmarkFullScan to it as a ratio.

var (
	benchOnce sync.Once
	benchRoot string
	benchSum  gen.Summary
	benchErr  error
)

func benchRepo(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gymlint-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchRoot = dir
		benchSum, benchErr = gen.Generate(dir, gen.Options{Servers: 2000, Seed: 1})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchRoot
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

// BenchmarkFullScan is a whole gymlint scan: walk, every YAML file, the
// entrypoints and their ancestry, every rule.
func BenchmarkFullScan(b *testing.B) {
	root := benchRepo(b)
	b.ReportAllocs()
	b.ResetTimer()
	var parsed, entrypoints int
	for i := 0; i < b.N; i++ {
		res, err := Run(root, gym.Options{})
		if err != nil {
			b.Fatal(err)
		}
		parsed, entrypoints = res.View.ParsedModules(), len(res.View.Entrypoints)
	}
	b.ReportMetric(float64(parsed), "modules/op")
	b.ReportMetric(float64(entrypoints), "entrypoints/op")
}

// BenchmarkParseAllPython is the baseline: tree-sitter parses every .py file
// of the same repository, in parallel over all CPUs, building pyscan's model.
func BenchmarkParseAllPython(b *testing.B) {
	root := benchRepo(b)
	var files []string
	var total int64
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
			if st, err := d.Info(); err == nil {
				total += st.Size()
			}
		}
		return nil
	})
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		next := make(chan string)
		for j := 0; j < runtime.NumCPU(); j++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := pyscan.NewParser(pyscan.Options{})
				defer p.Close()
				for f := range next {
					src, err := os.ReadFile(f)
					if err != nil {
						b.Error(err)
						continue
					}
					p.Parse(f, src)
				}
			}()
		}
		for _, f := range files {
			next <- f
		}
		close(next)
		wg.Wait()
	}
	b.ReportMetric(float64(len(files)), "files/op")
}

// BenchmarkSessionOpen is what a language server pays when it opens the
// workspace: the first Update of a Session (every group analysed in a
// focused view of its own). Compare it with BenchmarkFullScan.
func BenchmarkSessionOpen(b *testing.B) {
	root := benchRepo(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := NewSession(root, gym.Options{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Update(nil)
		s.Close()
	}
}

// benchKeystrokes opens a session on the generated repository, analyses
// it, and times edits of one file: content alternates between the file's
// text and edit(text). pick chooses the file from the entrypoints.
func benchKeystrokes(b *testing.B, pick func([]gym.EntrypointInfo) string, edit func([]byte) []byte) (analysed, entrypoints int) {
	root := benchRepo(b)
	s, err := NewSession(root, gym.Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.Update(nil)
	eps := s.Cache().Entrypoints()
	target := pick(eps)
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
	if err != nil {
		b.Fatal(err)
	}
	edited := edit(src)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		content := src
		if i%2 == 0 {
			content = edited
		}
		s.Cache().SetOverlay(target, content)
		_, st := s.Update([]string{target})
		analysed = st.Analysed
	}
	return analysed, len(eps)
}

// BenchmarkSessionEdit is one keystroke in a server file of an open
// workspace: the buffer changes (a line is added before, then removed
// from, a class) and the session brings its diagnostics up to date. The
// baseline is BenchmarkSessionOpen: the same answer computed from scratch.
func BenchmarkSessionEdit(b *testing.B) {
	analysed, eps := benchKeystrokes(b, func(eps []gym.EntrypointInfo) string {
		for _, e := range eps {
			if strings.HasPrefix(e.Path, "resources_servers/") && len(e.Configs) > 0 {
				return e.Path
			}
		}
		return ""
	}, func(src []byte) []byte {
		return []byte(strings.Replace(string(src), "\nclass ", "\nEDITED = 1\n\nclass ", 1))
	})
	b.ReportMetric(float64(analysed), "entrypoints/op")
	b.ReportMetric(float64(eps), "workspace-entrypoints")
}

// BenchmarkSessionConfigEdit is one keystroke in a config that names a
// server: the entrypoint map is made again from the cached configs (the
// edited one parsed again) and the entrypoints it names are re-analysed.
func BenchmarkSessionConfigEdit(b *testing.B) {
	benchKeystrokes(b, func(eps []gym.EntrypointInfo) string {
		for _, e := range eps {
			if len(e.Configs) > 0 {
				return e.Configs[0]
			}
		}
		return ""
	}, func(src []byte) []byte {
		return append(append([]byte(nil), src...), "\n# edited\n"...)
	})
}
