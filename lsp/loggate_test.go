package lsp

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// The log gate writes whole messages from several goroutines, and none
// once it is closed.
func TestLogGate(t *testing.T) {
	var buf bytes.Buffer
	g := &logGate{w: &buf}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				g.Write([]byte(strings.Repeat(string(rune('a'+i)), 10) + "\n"))
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 800 {
		t.Fatalf("%d lines, want 800", len(lines))
	}
	for _, l := range lines {
		if len(l) != 10 || strings.Count(l, l[:1]) != 10 {
			t.Fatalf("a message interleaved with another: %q", l)
		}
	}
	g.close()
	if n, err := g.Write([]byte("late\n")); n != 5 || err != nil {
		t.Errorf("a write after close: %d, %v", n, err)
	}
	if strings.Contains(buf.String(), "late") {
		t.Error("a write after close reached the writer")
	}
}
