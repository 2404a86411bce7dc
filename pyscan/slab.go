package pyscan

// slab hands out the walker's most frequent nodes from chunks: one
// allocation a chunk instead of one a node. Names, attributes, calls,
// constants, subscripts and parameters are about half of a model's nodes,
// and allocating each on its own took about a sixth of the walk
// (BenchmarkBuildModel: 2.44 to 2.30 ms on the benchmark's module).
//
// A walker's slabs serve one module, so a chunk lives as long as the
// model whose nodes it holds. Chunks grow from slabFirst to slabMax
// elements, so that a small module wastes little and a large one at most
// the rest of one chunk of each type.
type slab[T any] struct {
	free []T
	next int // the size of the next chunk
}

const (
	slabFirst = 8
	slabMax   = 128
)

// alloc returns a pointer to a zero T.
func (s *slab[T]) alloc() *T {
	if len(s.free) == 0 {
		n := max(s.next, slabFirst)
		s.free = make([]T, n)
		s.next = min(2*n, slabMax)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}
