package cli

import (
	"os"
	"runtime"
	"sync"
)

// A spare processor for the scheduler. A check's workers, one a CPU
// (--jobs, gym.Options.Jobs), spend most of their time in tree-sitter's
// parse, one cgo call a file. While every processor (P) of the Go
// scheduler is in such a call and none is idle, the runtime's monitor
// takes each call's P back after about 20 µs instead of 10 ms, wakes a
// thread to look for work for it, and keeps polling every 20 µs; when the
// call returns, its goroutine must win a P again, often on another thread
// and CPU. With one P more than the default (GOMAXPROCS, which Go sets
// from the CPUs the process may use), a P stays idle, and a call keeps its
// P: on the 2-CPU development machine a cold check of a 2,000-server
// repository made 85,000 context switches instead of 36,000 and 931
// migrations between CPUs instead of 165, and took about 5% more
// processor time and wall time (NeMo Gym alike, with both contracts). The workers' count
// is unchanged, so no more Go code runs at once than there are CPUs,
// besides the collector's.
//
// spareProc adds that P for a check and returns the count before it, the
// CPUs the process may use (the default count of workers), and the
// function that restores it; a GOMAXPROCS the user set is left alone.
// Checks that overlap in one process (tests call Main concurrently) share
// the one spare P, and the last to end restores the count. The language
// server, which lives on, keeps the runtime's count, which the runtime
// updates when the CPUs the process may use change.
func spareProc() (procs int, restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0), func() {}
	}
	spare.Lock()
	defer spare.Unlock()
	if spare.checks == 0 {
		spare.procs = runtime.GOMAXPROCS(0)
		runtime.GOMAXPROCS(spare.procs + 1)
	}
	spare.checks++
	return spare.procs, sync.OnceFunc(func() {
		spare.Lock()
		defer spare.Unlock()
		if spare.checks--; spare.checks == 0 {
			runtime.GOMAXPROCS(spare.procs)
		}
	})
}

// spare is the count of checks running with the spare P, and the
// processors before the first of them.
var spare struct {
	sync.Mutex
	checks, procs int
}
