package repofs_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// walkBenchDir is BENCH_WALK_DIR (a real repository to measure on), else
// a generated tree shaped like a Gym repository: 1,000 server folders with
// an app.py, two configs and a data folder, a root .gitignore of 240
// patterns (the size of NeMo Gym's) and a nested .gitignore in every
// tenth server folder.
func walkBenchDir(b *testing.B) string {
	if d := os.Getenv("BENCH_WALK_DIR"); d != "" {
		return d
	}
	var ign strings.Builder
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&ign, "artifact%d/\n*.ext%d\n/top%d.yaml\n", i, i, i)
	}
	files := map[string]string{".gitignore": ign.String()}
	for i := 0; i < 1000; i++ {
		dir := fmt.Sprintf("resources_servers/s%d", i)
		files[dir+"/app.py"] = "x = 1\n"
		files[dir+"/configs/a.yaml"] = "a: 1\n"
		files[dir+"/configs/b.yaml"] = "b: 1\n"
		files[dir+"/data/rows.jsonl"] = "{}\n"
		if i%10 == 0 {
			files[dir+"/.gitignore"] = "data/\n*.local.yaml\n!keep.local.yaml\n"
		}
	}
	dir := b.TempDir()
	writeTree(&testing.T{}, dir, files)
	return dir
}

func BenchmarkWalk(b *testing.B) {
	dir := walkBenchDir(b)
	for _, c := range []struct {
		name string
		opts repofs.Options
	}{
		{"plain", repofs.Options{}},
		{"gitignore", repofs.Options{Gitignore: true}},
		{"gitignore+exclude", repofs.Options{Gitignore: true, Exclude: []string{"output", "**/scratch", "benchmarks/**"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var n int
			for i := 0; i < b.N; i++ {
				f, err := repofs.New(dir, c.opts)
				if err != nil {
					b.Fatal(err)
				}
				l := f.Walk()
				n = len(l.YAML) + len(l.AppPy)
			}
			b.ReportMetric(float64(n), "files")
		})
	}
}
