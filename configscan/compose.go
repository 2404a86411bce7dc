package configscan

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Composition: how Gym turns the configs it is given into one config.
//
// nemo_gym's parser (GlobalConfigDictParser.parse) does, in order:
//
//  1. config_paths: the files it is given are the first entries of a list;
//     each file is loaded in list order (OmegaConf.load) and the entries of
//     its own config_paths that are not yet in the list are appended, so
//     the list grows breadth first and every entry is loaded once (a
//     repeated entry, and so a cycle, is skipped with a printed note). An
//     entry is a path relative to the working directory (the repository
//     root here; NEMO_GYM_EXTRA_ROOTS and the install root come after it),
//     not to the file that names it. A missing entry stops the run
//     (ConfigPathNotFoundError).
//  2. The loaded files are merged (OmegaConf.merge, left to right) in the
//     post-order of the include tree: a file after everything it pulled
//     in, and siblings in listed order, so an including file overrides
//     what it includes, and a later sibling an earlier one. Mappings merge
//     key by key; anything else (a scalar, a list, null) replaces; a "???"
//     does not replace a mapping.
//  3. Directives (_recursively_swap_keys), walking the merged config depth
//     first in key order: a mapping with `_delete_key: a, b` loses those
//     keys; a mapping with `_inherit_from: x.y` (or the string
//     "${inherit_from:x.y}") becomes the value at the dotted path x.y of
//     the merged config as it was before any directive, with the mapping's
//     own keys merged over it, and the value at x.y is removed (moved); a
//     `_copy` (or "${copy:x.y}") does the same without removing. A path
//     that does not exist stops the run (InheritPathNotFoundError), and so
//     does a _delete_key naming a key that neither the mapping nor the
//     inherited value has.
//
// Compose does the same over resolved Node trees, without evaluating any
// ${...} interpolation (Node.Interpolation tells them apart), and keeps on
// every node where it was written (Node.Origin) and, for each inherited or
// copied value, the directive that brought it (Run.Moves).

// Include is one step of an include chain: the config_paths entry of File
// at Pos that named the next file.
type Include struct {
	File  string
	Pos   Pos
	Entry string // the entry as written
}

// Origin is where a composed value comes from: the file it is written in
// and the includes that brought that file into the run, from the run's
// root file (empty for the root file itself).
type Origin struct {
	File  string
	Chain []Include
}

// Move is an _inherit_from or _copy that gave a mapping its value.
type Move struct {
	Directive string // "_inherit_from" or "_copy"
	From      string // the dotted path
	Pos       Pos    // the directive's value (or the string form)
	Origin    *Origin
}

// ComposeProblem is something wrong with the composition of a run, at a
// position in one of its files.
type ComposeProblem struct {
	Problem
	Origin *Origin // the file of Pos, with its include chain
	// Fatal is set when Gym stops the run for it (a missing include, an
	// inherit path that does not exist) or gymlint gave up (a bound).
	Fatal bool
}

// Problem kinds of composition.
const (
	KindIncludeMissing = "include-missing"
	KindIncludeOutside = "include-outside-root"
	KindIncludeCycle   = "include-cycle"
	KindIncludeBad     = "include-bad"       // config_paths not a list of strings, unreadable file
	KindComposeLimit   = "compose-limit"     // includes, depth or nodes beyond the bounds
	KindDirective      = "directive-invalid" // an inherit/copy path that does not exist, a bad _delete_key
)

// Loader returns the parsed file at a root-relative slash path. An error
// that wraps fs.ErrNotExist means there is no such file.
type Loader func(p string) (*File, error)

// ComposeOptions bound and configure Compose.
type ComposeOptions struct {
	Load        Loader
	ServerTypes []string // nil: DefaultServerTypes
	MaxIncludes int      // files in one run; 0: 256
	MaxDepth    int      // include chain length; 0: 32
	MaxNodes    int      // nodes built for one run (copies included); 0: 200000
}

