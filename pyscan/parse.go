package pyscan

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Options tune a Parser.
type Options struct {
	// BaseSteps and StepsPerKB set the work budget of one file: BaseSteps
	// plus StepsPerKB for each KB of it (see Parser.FileBudget); 0 means
	// DefaultBaseSteps, DefaultStepsPerKB.
	BaseSteps, StepsPerKB int64
	// MaxSteps caps the budget of one file, whatever its size; 0 means
	// DefaultMaxFileSteps.
	MaxSteps int64
}

// Parsing is bounded by work, not by time: tree-sitter calls back once
// every 100 parse operations, and each call is a step; so is each block of
// readChunk bytes the lexer asks for (a lexer that scans far ahead, again
// and again, shows only there). A file may take a number of steps
// proportional to its size, so whether it parses depends on its content
// alone, not on the machine's load. Measured on 3,800 real modules (150 MB,
// NeMo Gym, CPython's library, the largest generated modules at hand), the
// densest code takes 22 steps per KB and ordinary code about 10; the
// default budget, 2,048 + 64 per KB, leaves every one of them at least 3
// times its need.
const (
	DefaultBaseSteps  = 2048
	DefaultStepsPerKB = 64
	// DefaultMaxFileSteps caps a file's budget: the memory of a parse
	// grows with its steps (about 7 KB a step on ordinary code: the tree
	// and the parse stack take some 80 times the source they cover), so a
	// file of any size, the size limit raised, takes at most about 1 GB.
	// It is the budget of a 2 MB file; a file of the default size limit
	// (4 MB) may still take 32 steps per KB, more than the densest real
	// code's 22, and a file of ordinary code parses up to about 12 MB.
	DefaultMaxFileSteps = 1 << 17
	// DefaultScanSteps is the default budget of a whole scan (a View):
	// about 100 MB of ordinary code, several times all of NeMo Gym's
	// Python (1,600 files, 16.6 MB, 150,000 steps).
	DefaultScanSteps = 1_000_000
)

// The lexer reads the file through a callback whose every answer the
// binding copies into C memory and keeps until the parse ends (see
// parseTree), so reads are bounded too: a parse may be handed
// readFactor times the file's size plus readBase bytes. Real modules are
// read at most 2.03 times over (of the same 3,800, in files over 4 KB);
// a lexer that scans the rest of the file again for each token (a long
// run of line continuations) would be handed the square of the size.
const (
	readFactor = 8
	readBase   = 64 << 10
)

// Steps are not a measure of time on every input: tree-sitter 0.25's error
// recovery can make one operation cost time proportional to the size of an
// ERROR node it keeps widening (a long run of "." or "0x", where each
// token is folded into the same ERROR node, costs quadratic time in few
// steps). The last resort is processor time: the parse's own thread's
// (see threadCPU), so the load of other processes does not count. A parse
// may use cpuBase plus cpuPerStep for each step it took, and never more
// than cpuCapBase plus cpuCapPerKB for each KB of the file. The dearest
// real module measured takes 28µs per step and 0.35 ms per KB: 35 and 3
// times under the two limits. A file stopped there takes about half a
// second of processor time instead of its quadratic course.
const (
	cpuBase     = 250 * time.Millisecond
	cpuPerStep  = time.Millisecond
	cpuCapBase  = time.Second
	cpuCapPerKB = time.Millisecond
	// cpuEvery is how many steps go between two readings of the clock
	// (one system call each).
	cpuEvery = 8
)

// Parser parses Python files into Modules. A Parser is not safe for
// concurrent use: give each goroutine its own, and Close it when done.
type Parser struct {
	g                               *grammar
	p                               *sitter.Parser
	baseSteps, stepsPerKB, maxSteps int64
	// ks and marks are the walker's stacks (see walker.ks), and flat the
	// buffer of the flat tree (cwalk.go), kept from one parse for the next
	// when they stay small.
	ks    []kid
	marks []int32
	flat  []flatNode
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
	np := &Parser{g: g, p: p, baseSteps: opts.BaseSteps, stepsPerKB: opts.StepsPerKB, maxSteps: opts.MaxSteps}
	if np.baseSteps <= 0 {
		np.baseSteps = DefaultBaseSteps
	}
	if np.stepsPerKB <= 0 {
		np.stepsPerKB = DefaultStepsPerKB
	}
	if np.maxSteps <= 0 {
		np.maxSteps = DefaultMaxFileSteps
	}
	return np
}

