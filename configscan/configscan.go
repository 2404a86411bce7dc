package configscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
)

// DefaultServerTypes are the server type keys NeMo Gym knows.
var DefaultServerTypes = []string{"resources_servers", "responses_api_agents", "responses_api_models", "environment_servers"}

// DefaultMaxNodeVisits is the alias budget used when Options.MaxNodeVisits is 0.
const DefaultMaxNodeVisits = 100000

// Options configures Parse.
type Options struct {
	ServerTypes []string // nil means DefaultServerTypes
	// MaxNodeVisits bounds the extra work aliases and merge keys may cause:
	// the resolver may visit as many nodes as the file contains plus
	// MaxNodeVisits (a pair copied by a merge key counts as a visit).
	// 0 (or less) means DefaultMaxNodeVisits.
	MaxNodeVisits int
	// MaxValues bounds the values a file may hold (EstimateValues, counted
	// before parsing) for Parse to parse it; 0 (or less) means
	// DefaultMaxValues. See budget.go.
	MaxValues int
	// Budget, when not nil, bounds the values that the Files parsed with
	// it hold together.
	Budget *Budget
}

// Pos is a position in the file: Offset is a 0-based byte offset; Line and
// Col are 1-based, Col in bytes.
type Pos struct{ Offset, Line, Col int }

// String formats p as "line:col".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Kind is the kind of a resolved Node.
type Kind int

const (
	NullNode     Kind = iota // `~`, `null`, or an empty value
	ScalarNode               // any other scalar
	MappingNode              // a mapping
	SequenceNode             // a sequence
)

