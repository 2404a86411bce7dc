package pyscan

import (
	"reflect"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cParse takes the C parser out of the binding's Parser and hands the tree
// back in its Tree: each must be a struct of one field, the C pointer.
func TestBindingLayout(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[sitter.Parser](), reflect.TypeFor[sitter.Tree]()} {
		if typ.NumField() != 1 || typ.Field(0).Type.Kind() != reflect.Pointer || typ.Field(0).Offset != 0 || typ.Size() != unsafe.Sizeof(uintptr(0)) {
			t.Errorf("%s is not a struct of one pointer: cparse.go must change with the binding", typ)
		}
	}
}

// The C parse gives the binding's tree: the same nodes and spans, for
// fresh parses of the fixtures and of broken texts, and for an
// incremental parse after an edit.
func TestCParseAsBinding(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	b := sitter.NewParser()
	defer b.Close()
	if err := b.SetLanguage(loadGrammar().lang); err != nil {
		t.Fatal(err)
	}
	same := func(what string, got *sitter.Tree, src []byte) {
		t.Helper()
		want := b.Parse(src, nil)
		defer want.Close()
		g, w := got.RootNode(), want.RootNode()
		if g.ToSexp() != w.ToSexp() || g.EndByte() != w.EndByte() || g.DescendantCount() != w.DescendantCount() {
			t.Errorf("%s: the C parse's tree differs from the binding's:\n%s\n%s", what, g.ToSexp(), w.ToSexp())
		}
	}
	n := 0
	sources := map[string]string{}
	for path, src := range fixtureSources(t) {
		sources[path] = string(src)
	}
	for i, src := range flatSources() {
		sources["flat"+string(rune('a'+i))] = src
	}
	for what, src := range sources {
		tree, m := p.parseTree([]byte(src), nil, nil)
		if tree == nil {
			t.Fatalf("%s: stopped: %+v", what, m.stop)
		}
		if len(src) > 0 && (m.read < int64(len(src)) || m.steps == 0 || !m.started) {
			t.Errorf("%s: %d bytes read of %d, %d steps", what, m.read, len(src), m.steps)
		}
		same(what, tree, []byte(src))
		// An edit in the middle, parsed from the old tree.
		edited := []byte(src[:len(src)/2] + "\nx_edited = 1\n" + src[len(src)/2:])
		tree.Edit(diffEdit([]byte(src), edited))
		again, _ := p.parseTree(edited, tree, nil)
		tree.Close()
		if again == nil {
			t.Fatalf("%s: the incremental parse stopped", what)
		}
		same(what+" (edited)", again, edited)
		again.Close()
		n++
	}
	if n < 20 {
		t.Errorf("only %d texts", n)
	}
}
