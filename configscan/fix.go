package configscan

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Fix is a suggested fix of a Problem: edits of the Problem's file.
type Fix struct {
	Message string
	// Safe is set when the fix keeps what Gym loads from the file, or
	// makes it load what it evidently means, losing nothing the author
	// wrote (a comment included); it may then be applied without review.
	// Otherwise the fix changes what Gym loads, or drops something
	// written, and the author decides.
	Safe  bool
	Edits []Edit
}

// Edit replaces the bytes [Start.Offset, End.Offset) of the file with
// Text.
type Edit struct {
	Start, End Pos
	Text       string
}

// maxDuplicateFixes bounds the duplicate keys of one file that get a fix:
// each fix is checked by parsing the fixed file again.
const maxDuplicateFixes = 8

// duplicateFixer makes the fixes of the duplicate keys of one document of
// a file (checkDuplicates).
type duplicateFixer struct {
	lx   *lineIndex
	doc  int        // the document's index in the file
	root *yaml.Node // the document as written
	made *int       // fixes tried for the file so far
}

// fix returns the fix of the repeat at m.Content[dup] of the key first
// written at m.Content[first], or nil.
//
// When the two values are the same (the same kinds, tags and scalar text,
// as any YAML loader reads them), the fix removes the repeat, and it is
// safe unless a comment goes with it: the file then loads, with the value
// it always meant. When they differ, OmegaConf.load (Gym) rejects the
// file, so neither takes effect in Gym, and the author must say which one
// is meant: the fix removes the earlier, keeping the value that PyYAML and
// the loaders that accept duplicates keep (the last), which is also the
// one gymlint's own rules read (lookups use the last occurrence); it is
// unsafe. A key written more than twice with different values gets no fix.
//
// A pair is removed as whole lines, from its key's line to the last line
// on which a node of its value starts, and only when that is exact: the
// mapping is in block style, nothing but indentation precedes the key on
// its line, the next key starts on a later line, neither the key nor the
// value has an anchor or an alias (removing an anchor would break its
// aliases), and the fixed file, parsed again, holds the same document
// without that pair (a value whose last line is not where its last node
// starts, such as a block scalar or a multi-line string, fails that check
// and gets no fix).
func (fx *duplicateFixer) fix(m *yaml.Node, first, dup int) *Fix {
	if fx == nil || *fx.made >= maxDuplicateFixes || m.Style&yaml.FlowStyle != 0 {
		return nil
	}
	*fx.made++
	key := shown(m.Content[dup].Value)
	f := &Fix{Message: "Remove the repeated key " + key, Safe: true}
	remove := dup
	if !sameValue(m.Content[first+1], m.Content[dup+1], 0) {
		if occurrences(m, dup) != 2 {
			return nil
		}
		remove = first
		f.Message = fmt.Sprintf("Remove the earlier %s (line %d), keeping the later value", key, m.Content[first].Line)
		f.Safe = false
	}
	k, v := m.Content[remove], m.Content[remove+1]
	if k.Kind != yaml.ScalarNode || anchored(k, 0) || anchored(v, 0) {
		return nil
	}
	if commented(v, 0) || k.LineComment != "" || k.FootComment != "" {
		f.Safe = false
	}
	lx := fx.lx
	if k.Line < 1 || k.Line > len(lx.starts) {
		return nil
	}
	ls := lx.starts[k.Line-1]
	at := lx.pos(k.Line, k.Column)
	if strings.TrimLeft(string(lx.data[ls:at.Offset]), " \t") != "" {
		return nil // `- key: v`, `? key`, or a flow mapping's key
	}
	last := max(k.Line, lastLine(v, 0))
	if remove+2 < len(m.Content) && m.Content[remove+2].Line <= last {
		return nil
	}
	if last > len(lx.starts) {
		return nil
	}
	end := lx.lineEnd(last - 1)
	fixed := append(append(make([]byte, 0, len(lx.data)-(end-ls)), lx.data[:ls]...), lx.data[end:]...)
	if !fx.holds(fixed, m, remove) {
		return nil
	}
	f.Edits = []Edit{{Start: lx.offsetPos(ls), End: lx.offsetPos(end)}}
	return f
}

