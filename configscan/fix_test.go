package configscan

import (
	"fmt"
	"io/fs"
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

func TestSameScalarStyle(t *testing.T) {
	for _, tc := range []struct {
		old, was, value, want string
	}{
		{"configs/a.yaml", "configs/a.yaml", "b/configs/a.yaml", "b/configs/a.yaml"},
		{`"configs/a.yaml"`, "configs/a.yaml", "b/configs/a.yaml", `"b/configs/a.yaml"`},
		{`'configs/a.yaml'`, "configs/a.yaml", "b/configs/a.yaml", `'b/configs/a.yaml'`},
		{`'it''s.yaml'`, "it's.yaml", "b/it's.yaml", `'b/it''s.yaml'`},
		{`"a\"b.yaml"`, `a"b.yaml`, `d/a"b.yaml`, `"d/a\"b.yaml"`},
		{"a.yaml", "a.yaml", "x,y/a.yaml", ""},      // a flow indicator in a plain scalar
		{"a.yaml", "a.yaml", "1.5", ""},             // plain, it would read as a number
		{"&p a.yaml", "a.yaml", "b/a.yaml", ""},     // anchored
		{"!!str a.yaml", "a.yaml", "b/a.yaml", ""},  // tagged
		{"b.yaml", "a.yaml", "b/a.yaml", ""},        // not the entry
		{"|\n  a.yaml", "a.yaml\n", "b/a.yaml", ""}, // a block scalar
	} {
		got, ok := sameScalarStyle(tc.old, tc.was, tc.value)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("sameScalarStyle(%q, %q, %q) = %q, %v; want %q", tc.old, tc.was, tc.value, got, ok, tc.want)
		}
	}
}

func TestIncludeFix(t *testing.T) {
	files := map[string]string{
		"bench/config.yaml":       "config_paths:\n  - \"configs/a.yaml\"\n  - configs/none.yaml\n  - bench/configs/a.yaml\n",
		"bench/configs/a.yaml":    "x: 1\n",
		"flow/config.yaml":        "config_paths: [configs/b.yaml]\n",
		"flow/configs/b.yaml":     "y: 1\n",
		"nosource/config.yaml":    "config_paths: [configs/c.yaml]\n",
		"nosource/configs/c.yaml": "z: 1\n",
	}
	source := func(p string) ([]byte, error) {
		if p == "nosource/config.yaml" {
			return nil, fmt.Errorf("open %s: %w", p, fs.ErrPermission)
		}
		s, ok := files[p]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return []byte(s), nil
	}
	fixes := map[string]string{}
	for _, root := range []string{"bench/config.yaml", "flow/config.yaml", "nosource/config.yaml"} {
		r := Compose(root, ComposeOptions{Load: memLoader(files), Source: source})
		for _, p := range r.Problems {
			if p.Kind != KindIncludeMissing {
				continue
			}
			k := fmt.Sprintf("%s:%d", p.Origin.File, p.Pos.Line)
			if p.Fix == nil {
				fixes[k] = ""
				continue
			}
			if p.Fix.Safe {
				t.Errorf("%s: the fix is safe; it changes what the run includes", k)
			}
			fixes[k] = applyFix(t, files[p.Origin.File], p.Fix)
		}
	}
	want := map[string]string{
		"bench/config.yaml:2":    "config_paths:\n  - \"bench/configs/a.yaml\"\n  - configs/none.yaml\n  - bench/configs/a.yaml\n",
		"bench/config.yaml:3":    "",
		"flow/config.yaml:1":     "config_paths: [flow/configs/b.yaml]\n",
		"nosource/config.yaml:1": "",
	}
	if fmt.Sprint(fixes) != fmt.Sprint(want) {
		t.Errorf("fixes:\n%q\nwant:\n%q", fixes, want)
	}
}