// Run is one composed top-level config: what Gym would start when given
// File alone (`gym env start --config File`).
type Run struct {
	File  string
	Root  *Node    // the composed config (a mapping), nil when it could not be built
	Files []string // the files of the run in merge order (File last)
	// Includes maps each included file to its chain from File.
	Includes map[string]*Origin
	// Servers and Overrides are the composed config's instances (see
	// File.Servers); their Settings carry origins.
	Servers   []Instance
	Overrides []Instance
	// Moves records, for a mapping that _inherit_from or _copy built, the
	// directive.
	Moves    map[*Node]Move
	Problems []ComposeProblem
	// Fatal is set when a problem stops the run in Gym (or gymlint gave up
	// on it): rules should not judge its config.
	Fatal bool
}

// Interpolation reports whether n is a string that holds an OmegaConf
// interpolation (${...}), whose value is not known before run time.
func (n *Node) Interpolation() bool {
	return n != nil && n.Kind == ScalarNode && n.Tag == "!!str" && strings.Contains(n.Value, "${")
}

// Missing reports whether n is OmegaConf's "???" (a mandatory value not
// yet given).
func (n *Node) Missing() bool {
	return n != nil && n.Kind == ScalarNode && n.Tag == "!!str" && n.Value == "???"
}

// ChainString renders an origin as "a.yaml -> b.yaml -> c.yaml".
func (o *Origin) ChainString() string {
	if o == nil {
		return ""
	}
	var parts []string
	for _, in := range o.Chain {
		parts = append(parts, in.File)
	}
	return strings.Join(append(parts, o.File), " -> ")
}

type composer struct {
	opts  ComposeOptions
	run   *Run
	nodes int
	over  bool
	// before holds, for each mapping the directives changed, its pairs as
	// they were before any directive: the merged config that
	// _inherit_from and _copy take their values from (see frozen).
	before map[*Node][]Pair
	// loaded are, when only the files are wanted (RunFiles), the files
	// load read; their trees are not copied.
	filesOnly bool
	loaded    []*File
}

func (c *composer) problem(o *Origin, p Pos, kind, msg, help string, fatal bool) {
	c.run.Problems = append(c.run.Problems, ComposeProblem{
		Problem: Problem{Pos: p, Kind: kind, Message: msg, Help: help}, Origin: o, Fatal: fatal})
	if fatal {
		c.run.Fatal = true
	}
}

// Compose composes the run of one root-relative config file.
func Compose(file string, opts ComposeOptions) *Run { return ComposeFiles([]string{file}, opts) }

// ComposeFiles composes the run of several root-relative config files given
// together (`gym env start --config a --config b`): siblings, a later one
// overriding an earlier one. Run.File is the first.
func ComposeFiles(files []string, opts ComposeOptions) *Run {
	file := ""
	if len(files) > 0 {
		file = files[0]
	}
	if opts.MaxIncludes <= 0 {
		opts.MaxIncludes = 256
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 32
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 200000
	}
	if opts.ServerTypes == nil {
		opts.ServerTypes = DefaultServerTypes
	}
	c := &composer{opts: opts, run: &Run{File: file, Includes: map[string]*Origin{}, Moves: map[*Node]Move{}}}
	defer func() {
		if r := recover(); r != nil {
			c.problem(&Origin{File: file}, Pos{Line: 1, Col: 1}, "internal",
				fmt.Sprintf("internal error while composing this config (%v)", r), "please report it to the gymlint maintainers", true)
			c.run.Root = nil
		}
		sort.SliceStable(c.run.Problems, func(i, j int) bool {
			a, b := c.run.Problems[i], c.run.Problems[j]
			if a.Origin.File != b.Origin.File {
				return a.Origin.File < b.Origin.File
			}
			return a.Pos.Offset < b.Pos.Offset
		})
	}()
	trees := c.load(files)
	if trees == nil {
		return c.run
	}
	var root *Node
	for _, t := range trees {
		if root == nil {
			root = t
			continue
		}
		root = c.merge(root, t)
	}
	if c.over {
		return c.run
	}
	c.swap(root, root, 0)
	if c.over {
		return c.run
	}
	c.run.Root = root
	tmp := &File{}
	tmp.collect(root, 0, opts.ServerTypes)
	c.run.Servers, c.run.Overrides = tmp.Servers, tmp.Overrides
	return c.run
}

