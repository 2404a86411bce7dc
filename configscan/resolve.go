package configscan

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxDepth bounds the nesting depth the resolver follows (aliases included),
// which keeps the recursion on the goroutine stack small. yaml.v3 itself
// accepts up to 10000 flow levels plus 10000 block indents.
const maxDepth = 10000

const mergeTag = "!!merge"

// resolver turns yaml.v3 node trees into resolved Node trees: aliases are
// followed (each use becomes its own copy) and merge keys are applied the way
// PyYAML, and therefore OmegaConf.load, applies them.
//
// Copying aliased values means a small file can ask for a huge tree (the
// "billion laughs" pattern), so every node the resolver builds costs one
// visit from a per-file budget; once the budget is spent it stops.
type resolver struct {
	lx        *lineIndex
	limit     int // Options.MaxNodeVisits
	budget    int // visits allowed so far: limit + the nodes written in the file
	visits    int
	exhausted bool
	deep      bool                // a nesting problem was already reported
	active    map[*yaml.Node]bool // anchored containers being resolved (cycle detection)
	problems  []Problem
	// origin is the file's, set on every node and pair (Node.Origin).
	origin *Origin
}

func (r *resolver) pos(n *yaml.Node) Pos { return r.lx.pos(n.Line, n.Column) }

func (r *resolver) report(p Pos, kind, msg, help string) {
	r.problems = append(r.problems, Problem{Pos: p, Kind: kind, Message: msg, Help: help})
}

// placeholder stands in for a value that could not be resolved (a cycle, too
// deep, budget spent); a Problem has already been reported for it.
func (r *resolver) placeholder(n *yaml.Node) *Node {
	return &Node{Kind: NullNode, Tag: "!!null", Pos: r.pos(n), Origin: r.origin, unresolved: true}
}

// spend takes cost visits from the budget and reports false (once, with a
// Problem at n) when the budget is spent.
func (r *resolver) spend(cost int, n *yaml.Node) bool {
	if r.exhausted {
		return false
	}
	r.visits += cost
	if r.visits <= r.budget {
		return true
	}
	r.exhausted = true
	r.report(r.pos(n), "aliasing", fmt.Sprintf(
		"excessive aliasing: expanding the aliases and merge keys of this file needs more than %d extra node visits, so the file is not analysed further",
		r.limit), "remove the aliases that multiply (each alias is a full copy when OmegaConf loads the file)")
	return false
}

// resolve returns the resolved form of n, or nil if it could not be resolved
// (the reason has been reported).
func (r *resolver) resolve(n *yaml.Node, depth int) *Node {
	if n == nil || r.exhausted {
		return nil
	}
	if !r.spend(1, n) {
		return nil
	}
	if depth > maxDepth {
		if !r.deep {
			r.deep = true
			r.report(r.pos(n), "nesting", fmt.Sprintf(
				"values are nested more than %d levels deep (counting aliases), so the deeper part is not analysed", maxDepth), "flatten the structure")
		}
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &Node{Kind: NullNode, Tag: "!!null", Pos: r.pos(n), Origin: r.origin}
		}
		return r.resolve(n.Content[0], depth+1)
	case yaml.AliasNode:
		t := n.Alias
		if t == nil {
			return &Node{Kind: NullNode, Tag: "!!null", Pos: r.pos(n), Origin: r.origin}
		}
		if r.active[t] {
			r.report(r.pos(n), "aliasing", fmt.Sprintf(
				"recursive alias *%s: it is used inside the value anchored as &%s, so the value would contain itself",
				clip(n.Value), clip(n.Value)), "remove the cycle")
			return nil
		}
		return r.resolve(t, depth+1)
	case yaml.ScalarNode:
		kind := ScalarNode
		if n.Tag == "!!null" {
			kind = NullNode
		}
		start := r.pos(n)
		return &Node{Kind: kind, Value: n.Value, Tag: n.Tag, Pos: start, End: r.lx.scalarEnd(start, n), Origin: r.origin}
	case yaml.SequenceNode:
		if n.Anchor != "" {
			r.active[n] = true
			defer delete(r.active, n)
		}
		out := &Node{Kind: SequenceNode, Tag: n.Tag, Pos: r.pos(n), Origin: r.origin}
		if len(n.Content) > 0 {
			out.Items = make([]*Node, 0, len(n.Content))
		}
		for _, c := range n.Content {
			item := r.resolve(c, depth+1)
			if item == nil {
				item = r.placeholder(c)
			}
			out.Items = append(out.Items, item)
		}
		return out
	case yaml.MappingNode:
		if n.Anchor != "" {
			r.active[n] = true
			defer delete(r.active, n)
		}
		return r.mapping(n, depth)
	}
	return &Node{Kind: NullNode, Tag: "!!null", Pos: r.pos(n), Origin: r.origin}
}

