package pyscan

import (
	"strings"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestCLayoutMatchesBinding checks that cwalk.go's copies of tree-sitter's
// TSNode and TSTreeCursor have the binding's layout, and that a node's
// children read through one C call (kidReader) are the binding's: the
// same number, kinds, fields, spans and nodes, for every node of a tree
// (one with more children than the reader's first buffer holds).
func TestCLayoutMatchesBinding(t *testing.T) {
	if a, b := unsafe.Sizeof(tsNode{}), unsafe.Sizeof(sitter.Node{}); a != b {
		t.Fatalf("tsNode is %d bytes, sitter.Node %d", a, b)
	}
	if a, b := unsafe.Alignof(tsNode{}), unsafe.Alignof(sitter.Node{}); a != b {
		t.Fatalf("tsNode aligns to %d, sitter.Node to %d", a, b)
	}
	src := []byte(gymModule(8 << 10)) // every kind of statement the servers have
	src = append(src, "\nBIG = ["+strings.Repeat("1, ", 200)+"]\nx = f(a, *b, k=c)  # comment\n"...)
	p := NewParser(Options{})
	defer p.Close()
	tree, _ := p.parseTree(src, nil, nil)
	if tree == nil {
		t.Fatal("timed out")
	}
	defer tree.Close()
	root := tree.RootNode()
	r := newKidReader(nodeOf(root))
	defer r.close()
	if a, b := unsafe.Sizeof(*r.cur), unsafe.Sizeof(sitter.TreeCursor{}); a != b {
		t.Fatalf("the C cursor is %d bytes, sitter.TreeCursor %d", a, b)
	}
	g := loadGrammar()
	nodes, maxKids := 0, 0
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		nodes++
		// A binding node viewed as a tsNode and back is the same node.
		tn := nodeOf(n)
		if back := sitterNode(&tn); back.Id() != n.Id() || back.Kind() != n.Kind() || back.StartByte() != n.StartByte() {
			t.Fatalf("nodeOf/sitterNode do not round-trip at %s", n.Kind())
		}
		kids := r.read(tn)
		// Copy them out: the next read reuses the buffer.
		type kidCopy struct {
			node            tsNode
			start, end      uint
			symbol, fieldID uint16
		}
		var got []kidCopy
		for _, k := range kids {
			got = append(got, kidCopy{k.node, uint(k.start), uint(k.end), uint16(k.symbol), uint16(k.field)})
		}
		if len(got) != int(n.ChildCount()) {
			t.Fatalf("%s at %d: %d children read, the binding has %d", n.Kind(), n.StartByte(), len(got), n.ChildCount())
		}
		maxKids = max(maxKids, len(got))
		cur := n.Walk()
		defer cur.Close()
		i := 0
		for ok := cur.GotoFirstChild(); ok; ok = cur.GotoNextSibling() {
			ch := cur.Node()
			k := got[i]
			s, e := ch.ByteRange()
			if k.start != s || k.end != e || k.symbol != ch.KindId() || k.fieldID != cur.FieldId() {
				t.Fatalf("%s's child %d (%s): read [%d,%d) symbol %d field %d, binding [%d,%d) symbol %d field %d",
					n.Kind(), i, ch.Kind(), k.start, k.end, k.symbol, k.fieldID, s, e, ch.KindId(), cur.FieldId())
			}
			kn := k.node
			if sn := sitterNode(&kn); sn.Id() != ch.Id() || sn.Kind() != ch.Kind() || sn.ChildCount() != ch.ChildCount() || sn.IsNamed() != ch.IsNamed() {
				t.Fatalf("%s's child %d: the node read is %s, the binding's %s", n.Kind(), i, sn.Kind(), ch.Kind())
			}
			// The walker's tables agree with the binding on named-ness.
			if int(k.symbol) < len(g.named) && g.named[k.symbol] != ch.IsNamed() {
				t.Fatalf("symbol %d (%s): named %v in the tables, %v in the tree", k.symbol, ch.Kind(), g.named[k.symbol], ch.IsNamed())
			}
			i++
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i))
		}
	}
	walk(root)
	if maxKids <= 64 || nodes < 1000 {
		t.Errorf("the tree does not exercise the reader: %d nodes, at most %d children", nodes, maxKids)
	}
}
