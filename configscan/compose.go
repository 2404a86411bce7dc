package configscan

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
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
// every node where it was written (Node.Origin; Run.OriginOf gives the
// include chain of that file) and, for each inherited or copied value, the
// directive that brought it (Run.Moves).
//
// The trees of the files a run loads are not copied: the composed tree
// shares them, and they are never changed, so that the runs of many
// configs that include the same files share those files' trees (100
// configs that included the same 250 files held 100 copies of them, 3.7
// GB). The merge and the directives copy only the mappings they change
// (and the path from the root to them): a run holds its merged top levels
// and what its directives rewrote, and points into the files' trees for
// the rest.

// Include is one step of an include chain: the config_paths entry of File
// at Pos that named the next file.
type Include struct {
	File  string
	Pos   Pos
	End   Pos    // where the entry ends, when it is a scalar on one line (Node.End)
	Entry string // the entry as written
}

// Origin is where a value comes from: the file it is written in and, as
// Run.OriginOf and a ComposeProblem give it, the includes that brought
// that file into the run, from the run's root file (empty for the root file
// itself, and in the origin a node carries, Node.Origin).
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

// Loader returns the parsed file at a root-relative slash path (a File of
// Parse or Decode, whose trees the runs share and must not change). An
// error that wraps fs.ErrNotExist means there is no such file.
type Loader func(p string) (*File, error)

// ComposeOptions bound and configure Compose.
type ComposeOptions struct {
	Load Loader
	// Source, when set, returns the text of a file (a root-relative slash
	// path), for the fixes that rewrite what it says (a config_paths entry
	// written relative to its file: see includeFix).
	Source      func(p string) ([]byte, error)
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

	// origins are the origins of the run's files with their include
	// chains: the files Compose was given and Includes.
	origins map[string]*Origin
}

// OriginOf returns the origin of the run's file at path p, with the include
// chain that brought it into the run (empty for a file Compose was given),
// or nil when p is not a file of the run. A composed node carries only its
// file (Node.Origin): the node is the one of that file's parse, which other
// runs share.
func (r *Run) OriginOf(p string) *Origin {
	if r == nil {
		return nil
	}
	return r.origins[p]
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
	// load read.
	filesOnly bool
	loaded    []*File
	// owned are the nodes this composition made (copies of the nodes of
	// the files' trees, which it never changes): the only ones it
	// changes. Each is in one place of the tree it builds, but for the
	// value of a mapping that a directive replaced, which only the tree
	// before the directives (frozen) still reaches.
	owned map[*Node]bool
	// subst are the copies that stand, in a mapping this composition
	// made, for the values they replaced (ownValue, ownPath).
	subst map[slot]*Node
	// files are the files loaded, by the origin their nodes carry, and
	// need what needs found of each node.
	files map[*Origin]*File
	need  map[*Node]bool
}

