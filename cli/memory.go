package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// The memory bound (--max-memory). A scan's memory grows with the
// repository (about ten times its Python source), and a repository is
// untrusted input: a check of a huge or hostile one should end with a
// clear error, not with the kernel's OOM killer. The bound defaults to 90%
// of what the process may use (its cgroup's memory.max, else the machine's
// memory); --max-memory sets it, 0 turns it off.

// memoryFraction is the share of the available memory the default bound
// allows.
const memoryFraction = 0.9

// memoryPoll is how often the watchdog reads the process's memory.
const memoryPoll = 50 * time.Millisecond

// memoryGuard watches a process's resident memory.
type memoryGuard struct {
	limit  uint64         // bytes
	what   string         // how the limit was chosen, for the message
	read   func() uint64  // resident bytes now
	exit   func(code int) // ends the process
	stderr io.Writer
	done   chan struct{}
}

// startMemoryGuard enforces a bound of limitMB megabytes (-1: the default,
// 0: none): the Go runtime's soft memory limit is set to it, so the
// collector works harder before it is reached, and a watchdog that reads
// the resident memory (the Go heap and tree-sitter's C memory alike) ends
// gymlint with exit status 2 and a message saying so when it is crossed.
// It returns the function that stops the watchdog.
func startMemoryGuard(limitMB int64, stderr io.Writer) (stop func()) {
	g := newMemoryGuard(limitMB, stderr, residentBytes, os.Exit)
	if g == nil {
		return func() {}
	}
	debug.SetMemoryLimit(int64(min(g.limit, math.MaxInt64)))
	go g.watch()
	return func() { close(g.done) }
}

func newMemoryGuard(limitMB int64, stderr io.Writer, read func() uint64, exit func(int)) *memoryGuard {
	g := &memoryGuard{read: read, exit: exit, stderr: stderr, done: make(chan struct{})}
	switch {
	case limitMB == 0:
		return nil
	case limitMB > 0:
		g.limit, g.what = uint64(limitMB)<<20, "--max-memory"
	default:
		avail, where := availableMemory()
		if avail == 0 {
			return nil
		}
		g.limit = uint64(float64(avail) * memoryFraction)
		g.what = fmt.Sprintf("90%% of %s (%d MB); set another bound with --max-memory", where, avail>>20)
	}
	return g
}

func (g *memoryGuard) watch() {
	t := time.NewTicker(memoryPoll)
	defer t.Stop()
	for {
		select {
		case <-g.done:
			return
		case <-t.C:
			if g.over() {
				return
			}
		}
	}
}

// The heap's pace. At the collector's default pace (GOGC=100) the heap
// grows to twice what is live before a collection: a scan whose live heap
// is a few hundred megabytes (a repository of thousands of servers) takes
// twice that. Once the live heap is past largeHeap, the guard sets the
// pace to largeGOGC, so that a large scan collects sooner, at some cost
// in processor time, while a small one keeps the default pace. On a
// 2,000-server repository (bench/genrepo) the default pace peaked at 309
// MB; 60 peaks at about 268 MB for 3 to 5% more time, and 45 saved
// another 10 MB for another 3%. A GOGC that the user set is left alone.
//
// A check, which ends when its scan does, starts at smallGOGC instead,
// until the live heap passes smallHeap: most of a scan's memory is what
// it keeps (models, configs) and tree-sitter's C memory, and at the
// default pace a check of NeMo Gym (a live heap of 13 MB at most)
// collected 15 times, for 6-8% of its processor time; at smallGOGC it
// collects 3 times, and takes about 6% less time (88 MB peak resident
// memory instead of 55). The heap grows to five times what is live, about
// 80 MB at most, before the pace falls back to the default (the pacer
// reads the live heap every memoryPoll). The language server, which lives
// on, keeps the default pace.
const (
	largeHeap = 96 << 20
	largeGOGC = 60
	smallHeap = 16 << 20
	smallGOGC = 400
)

// startPacer sets the collector's pace from the live heap, every
// memoryPoll, until the returned function is called; it does nothing when
// the user set GOGC. With check set (a check, not the language server), a
// small heap is paced at smallGOGC.
func startPacer(check bool) (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	percent := gcPercent(0, check)
	if percent != 100 {
		debug.SetGCPercent(percent)
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(memoryPoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if next := gcPercent(liveHeap(), check); next != percent {
					percent = next
					debug.SetGCPercent(percent)
				}
			}
		}
	}()
	return func() { close(done) }
}

// gcPercent is the collector's pace for a live heap of live bytes, in a
// check or (check false) in the language server.
func gcPercent(live uint64, check bool) int {
	switch {
	case live > largeHeap:
		return largeGOGC
	case check && live <= smallHeap:
		return smallGOGC
	}
	return 100
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	return 0
}

// over ends the process when the memory is over the bound.
func (g *memoryGuard) over() bool {
	used := g.read()
	if used <= g.limit {
		return false
	}
	fmt.Fprintf(g.stderr, "gymlint: memory limit reached: %d MB in use, over the bound of %d MB (%s); the check was stopped and reports nothing: check a smaller part of the repository, or allow more memory\n",
		used>>20, g.limit>>20, g.what)
	g.exit(ExitError)
	return true
}

// residentBytes is the process's resident memory: /proc/self/statm on
// Linux, else the Go runtime's own total (which misses C memory).
func residentBytes() uint64 {
	if data, err := os.ReadFile("/proc/self/statm"); err == nil {
		f := strings.Fields(string(data))
		if len(f) > 1 {
			if pages, err := strconv.ParseUint(f[1], 10, 64); err == nil {
				return pages * uint64(os.Getpagesize())
			}
		}
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	return 0
}

// availableMemory is what the process may use: its cgroup's memory.max
// when that is set, else the machine's MemTotal; 0 when neither is known.
func availableMemory() (uint64, string) {
	if data, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64); err == nil && n > 0 {
			return n, "the cgroup's memory.max"
		}
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10, "the machine's memory"
			}
		}
	}
	return 0, ""
}

// memoryFlag is --max-memory's value: megabytes, 0 for no bound, unset for
// the default bound.
type memoryFlag struct {
	mb  int64
	set bool
}

func (m *memoryFlag) String() string {
	if m == nil || !m.set {
		return ""
	}
	return strconv.FormatInt(m.mb, 10)
}

func (m *memoryFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > 1<<40 {
		return fmt.Errorf("want a number of megabytes from 0 (no bound) to %d", int64(1)<<40)
	}
	m.mb, m.set = n, true
	return nil
}

// megabytes is the bound startMemoryGuard takes: -1 for the default.
func (m *memoryFlag) megabytes() int64 {
	if !m.set {
		return -1
	}
	return m.mb
}