// holds reports whether the document of fixed at the fixer's index is the
// document as written without the pair at m.Content[at].
func (fx *duplicateFixer) holds(fixed []byte, m *yaml.Node, at int) bool {
	dec := yaml.NewDecoder(bytes.NewReader(fixed))
	for i := 0; ; i++ {
		n := new(yaml.Node)
		if err := decode(dec, n); err != nil {
			return false
		}
		if i == fx.doc {
			return sameWithout(fx.root, n, m, at, 0)
		}
	}
}

// sameWithout is sameNode, but for the mapping skip under a, whose pair
// at skip.Content[at] b does not have.
func sameWithout(a, b, skip *yaml.Node, at, depth int) bool {
	if a == nil || b == nil || depth > maxDepth {
		return false
	}
	want := len(a.Content)
	if a == skip {
		want -= 2
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		len(b.Content) != want {
		return false
	}
	if a.Kind == yaml.AliasNode {
		return sameNode(a, b, depth)
	}
	j := 0
	for i := range a.Content {
		if a == skip && (i == at || i == at+1) {
			continue
		}
		if !sameWithout(a.Content[i], b.Content[j], skip, at, depth+1) {
			return false
		}
		j++
	}
	return true
}

// sameValue reports whether two values load the same with any YAML
// loader: the same kinds and tags, the same scalar text (any two nulls
// alike), the same items and pairs in the same order; how they are
// written (quotes, flow or block) and their anchors aside. An alias is
// the same only as an alias of the same anchor.
func sameValue(a, b *yaml.Node, depth int) bool {
	if a == nil || b == nil || depth > maxDepth {
		return false
	}
	if a.Kind != b.Kind || a.Tag != b.Tag || len(a.Content) != len(b.Content) {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return a.Value == b.Value || a.Tag == "!!null"
	case yaml.AliasNode:
		return a.Value == b.Value
	}
	for i := range a.Content {
		if !sameValue(a.Content[i], b.Content[i], depth+1) {
			return false
		}
	}
	return true
}

// occurrences counts the keys of mapping m that are the key at
// m.Content[at] (checkDuplicates' identity: tag and text).
func occurrences(m *yaml.Node, at int) int {
	k := m.Content[at]
	n := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && c.Tag == k.Tag && c.Value == k.Value {
			n++
		}
	}
	return n
}

// anchored reports whether n or a node under it has an anchor or is an
// alias.
func anchored(n *yaml.Node, depth int) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode || depth > maxDepth {
		return true
	}
	for _, c := range n.Content {
		if anchored(c, depth+1) {
			return true
		}
	}
	return false
}

// commented reports whether a comment is attached to n or a node under it.
func commented(n *yaml.Node, depth int) bool {
	if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" || depth > maxDepth {
		return true
	}
	for _, c := range n.Content {
		if commented(c, depth+1) {
			return true
		}
	}
	return false
}

// lastLine is the last line on which n or a node under it starts.
func lastLine(n *yaml.Node, depth int) int {
	l := n.Line
	if depth > maxDepth {
		return l
	}
	for _, c := range n.Content {
		l = max(l, lastLine(c, depth+1))
	}
	return l
}

// sameScalarStyle returns the text of a YAML scalar whose value is value,
// written as the scalar old is written (plain, single- or double-quoted):
// old must be the text of a one-line string scalar whose value is was,
// without anchor or tag.
// yaml.v3 writes the new text, and it must read back as a one-line string
// of that value in that style; a plain one must hold no flow indicator
// (`,[]{}`), which would end it inside a flow sequence. ok is false
// otherwise.
func sameScalarStyle(old, was, value string) (string, bool) {
	var o yaml.Node
	if err := yaml.Unmarshal([]byte(old), &o); err != nil || len(o.Content) != 1 {
		return "", false
	}
	s := o.Content[0]
	if s.Kind != yaml.ScalarNode || s.Tag != "!!str" || s.Value != was || s.Anchor != "" || s.Style&^(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
		return "", false
	}
	if s.Style == 0 && strings.ContainsAny(value, ",[]{}") {
		return "", false
	}
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: s.Style, Value: value})
	if err != nil {
		return "", false
	}
	text := strings.TrimSuffix(string(out), "\n")
	var back yaml.Node
	if strings.ContainsAny(text, "\r\n") || yaml.Unmarshal([]byte(text), &back) != nil || len(back.Content) != 1 {
		return "", false
	}
	if b := back.Content[0]; b.Kind != yaml.ScalarNode || b.Tag != "!!str" || b.Style != s.Style || b.Value != value {
		return "", false
	}
	return text, true
}
