package pyscan

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Options tune a Parser.
type Options struct {
	// Timeout bounds the time tree-sitter may spend on one file; 0 means 10s.
	Timeout time.Duration
}

// Parser parses Python files into Modules. A Parser is not safe for
// concurrent use: give each goroutine its own, and Close it when done.
type Parser struct {
	g       *grammar
	p       *sitter.Parser
	timeout time.Duration
	// ks and marks are the walker's stacks (see walker.ks), kept from
	// one parse for the next when they stay small.
	ks    []kid
	marks []int32
}

// maxKeptKids bounds the walker stack a Parser keeps between parses
// (about 3 MB); a larger one, from a huge file, goes with its parse.
const maxKeptKids = 1 << 16

// NewParser returns a parser for Python source.
func NewParser(opts Options) *Parser {
	g := loadGrammar()
	p := sitter.NewParser()
	if err := p.SetLanguage(g.lang); err != nil {
		p.Close()
		// The grammar is compiled in; a version mismatch is a build error.
		panic(fmt.Sprintf("pyscan: tree-sitter-python grammar rejected: %v", err))
	}
	t := opts.Timeout
	if t <= 0 {
		t = 10 * time.Second
	}
	// The time limit is checked by tree-sitter itself, in C, every 100
	// parse operations. A ParseOptions.ProgressCallback would do the same
	// from Go, but go-tree-sitter v0.25.0 registers the ParseOptions of
	// every ParseWithOptions call in mattn/go-pointer's global table and
	// never unregisters it: one leaked entry (and a 1-byte C allocation)
	// per parsed file, which a long-running LSP server would accumulate.
	// Revisit when the binding releases it (the C setting goes in 0.26).
	us := t.Microseconds()
	if us < 1 {
		us = 1
	}
	//lint:ignore SA1019 the replacement leaks in v0.25.0, see above.
	p.SetTimeoutMicros(uint64(us))
	return &Parser{g: g, p: p, timeout: t}
}

// Close releases the parser's C memory. It is safe to call more than once.
func (p *Parser) Close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// ModuleName returns the dotted module name of a slash-separated path
// relative to the root ("a/b.py" gives "a.b", "a/__init__.py" gives "a"),
// and whether the file is a package's __init__.py.
func ModuleName(relPath string) (string, bool) {
	p := strings.TrimSuffix(relPath, ".py")
	pkg := false
	if p == "__init__" || strings.HasSuffix(p, "/__init__") {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "__init__"), "/")
		pkg = true
	}
	return strings.ReplaceAll(p, "/", "."), pkg
}

// readChunk is how many bytes the parser is handed per read callback.
const readChunk = 16 << 10

// parseTree runs tree-sitter on src, with CPython's line ends (see
// input.go). It returns nil when the time limit stopped the parse, after
// resetting the parser for the next file.
func (p *Parser) parseTree(src []byte, old *sitter.Tree) *sitter.Tree {
	if in, ok := sitterText(src); ok {
		src, old = in, nil
	}
	// The binding copies whatever the read callback returns into C memory
	// and keeps every copy until the parse ends, and tree-sitter calls the
	// callback again whenever its lexer moves back before the last chunk.
	// Handing it the whole rest of the file costs a copy of the rest on
	// every such call (a handful per file in practice, but unbounded in the
	// worst case); bounded chunks keep the copying linear in the file size.
	n := len(src)
	tree := p.p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i >= n {
			return nil
		}
		end := i + readChunk
		if end > n {
			end = n
		}
		return src[i:end]
	}, old, nil)
	if tree == nil {
		// A cancelled parse would otherwise resume on the next call.
		p.p.Reset()
	}
	return tree
}

// Parse builds the Module for one file. path is the file's slash-separated
// path relative to the root; src is its content. Parse never panics on any
// input; a file tree-sitter cannot finish in time gets a SyntaxError.
// The Module keeps no reference to src or to the syntax tree.
func (p *Parser) Parse(path string, src []byte) *Module {
	m, tree := p.parse(path, src, nil)
	if tree != nil {
		tree.Close()
	}
	return m
}