func (k Kind) String() string {
	switch k {
	case NullNode:
		return "null"
	case ScalarNode:
		return "scalar"
	case MappingNode:
		return "mapping"
	case SequenceNode:
		return "sequence"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Node is a resolved YAML value: aliases followed, merge keys applied.
type Node struct {
	Kind  Kind
	Value string // scalar text (verbatim, no interpolation)
	Tag   string // resolved yaml tag, e.g. "!!str", "!!int", "!!null"
	Pos   Pos    // where the value starts (for an alias: where the anchored value is)
	// End is where a scalar written on one line ends (after a closing
	// quote); for other nodes, and multi-line scalars, End equals Pos.
	End   Pos
	Pairs []Pair  // mappings: merged keys included (local keys override), duplicates removed (last wins); see below
	Items []*Node // sequences
	// Origin is the file the value is written in: one Origin per File,
	// shared by its nodes (Parse sets it), so that the runs Compose builds
	// share the trees of the files they include. Its Chain is empty: the
	// include chain that brought the file into a run is the run's
	// (Run.OriginOf).
	Origin *Origin

	// unresolved marks a null that stands in for a value that could not be
	// resolved (recursive alias, too deep, alias budget spent).
	unresolved bool
}

// The order of Pairs is the order of the dict OmegaConf.load builds: the
// pairs brought in by << merge keys first, then the explicit pairs in
// document order; a key that occurs more than once keeps the place of its
// first occurrence and the value (and KeyPos) of the winning one. When the
// << key is the first key of its mapping, as usual, this is document order.

// Pair is one key of a resolved mapping.
type Pair struct {
	Key    string
	KeyPos Pos // where the key is written (for a merged pair: in the merged mapping)
	Value  *Node
	Merged bool // came in through a << merge key
	// MergePos is, for a Merged pair, the position of the << key of this
	// mapping that brought it in.
	MergePos Pos
	// KeyOrigin is the file the key is written in (it can differ from
	// Value.Origin in a composed run, after _inherit_from).
	KeyOrigin *Origin
}

// Get returns the value of key, or nil if it is absent or n is not a
// mapping (or is nil).
func (n *Node) Get(key string) *Node {
	if p := n.GetPair(key); p != nil {
		return p.Value
	}
	return nil
}

// GetPair returns the pair for key, or nil if it is absent or n is not a
// mapping (or is nil).
func (n *Node) GetPair(key string) *Pair {
	if n == nil || n.Kind != MappingNode {
		return nil
	}
	for i := range n.Pairs {
		if n.Pairs[i].Key == key {
			return &n.Pairs[i]
		}
	}
	return nil
}

// Instance is one server (entrypoint present) or override (entrypoint
// absent) at <instance>:<type>:<dir>.
type Instance struct {
	Name    string
	NamePos Pos
	Type    string
	TypePos Pos
	Dir     string
	DirPos  Pos
	// Entrypoint is the entrypoint file name, "" for overrides.
	Entrypoint string
	// EntrypointPos is the position of the entrypoint value; if the
	// entrypoint came in through a << merge key of the dir mapping, it is
	// the position of that << key instead, and ViaMerge is set.
	EntrypointPos Pos
	// EntrypointEnd is where the entrypoint value ends (EntrypointPos when
	// it came through a merge).
	EntrypointEnd Pos
	ViaMerge      bool
	Settings      *Node // the mapping at the dir level (entrypoint, num_workers, ...)
	Doc           int   // 0-based index of the document in the file
}

// Problem is something wrong with the file.
type Problem struct {
	Pos Pos
	// Kind is one of "syntax", "aliasing", "duplicate-key",
	// "bad-entrypoint", "bad-merge", "nesting", "multi-document",
	// "internal", and KindTooLarge or KindBudget for a file that was not
	// parsed (budget.go).
	Kind    string
	Message string // what is wrong, in one clause
	Help    string // what to do about it ("" when the message says it all)
	// Fix is a suggested fix (fix.go), nil when there is none.
	Fix *Fix
}

// File is the result of parsing one YAML file.
type File struct {
	Path      string     // as given to Parse
	Servers   []Instance // instances with an entrypoint, in document order
	Overrides []Instance // instances at the right depth without an entrypoint
	Problems  []Problem  // sorted by position
	Docs      []*Node    // the resolved root node of each document (nil if it could not be resolved)

	gym       bool // a document has a server dir mapping (a server, an override or a bad entrypoint)
	secondDoc Pos  // where the second document starts, if there is one
	// origin is the Origin of every node of Docs (nil for a File that
	// Parse did not make).
	origin *Origin

	textOnce sync.Once
	text     string // the keys and scalar values of Docs (Mentions)

	treeOnce   sync.Once
	treeSize   int  // the nodes of Docs[0] (compose.go)
	directives bool // Docs[0] holds a directive that Compose applies

	values  int          // the nodes of Docs (Values)
	budget  *Budget      // the budget f is charged to, if any
	charged atomic.Int64 // what f is charged (budget.go)
}

// Mentions reports whether s occurs in a key or a scalar value of the
// file's documents. Composition only moves keys and values: a composed
// run none of whose files mentions s has no key or value with s in it.
func (f *File) Mentions(s string) bool {
	f.textOnce.Do(func() {
		var b strings.Builder
		seen := map[*Node]bool{}
		var walk func(n *Node)
		walk = func(n *Node) {
			if n == nil || seen[n] {
				return
			}
			seen[n] = true
			if n.Kind == ScalarNode {
				b.WriteString(n.Value)
				b.WriteByte(0)
			}
			for _, p := range n.Pairs {
				b.WriteString(p.Key)
				b.WriteByte(0)
				walk(p.Value)
			}
			for _, it := range n.Items {
				walk(it)
			}
		}
		for _, d := range f.Docs {
			walk(d)
		}
		f.text = b.String()
	})
	return strings.Contains(f.text, s)
}

// Parse reads one YAML file's bytes. It never panics and never returns nil.
func Parse(path string, data []byte, opts Options) (f *File) {
	f = &File{Path: path, origin: &Origin{File: path}}
	defer func() {
		if r := recover(); r != nil {
			f.Problems = append(f.Problems, Problem{
				Pos:     Pos{Offset: 0, Line: 1, Col: 1},
				Kind:    "internal",
				Message: fmt.Sprintf("internal error while reading this file (%v); the file is not fully analysed", r),
				Help:    "please report it to the gymlint maintainers",
			})
		}
		f.Problems = sortProblems(f.Problems)
	}()

	types := opts.ServerTypes
	if types == nil {
		types = DefaultServerTypes
	}
	limit := opts.MaxNodeVisits
	if limit <= 0 {
		limit = DefaultMaxNodeVisits
	}

	// The file is parsed only if its values fit the bounds (budget.go).
	reserved, refused := admit(path, data, opts)
	if refused != nil {
		f.Problems = append(f.Problems, *refused)
		return f
	}
	defer func() {
		f.countValues()
		opts.Budget.settle(reserved, f)
	}()

	if len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
		f.Problems = append(f.Problems, Problem{
			Pos:     Pos{Offset: 0, Line: 1, Col: 1},
			Kind:    "syntax",
			Message: "the file is UTF-16 encoded, but OmegaConf.load reads configs as UTF-8",
			Help:    "save it as UTF-8",
		})
		return f
	}

	lx := newLineIndex(data)
	r := &resolver{lx: lx, limit: limit, budget: limit, active: make(map[*yaml.Node]bool), origin: f.origin}
	defer func() { f.Problems = append(f.Problems, r.problems...) }()

	dec := yaml.NewDecoder(bytes.NewReader(data))
	fixes := 0 // duplicate keys given a fix (duplicateFixer)
	for doc := 0; ; doc++ {
		var raw yaml.Node
		err := decode(dec, &raw)
		if err == io.EOF {
			break
		}
		if err != nil {
			var ie internalError
			if errors.As(err, &ie) {
				f.Problems = append(f.Problems, Problem{
					Pos:     Pos{Offset: 0, Line: 1, Col: 1},
					Kind:    "internal",
					Message: fmt.Sprintf("internal error in the YAML parser (%v); the rest of the file is not analysed", ie.v),
					Help:    "please report it to the gymlint maintainers",
				})
			} else {
				f.Problems = append(f.Problems, syntaxProblem(err, data, lx))
			}
			break
		}
		if doc == 1 {
			f.secondDoc = lx.pos(raw.Line, raw.Column)
		}
		fx := &duplicateFixer{lx: lx, doc: doc, root: &raw, made: &fixes}
		r.budget += checkDuplicates(&raw, fx, func(p Problem) { f.Problems = append(f.Problems, p) })
		if r.exhausted {
			f.Docs = append(f.Docs, nil)
			continue
		}
		root := r.resolve(&raw, 0)
		if r.exhausted {
			// A partly resolved tree would mislead later rules.
			f.Docs = append(f.Docs, nil)
			continue
		}
		f.Docs = append(f.Docs, root)
		f.collect(root, doc, types)
	}
	f.singleDocument()
	return f
}

// singleDocument reports a config of more than one document, and drops its
// servers and overrides: OmegaConf.load, like yaml.safe_load, reads one
// document and rejects a file with another (ComposerError "expected a
// single document in the stream"), so Gym starts nothing from it. A file
// of several documents that declares no server (a Kubernetes manifest) is
// not a config, and is left alone.
func (f *File) singleDocument() {
	if len(f.Docs) < 2 || !f.gym {
		return
	}
	f.Problems = append(f.Problems, Problem{
		Pos:     f.secondDoc,
		Kind:    "multi-document",
		Message: "a second YAML document starts here: OmegaConf.load rejects the file (\"expected a single document in the stream\"), so Gym starts none of its servers",
		Help:    "put everything in one document, or split the file",
	})
	f.Servers, f.Overrides = nil, nil
}

// internalError carries a panic from inside yaml.v3.
type internalError struct{ v any }

func (e internalError) Error() string { return fmt.Sprint(e.v) }

// decode runs one Decode call and turns a panic inside yaml.v3 (which only
// recovers its own errors) into an internalError.
func decode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = internalError{v}
		}
	}()
	return dec.Decode(n)
}

