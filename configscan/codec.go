package configscan

import (
	"encoding/binary"
	"errors"
	"math"
)

// Encode and Decode turn the File that Parse returns into bytes and back,
// so that a parse can be kept between runs (gymlint's cache keeps it by
// the file's content hash). Decode gives a File equal to the one encoded,
// unexported state and shared nodes (an alias's value, an instance's
// Settings inside its document) included. Decode checks everything it
// reads: bytes that were not written by Encode, or are damaged, give an
// error, never a File that differs or a panic.

// codecVersion starts every encoding.
const codecVersion = 3

// ErrNotEncodable is Encode's error for a File that did not come from
// Parse (the trees of Compose carry the origins of other files).
var ErrNotEncodable = errors.New("configscan: only the Files of Parse can be encoded")

// errDecode is Decode's error for bytes it cannot read.
var errDecode = errors.New("configscan: not an encoded File")

type encoder struct {
	b     []byte
	index map[*Node]int
	nodes []*Node
}

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int)     { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *encoder) pos(p Pos) { e.int(p.Offset); e.int(p.Line); e.int(p.Col) }

// count writes a slice's length, -1 for a nil one (a nil slice and an
// empty one are told apart).
func (e *encoder) count(n int, isNil bool) {
	if isNil {
		n = -1
	}
	e.int(n)
}

// ref numbers n (and what it holds) and returns its index + 1; 0 is nil.
func (e *encoder) ref(n *Node) int {
	if n == nil {
		return 0
	}
	if i, ok := e.index[n]; ok {
		return i + 1
	}
	i := len(e.nodes)
	e.index[n] = i
	e.nodes = append(e.nodes, n)
	for _, p := range n.Pairs {
		e.ref(p.Value)
	}
	for _, it := range n.Items {
		e.ref(it)
	}
	return i + 1
}

func (e *encoder) instance(in Instance) {
	e.str(in.Name)
	e.pos(in.NamePos)
	e.str(in.Type)
	e.pos(in.TypePos)
	e.str(in.Dir)
	e.pos(in.DirPos)
	e.str(in.Entrypoint)
	e.pos(in.EntrypointPos)
	e.pos(in.EntrypointEnd)
	e.bool(in.ViaMerge)
	e.int(e.ref(in.Settings))
	e.int(in.Doc)
}

// Encode returns the bytes of f.
func Encode(f *File) ([]byte, error) {
	e := &encoder{index: map[*Node]int{}}
	for _, d := range f.Docs {
		e.ref(d)
	}
	for _, in := range f.Servers {
		e.ref(in.Settings)
	}
	for _, in := range f.Overrides {
		e.ref(in.Settings)
	}
	// The nodes of a File of Parse all carry its origin; a File made
	// otherwise has none.
	origin := f.origin
	e.uint(codecVersion)
	e.str(f.Path)
	e.bool(f.gym)
	e.pos(f.secondDoc)
	e.bool(origin != nil)
	e.uint(uint64(len(e.nodes)))
	for _, n := range e.nodes {
		if n.Origin != origin {
			return nil, ErrNotEncodable
		}
		e.int(int(n.Kind))
		e.str(n.Value)
		e.str(n.Tag)
		e.pos(n.Pos)
		e.pos(n.End)
		e.bool(n.unresolved)
		e.count(len(n.Pairs), n.Pairs == nil)
		for _, p := range n.Pairs {
			if p.KeyOrigin != origin {
				return nil, ErrNotEncodable
			}
			e.str(p.Key)
			e.pos(p.KeyPos)
			e.int(e.ref(p.Value))
			e.bool(p.Merged)
			e.pos(p.MergePos)
		}
		e.count(len(n.Items), n.Items == nil)
		for _, it := range n.Items {
			e.int(e.ref(it))
		}
	}
	e.count(len(f.Docs), f.Docs == nil)
	for _, d := range f.Docs {
		e.int(e.ref(d))
	}
	for _, list := range [][]Instance{f.Servers, f.Overrides} {
		e.count(len(list), list == nil)
		for _, in := range list {
			e.instance(in)
		}
	}
	e.count(len(f.Problems), f.Problems == nil)
	for _, p := range f.Problems {
		e.pos(p.Pos)
		e.str(p.Kind)
		e.str(p.Message)
		e.str(p.Help)
		e.bool(p.Fix != nil)
		if p.Fix != nil {
			e.str(p.Fix.Message)
			e.bool(p.Fix.Safe)
			e.count(len(p.Fix.Edits), p.Fix.Edits == nil)
			for _, ed := range p.Fix.Edits {
				e.pos(ed.Start)
				e.pos(ed.End)
				e.str(ed.Text)
			}
		}
	}
	return e.b, nil
}

