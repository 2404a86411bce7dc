package gym

// Internals that the tests of package gym_test measure.

// MaxInheritanceDepth and MaxMROLength are the bounds of mro.go.
const (
	MaxInheritanceDepth = maxInheritanceDepth
	MaxMROLength        = maxMROLength
)

// AncestryWork returns the work the view's ancestry searches and C3 merges
// have done so far: classes entered, and entries read or written.
func AncestryWork(v *View) (visits, steps int64) {
	return v.classes.visits.Load(), v.classes.steps.Load()
}

// SameIndex reports whether two views read one index of the module at p
// (and that both read it).
func SameIndex(v, w *View, p string) bool {
	m, err := v.Module(p)
	n, err2 := w.Module(p)
	if err != nil || err2 != nil || m != n {
		return false
	}
	return v.index(m) == w.index(n)
}