var lineRE = regexp.MustCompile(`^line (\d+): `)

// parserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner). For these, yaml.v3 (v3.0.6, decode.go parser.fail) prints the
// 0-based line of the error mark, while for scanner errors it adds 1; so the
// line of a parser error is one more than the number in the message.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// syntaxProblem turns a yaml.v3 error into a Problem. yaml.v3's messages
// look like "yaml: line N: what" and carry no column. yaml.v3 leaves the
// line out when the error mark is on the first line (its marks are 0-based
// and it tests them against 0), so no line means line 1, except for errors
// from its reader (bad UTF-8, control characters) and unknown anchors, which
// never carry a line and are located here by scanning the bytes.
func syntaxProblem(err error, data []byte, lx *lineIndex) Problem {
	p, msg := syntaxPos(err, data, lx)
	return Problem{
		Pos:     p,
		Kind:    "syntax",
		Message: fmt.Sprintf("YAML syntax error: %s; OmegaConf.load cannot read the file (the rest of it is not analysed)", msg),
		Help:    "fix the YAML",
	}
}

// SyntaxError locates an error that yaml.v3 returned for data, as Parse
// does for its "syntax" Problems, and returns its message without the
// "yaml: line N: " prefix.
func SyntaxError(err error, data []byte) (Pos, string) {
	return syntaxPos(err, data, newLineIndex(data))
}