// Retained is the syntax tree of one version of a file, kept so that the
// next version parses incrementally (an editor's buffer, changed one
// keystroke at a time). It holds C memory until Close or until it is
// handed to ParseIncremental.
type Retained struct {
	tree *sitter.Tree
	src  []byte
}

// Close releases the tree. It is safe on nil and more than once.
func (r *Retained) Close() {
	if r != nil && r.tree != nil {
		r.tree.Close()
		r.tree = nil
	}
}

// ParseIncremental is Parse for a new version of a file whose previous
// version's parse is prev (nil for none): tree-sitter reuses the parts of
// the old tree that the change did not touch (the change is found by
// comparing the two texts: their common prefix and suffix), and the model
// is built from the new tree as Parse builds it, so the Module is the same
// as Parse's. prev is consumed (closed); the returned Retained is for the
// next version, nil when the parse could not finish or was of a text
// rewritten for tree-sitter (see input.go). A text with a syntax
// error is parsed afresh: tree-sitter's error recovery may differ between
// an incremental parse and a fresh one.
func (p *Parser) ParseIncremental(path string, src []byte, prev *Retained) (*Module, *Retained) {
	var old *sitter.Tree
	if prev != nil && prev.tree != nil {
		old = prev.tree
		old.Edit(diffEdit(prev.src, src))
	}
	m, tree := p.parse(path, src, old)
	prev.Close()
	if tree == nil {
		return m, nil
	}
	return m, &Retained{tree: tree, src: m.Source()}
}

// diffEdit describes the change from a to b as one edit: what lies
// between their common prefix and their common suffix.
func diffEdit(a, b []byte) *sitter.InputEdit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return &sitter.InputEdit{
		StartByte: uint(pre), OldEndByte: uint(len(a) - suf), NewEndByte: uint(len(b) - suf),
		StartPosition: point(a, pre), OldEndPosition: point(a, len(a)-suf), NewEndPosition: point(b, len(b)-suf),
	}
}

// point is the tree-sitter row and byte column of an offset.
func point(src []byte, off int) sitter.Point {
	row := bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return sitter.Point{Row: uint(row), Column: uint(col)}
}

// parse builds the Module of src and returns the syntax tree too (nil when
// the parse did not finish), for the caller to close or keep.
func (p *Parser) parse(path string, src []byte, old *sitter.Tree) (*Module, *sitter.Tree) {
	if p.p == nil {
		panic("pyscan: Parse called on a closed Parser")
	}
	m := &Module{Path: path, Size: len(src), text: string(src)}
	m.Name, m.IsPackage = ModuleName(path)
	if len(src) >= math.MaxInt32 {
		// Spans are 32-bit offsets; a file this large is not source anyway.
		m.SyntaxError = &SyntaxError{Message: "the file is 2 GiB or larger and was not parsed"}
		return m, nil
	}
	m.lines = newLineIndex(src)

	tree := p.parseTree(src, old)
	if old != nil && tree != nil && tree.RootNode().HasError() {
		// Error recovery is not guaranteed to recover the same way from
		// an old tree as from nothing; a broken file is parsed afresh so
		// that its model (and its first error) is Parse's.
		tree.Close()
		tree = p.parseTree(src, nil)
	}
	if tree == nil {
		m.SyntaxError = &SyntaxError{
			Message: fmt.Sprintf("parsing did not finish within %s; the file was skipped", p.timeout),
		}
		return m, nil
	}
	tree, retain := p.relex(m, src, tree)
	kept := false
	defer func() {
		if !kept { // a panic on the way: the tree goes with it
			tree.Close()
		}
	}()
	root := tree.RootNode()
	w := &walker{g: p.g, src: src, text: m.text, m: m, ks: p.ks[:0], marks: p.marks[:0]}
	if root.HasError() {
		m.SyntaxError = w.firstError(root)
	}
	w.module(root)
	if cap(w.ks) <= maxKeptKids {
		p.ks, p.marks = w.ks[:0], w.marks[:0]
	}
	if e := w.layoutError; e != nil && (m.SyntaxError == nil || e.Span.Start < m.SyntaxError.Span.Start) {
		m.SyntaxError = e
	}
	kept = true
	if !retain { // the parse of a rewritten text (input.go)
		tree.Close()
		return m, nil
	}
	return m, tree
}
