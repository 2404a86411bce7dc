package pyscan

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/mod/modfile"

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

// stressSources are the texts of the fixtures, with texts whose trees are
// extreme in one way each: the densest in nodes a step, the deepest, the
// widest, and all errors.
func stressSources(t testing.TB) map[string][]byte {
	srcs := map[string][]byte{
		"comments": []byte(strings.Repeat("# c\n", 20000)),
		"sum":      []byte("x = 1" + strings.Repeat(" + 1", 20000) + "\n"),
		"list":     []byte("x = [" + strings.Repeat("1,", 20000) + "]\n"),
		"chains":   []byte(strings.Repeat("f(a)(b)[c].d\n", 5000)),
		"strings":  []byte(strings.Repeat("f'{a}{b}{c}' 'x' b'y'\n", 3000)),
		"nots":     []byte("x = " + strings.Repeat("not ", 900) + "y\n"),
		"brackets": []byte("x = " + strings.Repeat("(", 150) + "1" + strings.Repeat(")", 150) + "\n"),
		"nested":   []byte("x = " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000) + "\n"),
		// Error recovery over dots costs the square of their count: 8,000
		// take about 90 ms on a slow 2-CPU machine, against the 380 ms
		// its steps allow (20,000 took 500 ms there, past the
		// processor-time budget, and the parse stopped).
		"dots":       []byte(strings.Repeat(".", 8000)),
		"errors":     []byte(strings.Repeat("def (:\n", 3000)),
		"benchmark":  gymModule(benchSize),
		"one token":  []byte("x"),
		"empty file": nil,
	}
	for path, src := range fixtureSources(t) {
		srcs[path] = src
	}
	return srcs
}

// TestFlattenNodesPerStep checks what cwalk.go says of the copy's size:
// a fresh parse makes a node with one parse operation at most (a token
// shifted, or a reduction), so the flat tree has at most 100 nodes a step
// (a step is 100 operations, or a read of the lexer), whatever the input;
// ordinary code has about a third of that.
func TestFlattenNodesPerStep(t *testing.T) {
	srcs := stressSources(t)
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

// TestDirectWalkMatchesCursor checks the direct walk (gl_flatten_direct)
// against tree-sitter's cursor (gl_flatten), node for node, on the trees
// of the probe, the flat and stress sources and every fixture: each text
// whole, cut in half and without its first third (trees with errors
// where the cut falls), and edited in the middle and parsed again from
// its old tree (an incremental parse reuses the old tree's subtrees).
// Together they must meet nodes visible only by an alias and fields found
// through hidden nodes, the two things the walk works out from the
// grammar's tables rather than from the subtrees.
func TestDirectWalkMatchesCursor(t *testing.T) {
	if !directPlatform() {
		t.Skip("the direct walk's layout is not this machine's")
	}
	if err := directProbe(); err != nil {
		t.Fatalf("the probe: %v", err)
	}
	if !directWalk() {
		t.Fatal("flatten does not use the direct walk")
	}
	texts := map[string][]byte{}
	for name, src := range stressSources(t) {
		texts[name] = src
	}
	for i, src := range append(flatSources(), directProbeSources...) {
		texts[fmt.Sprintf("source %d", i)] = []byte(src)
	}
	p := NewParser(Options{})
	defer p.Close()
	var seen directStats
	same := func(what string, tree *sitter.Tree) {
		t.Helper()
		if tree == nil {
			t.Fatalf("%s: the parse did not finish", what)
		}
		want := flattenCursor(tree.RootNode(), nil)
		got, st, ok := flattenDirect(tree.RootNode(), nil)
		if !ok {
			t.Fatalf("%s: the direct walk wrote %d of %d nodes", what, len(got), len(want))
		}
		if i := firstDifference(got, want); i >= 0 {
			t.Fatalf("%s: node %d is %+v directly, %+v by the cursor", what, i, got[i], want[i])
		}
		seen.aliased += st.aliased
		seen.fieldsThroughHidden += st.fieldsThroughHidden
	}
	for name, src := range texts {
		for cut, text := range map[string][]byte{"": src, " (first half)": src[:len(src)/2], " (last two thirds)": src[len(src)/3:]} {
			tree, _ := p.parseTree(text, nil, nil)
			same(name+cut, tree)
			tree.Close()
		}
		tree, _ := p.parseTree(src, nil, nil)
		edited := []byte(string(src[:len(src)/2]) + "\nx_edited = (1,\n" + string(src[len(src)/2:]))
		tree.Edit(diffEdit(src, edited))
		again, _ := p.parseTree(edited, tree, nil)
		tree.Close()
		same(name+" (edited)", again)
		again.Close()
	}
	if seen.aliased == 0 || seen.fieldsThroughHidden == 0 {
		t.Errorf("the texts met %d nodes visible by an alias and %d fields through hidden nodes", seen.aliased, seen.fieldsThroughHidden)
	}
}

// TestDirectWalkLayoutVersion fails when go.mod asks for another version
// of the tree-sitter binding than the one whose internal layout cwalk.go
// declares: read that version's lib/src/subtree.h, tree_cursor.c and
// parser.h against the declarations and the walk, then change
// directLayout. (A binary records the version it was built with, and
// directWalk checks it; a test binary does not.)
func TestDirectWalkLayoutVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == bindingModule {
			if r.Mod.Version != directLayout {
				t.Fatalf("go.mod requires %s %s; the direct walk declares the layout of %s", bindingModule, r.Mod.Version, directLayout)
			}
			return
		}
	}
	t.Fatalf("go.mod does not require %s", bindingModule)
}

