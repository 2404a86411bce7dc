package pyscan

import "testing"

// A model's nodes come from chunks of its own walk: parsing other files
// with the same parser afterwards leaves them as they were.
func TestSlabsServeOneModule(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	src := "import os\n\n\ndef f(a: int, *args, key=None, **kw):\n    return os.path.join(a, key)[0], 1.5, 'x', None\n"
	m := p.Parse("a.py", []byte(src))
	want := dump(m.Body)
	for i := range 200 {
		other := gymModule(2 << 10)
		if i%2 == 1 {
			other = []byte("x = y.z(1, 'two', None)[3]\n")
		}
		if o := p.Parse("b.py", other); o.SyntaxError != nil {
			t.Fatal(o.SyntaxError)
		}
	}
	if got := dump(m.Body); got != want {
		t.Fatalf("the first model changed:\n%s\nwant\n%s", got, want)
	}
	var s slab[Name]
	seen := map[*Name]bool{}
	for range 3 * slabMax {
		n := s.alloc()
		if seen[n] || n.Id != "" {
			t.Fatal("a slab handed out a used element")
		}
		n.Id = "used"
		seen[n] = true
	}
}
