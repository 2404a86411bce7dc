package configscan

import (
	"fmt"
	"testing"
)

// applyFix applies the edits of a fix (sorted, not overlapping) to src.
func applyFix(t *testing.T, src string, f *Fix) string {
	t.Helper()
	out, last := "", 0
	for _, e := range f.Edits {
		if e.Start.Offset < last || e.End.Offset < e.Start.Offset || e.End.Offset > len(src) {
			t.Fatalf("bad edit %+v of %q", e, src)
		}
		for _, p := range []Pos{e.Start, e.End} {
			if want := newLineIndex([]byte(src)).offsetPos(p.Offset); p != want {
				t.Errorf("edit position %+v, offset %d is %+v", p, p.Offset, want)
			}
		}
		out += src[last:e.Start.Offset] + e.Text
		last = e.End.Offset
	}
	return out + src[last:]
}

func TestDuplicateKeyFixes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		fixed     string // "" when the first duplicate-key problem has no fix
		safe      bool
	}{
		{
			name:  "the same scalar: the repeat goes",
			src:   "a:\n  x: 1\n  y: 2\n  x: 1\n  z: 3\n",
			fixed: "a:\n  x: 1\n  y: 2\n  z: 3\n",
			safe:  true,
		},
		{
			name:  "the same value, quoted differently, at the end of the file without a line break",
			src:   "x: 'a'\ny: 2\nx: a",
			fixed: "x: 'a'\ny: 2\n",
			safe:  true,
		},
		{
			name:  "the same nested block and empty flow list, CRLF",
			src:   "s:\r\n  d: []\r\n  m:\r\n    k: v\r\n    l: [1, 2]\r\n  m:\r\n    k: v\r\n    l: [1, 2]\r\n  e: 1\r\n",
			fixed: "s:\r\n  d: []\r\n  m:\r\n    k: v\r\n    l: [1, 2]\r\n  e: 1\r\n",
			safe:  true,
		},
		{
			name:  "the same value with a comment on the repeat: unsafe",
			src:   "x: 1\nx: 1 # why\ny: 2\n",
			fixed: "x: 1\ny: 2\n",
		},
		{
			name:  "different values: the earlier goes",
			src:   "x:\n  k: 1\n  j: 2\ny: 2\nx: 3\n",
			fixed: "y: 2\nx: 3\n",
		},
		{
			name:  "nulls written differently are the same",
			src:   "x:\ny: 1\nx: ~\n",
			fixed: "x:\ny: 1\n",
			safe:  true,
		},
		{name: "a flow mapping", src: "a: {x: 1, x: 1}\n"},
		{name: "a block scalar", src: "x: |\n  t\ny: 1\nx: |\n  t\n"},
		{name: "a multi-line plain scalar", src: "x: a b\ny: 1\nx: a\n  b\nz: 2\n"},
		{
			name:  "different values, the later on two lines",
			src:   "x: a\ny: 1\nx: a\n  b\nz: 2\n",
			fixed: "y: 1\nx: a\n  b\nz: 2\n",
		},
		{
			name:  "the same flow list, on two lines",
			src:   "x: [1, 2]\ny: 2\nx: [1,\n  2]\nz: 3\n",
			fixed: "x: [1, 2]\ny: 2\nz: 3\n",
			safe:  true,
		},
		{name: "three different values", src: "x: 1\nx: 2\nx: 3\n"},
		{name: "an anchor on the repeat", src: "x: 1\nx: &a 1\ny: *a\n"},
		{name: "an alias as the earlier value", src: "b: &a 1\nx: *a\nx: 2\n"},
		{name: "the earlier key after a dash", src: "- x: 1\n  x: 2\n"},
		{name: "an explicit key", src: "? x\n: 1\nx: 2\n"},
		{name: "a closing bracket on a line of its own", src: "x: [1, 2]\ny: 2\nx: [1, 2\n  ]\nz: 3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("c.yaml", []byte(tc.src), Options{})
			var p *Problem
			for i := range f.Problems {
				if f.Problems[i].Kind == "duplicate-key" {
					p = &f.Problems[i]
					break
				}
			}
			if p == nil {
				t.Fatalf("no duplicate-key problem: %+v", f.Problems)
			}
			if tc.fixed == "" {
				if p.Fix != nil {
					t.Errorf("fix %q, want none: %q", p.Fix.Message, applyFix(t, tc.src, p.Fix))
				}
				return
			}
			if p.Fix == nil {
				t.Fatalf("no fix, want %q", tc.fixed)
			}
			if got := applyFix(t, tc.src, p.Fix); got != tc.fixed {
				t.Errorf("fixed:\n%q\nwant:\n%q", got, tc.fixed)
			}
			if p.Fix.Safe != tc.safe {
				t.Errorf("safe %v, want %v (%s)", p.Fix.Safe, tc.safe, p.Fix.Message)
			}
		})
	}
}

// Past maxDuplicateFixes, duplicate keys are reported without a fix.
func TestDuplicateKeyFixesBounded(t *testing.T) {
	src := ""
	for i := range maxDuplicateFixes + 3 {
		src += fmt.Sprintf("k%d: 1\nk%d: 1\n", i, i)
	}
	n, fixed := 0, 0
	for _, p := range Parse("c.yaml", []byte(src), Options{}).Problems {
		if p.Kind == "duplicate-key" {
			n++
			if p.Fix != nil {
				fixed++
			}
		}
	}
	if n != maxDuplicateFixes+3 || fixed != maxDuplicateFixes {
		t.Errorf("%d duplicates, %d fixed; want %d, %d", n, fixed, maxDuplicateFixes+3, maxDuplicateFixes)
	}
}
