package pyscan

import (
	"strings"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// flatSources are texts whose trees exercise the flat copy: every kind of
// statement the servers have, a node with more children than a small
// buffer holds, comments, and trees with ERROR and MISSING nodes.
func flatSources() []string {
	return []string{
		string(gymModule(8<<10)) + "\nBIG = [" + strings.Repeat("1, ", 200) + "]\nx = f(a, *b, k=c)  # comment\n",
		"x = f(1,\napp = 2\n",
		"def f(:\n    pass\n",
		"def f():\n\nclass A:\n    pass\n",
		"class A(B:\n    x = [1, 2\n    def g(self): return {\n",
		"x = ((((((((((f(a[b[c]]))))))))))\n\x00\xff\xfe\r\r\n\f\t",
		"print 'hello'\nexec code in ns\n` x `\n",
		"",
		"# only a comment",
	}
}

// TestFlatTreeMatchesBinding checks that cwalk.go's copies of tree-sitter's
// TSNode and TSTreeCursor have the binding's layout, and that the flat
// tree (flatten) is the binding's tree: every node in pre-order, with its
// symbol, field, span, children, named-ness in the walker's tables, and
// MISSING, ERROR and has-error marks.
func TestFlatTreeMatchesBinding(t *testing.T) {
	if a, b := unsafe.Sizeof(cNode{}), unsafe.Sizeof(sitter.Node{}); a != b {
		t.Fatalf("the C node is %d bytes, sitter.Node %d", a, b)
	}
	if a, b := unsafe.Alignof(cNode{}), unsafe.Alignof(sitter.Node{}); a != b {
		t.Fatalf("the C node aligns to %d, sitter.Node to %d", a, b)
	}
	if a, b := unsafe.Sizeof(cCursor{}), unsafe.Sizeof(sitter.TreeCursor{}); a != b {
		t.Fatalf("the C cursor is %d bytes, sitter.TreeCursor %d", a, b)
	}
	if n := unsafe.Sizeof(flatNode{}); n != 16 {
		t.Errorf("a flat node is %d bytes, want 16", n)
	}
	g := loadGrammar()
	p := NewParser(Options{})
	defer p.Close()
	sawError, sawMissing, maxKids := false, false, 0
	for _, src := range flatSources() {
		tree, _ := p.parseTree([]byte(src), nil, nil)
		if tree == nil {
			t.Fatal("timed out")
		}
		root := tree.RootNode()
		flat := flatten(root, nil)
		if want := root.DescendantCount(); uint(len(flat)) != want {
			t.Fatalf("%q: %d flat nodes, %d in the tree", src, len(flat), want)
		}
		i := 0 // the next flat node
		var walk func(n *sitter.Node, fieldID uint16, parentNext int)
		walk = func(n *sitter.Node, fieldID uint16, parentNext int) {
			me := i
			if me >= len(flat) {
				t.Fatalf("%q: the flat tree ends before %s at %d", src, n.Kind(), n.StartByte())
			}
			f := flat[me]
			i++
			s, e := n.ByteRange()
			if uint(f.start) != s || uint(f.end) != e || uint16(f.symbol) != n.KindId() || uint16(f.field) != fieldID {
				t.Fatalf("%q: node %d (%s): flat [%d,%d) symbol %d field %d, binding [%d,%d) symbol %d field %d",
					src, me, n.Kind(), f.start, f.end, f.symbol, f.field, s, e, n.KindId(), fieldID)
			}
			if f.flags&flagMissing != 0 != n.IsMissing() || f.flags&flagHasError != 0 != n.HasError() || (f.symbol == errorSymbol) != n.IsError() {
				t.Fatalf("%q: node %d (%s): flags %b, binding missing %v, has error %v, error %v",
					src, me, n.Kind(), f.flags, n.IsMissing(), n.HasError(), n.IsError())
			}
			sawError = sawError || n.IsError()
			sawMissing = sawMissing || n.IsMissing()
			if got := g.kindName(uint16(f.symbol)); got != n.Kind() {
				t.Fatalf("%q: symbol %d is named %q in the tables, %q in the tree", src, f.symbol, got, n.Kind())
			}
			if id := int(f.symbol); id < len(g.named) && g.named[id] != n.IsNamed() {
				t.Fatalf("symbol %d (%s): named %v in the tables, %v in the tree", id, n.Kind(), g.named[id], n.IsNamed())
			}
			cur := n.Walk()
			kids := 0
			for ok := cur.GotoFirstChild(); ok; ok = cur.GotoNextSibling() {
				kids++
				walk(cur.Node(), cur.FieldId(), int(f.next))
			}
			cur.Close()
			maxKids = max(maxKids, kids)
			if int(f.next) != i {
				t.Fatalf("%q: node %d (%s): next is %d, its subtree ends at %d", src, me, n.Kind(), f.next, i)
			}
			if int(f.next) > parentNext {
				t.Fatalf("%q: node %d (%s) ends after its parent", src, me, n.Kind())
			}
		}
		walk(root, 0, len(flat))
		if i != len(flat) {
			t.Fatalf("%q: %d flat nodes, the tree has %d", src, len(flat), i)
		}
		tree.Close()
	}
	if !sawError || !sawMissing || maxKids <= 64 {
		t.Errorf("the sources do not exercise the copy: ERROR %v, MISSING %v, at most %d children", sawError, sawMissing, maxKids)
	}
}

// TestFlattenGrows checks the buffer's two ways: a buffer too small is
// replaced by one large enough, and a buffer large enough is filled in
// place, with the same nodes.
func TestFlattenGrows(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	src := []byte(flatSources()[0])
	tree, _ := p.parseTree(src, nil, nil)
	defer tree.Close()
	want := flatten(tree.RootNode(), nil)
	for _, size := range []int{0, 1, 64, len(want) - 1} {
		buf := make([]flatNode, size)
		got := flatten(tree.RootNode(), buf)
		if len(got) != len(want) || cap(got) < len(want) {
			t.Fatalf("a buffer of %d: %d nodes, want %d", size, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("a buffer of %d: node %d is %+v, want %+v", size, i, got[i], want[i])
			}
		}
	}
	buf := make([]flatNode, len(want)+10)
	if got := flatten(tree.RootNode(), buf); &got[0] != &buf[0] || len(got) != len(want) {
		t.Errorf("a buffer large enough was not used")
	}
}

// TestFlattenNodesPerStep checks what cwalk.go says of the copy's size:
// a fresh parse makes a node with one parse operation at most (a token
// shifted, or a reduction), so the flat tree has at most 100 nodes a step
// (a step is 100 operations, or a read of the lexer), whatever the input;
// ordinary code has about a third of that.
func TestFlattenNodesPerStep(t *testing.T) {
	srcs := map[string][]byte{
		"comments":   []byte(strings.Repeat("# c\n", 20000)),
		"sum":        []byte("x = 1" + strings.Repeat(" + 1", 20000) + "\n"),
		"list":       []byte("x = [" + strings.Repeat("1,", 20000) + "]\n"),
		"chains":     []byte(strings.Repeat("f(a)(b)[c].d\n", 5000)),
		"strings":    []byte(strings.Repeat("f'{a}{b}{c}' 'x' b'y'\n", 3000)),
		"nots":       []byte("x = " + strings.Repeat("not ", 900) + "y\n"),
		"brackets":   []byte("x = " + strings.Repeat("(", 150) + "1" + strings.Repeat(")", 150) + "\n"),
		"dots":       []byte(strings.Repeat(".", 20000)),
		"errors":     []byte(strings.Repeat("def (:\n", 3000)),
		"benchmark":  gymModule(benchSize),
		"one token":  []byte("x"),
		"empty file": nil,
	}
	for path, src := range fixtureSources(t) {
		srcs[path] = src
	}
	p := NewParser(Options{})
	defer p.Close()
	var nodes, steps int64
	for name, src := range srcs {
		tree, m := p.parseTree(src, nil, nil)
		if tree == nil {
			t.Fatalf("%s: the parse did not finish", name)
		}
		n := int64(len(flatten(tree.RootNode(), nil)))
		tree.Close()
		if n > 100*max(m.steps, 1) {
			t.Errorf("%s: %d nodes in %d steps", name, n, m.steps)
		}
		nodes += n
		steps += m.steps
	}
	t.Logf("%d nodes in %d steps: %.1f a step", nodes, steps, float64(nodes)/float64(steps))
}