// mapping resolves a mapping with PyYAML's merge semantics
// (SafeConstructor.flatten_mapping followed by dict construction):
//
//   - the pairs brought by all << keys come first, in the order of the <<
//     keys; for `<<: [*a, *b]` the pairs of b come before those of a, so
//     that a (listed first) wins;
//   - then the explicit pairs, in document order;
//   - a later pair for the same key replaces the value of an earlier one but
//     keeps its place (Python dicts keep the first insertion position).
//
// So explicit keys override merged keys, and the last explicit duplicate
// wins.
func (r *resolver) mapping(n *yaml.Node, depth int) *Node {
	out := &Node{Kind: MappingNode, Tag: n.Tag, Pos: r.pos(n), Origin: r.origin}
	var merged, local []Pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kt := k
		if kt.Kind == yaml.AliasNode {
			kt = kt.Alias
		}
		if kt == nil || kt.Kind != yaml.ScalarNode {
			// A sequence or mapping used as a key: it cannot be looked up
			// by name (and PyYAML rejects it as unhashable); leave it out.
			continue
		}
		if kt.Tag == mergeTag {
			merged = append(merged, r.merge(k, v, depth)...)
			continue
		}
		val := r.resolve(v, depth+1)
		if val == nil {
			val = r.placeholder(v)
		}
		local = append(local, Pair{Key: kt.Value, KeyPos: r.pos(k), Value: val, KeyOrigin: r.origin})
	}
	all := append(merged, local...)
	if len(all) == 0 {
		return out
	}
	index := make(map[string]int, len(all))
	out.Pairs = make([]Pair, 0, len(all))
	for _, p := range all {
		if j, ok := index[p.Key]; ok {
			out.Pairs[j] = p
			continue
		}
		index[p.Key] = len(out.Pairs)
		out.Pairs = append(out.Pairs, p)
	}
	return out
}

// merge resolves the value of the << key k and returns the pairs it brings,
// marked as merged at k's position.
func (r *resolver) merge(k, v *yaml.Node, depth int) []Pair {
	mpos := r.pos(k)
	mv := r.resolve(v, depth+1)
	if mv == nil {
		return nil
	}
	var out []Pair
	take := func(m *Node) {
		// Copying pairs is work too: chains of merges (each mapping
		// merging the previous one) copy quadratically many pairs.
		if !r.spend(len(m.Pairs), k) {
			return
		}
		for _, p := range m.Pairs {
			p.Merged = true
			p.MergePos = mpos
			out = append(out, p)
		}
	}
	switch mv.Kind {
	case MappingNode:
		take(mv)
	case SequenceNode:
		for i := len(mv.Items) - 1; i >= 0; i-- {
			it := mv.Items[i]
			if it.Kind == MappingNode {
				take(it)
			} else if !it.unresolved {
				r.report(it.Pos, "bad-merge", fmt.Sprintf(
					"a << merge list may only hold mappings, but this item is %s, so OmegaConf.load rejects the file", describe(it)), "use an alias of a mapping here")
			}
		}
	default:
		r.report(mv.Pos, "bad-merge", fmt.Sprintf(
			"the value of a << merge key must be a mapping or a list of mappings, but it is %s, so OmegaConf.load rejects the file", describe(mv)), "merge an alias of a mapping instead")
	}
	return out
}

