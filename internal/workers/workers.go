// Package workers runs the calls of a loop on several goroutines: the one
// worker pool of the parsers, the groups' analyses and the per-file passes.
package workers

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Count is how many goroutines Each runs for n calls and jobs: min(jobs,
// n), jobs < 1 meaning runtime.GOMAXPROCS.
func Count(n, jobs int) int {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	return min(jobs, n)
}

// Each calls fn(w, i) for every i from 0 to n-1 on min(jobs, n) goroutines
// (jobs < 1: runtime.GOMAXPROCS), and returns once every call has. w, from
// 0 to that count less one, names the goroutine a call runs on, for state
// of its own (a parser); the calls on one goroutine are made one after
// another, in increasing i. With one goroutine the calls are made on the
// caller's.
func Each(n, jobs int, fn func(w, i int)) {
	jobs = Count(n, jobs)
	if jobs <= 1 {
		for i := range n {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(w, i)
			}
		}()
	}
	wg.Wait()
}
