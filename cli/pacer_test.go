package cli

import "testing"

// A check of a small repository collects seldom, one of a medium-sized one
// at the collector's default pace, and one of a large one sooner; the
// language server never raises the pace.
func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live  uint64
		check bool
		want  int
	}{
		{0, true, smallGOGC},
		{13 << 20, true, smallGOGC},
		{smallHeap, true, smallGOGC},
		{smallHeap + 1, true, 100},
		{24 << 20, true, 100},
		{40 << 20, true, 100},
		{200 << 20, true, largeGOGC},
		{0, false, 100},
		{13 << 20, false, 100},
		{40 << 20, false, 100},
		{200 << 20, false, largeGOGC},
	} {
		if got := gcPercent(c.live, c.check); got != c.want {
			t.Errorf("a %d MB live heap (check %v): GOGC %d, want %d", c.live>>20, c.check, got, c.want)
		}
	}
	if smallGOGC <= 100 || largeGOGC >= 100 || smallHeap >= largeHeap {
		t.Errorf("the paces are out of order: small %d (under %d MB), large %d (over %d MB)", smallGOGC, smallHeap>>20, largeGOGC, largeHeap>>20)
	}
}