// entry is one file of the include list.
type entry struct {
	path     string
	origin   *Origin
	tree     *Node
	children []int
}

// load builds the include list breadth first, as Gym does, and returns the
// files' trees (copied, with origins) in merge order.
func (c *composer) load(files []string) []*Node {
	var list []*entry
	index := map[string]int{}
	for _, file := range files {
		if _, dup := index[file]; !dup {
			index[file] = len(list)
			list = append(list, &entry{path: file, origin: &Origin{File: file}})
		}
	}
	roots := len(list)
	for i := 0; i < len(list); i++ {
		e := list[i]
		f, err := c.opts.Load(e.path)
		if err != nil || f == nil {
			if i < roots {
				c.problem(e.origin, Pos{Line: 1, Col: 1}, KindIncludeBad, fmt.Sprintf("cannot read %s: %v", e.path, err), "", true)
				return nil
			}
			last := e.origin.Chain[len(e.origin.Chain)-1]
			parent := &Origin{File: last.File, Chain: e.origin.Chain[:len(e.origin.Chain)-1]}
			if errors.Is(err, fs.ErrNotExist) {
				c.problem(parent, last.Pos, KindIncludeMissing,
					fmt.Sprintf("config_paths entry %q names no file: Gym stops with ConfigPathNotFoundError", clip(last.Entry)),
					c.missingHelp(last), true)
			} else {
				c.problem(parent, last.Pos, KindIncludeBad, fmt.Sprintf("config_paths entry %q cannot be read: %v", clip(last.Entry), err), "", true)
			}
			continue
		}
		if len(f.Docs) == 0 || f.Docs[0] == nil {
			e.tree = &Node{Kind: MappingNode, Tag: "!!map", Origin: e.origin}
			continue
		}
		if len(f.Docs) > 1 || f.Docs[0].Kind != MappingNode {
			// Gym rejects it (a second document, or not a mapping);
			// the per-file rules report that.
			if f.Docs[0].Kind != MappingNode {
				e.tree = &Node{Kind: MappingNode, Tag: "!!map", Origin: e.origin}
				continue
			}
		}
		if c.filesOnly {
			c.loaded = append(c.loaded, f)
			e.tree = f.Docs[0]
		} else {
			e.tree = c.copyFrom(f.Docs[0], e.origin)
		}
		if c.over {
			return nil
		}
		cp := f.Docs[0].GetPair("config_paths")
		if cp == nil || cp.Value.Kind == NullNode {
			continue
		}
		if cp.Value.Kind != SequenceNode {
			c.problem(e.origin, cp.Value.Pos, KindIncludeBad,
				fmt.Sprintf("config_paths must be a list of paths, but it is %s: Gym stops with MalformedConfigPathsError", describe(cp.Value)),
				"write it as a list: config_paths: [path/to/config.yaml]", true)
			continue
		}
		for _, it := range cp.Value.Items {
			if it.Kind != ScalarNode {
				c.problem(e.origin, it.Pos, KindIncludeBad,
					fmt.Sprintf("a config_paths entry must be a path, but this one is %s", describe(it)), "write the path of a config file", true)
				continue
			}
			in := Include{File: e.path, Pos: it.Pos, Entry: it.Value}
			p, ok := c.includePath(e, in)
			if !ok {
				continue
			}
			if j, seen := index[p]; seen {
				if onChain(list[j], e) {
					c.problem(e.origin, it.Pos, KindIncludeCycle,
						fmt.Sprintf("config_paths includes %s, which includes this file (%s): Gym loads each file once and skips this entry", shown(p), cycleText(list[j], e, p)),
						"remove the entry that closes the cycle", false)
				}
				continue
			}
			if len(e.origin.Chain)+1 > c.opts.MaxDepth {
				c.problem(e.origin, it.Pos, KindComposeLimit,
					fmt.Sprintf("includes nest more than %d levels deep here, so gymlint does not compose this run", c.opts.MaxDepth), "flatten the includes", true)
				return nil
			}
			if len(list)+1 > c.opts.MaxIncludes {
				c.problem(e.origin, it.Pos, KindComposeLimit,
					fmt.Sprintf("this run includes more than %d files, so gymlint does not compose it", c.opts.MaxIncludes), "include fewer files", true)
				return nil
			}
			chain := append(append([]Include(nil), e.origin.Chain...), in)
			ne := &entry{path: p, origin: &Origin{File: p, Chain: chain}}
			index[p] = len(list)
			e.children = append(e.children, len(list))
			list = append(list, ne)
			c.run.Includes[p] = ne.origin
		}
	}
	// Post-order: a file after everything it pulled in.
	var order []*Node
	type frame struct {
		i    int
		done bool
	}
	var stack []frame
	for i := roots - 1; i >= 0; i-- {
		stack = append(stack, frame{i, false})
	}
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if fr.done {
			if t := list[fr.i].tree; t != nil {
				order = append(order, t)
				c.run.Files = append(c.run.Files, list[fr.i].path)
			}
			continue
		}
		stack = append(stack, frame{fr.i, true})
		ch := list[fr.i].children
		for k := len(ch) - 1; k >= 0; k-- {
			stack = append(stack, frame{ch[k], false})
		}
	}
	return order
}