func (c *composer) problem(o *Origin, p Pos, kind, msg, help string, fatal bool) {
	// A problem names its file with the include chain (the origin a node
	// carries has none).
	if o != nil && c.run.origins[o.File] != nil {
		o = c.run.origins[o.File]
	}
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
	c := &composer{opts: opts, run: &Run{File: file, Includes: map[string]*Origin{}, Moves: map[*Node]Move{}, origins: map[string]*Origin{}}}
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
			root = c.own(t)
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
// files' trees (theirs, not copies) in merge order.
func (c *composer) load(files []string) []*Node {
	var list []*entry
	index := map[string]int{}
	for _, file := range files {
		if _, dup := index[file]; !dup {
			index[file] = len(list)
			list = append(list, &entry{path: file, origin: &Origin{File: file}})
			c.run.origins[file] = list[len(list)-1].origin
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
				c.run.Problems[len(c.run.Problems)-1].Fix = c.includeFix(last)
			} else {
				c.problem(parent, last.Pos, KindIncludeBad, fmt.Sprintf("config_paths entry %q cannot be read: %v", clip(last.Entry), err), "", true)
			}
			continue
		}
		if len(f.Docs) == 0 || f.Docs[0] == nil {
			e.tree = &Node{Kind: MappingNode, Tag: "!!map", Origin: fileOrigin(f, e.path)}
			continue
		}
		if len(f.Docs) > 1 || f.Docs[0].Kind != MappingNode {
			// Gym rejects it (a second document, or not a mapping);
			// the per-file rules report that.
			if f.Docs[0].Kind != MappingNode {
				e.tree = &Node{Kind: MappingNode, Tag: "!!map", Origin: fileOrigin(f, e.path)}
				continue
			}
		}
		if c.filesOnly {
			c.loaded = append(c.loaded, f)
			e.tree = f.Docs[0]
		} else {
			e.tree = c.adopt(f, e.path)
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
			in := Include{File: e.path, Pos: it.Pos, End: it.End, Entry: it.Value}
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
			c.run.origins[p] = ne.origin
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
	// A backslash separates only where the OS's separator is one
	// (Windows); elsewhere it is a character of the file's name, as it is
	// for Gym's open().
	p := path.Clean(filepath.ToSlash(s))
	if p == ".." || strings.HasPrefix(p, "../") {
		c.problem(e.origin, in.Pos, KindIncludeOutside,
			fmt.Sprintf("config_paths entry %q leaves the repository root, which gymlint does not read", clip(s)),
			"write it relative to the repository root", false)
		return "", false
	}
	return p, true
}

func (c *composer) missingHelp(in Include) string {
	if rel, ok := c.fileRelative(in); ok {
		return fmt.Sprintf("config_paths entries are relative to the repository root (Gym's working directory), not to the including file: write %s", rel)
	}
	return "write the path relative to the repository root, or remove the entry"
}

// fileRelative returns the path, relative to the repository root, that
// a config_paths entry that names no file names relative to the directory
// of the file that lists it, when a config is there: what the author
// meant, most likely (Gym looks entries up from its working directory,
// the repository root, and from the roots it is told of, not from the
// including file).
func (c *composer) fileRelative(in Include) (string, bool) {
	rel := path.Clean(path.Join(path.Dir(in.File), in.Entry))
	if rel == path.Clean(in.Entry) || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	if f, err := c.opts.Load(rel); err != nil || f == nil {
		return "", false
	}
	return rel, true
}

// includeFix is the fix of a config_paths entry that names no file but
// names a config relative to the directory of the file that lists it
// (fileRelative): the entry becomes that config's path from the
// repository root, written as the entry was (plain, single- or
// double-quoted: sameScalarStyle). No fix without Options.Source, for an
// entry that is not a one-line scalar written where it is reported (an
// alias, a block scalar, a tagged or anchored one), or when the new path
// cannot be written in the entry's style.
//
// It is unsafe: Gym stops the run now, and with the fix it includes a
// config that the run did not include before, whose values merge into the
// run; a person checks that it is the config meant.
func (c *composer) includeFix(in Include) *Fix {
	rel, ok := c.fileRelative(in)
	if !ok || c.opts.Source == nil || in.End.Offset <= in.Pos.Offset {
		return nil
	}
	data, err := c.opts.Source(in.File)
	if err != nil || in.End.Offset > len(data) {
		return nil
	}
	text, ok := sameScalarStyle(string(data[in.Pos.Offset:in.End.Offset]), in.Entry, rel)
	if !ok {
		return nil
	}
	return &Fix{Message: "Write the path from the repository root: " + shown(rel), Edits: []Edit{{Start: in.Pos, End: in.End, Text: text}}}
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

// fileOrigin is the origin of f's nodes.
func fileOrigin(f *File, p string) *Origin {
	if f.origin != nil {
		return f.origin
	}
	return &Origin{File: p}
}

// adopt returns the tree of f's document for the run, and counts its nodes
// against MaxNodes as if they were copied: a file of Parse's, whose nodes
// carry its origin, as it is; one made otherwise, copied with an origin.
func (c *composer) adopt(f *File, p string) *Node {
	size, _ := f.shape()
	if f.origin == nil {
		o := &Origin{File: p}
		var cp func(n *Node) *Node
		cp = func(n *Node) *Node {
			out := *n
			out.Origin = o
			out.Pairs, out.Items = nil, nil
			for _, pr := range n.Pairs {
				pr.Value = cp(pr.Value)
				pr.KeyOrigin = o
				out.Pairs = append(out.Pairs, pr)
			}
			for _, it := range n.Items {
				out.Items = append(out.Items, cp(it))
			}
			return &out
		}
		t := cp(f.Docs[0])
		c.spendTree(t, size, false)
		return t
	}
	if c.files == nil {
		c.files = map[*Origin]*File{}
	}
	c.files[f.origin] = f
	c.spendTree(f.Docs[0], size, false)
	return f.Docs[0]
}

// spendTree counts the size nodes of the tree of n (as it is, or with
// frozen as it was before the directives) against MaxNodes, as copying
// them one by one would: when they do not all fit, the bound is reported
// at the node a copy would have stopped at.
func (c *composer) spendTree(n *Node, size int, frozen bool) bool {
	if c.over {
		return false
	}
	if c.nodes+size <= c.opts.MaxNodes {
		c.nodes += size
		return true
	}
	var walk func(n *Node) bool
	walk = func(n *Node) bool {
		if !c.spend(n.Origin, n.Pos) {
			return false
		}
		ps := n.Pairs
		if frozen {
			ps = c.frozen(n)
		}
		for _, p := range ps {
			if !walk(p.Value) {
				return false
			}
		}
		for _, it := range n.Items {
			if !walk(it) {
				return false
			}
		}
		return true
	}
	return walk(n)
}

// treeSize counts the nodes of the tree of n (with frozen, as it was
// before the directives), up to limit.
func (c *composer) treeSize(n *Node, frozen bool, limit int) int {
	count := 0
	var walk func(n *Node)
	walk = func(n *Node) {
		if count > limit {
			return
		}
		count++
		ps := n.Pairs
		if frozen {
			ps = c.frozen(n)
		}
		for _, p := range ps {
			walk(p.Value)
		}
		for _, it := range n.Items {
			walk(it)
		}
	}
	walk(n)
	return count
}

// own returns n if this composition made it, else a copy of n that it
// made and may change: the same values (not copies of them) in arrays of
// its own.
func (c *composer) own(n *Node) *Node {
	if c.owned[n] {
		return n
	}
	out := *n
	if n.Pairs != nil {
		out.Pairs = append(make([]Pair, 0, len(n.Pairs)), n.Pairs...)
	}
	if n.Items != nil {
		out.Items = append(make([]*Node, 0, len(n.Items)), n.Items...)
	}
	if c.owned == nil {
		c.owned = map[*Node]bool{}
	}
	c.owned[&out] = true
	return &out
}

// slot is a value in a mapping: the copy that replaced old in parent
// (subst).
type slot struct{ parent, old *Node }

// replace puts the copy o in the place of the i-th value of n, a mapping
// this composition made. n's pairs change in place, not through setPairs:
// the copy has the same content, so the tree before the directives is the
// same.
func (c *composer) replace(n *Node, i int, o *Node) {
	if c.subst == nil {
		c.subst = map[slot]*Node{}
	}
	c.subst[slot{n, n.Pairs[i].Value}] = o
	n.Pairs[i].Value = o
}

// current is what stands for v, a value d had, now: the copy that
// replaced it in d, if one did. (A directive may have taken v out of d
// since; swap still goes through it, as _recursively_swap_keys_helper
// goes through the items it listed first.)
func (c *composer) current(d, v *Node) *Node {
	if o := c.subst[slot{d, v}]; o != nil {
		return o
	}
	return v
}

// ownValue makes v, the value of key k of d (a mapping this composition
// made), a node it made, in d's place, and returns it. A v that d no
// longer holds (a directive took it out) is copied on its own.
func (c *composer) ownValue(d *Node, k string, v *Node) *Node {
	if c.owned[v] {
		return v
	}
	o := c.own(v)
	if i := pairIndex(d, k); i >= 0 && d.Pairs[i].Value == v {
		c.replace(d, i, o)
	} else {
		if c.subst == nil {
			c.subst = map[slot]*Node{}
		}
		c.subst[slot{d, v}] = o
	}
	return o
}

// ownPath makes the mapping at the dotted path parts from root, and every
// mapping on the way, nodes this composition made (as ownValue does), and
// returns it. The path exists (lookup found it).
func (c *composer) ownPath(root *Node, parts []string) *Node {
	n := root
	for _, k := range parts {
		i := pairIndex(n, k)
		if i < 0 {
			return n
		}
		v := n.Pairs[i].Value
		if !c.owned[v] {
			v = c.own(v)
			c.replace(n, i, v)
		}
		n = v
	}
	return n
}

// needs reports whether swap has anything to do in n: a mapping in it (n
// included) has a directive key, or a pair whose value is a directive
// string. Most files have no directive at all (File.shape), and their
// trees are not walked.
func (c *composer) needs(n *Node) bool {
	if !c.owned[n] {
		if f := c.files[n.Origin]; f != nil {
			if _, any := f.shape(); !any {
				return false
			}
		}
	}
	if v, ok := c.need[n]; ok {
		return v
	}
	found := false
	switch n.Kind {
	case MappingNode:
		for _, p := range n.Pairs {
			if isDirective(p) || c.needs(p.Value) {
				found = true
				break
			}
		}
	case SequenceNode:
		for _, it := range n.Items {
			if it.Kind == MappingNode && c.needs(it) {
				found = true
				break
			}
		}
	}
	if c.need == nil {
		c.need = map[*Node]bool{}
	}
	c.need[n] = found
	return found
}

// isDirective reports whether p is a directive key, or a key whose value
// is a directive string (see swap).
func isDirective(p Pair) bool {
	switch p.Key {
	case deleteKey, inheritKey, copyKey:
		return true
	}
	v := p.Value
	return v.Kind == ScalarNode && (strings.HasPrefix(v.Value, "${inherit_from:") || strings.HasPrefix(v.Value, "${copy:"))
}

// shape returns, once, the number of nodes of the tree of f's first
// document and whether it holds a directive (isDirective).
func (f *File) shape() (size int, directives bool) {
	f.treeOnce.Do(func() {
		if len(f.Docs) == 0 || f.Docs[0] == nil {
			return
		}
		stack := []*Node{f.Docs[0]}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.treeSize++
			for _, p := range n.Pairs {
				if !f.directives && isDirective(p) {
					f.directives = true
				}
				stack = append(stack, p.Value)
			}
			stack = append(stack, n.Items...)
		}
	})
	return f.treeSize, f.directives
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

// copyFrozen returns the tree of n as it was before any directive, as a
// new node that this composition may change. It shares what no directive
// changed (the nodes of the files' trees) and copies the rest; its cost
// against MaxNodes is the size of the whole tree, as if it were copied.
func (c *composer) copyFrozen(n *Node) *Node {
	if n == nil {
		return nil
	}
	if !c.spendTree(n, c.treeSize(n, true, c.opts.MaxNodes-c.nodes), true) {
		return &Node{Kind: NullNode, Tag: "!!null", Origin: n.Origin}
	}
	return c.own(c.frozenTree(n))
}

// frozenTree is the tree of n as it was before any directive: n itself
// when this composition did not make it (a node of a file's tree, which
// nothing changes), else a copy made of the pairs it had then.
func (c *composer) frozenTree(n *Node) *Node {
	if !c.owned[n] {
		return n
	}
	out := *n
	out.Pairs, out.Items = nil, nil
	if ps := c.frozen(n); ps != nil {
		out.Pairs = make([]Pair, len(ps))
		for i, p := range ps {
			p.Value = c.frozenTree(p.Value)
			out.Pairs[i] = p
		}
	}
	if n.Items != nil {
		out.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			out.Items[i] = c.frozenTree(it)
		}
	}
	c.owned[&out] = true
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

// merge merges src into dest as OmegaConf.merge does and returns the
// result: dest if this composition made it, else a copy of dest that it
// made (mappings merged into are copied, never changed). src's nodes are
// taken, not copied.
func (c *composer) merge(dest, src *Node) *Node {
	if dest.Kind != MappingNode || src.Kind != MappingNode {
		return src
	}
	dest = c.own(dest)
	// Keys are unique in a mapping: an index finds them in the large ones.
	var index map[string]int
	if len(dest.Pairs) > 16 {
		index = make(map[string]int, len(dest.Pairs)+len(src.Pairs))
		for i, p := range dest.Pairs {
			if _, dup := index[p.Key]; !dup {
				index[p.Key] = i
			}
		}
	}
	for _, sp := range src.Pairs {
		i := -1
		if index != nil {
			if j, ok := index[sp.Key]; ok {
				i = j
			}
		} else {
			i = pairIndex(dest, sp.Key)
		}
		if i < 0 {
			if index != nil {
				index[sp.Key] = len(dest.Pairs)
			}
			dest.Pairs = append(dest.Pairs, sp)
			continue
		}
		dp := &dest.Pairs[i]
		switch {
		case dp.Value.Kind == MappingNode && sp.Value.Kind == MappingNode:
			dp.Value = c.merge(dp.Value, sp.Value)
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

// swap applies the directives in d, a mapping this composition made, as
// _recursively_swap_keys_helper does. It goes only where there is a
// directive (needs), making the mappings it changes its own on the way.
func (c *composer) swap(d, root *Node, depth int) {
	if c.over || depth > maxDepth {
		return
	}
	items := append([]Pair(nil), d.Pairs...)
	for _, it := range items {
		k, v := it.Key, c.current(d, it.Value)
		var toDelete []string
		var delPair Pair
		isDelete := false
		if v.Kind == MappingNode && c.needs(v) {
			v = c.ownValue(d, k, v)
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
		} else if v.Kind == SequenceNode && c.needs(v) {
			v = c.ownValue(d, k, v)
			for i, x := range v.Items {
				if x.Kind == MappingNode && c.needs(x) {
					if !c.owned[x] {
						x = c.own(x)
						v.Items[i] = x
					}
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
		if v.Kind == MappingNode && c.owned[v] {
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
			c.removePair(c.ownPath(root, parts[:len(parts)-1]), parts[len(parts)-1])
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
			o := dirNode.Origin
			if full := c.run.origins[o.File]; full != nil {
				o = full
			}
			c.run.Moves[val] = Move{Directive: directive, From: from, Pos: dirNode.Pos, Origin: o}
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
	c := &composer{opts: opts, run: &Run{File: file, Includes: map[string]*Origin{}, origins: map[string]*Origin{}}, filesOnly: true}
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