// TestOrFalse checks that a probe that panics counts as one that failed.
func TestOrFalse(t *testing.T) {
	if !orFalse(func() bool { return true }) || orFalse(func() bool { return false }) {
		t.Error("orFalse does not pass its function's answer on")
	}
	if orFalse(func() bool { panic("pyscan: tree-sitter counts 3 nodes in the tree, its cursor met 2") }) {
		t.Error("a panic was taken for a probe that passed")
	}
}

// TestBindingIs checks the build-information gate of the direct walk.
func TestBindingIs(t *testing.T) {
	dep := func(version string, replace *debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{Deps: []*debug.Module{
			{Path: "golang.org/x/tools", Version: directLayout},
			{Path: bindingModule, Version: version, Replace: replace},
		}}
	}
	for _, c := range []struct {
		what string
		bi   *debug.BuildInfo
		want bool
	}{
		{"no build information", nil, true},
		{"a test binary: no dependencies", &debug.BuildInfo{}, true},
		{"the layout's version", dep(directLayout, nil), true},
		{"a newer version", dep("v0.25.1", nil), false},
		{"an older version", dep("v0.24.7", nil), false},
		{"the version, replaced", dep(directLayout, &debug.Module{Path: "../fork"}), false},
	} {
		if got := bindingIs(c.bi, directLayout); got != c.want {
			t.Errorf("%s: %v, want %v", c.what, got, c.want)
		}
	}
}

// FuzzDirectWalk compares the direct walk with the cursor on any text, as
// TestDirectWalkMatchesCursor does on chosen ones: error recovery builds
// the trees least like ordinary code's.
func FuzzDirectWalk(f *testing.F) {
	if !directPlatform() {
		f.Skip("the direct walk's layout is not this machine's")
	}
	for _, s := range append(append(seedSources(), flatSources()...), directProbeSources...) {
		f.Add([]byte(s))
	}
	p := NewParser(Options{})
	defer p.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		tree, _ := p.parseTree(src, nil, nil)
		if tree == nil {
			return // a budget ran out
		}
		defer tree.Close()
		want := flattenCursor(tree.RootNode(), nil)
		got, _, ok := flattenDirect(tree.RootNode(), nil)
		if !ok {
			t.Fatalf("the direct walk wrote %d of %d nodes", len(got), len(want))
		}
		if i := firstDifference(got, want); i >= 0 {
			t.Fatalf("node %d is %+v directly, %+v by the cursor", i, got[i], want[i])
		}
	})
}