// onChain reports whether target is e or one of the files that brought e in.
func onChain(target, e *entry) bool {
	if target.path == e.path {
		return true
	}
	for _, in := range e.origin.Chain {
		if in.File == target.path {
			return true
		}
	}
	return false
}

func cycleText(target, e *entry, p string) string {
	var parts []string
	started := false
	for _, in := range e.origin.Chain {
		if in.File == target.path {
			started = true
		}
		if started {
			parts = append(parts, in.File)
		}
	}
	parts = append(parts, e.path, p)
	return strings.Join(parts, " -> ")
}

// includePath turns a config_paths entry into a root-relative path, or
// reports why it cannot.
func (c *composer) includePath(e *entry, in Include) (string, bool) {
	s := in.Entry
	switch {
	case s == "" || strings.ContainsRune(s, 0):
		c.problem(e.origin, in.Pos, KindIncludeBad, "a config_paths entry must be a path, but this one is empty", "write the path of a config file", true)
		return "", false
	case path.IsAbs(s) || (len(s) > 1 && s[1] == ':'):
		c.problem(e.origin, in.Pos, KindIncludeOutside,
			fmt.Sprintf("config_paths entry %q is an absolute path: it depends on the machine, and gymlint reads nothing outside the repository", clip(s)),
			"write it relative to the repository root", false)
		return "", false
	}
	p := path.Clean(strings.ReplaceAll(s, "\\", "/"))
	if p == ".." || strings.HasPrefix(p, "../") {
		c.problem(e.origin, in.Pos, KindIncludeOutside,
			fmt.Sprintf("config_paths entry %q leaves the repository root, which gymlint does not read", clip(s)),
			"write it relative to the repository root", false)
		return "", false
	}
	return p, true
}

func (c *composer) missingHelp(in Include) string {
	rel := path.Clean(path.Join(path.Dir(in.File), in.Entry))
	if rel != path.Clean(in.Entry) && !strings.HasPrefix(rel, "../") {
		if f, err := c.opts.Load(rel); err == nil && f != nil {
			return fmt.Sprintf("config_paths entries are relative to the repository root (Gym's working directory), not to the including file: write %s", rel)
		}
	}
	return "write the path relative to the repository root, or remove the entry"
}

