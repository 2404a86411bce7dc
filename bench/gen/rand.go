package gen

import (
	"hash/fnv"
	"math/bits"
)

// rng is a SplitMix64 generator. The generator is written out here instead
// of using math/rand so that the output for a seed depends on nothing but
// this file: no floating point, no library whose streams may change.
type rng struct{ state uint64 }

// newRNG returns a generator for one named stream of a seed. Each file gets
// its own stream, so that changing how one file is generated does not shift
// the bytes of every file generated after it.
func newRNG(seed int64, stream string) *rng {
	h := fnv.New64a()
	h.Write([]byte(stream))
	r := &rng{state: uint64(seed)*0x9E3779B97F4A7C15 ^ h.Sum64()}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a number in [0, n). n must be positive.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// permille reports true with probability p/1000.
func (r *rng) permille(p int) bool { return r.intn(1000) < p }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// weighted returns an index into weights, chosen with probability
// proportional to its weight.
func (r *rng) weighted(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.intn(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}
