package facts

import "sync"

// memo keeps one answer per key for the facts that rules ask about again
// and again (a function's calls, reach, locals...). The answer is
// computed outside the lock, so that computing one may ask for others;
// two callers that race may both compute it, and the first answer stored
// is the one everybody gets, so that the nodes of an answer (a *Call, a
// *Func) are the same whoever asked.
type memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (c *memo[K, V]) get(k K, compute func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k]; ok {
		return old
	}
	if c.m == nil {
		c.m = map[K]V{}
	}
	c.m[k] = v
	return v
}