// spend counts n new nodes against the bound.
func (c *composer) spend(o *Origin, p Pos) bool {
	if c.over {
		return false
	}
	c.nodes++
	if c.nodes > c.opts.MaxNodes {
		c.over = true
		c.problem(o, p, KindComposeLimit,
			fmt.Sprintf("composing this run builds more than %d values (includes, _inherit_from and _copy each copy), so gymlint does not compose it", c.opts.MaxNodes),
			"copy less, or split the config", true)
		return false
	}
	return true
}

// copyFrom copies a parsed tree, setting origins.
func (c *composer) copyFrom(n *Node, o *Origin) *Node {
	if !c.spend(o, n.Pos) {
		return &Node{Kind: NullNode, Tag: "!!null", Origin: o}
	}
	out := *n
	out.Origin = o
	out.Pairs, out.Items = nil, nil
	if n.Pairs != nil {
		out.Pairs = make([]Pair, len(n.Pairs))
		for i, p := range n.Pairs {
			p.Value = c.copyFrom(p.Value, o)
			p.KeyOrigin = o
			out.Pairs[i] = p
		}
	}
	if n.Items != nil {
		out.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			out.Items[i] = c.copyFrom(it, o)
		}
	}
	return &out
}

// The directives read the merged config as it was before any of them
// (Gym deep-copies it first), while they change it. Instead of a copy of
// the whole tree, the directives change a mapping only through setPairs,
// which keeps the mapping's pairs as they were the first time and never
// writes into them: the tree before the directives is the tree with those
// pairs put back (frozen), and only the mappings that change are kept.

// setPairs replaces the pairs of n, a mapping of the merged config,
// keeping its first pairs for frozen. ps must not share n's array.
func (c *composer) setPairs(n *Node, ps []Pair) {
	if c.before == nil {
		c.before = map[*Node][]Pair{}
	}
	if _, kept := c.before[n]; !kept {
		c.before[n] = n.Pairs
	}
	n.Pairs = ps
}

// frozen returns the pairs n had before any directive.
func (c *composer) frozen(n *Node) []Pair {
	if ps, kept := c.before[n]; kept {
		return ps
	}
	return n.Pairs
}

// frozenGet is Node.Get in the tree before any directive.
func (c *composer) frozenGet(n *Node, key string) *Node {
	if n == nil || n.Kind != MappingNode {
		return nil
	}
	for _, p := range c.frozen(n) {
		if p.Key == key {
			return p.Value
		}
	}
	return nil
}

// copyFrozen copies the tree of n as it was before any directive, keeping
// its origins.
func (c *composer) copyFrozen(n *Node) *Node {
	if n == nil {
		return nil
	}
	if !c.spend(n.Origin, n.Pos) {
		return &Node{Kind: NullNode, Tag: "!!null", Origin: n.Origin}
	}
	out := *n
	out.Pairs, out.Items = nil, nil
	if ps := c.frozen(n); ps != nil {
		out.Pairs = make([]Pair, len(ps))
		for i, p := range ps {
			p.Value = c.copyFrozen(p.Value)
			out.Pairs[i] = p
		}
	}
	if n.Items != nil {
		out.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			out.Items[i] = c.copyFrozen(it)
		}
	}
	return &out
}

// removePair removes key from n, a mapping of the merged config.
func (c *composer) removePair(n *Node, key string) (Pair, bool) {
	i := pairIndex(n, key)
	if i < 0 {
		return Pair{}, false
	}
	p := n.Pairs[i]
	c.setPairs(n, append(n.Pairs[:i:i], n.Pairs[i+1:]...))
	return p, true
}

// setPair replaces the value of key in n, a mapping of the merged config,
// or appends the key.
func (c *composer) setPair(n *Node, key string, keyPos Pos, keyOrigin *Origin, v *Node) {
	ps := make([]Pair, len(n.Pairs), len(n.Pairs)+1)
	copy(ps, n.Pairs)
	if i := pairIndex(n, key); i >= 0 {
		ps[i].Value = v
		ps[i].Merged = false
	} else {
		ps = append(ps, Pair{Key: key, KeyPos: keyPos, KeyOrigin: keyOrigin, Value: v})
	}
	c.setPairs(n, ps)
}

