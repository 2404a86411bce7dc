package workers

import (
	"sync"
	"testing"
)

// Every index is called once, on the number of goroutines asked (at most
// n), each naming itself by a w in range, and Each returns after the last.
func TestEach(t *testing.T) {
	for _, c := range []struct{ n, jobs, want int }{
		{0, 4, 0}, {1, 4, 1}, {10, 1, 1}, {10, 3, 3}, {3, 8, 3}, {100, 0, -1},
	} {
		var mu sync.Mutex
		calls := map[int]int{}
		ws := map[int]bool{}
		Each(c.n, c.jobs, func(w, i int) {
			mu.Lock()
			defer mu.Unlock()
			calls[i]++
			ws[w] = true
		})
		if len(calls) != c.n {
			t.Errorf("n=%d jobs=%d: %d indexes called", c.n, c.jobs, len(calls))
		}
		for i, k := range calls {
			if k != 1 || i < 0 || i >= c.n {
				t.Errorf("n=%d jobs=%d: index %d called %d times", c.n, c.jobs, i, k)
			}
		}
		for w := range ws {
			if w < 0 || c.want > 0 && w >= c.want {
				t.Errorf("n=%d jobs=%d: goroutine %d", c.n, c.jobs, w)
			}
		}
		if c.want > 0 && c.n >= c.want*10 && len(ws) > c.want {
			t.Errorf("n=%d jobs=%d: %d goroutines, want at most %d", c.n, c.jobs, len(ws), c.want)
		}
	}
}

// The calls of one goroutine come one after another, in increasing i, so
// that state of its own needs no lock.
func TestEachPerWorkerOrder(t *testing.T) {
	last := make([]int, 4)
	for w := range last {
		last[w] = -1
	}
	Each(1000, 4, func(w, i int) {
		if i <= last[w] {
			t.Errorf("goroutine %d: %d after %d", w, i, last[w])
		}
		last[w] = i
	})
}
