package pyscan

import (
	"bytes"
	"testing"
	"unsafe"
)

// ParseWithin copies its source, so the caller may reuse the buffer;
// ParseWithinOwned keeps the caller's bytes as the module's text. Both
// build the same model.
func TestParseWithinOwned(t *testing.T) {
	src := gymModule(8 << 10)
	src = append(src, "\nlabel = f\"{name!r:>{width}} \\u00e9\\t\"  # escapes\n"...)
	p := NewParser(Options{})
	defer p.Close()

	copied := bytes.Clone(src)
	m := p.ParseWithin("a/app.py", copied, nil)
	given := bytes.Clone(src)
	o := p.ParseWithinOwned("a/app.py", given, nil)
	if m.SyntaxError != nil || o.SyntaxError != nil {
		t.Fatalf("syntax errors: %v, %v", m.SyntaxError, o.SyntaxError)
	}
	want := dump(m.Body)
	if got := dump(o.Body); got != want {
		t.Fatalf("the owned parse's model differs:\n%s\nwant\n%s", got, want)
	}
	if len(o.Comments) != len(m.Comments) || len(o.Imports) != len(m.Imports) || o.Size != m.Size {
		t.Errorf("comments %d/%d, imports %d/%d, size %d/%d", len(o.Comments), len(m.Comments), len(o.Imports), len(m.Imports), o.Size, m.Size)
	}
	if !bytes.Equal(o.Source(), src) || !bytes.Equal(m.Source(), src) {
		t.Fatal("Source is not the parsed text")
	}
	if unsafe.SliceData(o.Source()) != unsafe.SliceData(given) {
		t.Error("ParseWithinOwned copied its source")
	}
	if unsafe.SliceData(m.Source()) == unsafe.SliceData(copied) {
		t.Error("ParseWithin kept the caller's buffer")
	}
	// The caller of ParseWithin may overwrite its buffer.
	for i := range copied {
		copied[i] = 'x'
	}
	if got := dump(m.Body); got != want || !bytes.Equal(m.Source(), src) {
		t.Error("ParseWithin's model changed with the caller's buffer")
	}
}