// merge merges src into dest as OmegaConf.merge does and returns dest.
// Both are trees of this run (src's nodes are taken, not copied).
func (c *composer) merge(dest, src *Node) *Node {
	if dest.Kind != MappingNode || src.Kind != MappingNode {
		return src
	}
	for _, sp := range src.Pairs {
		i := pairIndex(dest, sp.Key)
		if i < 0 {
			dest.Pairs = append(dest.Pairs, sp)
			continue
		}
		dp := &dest.Pairs[i]
		switch {
		case dp.Value.Kind == MappingNode && sp.Value.Kind == MappingNode:
			c.merge(dp.Value, sp.Value)
		case dp.Value.Kind == MappingNode && sp.Value.Missing():
			// "???" does not replace a mapping.
		default:
			*dp = sp
		}
	}
	return dest
}

func pairIndex(n *Node, key string) int {
	for i := range n.Pairs {
		if n.Pairs[i].Key == key {
			return i
		}
	}
	return -1
}

const (
	inheritKey = "_inherit_from"
	copyKey    = "_copy"
	deleteKey  = "_delete_key"
)

// swap applies the directives in d, as _recursively_swap_keys_helper does.
func (c *composer) swap(d, root *Node, depth int) {
	if c.over || depth > maxDepth {
		return
	}
	items := append([]Pair(nil), d.Pairs...)
	for _, it := range items {
		k, v := it.Key, it.Value
		var toDelete []string
		var delPair Pair
		isDelete := false
		if v.Kind == MappingNode {
			if dp, ok := c.removePair(v, deleteKey); ok {
				isDelete, delPair = true, dp
				if dp.Value.Kind != ScalarNode {
					c.problem(dp.Value.Origin, dp.Value.Pos, KindDirective,
						fmt.Sprintf("_delete_key must be a comma-separated string of keys, but it is %s: Gym fails on it", describe(dp.Value)),
						"write the keys as one string: _delete_key: a, b", true)
					continue
				}
				seen := map[string]bool{}
				for _, key := range strings.Split(dp.Value.Value, ",") {
					key = strings.TrimSpace(key)
					if seen[key] {
						continue
					}
					seen[key] = true
					if _, ok := c.removePair(v, key); !ok {
						toDelete = append(toDelete, key)
					}
				}
			}
			c.swap(v, root, depth+1)
		} else if v.Kind == SequenceNode {
			for _, x := range v.Items {
				if x.Kind == MappingNode {
					c.swap(x, root, depth+1)
				}
			}
		}
		var from string
		var dirNode *Node
		directive := ""
		isSwapStr := v.Kind == ScalarNode && strings.HasPrefix(v.Value, "${inherit_from:")
		isCopyStr := v.Kind == ScalarNode && strings.HasPrefix(v.Value, "${copy:")
		var swapProp, copyProp Pair
		var isSwapProp, isCopyProp bool
		if v.Kind == MappingNode {
			swapProp, isSwapProp = c.removePair(v, inheritKey)
			copyProp, isCopyProp = c.removePair(v, copyKey)
		}
		isSwap := isSwapStr || isSwapProp
		switch {
		case isCopyStr:
			from, dirNode, directive = strings.TrimSuffix(strings.TrimPrefix(v.Value, "${copy:"), "}"), v, copyKey
		case isCopyProp:
			dirNode, directive = copyProp.Value, copyKey
		case isSwapStr:
			from, dirNode, directive = strings.TrimSuffix(strings.TrimPrefix(v.Value, "${inherit_from:"), "}"), v, inheritKey
		case isSwapProp:
			dirNode, directive = swapProp.Value, inheritKey
		default:
			continue
		}
		if isCopyProp || (!isCopyStr && isSwapProp) {
			if dirNode.Kind != ScalarNode {
				c.problem(dirNode.Origin, dirNode.Pos, KindDirective,
					fmt.Sprintf("%s must name an instance (a dotted path), but it is %s: Gym fails on it", directive, describe(dirNode)),
					"write the name of the instance to take the settings from", true)
				continue
			}
			from = dirNode.Value
		}
		parts := strings.Split(from, ".")
		container, missing, ok := c.lookup(root, parts[:len(parts)-1], false)
		if !ok {
			c.notFound(directive, from, dirNode)
			continue
		}
		if missing {
			c.setPair(d, k, it.KeyPos, it.KeyOrigin, &Node{Kind: ScalarNode, Tag: "!!str", Value: "???", Pos: dirNode.Pos, Origin: dirNode.Origin})
			continue
		}
		if isSwap && container.Kind == MappingNode {
			c.removePair(container, parts[len(parts)-1])
		}
		src, missing, ok := c.lookup(root, parts, true)
		if !ok {
			c.notFound(directive, from, dirNode)
			continue
		}
		if missing {
			c.setPair(d, k, it.KeyPos, it.KeyOrigin, &Node{Kind: ScalarNode, Tag: "!!str", Value: "???", Pos: dirNode.Pos, Origin: dirNode.Origin})
			continue
		}
		val := c.copyFrozen(src)
		if isSwapProp || isCopyProp {
			val = c.merge(val, v)
		}
		c.setPair(d, k, it.KeyPos, it.KeyOrigin, val)
		if val.Kind == MappingNode {
			c.run.Moves[val] = Move{Directive: directive, From: from, Pos: dirNode.Pos, Origin: dirNode.Origin}
		}
		if isDelete {
			for _, key := range toDelete {
				if _, ok := c.removePair(val, key); !ok {
					c.problem(delPair.Value.Origin, delPair.Value.Pos, KindDirective,
						fmt.Sprintf("_delete_key names %q, which neither this mapping nor the value it takes from %s has: Gym stops with a KeyError", clip(key), clip(from)),
						"remove the key from _delete_key", true)
				}
			}
		}
	}
}