func syntaxPos(err error, data []byte, lx *lineIndex) (Pos, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	p := Pos{Offset: 0, Line: 1, Col: 1}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		msg = msg[len(m[0]):]
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			for _, pp := range parserProblems {
				if msg == pp {
					n++
					break
				}
			}
			p = lx.pos(n, 1)
		}
	} else if strings.Contains(msg, "UTF-8") || strings.Contains(msg, "Unicode") || strings.Contains(msg, "control characters") {
		if off := firstUnreadable(data); off >= 0 {
			p = lx.offsetPos(off)
		}
	} else if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		name = strings.TrimSuffix(name, "' referenced")
		if off := bytes.Index(data, []byte("*"+name)); off >= 0 {
			p = lx.offsetPos(off)
		}
	}
	return p, msg
}

// collect finds the instances of one resolved document:
// <instance>:<server type>:<dir>:entrypoint.
func (f *File) collect(root *Node, doc int, types []string) {
	if root == nil || root.Kind != MappingNode {
		return
	}
	isType := make(map[string]bool, len(types))
	for _, t := range types {
		isType[t] = true
	}
	for _, ip := range root.Pairs {
		if strings.HasPrefix(ip.Key, "_") || ip.Value.Kind != MappingNode {
			continue
		}
		for _, tp := range ip.Value.Pairs {
			if !isType[tp.Key] || tp.Value.Kind != MappingNode {
				continue
			}
			for _, dp := range tp.Value.Pairs {
				if strings.HasPrefix(dp.Key, "_") || dp.Value.Kind != MappingNode {
					continue
				}
				f.gym = true
				inst := Instance{
					Name: ip.Key, NamePos: ip.KeyPos,
					Type: tp.Key, TypePos: tp.KeyPos,
					Dir: dp.Key, DirPos: dp.KeyPos,
					Settings: dp.Value,
					Doc:      doc,
				}
				ep := dp.Value.GetPair("entrypoint")
				if ep == nil {
					f.Overrides = append(f.Overrides, inst)
					continue
				}
				inst.EntrypointPos, inst.EntrypointEnd = ep.Value.Pos, ep.Value.End
				if ep.Merged {
					inst.EntrypointPos, inst.EntrypointEnd = ep.MergePos, ep.MergePos
					inst.ViaMerge = true
				}
				v := ep.Value
				if v.Kind != ScalarNode || v.Tag != "!!str" || v.Value == "" {
					if !v.unresolved {
						f.Problems = append(f.Problems, Problem{
							Pos:  inst.EntrypointPos,
							Kind: "bad-entrypoint",
							Message: fmt.Sprintf("entrypoint must be a file name (such as \"app.py\"), but %s.%s.%s.entrypoint is %s",
								shown(inst.Name), shown(inst.Type), shown(inst.Dir), describe(v)),
							Help: fmt.Sprintf("set it to the server's entry file, relative to %s/%s/", shown(inst.Type), shown(inst.Dir)),
						})
					}
					continue
				}
				// A NUL byte (\0 or \x00 in a double-quoted string) ends a
				// path for the system: no file has such a name.
				if strings.ContainsRune(inst.Dir, 0) {
					f.Problems = append(f.Problems, Problem{
						Pos:  inst.DirPos,
						Kind: "bad-entrypoint",
						Message: fmt.Sprintf("the server dir key %s of %s.%s contains a NUL byte, which no directory name can hold, so this server cannot start",
							shown(inst.Dir), shown(inst.Name), shown(inst.Type)),
						Help: fmt.Sprintf("write the name of its directory under %s/", shown(inst.Type)),
					})
					continue
				}
				if strings.ContainsRune(v.Value, 0) {
					f.Problems = append(f.Problems, Problem{
						Pos:  inst.EntrypointPos,
						Kind: "bad-entrypoint",
						Message: fmt.Sprintf("entrypoint %s of %s.%s.%s contains a NUL byte, which no file name can hold, so this server cannot start",
							shown(v.Value), shown(inst.Name), shown(inst.Type), shown(inst.Dir)),
						Help: fmt.Sprintf("set it to the server's entry file, relative to %s/%s/", shown(inst.Type), shown(inst.Dir)),
					})
					continue
				}
				inst.Entrypoint = v.Value
				f.Servers = append(f.Servers, inst)
			}
		}
	}
}

// sortProblems removes exact repeats (an aliased value is resolved once per
// use, so its problems can repeat) and sorts by position.
func sortProblems(ps []Problem) []Problem {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Pos.Offset < ps[j].Pos.Offset })
	var out []Problem
	for _, p := range ps {
		dup := false
		for j := len(out) - 1; j >= 0 && out[j].Pos.Offset == p.Pos.Offset; j-- {
			if out[j] == p {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}
