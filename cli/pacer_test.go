package cli

import "testing"

// A small scan keeps the collector's default pace; a large one collects
// sooner.
func TestGCPercent(t *testing.T) {
	if got := gcPercent(40 << 20); got != 100 {
		t.Errorf("a 40 MB live heap: GOGC %d, want 100", got)
	}
	if got := gcPercent(200 << 20); got != largeGOGC || largeGOGC >= 100 {
		t.Errorf("a 200 MB live heap: GOGC %d, want %d (< 100)", got, largeGOGC)
	}
}