// FileBudget is the number of steps a file of size bytes may take to parse:
// BaseSteps plus StepsPerKB for each KB, at most MaxSteps.
func (p *Parser) FileBudget(size int) int64 {
	return min(p.maxSteps, p.baseSteps+p.stepsPerKB*kb(size))
}

// kb is size in KB, rounded up.
func kb(size int) int64 { return (int64(size) + 1023) / 1024 }

// A Budget is the parsing work that several parses (a scan) may spend
// together, in steps. It is safe for concurrent use. A nil *Budget has no
// limit.
type Budget struct {
	limit int64
	spent atomic.Int64
}

// NewBudget returns a budget of steps.
func NewBudget(steps int64) *Budget { return &Budget{limit: steps} }

// Limit is the budget's size in steps.
func (b *Budget) Limit() int64 { return b.limit }

// Spent is how many steps the parses charged to b have taken. It may pass
// the limit by what the parses in progress when it ran out took.
func (b *Budget) Spent() int64 { return b.spent.Load() }

// Charge takes steps from b for a parse made outside b's scan whose
// module the scan uses in place of parsing the same text: the steps the
// parse took, as a Budget of its own counted them (contract detection
// parses the framework's modules before the scan begins, and the scan's
// cache takes those it would parse again). The scan then spends what its
// own parse would have. Charge reports whether b had room for them all,
// as a parse within b would have gone to its end; when it had not,
// nothing is taken, and the caller parses (the parse then stops where it
// would have). A nil *Budget has room for everything.
func (b *Budget) Charge(steps int64) bool {
	if b == nil {
		return true
	}
	for {
		s := b.spent.Load()
		if s+steps > b.limit {
			return false
		}
		if b.spent.CompareAndSwap(s, s+steps) {
			return true
		}
	}
}

func (b *Budget) exhausted() bool { return b != nil && b.spent.Load() >= b.limit }

// StopReason says which budget stopped a parse.
type StopReason uint8

const (
	// FileBudgetRanOut: the file took more steps than Parser.FileBudget.
	FileBudgetRanOut StopReason = iota + 1
	// ScanBudgetRanOut: the scan's Budget ran out, before or during the
	// parse.
	ScanBudgetRanOut
	// ProcessorTimeRanOut: the parse used more processor time than its
	// steps allow (the last resort, see cpuBase).
	ProcessorTimeRanOut
)

// A ParseStop says why a parse did not finish: what it did, and the budget
// that ran out. The file was not analysed; its syntax may be fine.
type ParseStop struct {
	Reason StopReason
	// Steps is how many steps the parse took before it stopped.
	Steps int64
	// Budget is the budget that ran out, in steps: the file's
	// (FileBudgetRanOut) or the scan's (ScanBudgetRanOut).
	Budget int64
	// ReadLimit is the file's limit on the bytes its parse may be handed
	// (see readFactor), and Read how many it was (FileBudgetRanOut).
	ReadLimit, Read int64
	// CPU is the processor time the parse had used, and Allowed what it
	// was allowed then (ProcessorTimeRanOut).
	CPU, Allowed time.Duration
}

func (s *ParseStop) message() string {
	switch s.Reason {
	case FileBudgetRanOut:
		return fmt.Sprintf("parsing stopped after %d steps and %d bytes read, over the file's budget of %d steps and %d bytes; the file was not analysed",
			s.Steps, s.Read, s.Budget, s.ReadLimit)
	case ScanBudgetRanOut:
		return fmt.Sprintf("parsing stopped: the scan's budget of %d steps ran out; the file was not analysed", s.Budget)
	default:
		return fmt.Sprintf("parsing stopped after %s of processor time, more than the %s allowed for its %d steps; the file was not analysed",
			s.CPU.Round(time.Millisecond), s.Allowed.Round(time.Millisecond), s.Steps)
	}
}

// meter is one parse's budgets and what it spent of them. cParse
// (cparse.go) counts the steps, in C: each step is added to the file's
// count and to the scan's Budget; the parse stops when the scan's is over
// its limit, when the file's steps pass budget or its reads pass
// readLimit bytes, or, checked every cpuEvery steps, when the processor
// time of the parse's thread since its first step passes cpuBase plus
// cpuPerStep a step (at most capCPU).
type meter struct {
	steps, budget int64
	// read is how many bytes the read callback has handed tree-sitter,
	// of readLimit.
	read, readLimit int64
	scan            *Budget
	capCPU          time.Duration
	// cpu0 is the thread's processor time at the first step (threadCPU),
	// when started.
	cpu0    time.Duration
	started bool
	stop    *ParseStop
}

