package gym

import (
	"sync"
	"sync/atomic"

	"github.com/gymlint/gymlint/configscan"
)

// The memory of the parses in flight. A parse takes memory in
// proportion to the file (tree-sitter's tree and stack, in C, and the
// model built from them: about 120 bytes a byte of source, 500 MB for a
// 4 MB module), so --jobs parses of large files at once took --jobs times
// that (eight 4 MB entrypoints: 2.4 GB with --jobs 2, 6.2 GB with
// --jobs 8). A cache lets parses start only while the memory they are
// expected to take together stays within parseMemoryBound: many small
// modules parse side by side as before, large ones one after another. The
// parses of configs share the bound, by the values they may hold.
const (
	// parseBytesPerByte is the memory a parse is expected to take, per
	// byte of source.
	parseBytesPerByte = 128
	// parseMemoryBound bounds the expected memory of the parses in flight
	// (3 MB of source). A file that alone would exceed it parses alone.
	parseMemoryBound = 384 << 20
)

// yamlBytesPerValue is the memory a YAML parse takes per value: yaml.v3's
// node and the resolved one (configscan.EstimateValues).
const yamlBytesPerValue = 340

// yamlWeight is the memory that the parse of a config of est values
// (configscan.EstimateValues) is expected to take, at most bound; 0 for
// one that configscan will not parse (configscan.DefaultMaxValues).
func yamlWeight(est int64, bound int64) int64 {
	if est > configscan.DefaultMaxValues {
		return 0
	}
	return min(est*yamlBytesPerValue, bound)
}

// parseWeight is the memory that a parse of size bytes is expected to take,
// at most bound (it then runs alone).
func parseWeight(size int, bound int64) int64 {
	return min(int64(max(size, 1))*parseBytesPerByte, bound)
}

// weighted is a semaphore of a capacity that acquirers take parts of, in
// the order they ask (a large request is not starved by small ones).
type weighted struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters []*waiter
	// held counts the weight of the parses between acquire and release,
	// and peak the most it has been (for tests).
	held, peak atomic.Int64
}

type waiter struct {
	n     int64
	ready chan struct{}
}

func newWeighted(size int64) *weighted { return &weighted{size: size} }

// acquire waits until n (at most the capacity) is free and takes it.
func (w *weighted) acquire(n int64) {
	w.mu.Lock()
	if len(w.waiters) == 0 && w.used+n <= w.size {
		w.used += n
		w.mu.Unlock()
		w.note(n)
		return
	}
	wt := &waiter{n: n, ready: make(chan struct{})}
	w.waiters = append(w.waiters, wt)
	w.mu.Unlock()
	<-wt.ready
	w.note(n)
}

// note counts n as held, keeping the peak.
func (w *weighted) note(n int64) {
	h := w.held.Add(n)
	for {
		p := w.peak.Load()
		if h <= p || w.peak.CompareAndSwap(p, h) {
			return
		}
	}
}

// release gives back n and wakes the waiters, in order, that now fit.
func (w *weighted) release(n int64) {
	w.held.Add(-n)
	w.mu.Lock()
	w.used -= n
	for len(w.waiters) > 0 {
		wt := w.waiters[0]
		if w.used+wt.n > w.size {
			break
		}
		w.used += wt.n
		w.waiters = w.waiters[1:]
		close(wt.ready)
	}
	w.mu.Unlock()
}

// waiting is the number of acquirers waiting (for tests).
func (w *weighted) waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.waiters)
}

// parseHook, when set (by tests), is called by every parse while it holds
// its share of the parse memory.
var parseHook func(c *Cache, p string)
