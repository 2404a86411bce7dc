package configscan

import (
	"bytes"
	"io"

	"go.yaml.in/yaml/v3"
)

// SameValues reports whether the YAML texts a and b hold the same
// documents, comments and layout aside: the same nodes (kinds, tags,
// values, styles, anchors and aliases) in the same order. Both must parse;
// a text that does not, or is more than maxSameDocs documents, is the same
// as nothing. gymlint --add-noqa asks it whether the comments it adds to a
// config stayed comments (and did not, say, land inside a block scalar or
// split a multi-line scalar).
func SameValues(a, b []byte) bool {
	da, ok := documents(a)
	if !ok {
		return false
	}
	db, ok := documents(b)
	if !ok || len(da) != len(db) {
		return false
	}
	for i := range da {
		if !sameNode(da[i], db[i], 0) {
			return false
		}
	}
	return true
}

// maxSameDocs bounds the documents SameValues reads.
const maxSameDocs = 64

// documents parses every document of data.
func documents(data []byte) ([]*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for len(docs) <= maxSameDocs {
		n := new(yaml.Node)
		err := decode(dec, n)
		if err == io.EOF {
			return docs, true
		}
		if err != nil {
			return nil, false
		}
		docs = append(docs, n)
	}
	return nil, false
}

// sameNode compares two nodes as SameValues does. An alias is compared by
// the anchor it names, not followed: the anchored node is compared where
// it is written.
func sameNode(a, b *yaml.Node, depth int) bool {
	if a == nil || b == nil {
		return a == b
	}
	if depth > maxDepth {
		return false
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		len(a.Content) != len(b.Content) {
		return false
	}
	if a.Kind == yaml.AliasNode {
		return (a.Alias == nil) == (b.Alias == nil) && (a.Alias == nil || a.Alias.Anchor == b.Alias.Anchor)
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i], depth+1) {
			return false
		}
	}
	return true
}