// checkDuplicates walks the tree as written (aliases are not followed, so
// each mapping is checked once) and reports every explicit key that repeats
// an earlier key of the same mapping, with the fix fx makes for it. It
// returns the number of nodes in the tree. Merge keys are not explicit
// keys: overriding a merged key is fine.
//
// OmegaConf's loader raises a ConstructorError for a repeated key whose tag
// is !!str; repeated keys of other types (e.g. `1:`) load, with the later
// value silently winning. Both are reported, with different advice.
func checkDuplicates(root *yaml.Node, fx *duplicateFixer, report func(Problem)) int {
	count := 0
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		count++
		if n.Kind == yaml.AliasNode {
			continue
		}
		if n.Kind == yaml.MappingNode {
			// The index in n.Content of each key's first occurrence: by a
			// scan of the keys before it in a small mapping (most are),
			// by a map in a large one.
			var seen map[string]int
			small := len(n.Content) <= 2*smallMapping
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				kt := explicitKey(k)
				if kt == nil {
					continue
				}
				first, dup := -1, false
				if small {
					for j := 0; j < i && !dup; j += 2 {
						if kj := explicitKey(n.Content[j]); kj != nil && kj.Tag == kt.Tag && kj.Value == kt.Value {
							first, dup = j, true
						}
					}
				} else {
					id := kt.Tag + "\x00" + kt.Value
					first, dup = seen[id]
					if !dup {
						if seen == nil {
							seen = make(map[string]int)
						}
						seen[id] = i
					}
				}
				if !dup {
					continue
				}
				effect := "OmegaConf.load rejects duplicate keys"
				if kt.Tag != "!!str" {
					effect = "the later value silently replaces the earlier one"
				}
				p := Problem{
					Pos:     fx.lx.pos(k.Line, k.Column),
					Kind:    "duplicate-key",
					Message: fmt.Sprintf("duplicate key %q (first at line %d): %s", clip(kt.Value), n.Content[first].Line, effect),
					Help:    "remove one of them",
				}
				if k.Kind == yaml.ScalarNode {
					p.Fix = fx.fix(n, first, i)
				}
				report(p)
			}
		}
		stack = append(stack, n.Content...)
	}
	return count
}

// smallMapping is the number of keys up to which checkDuplicates compares
// a mapping's keys one with another rather than through a map.
const smallMapping = 16

// explicitKey is the scalar node a mapping key k names (itself, or what
// its alias names), nil for a merge key or a key that is no scalar.
func explicitKey(k *yaml.Node) *yaml.Node {
	if k.Kind == yaml.AliasNode {
		k = k.Alias
	}
	if k == nil || k.Kind != yaml.ScalarNode || k.Tag == mergeTag {
		return nil
	}
	return k
}

// describe names the kind of a value for messages.
func describe(n *Node) string {
	if n == nil {
		return "missing"
	}
	switch n.Kind {
	case NullNode:
		return "null"
	case MappingNode:
		return "a mapping"
	case SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!str":
		if n.Value == "" {
			return "an empty string"
		}
		return fmt.Sprintf("the string %q", clip(n.Value))
	case "!!int":
		return "the integer " + clip(n.Value)
	case "!!float":
		return "the number " + clip(n.Value)
	case "!!bool":
		return "the boolean " + clip(n.Value)
	case "!!timestamp":
		return "the timestamp " + clip(n.Value)
	}
	return fmt.Sprintf("a %s value %q", clip(n.Tag), clip(n.Value))
}

// shown is a key or value as a message shows it: clipped, and quoted with
// escapes when it holds a control character (a NUL byte, a terminal
// escape), which a message must not carry as it is.
func shown(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return strconv.Quote(clip(s))
	}
	return clip(s)
}

// clip shortens text quoted in messages, so that a huge key or value does not
// produce a huge message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
