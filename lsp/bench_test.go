package lsp

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/bench/gen"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/lsp/protocol"
)

// BenchmarkDidChangeToPublish measures what an author waits for after a
// keystroke: the time from a textDocument/didChange of one server file to
// the textDocument/publishDiagnostics for its new version, through the
// server's pipes, on a generated workspace of the real NeMo Gym
// repository's shape scaled to 2,000 servers (GYMLINT_BENCH_REPO names an
// existing one instead). The edit alternates between adding and removing a
// line in the server module. The baseline, measured in the same run, is one
// batch scan of the workspace (lint.Run): what a server that re-checked
// everything on each keystroke would make the author wait.
func BenchmarkDidChangeToPublish(b *testing.B) {
	root := os.Getenv("GYMLINT_BENCH_REPO")
	if root == "" {
		root = b.TempDir()
		if _, err := gen.Generate(root, gen.Options{Servers: 2000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	t0 := time.Now()
	res, err := lint.Run(root, gym.Options{})
	if err != nil {
		b.Fatal(err)
	}
	full := time.Since(t0)
	target := ""
	for _, e := range res.View.Entrypoints {
		if strings.HasPrefix(e.Path, "resources_servers/") && len(e.Configs) > 0 && len(e.Servers) > 0 {
			target = e.Path
			break
		}
	}
	if target == "" {
		b.Fatal("no resources server in the workspace")
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
	if err != nil {
		b.Fatal(err)
	}
	edited := strings.Replace(string(src), "\nclass ", "\nEDITED = 1\n\nclass ", 1)

	c := startServer(b, root, Options{NoGo: true, Log: io.Discard})
	c.initialize("utf-16")
	t1 := time.Now()
	c.open(target, string(src))
	// The buffer's first publication comes after the workspace's first
	// analysis.
	waitVersion(b, c, target, 1)
	open := time.Since(t1)

	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		text := string(src)
		if i%2 == 0 {
			text = edited
		}
		v := int32(i + 2)
		start := time.Now()
		c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(target), Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
		})
		waitVersion(b, c, target, v)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	p50, p95 := lat[len(lat)/2], lat[len(lat)*95/100]
	b.ReportMetric(ms(p50), "p50-ms")
	b.ReportMetric(ms(p95), "p95-ms")
	b.ReportMetric(ms(full), "fullscan-ms")
	b.ReportMetric(ms(p50)/ms(full), "p50/fullscan")
	b.ReportMetric(ms(open), "open-ms")
	b.ReportMetric(float64(len(res.View.Entrypoints)), "entrypoints")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// waitVersion waits for the publication of rel's diagnostics for version v.
func waitVersion(tb testing.TB, c *client, rel string, v int32) {
	tb.Helper()
	uri := c.uri(rel)
	deadline := time.After(5 * time.Minute)
	for {
		select {
		case m, ok := <-c.notes:
			if !ok {
				tb.Fatal("the server ended")
			}
			if m.Method != protocol.MethodPublishDiagnostics {
				continue
			}
			var p protocol.PublishDiagnosticsParams
			if err := jsonUnmarshal(m.Params, &p); err != nil {
				tb.Fatal(err)
			}
			if p.URI == uri && p.Version != nil && *p.Version == v {
				return
			}
		case <-deadline:
			tb.Fatalf("no publication of %s version %d", rel, v)
		}
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
