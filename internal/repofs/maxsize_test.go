package repofs_test

import (
	"math"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// The largest size cap reads files whole: the read's limit (the cap plus
// one byte, to see a file over the cap) must not overflow.
func TestLargestMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n"})
	for _, max := range []int64{math.MaxInt64, math.MaxInt64 - 1, 1 << 40} {
		f := open(t, dir, repofs.Options{MaxFileSize: max})
		data, err := f.Read("a.py")
		if err != nil || string(data) != "x = 1\n" {
			t.Errorf("MaxFileSize %d: %q %v", max, data, err)
		}
	}
}