// renew replaces the tree-sitter parser with a new one (see parseTree).
func (p *Parser) renew() {
	p.p.Close()
	p.p = sitter.NewParser()
	if err := p.p.SetLanguage(p.g.lang); err != nil {
		panic(fmt.Sprintf("pyscan: tree-sitter-python grammar rejected: %v", err))
	}
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
const readChunk = 4 << 10

// parseTree runs tree-sitter on src, charging its steps to scan as well
// as to the file's own budget, and returns the tree with the meter that
// counted them. The tree is nil when a budget stopped the parse (the
// meter's stop says which) or tree-sitter gave up by itself; the parser is
// then reset for the next file. src is parsed with CPython's line ends
// (see input.go).
func (p *Parser) parseTree(src []byte, old *sitter.Tree, scan *Budget) (*sitter.Tree, *meter) {
	if in, ok := sitterText(src); ok {
		src, old = in, nil
	}
	n := len(src)
	m := &meter{budget: p.FileBudget(n), scan: scan, capCPU: cpuCapBase + time.Duration(kb(n))*cpuCapPerKB,
		readLimit: readFactor*int64(n) + readBase}
	if scan.exhausted() {
		m.stop = &ParseStop{Reason: ScanBudgetRanOut, Budget: scan.limit}
		return nil, m
	}
	// The whole parse is one cgo call (cparse.go): the text is read in
	// chunks of readChunk bytes, each a step, and once a budget has run
	// out the lexer is told that the file ends (the parse then stops at
	// its next progress call). Handing tree-sitter the whole rest of the
	// file on every read would cost nothing here (it is read in place),
	// but the chunks keep the reads metered: a lexer that moves back
	// again and again is seen in the bytes it is handed.
	tree := p.cParse(src, old, m)
	if m.stop != nil && tree != nil {
		// Stopped in the read callback: a tree of a truncated file.
		tree.Close()
		tree = nil
	}
	if tree == nil {
		// A cancelled parse would otherwise resume on the next call, and
		// Reset is not enough: tree-sitter 0.25's ts_parser_reset keeps
		// canceled_balancing, so after a stop in the last phase (balancing
		// the finished tree) the next parse resumes balancing a tree that
		// the reset freed, and an assertion aborts the process. A new
		// parser has no state to resume.
		p.renew()
	}
	return tree, m
}

// Parse builds the Module for one file. path is the file's slash-separated
// path relative to the root; src is its content. Parse never panics on any
// input; a file whose parse runs out of budget (see Options) gets a
// SyntaxError with Stopped set. The Module keeps no reference to src or to
// the syntax tree.
func (p *Parser) Parse(path string, src []byte) *Module {
	return p.ParseWithin(path, src, nil)
}

// ParseWithin is Parse with the parse's steps charged to scan too: once
// scan has run out, no file parses.
func (p *Parser) ParseWithin(path string, src []byte, scan *Budget) *Module {
	return p.parseWithin(path, src, string(src), scan)
}

// ParseWithinOwned is ParseWithin for a caller that hands src over: the
// Module's strings slice src itself instead of a copy of it, so src must
// never be modified afterwards, by the caller or anyone it shared src
// with (a buffer a file was just read into, kept for nothing else).
// Module.Source then returns src. The copy that ParseWithin makes is about
// a tenth of the memory a parse allocates.
func (p *Parser) ParseWithinOwned(path string, src []byte, scan *Budget) *Module {
	return p.parseWithin(path, src, unsafe.String(unsafe.SliceData(src), len(src)), scan)
}

func (p *Parser) parseWithin(path string, src []byte, text string, scan *Budget) *Module {
	m, _ := p.parse(path, src, text, nil, scan, false)
	if len(src) >= trimAfter {
		releaseCMemory()
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
	return p.ParseIncrementalWithin(path, src, prev, nil)
}

// ParseIncrementalWithin is ParseIncremental with the steps charged to scan
// too (see ParseWithin).
func (p *Parser) ParseIncrementalWithin(path string, src []byte, prev *Retained, scan *Budget) (*Module, *Retained) {
	var old *sitter.Tree
	if prev != nil && prev.tree != nil {
		old = prev.tree
		old.Edit(diffEdit(prev.src, src))
	}
	m, tree := p.parse(path, src, string(src), old, scan, true)
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

// continuationAtEnd reports the offset of a backslash that continues the
// last line of src onto nothing: the file ends with a backslash and a line
// break (`\n` or a lone `\r`) outside a comment. CPython rejects it
// ("unexpected EOF while parsing"); tree-sitter-python takes the
// continuation for white space. (A backslash at the very end, without a
// line break, is an error of tree-sitter's own; `\r\n` is accepted, as
// CPython 3.11 accepts it.)
func continuationAtEnd(src []byte, comments []Span) (int32, bool) {
	n := len(src)
	if n < 2 || src[n-2] != '\\' || (src[n-1] != '\n' && src[n-1] != '\r') {
		return 0, false
	}
	at := int32(n - 2)
	for _, c := range comments {
		if c.Start <= at && at < c.End {
			return 0, false
		}
	}
	return at, true
}

// point is the tree-sitter row and byte column of an offset.
func point(src []byte, off int) sitter.Point {
	row := bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return sitter.Point{Row: uint(row), Column: uint(col)}
}

// parse builds the Module of src, whose strings slice text, the same
// bytes as src (a copy, or src itself for ParseWithinOwned). With keep it
// returns the syntax tree too (nil when the parse did not finish, and for
// the parse of a rewritten text, input.go), for the caller to close or
// keep; without, it deletes the tree as soon as the walk's copy of it is
// made, and returns nil.
func (p *Parser) parse(path string, src []byte, text string, old *sitter.Tree, scan *Budget, keep bool) (*Module, *sitter.Tree) {
	if p.p == nil {
		panic("pyscan: Parse called on a closed Parser")
	}
	m := &Module{Path: path, Size: len(src), text: text}
	m.Name, m.IsPackage = ModuleName(path)
	if len(src) >= math.MaxInt32 {
		// Spans are 32-bit offsets; a file this large is not source anyway.
		m.SyntaxError = &SyntaxError{Message: "the file is 2 GiB or larger and was not parsed"}
		return m, nil
	}
	m.lines = newLineIndex(src)

	// The parse, the copy, the tree's deletion and the walk run on one
	// thread. The C allocator keeps an arena per thread, and the processor
	// that ran the parse has its tree in its caches: a goroutine that moves
	// to another thread between them (after a collection's assist, or when
	// its processor was handed off during the parse's long cgo call) copies
	// the tree from memory, frees it into another thread's arena, and
	// starts the next parse in an arena whose memory is cold or was given
	// back. BenchmarkParse moved about once in three parses; pinned, its
	// page faults halved, and its ratio to BenchmarkParseTreeOnly fell by
	// about 0.03.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tree, mt := p.parseTree(src, old, scan)
	if old != nil && (tree != nil && tree.RootNode().HasError() || tree == nil && (mt.stop == nil || mt.stop.Reason != ScanBudgetRanOut)) {
		// Error recovery is not guaranteed to recover the same way from
		// an old tree as from nothing; a broken file is parsed afresh so
		// that its model (and its first error) is Parse's. So is one
		// whose incremental parse ran out of its own budget: a fresh parse
		// has a budget of its own, and its result is Parse's.
		if tree != nil {
			tree.Close()
		}
		tree, mt = p.parseTree(src, nil, scan)
	}
	if stop := mt.stop; stop != nil {
		m.SyntaxError = &SyntaxError{Message: stop.message(), Stopped: stop}
		return m, nil
	}
	if tree == nil {
		m.SyntaxError = &SyntaxError{Message: "syntax error: tree-sitter gave up on the file"}
		return m, nil
	}
	tree, retain := p.relex(m, src, tree, scan)
	kept := false
	defer func() {
		if !kept && tree != nil { // a panic on the way: the tree goes with it
			tree.Close()
		}
	}()
	w := &walker{g: p.g, src: src, text: m.text, m: m, ks: p.ks[:0], marks: p.marks[:0]}
	// The one cgo call of the walk: the whole tree, copied out.
	w.t = flatten(tree.RootNode(), p.flat[:cap(p.flat)])
	if cap(w.t) <= maxKeptNodes {
		p.flat = w.t[:0]
	}
	if !keep || !retain {
		// The copy is all the walk reads: the tree is deleted while the
		// copy has left it in the processor's caches, and its memory is
		// free for the next parse.
		tree.Close()
		tree = nil
	}
	if w.t[0].flags&flagHasError != 0 {
		m.SyntaxError = w.firstError()
	}
	w.module()
	if at, ok := continuationAtEnd(src, m.Comments); ok {
		w.layoutErrorAt(Span{Start: at, End: at + 1}, "syntax error: unexpected end of file after a line continuation")
	}
	if cap(w.ks) <= maxKeptKids {
		p.ks, p.marks = w.ks[:0], w.marks[:0]
	}
	if e := w.layoutError; e != nil && (m.SyntaxError == nil || e.Span.Start < m.SyntaxError.Span.Start) {
		m.SyntaxError = e
	}
	kept = true
	return m, tree
}