func (c *composer) notFound(directive, from string, at *Node) {
	c.problem(at.Origin, at.Pos, KindDirective,
		fmt.Sprintf("%s names %s, which is not in the composed config: Gym stops with InheritPathNotFoundError", directive, shown(from)),
		"name an instance defined in this file or in one it includes through config_paths", true)
}

// lookup follows a dotted path from n, in the tree as it is now or, with
// frozen, as it was before any directive. missing is set when a "???" is
// met on the way (Gym then makes the target "???" too); ok is false when
// the path does not exist.
func (c *composer) lookup(n *Node, parts []string, frozen bool) (out *Node, missing, ok bool) {
	for _, k := range parts {
		if n.Kind != MappingNode {
			return nil, false, false
		}
		var v *Node
		if frozen {
			v = c.frozenGet(n, k)
		} else {
			v = n.Get(k)
		}
		if v == nil {
			return nil, false, false
		}
		if v.Missing() {
			return nil, true, true
		}
		n = v
	}
	return n, false, true
}

// RunFiles returns the files that the run of file reads, in the order
// Compose loads them (breadth first through config_paths), without
// composing it: each file Load returns that has one mapping document. A
// composed run's keys and values are all written in these files.
func RunFiles(file string, opts ComposeOptions) []*File {
	if opts.MaxIncludes <= 0 {
		opts.MaxIncludes = 256
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 32
	}
	c := &composer{opts: opts, run: &Run{File: file, Includes: map[string]*Origin{}}, filesOnly: true}
	c.load([]string{file})
	return c.loaded
}

// ComposeAll composes the run of each file.
func ComposeAll(files []string, opts ComposeOptions) []*Run {
	out := make([]*Run, 0, len(files))
	for _, f := range files {
		out = append(out, Compose(f, opts))
	}
	return out
}