type decoder struct {
	b []byte
	// text is the input as one string, made once: the decoded strings
	// are slices of it, not an allocation each.
	text  string
	err   bool
	nodes []*Node
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || v > math.MaxInt32 || v < math.MinInt32 {
		d.err = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err = true
		d.b = nil
		return ""
	}
	at := len(d.text) - len(d.b)
	d.b = d.b[n:]
	return d.text[at : at+int(n)]
}

func (d *decoder) bool() bool {
	if len(d.b) == 0 || d.b[0] > 1 {
		d.err = true
		d.b = nil
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

func (d *decoder) pos() Pos { return Pos{Offset: d.int(), Line: d.int(), Col: d.int()} }

// node returns the node of a reference (0: nil).
func (d *decoder) node() *Node {
	i := d.int()
	if i < 0 || i > len(d.nodes) {
		d.err = true
		return nil
	}
	if i == 0 {
		return nil
	}
	return d.nodes[i-1]
}

// count reads a length that may be -1 (nil), bounded by what is left.
func (d *decoder) count() (n int, isNil bool) {
	n = d.int()
	if n == -1 {
		return 0, true
	}
	if n < 0 || n > len(d.b) {
		d.err = true
		return 0, false
	}
	return n, false
}

func (d *decoder) instance() Instance {
	return Instance{Name: d.str(), NamePos: d.pos(), Type: d.str(), TypePos: d.pos(), Dir: d.str(), DirPos: d.pos(),
		Entrypoint: d.str(), EntrypointPos: d.pos(), EntrypointEnd: d.pos(), ViaMerge: d.bool(), Settings: d.node(), Doc: d.int()}
}

// minNodeBytes is the least a node's encoding takes: its kind, empty
// value and tag, two positions of three numbers, the unresolved flag and
// two counts, a byte each.
const minNodeBytes = 12

// Decode returns the File of bytes that Encode returned.
func Decode(b []byte) (*File, error) {
	d := &decoder{b: b, text: string(b)}
	if d.uint() != codecVersion || d.err {
		return nil, errDecode
	}
	f := &File{Path: d.str(), gym: d.bool(), secondDoc: d.pos()}
	var origin *Origin
	if d.bool() {
		origin = &Origin{File: f.Path}
		f.origin = origin
	}
	// A node takes at least minNodeBytes of the encoding; the nodes are
	// allocated together (a File's trees live and die together).
	n := d.uint()
	if d.err || n > uint64(len(d.b)/minNodeBytes) {
		return nil, errDecode
	}
	block := make([]Node, n)
	d.nodes = make([]*Node, n)
	for i := range d.nodes {
		d.nodes[i] = &block[i]
	}
	for _, nd := range d.nodes {
		nd.Kind = Kind(d.int())
		if nd.Kind < NullNode || nd.Kind > SequenceNode {
			return nil, errDecode
		}
		nd.Value, nd.Tag, nd.Pos, nd.End, nd.unresolved = d.str(), d.str(), d.pos(), d.pos(), d.bool()
		nd.Origin = origin
		np, isNil := d.count()
		if !isNil {
			nd.Pairs = make([]Pair, np)
		}
		for j := range nd.Pairs {
			nd.Pairs[j] = Pair{Key: d.str(), KeyPos: d.pos(), Value: d.node(), Merged: d.bool(), MergePos: d.pos(), KeyOrigin: origin}
		}
		ni, isNil := d.count()
		if !isNil {
			nd.Items = make([]*Node, ni)
		}
		for j := range nd.Items {
			nd.Items[j] = d.node()
		}
		if d.err {
			return nil, errDecode
		}
	}
	ndocs, isNil := d.count()
	if !isNil {
		f.Docs = make([]*Node, ndocs)
	}
	for i := range f.Docs {
		f.Docs[i] = d.node()
	}
	for _, list := range []*[]Instance{&f.Servers, &f.Overrides} {
		n, isNil := d.count()
		if !isNil {
			*list = make([]Instance, n)
		}
		for i := range *list {
			(*list)[i] = d.instance()
		}
	}
	np, isNil := d.count()
	if !isNil {
		f.Problems = make([]Problem, np)
	}
	for i := range f.Problems {
		f.Problems[i] = Problem{Pos: d.pos(), Kind: d.str(), Message: d.str(), Help: d.str()}
		if d.bool() {
			fix := &Fix{Message: d.str(), Safe: d.bool()}
			ne, isNil := d.count()
			if !isNil {
				fix.Edits = make([]Edit, ne)
			}
			for j := range fix.Edits {
				fix.Edits[j] = Edit{Start: d.pos(), End: d.pos(), Text: d.str()}
			}
			f.Problems[i].Fix = fix
		}
	}
	if d.err || len(d.b) != 0 {
		return nil, errDecode
	}
	f.countValues()
	return f, nil
}
