package pyscan

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// kind is a node kind of the Python grammar that the model cares about.
type kind uint8

const (
	kOther kind = iota
	kModule
	kBlock
	kExpressionStatement
	kAssignment
	kAugmentedAssignment
	kImportStatement
	kImportFromStatement
	kFutureImportStatement
	kAliasedImport
	kDottedName
	kRelativeImport
	kImportPrefix
	kWildcardImport
	kClassDefinition
	kFunctionDefinition
	kDecoratedDefinition
	kDecorator
	kIfStatement
	kElifClause
	kElseClause
	kTryStatement
	kExceptClause
	kExceptGroupClause
	kFinallyClause
	kWithStatement
	kWithClause
	kWithItem
	kAsPattern
	kAsPatternTarget
	kForStatement
	kWhileStatement
	kMatchStatement
	kCaseClause
	kRaiseStatement
	kReturnStatement
	kDeleteStatement
	kExpressionList
	kAwait
	kAssertStatement
	kTypeAliasStatement
	kCall
	kAttribute
	kSubscript
	kIdentifier
	kArgumentList
	kKeywordArgument
	kNamedExpression
	kLambda
	kPatternList
	kTuplePattern
	kListPattern
	kTuple
	kList
	kParenthesizedExpression
	kListSplatPattern
	kParameters
	kTypedParameter
	kDefaultParameter
	kTypedDefaultParameter
	kDictionarySplatPattern
	kComment
	kString
	kComparisonOperator
	kType
	kGlobalStatement
	kNonlocalStatement
	kAsync
	kIfClause
	kGenericType
	kGeneratorExpression
	kListSplat
	kDictionarySplat
	kPositionalSeparator
	kKeywordSeparator
	kInterpolation
	kLeaf // literals without children: numbers, True, False, None, ...
)

var kindNames = map[string]kind{
	"module":                   kModule,
	"block":                    kBlock,
	"expression_statement":     kExpressionStatement,
	"assignment":               kAssignment,
	"augmented_assignment":     kAugmentedAssignment,
	"import_statement":         kImportStatement,
	"import_from_statement":    kImportFromStatement,
	"future_import_statement":  kFutureImportStatement,
	"aliased_import":           kAliasedImport,
	"dotted_name":              kDottedName,
	"relative_import":          kRelativeImport,
	"import_prefix":            kImportPrefix,
	"wildcard_import":          kWildcardImport,
	"class_definition":         kClassDefinition,
	"function_definition":      kFunctionDefinition,
	"decorated_definition":     kDecoratedDefinition,
	"decorator":                kDecorator,
	"if_statement":             kIfStatement,
	"elif_clause":              kElifClause,
	"else_clause":              kElseClause,
	"try_statement":            kTryStatement,
	"except_clause":            kExceptClause,
	"except_group_clause":      kExceptGroupClause,
	"finally_clause":           kFinallyClause,
	"with_statement":           kWithStatement,
	"with_clause":              kWithClause,
	"with_item":                kWithItem,
	"as_pattern":               kAsPattern,
	"as_pattern_target":        kAsPatternTarget,
	"for_statement":            kForStatement,
	"while_statement":          kWhileStatement,
	"match_statement":          kMatchStatement,
	"case_clause":              kCaseClause,
	"raise_statement":          kRaiseStatement,
	"return_statement":         kReturnStatement,
	"delete_statement":         kDeleteStatement,
	"expression_list":          kExpressionList,
	"await":                    kAwait,
	"assert_statement":         kAssertStatement,
	"type_alias_statement":     kTypeAliasStatement,
	"call":                     kCall,
	"attribute":                kAttribute,
	"subscript":                kSubscript,
	"identifier":               kIdentifier,
	"argument_list":            kArgumentList,
	"keyword_argument":         kKeywordArgument,
	"named_expression":         kNamedExpression,
	"lambda":                   kLambda,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kTuplePattern,
	"list_pattern":             kListPattern,
	"tuple":                    kTuple,
	"list":                     kList,
	"parenthesized_expression": kParenthesizedExpression,
	"list_splat_pattern":       kListSplatPattern,
	"parameters":               kParameters,
	"typed_parameter":          kTypedParameter,
	"default_parameter":        kDefaultParameter,
	"typed_default_parameter":  kTypedDefaultParameter,
	"dictionary_splat_pattern": kDictionarySplatPattern,
	"comment":                  kComment,
	"string":                   kString,
	"comparison_operator":      kComparisonOperator,
	"type":                     kType,
	"global_statement":         kGlobalStatement,
	"nonlocal_statement":       kNonlocalStatement,
	"async":                    kAsync,
	"if_clause":                kIfClause,
	"generic_type":             kGenericType,
	"generator_expression":     kGeneratorExpression,
	"list_splat":               kListSplat,
	"dictionary_splat":         kDictionarySplat,
	"positional_separator":     kPositionalSeparator,
	"keyword_separator":        kKeywordSeparator,
	"interpolation":            kInterpolation,
	"integer":                  kLeaf,
	"float":                    kLeaf,
	"true":                     kLeaf,
	"false":                    kLeaf,
	"none":                     kLeaf,
	"ellipsis":                 kLeaf,
}

// grammar holds the Python language and the lookup tables derived from it.
// It is built once and shared read-only by every parser.
type grammar struct {
	lang   *sitter.Language
	kinds  []kind // by node symbol id
	named  []bool // by node symbol id
	fields map[string]uint16
}

var (
	grammarOnce sync.Once
	pyGrammar   *grammar
)

func loadGrammar() *grammar {
	grammarOnce.Do(func() {
		g := &grammar{lang: sitter.NewLanguage(python.Language()), fields: map[string]uint16{}}
		n := g.lang.NodeKindCount()
		g.kinds = make([]kind, n)
		g.named = make([]bool, n)
		// Several symbol ids can share a name (aliases); map every id by name.
		for id := uint32(0); id < n; id++ {
			name := g.lang.NodeKindForId(uint16(id))
			g.named[id] = g.lang.NodeKindIsNamed(uint16(id))
			if g.named[id] || name == "async" {
				g.kinds[id] = kindNames[name]
			}
		}
		// Every field of the grammar, so that no field the walker asks for
		// can be missing from the table (id 0 would silently find nothing).
		for id := uint32(1); id <= g.lang.FieldCount(); id++ {
			if name := g.lang.FieldNameForId(uint16(id)); name != "" {
				g.fields[name] = uint16(id)
			}
		}
		pyGrammar = g
	})
	return pyGrammar
}

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
}

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

// parseTree runs tree-sitter on src. It returns nil when the time limit
// stopped the parse, after resetting the parser for the next file.
func (p *Parser) parseTree(src []byte, old *sitter.Tree) *sitter.Tree {
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
// next version, nil when the parse could not finish. A text with a syntax
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
	m := &Module{Path: path, Size: len(src)}
	m.Name, m.IsPackage = ModuleName(path)
	lines := newLineIndex(src)

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
			Span:    Span{Start: lines.pos(0), End: lines.pos(0)},
			Message: fmt.Sprintf("parsing did not finish within %s; the file was skipped", p.timeout),
		}
		m.text = string(src)
		return m, nil
	}
	kept := false
	defer func() {
		if !kept { // a panic on the way: the tree goes with it
			tree.Close()
		}
	}()
	root := tree.RootNode()
	cur := root.Walk()
	defer cur.Close()
	w := &walker{g: p.g, src: src, text0: string(src), lines: lines, m: m, cur: cur}
	m.text = w.text0
	if root.HasError() {
		m.SyntaxError = w.firstError(root)
	}
	w.block(root, scope{module: true})
	m.Prologue = w.prologue(root)
	if e := w.layoutError; e != nil && (m.SyntaxError == nil || e.Span.Start.Offset < m.SyntaxError.Span.Start.Offset) {
		m.SyntaxError = e
	}
	kept = true
	return m, tree
}

// scope is where the walker is.
type scope struct {
	module bool      // statements bind module-level names
	class  *Class    // directly in this class's body
	fn     *Function // inside this function's body (or a lambda's, then discarded)
	where  Where
	// guards are the if/elif tests around the statement inside the
	// current function. The slice is shared: extend it with withGuard.
	guards []Guard
}

// withGuard returns a copy of the scope with one more guard.
func (sc scope) withGuard(cond Expr, negated bool) scope {
	g := make([]Guard, len(sc.guards), len(sc.guards)+1)
	copy(g, sc.guards)
	sc.guards = append(g, Guard{Cond: cond, Negated: negated})
	return sc
}

// atModule reports whether statements here run in the module namespace.
func (sc scope) atModule() bool { return sc.module && sc.class == nil && sc.fn == nil }

type walker struct {
	g   *grammar
	src []byte
	// text0 is the one copy of src that every string of the model slices:
	// copying each node's text instead would make nested expressions such
	// as f(f(f(...))) cost memory quadratic in their depth.
	text0 string
	lines lineIndex
	m     *Module
	depth int // of expr and statement recursion
	// cur lists children in linear time: Node.Child(i) costs up to O(i).
	// It is only ever used inside children(), never across a recursion.
	cur *sitter.TreeCursor
	// layoutError is the first block layout error that tree-sitter-python
	// accepts but Python rejects: a compound statement without a body, or
	// a statement indented differently from the others of its block.
	layoutError *SyntaxError
}

func (w *walker) kind(n *sitter.Node) kind {
	id := int(n.KindId())
	if id < len(w.g.kinds) {
		return w.g.kinds[id]
	}
	return kOther
}

func (w *walker) field(n *sitter.Node, name string) *sitter.Node {
	id, ok := w.g.fields[name]
	if !ok {
		panic("pyscan: the Python grammar has no field " + name)
	}
	return n.ChildByFieldId(id)
}

func (w *walker) text(n *sitter.Node) string {
	s, e := n.StartByte(), n.EndByte()
	if e > uint(len(w.text0)) || s > e {
		return ""
	}
	return w.text0[s:e]
}

// maxDepth bounds the walker's recursion. CPython rejects far shallower
// nesting (200 levels of brackets), so deeper code is a syntax error; the
// bound keeps the Go stack small on pathological input.
const maxDepth = 1000

// enter counts one level of recursion; it reports false, after noting a
// syntax error, when the walk is too deep to go on. Every enter is paired
// with a leave.
func (w *walker) enter(n *sitter.Node) bool {
	w.depth++
	if w.depth > maxDepth {
		w.layoutErrorAt(w.span(n), "syntax error: too deeply nested")
		return false
	}
	return true
}

func (w *walker) leave() { w.depth-- }

func (w *walker) span(n *sitter.Node) Span {
	return Span{Start: w.lines.pos(int(n.StartByte())), End: w.lines.pos(int(n.EndByte()))}
}

// textSpan is text and span together, asking tree-sitter once.
func (w *walker) textSpan(n *sitter.Node) (string, Span) {
	s, e := n.ByteRange()
	sp := Span{Start: w.lines.pos(int(s)), End: w.lines.pos(int(e))}
	if e > uint(len(w.text0)) || s > e {
		return "", sp
	}
	return w.text0[s:e], sp
}

// children returns the node's children, skipping comments; only the named
// ones when named is set. The result is a fresh slice.
func (w *walker) children(n *sitter.Node, named bool) []*sitter.Node {
	out, _ := w.childrenK(n, named)
	return out
}

func (w *walker) namedChildren(n *sitter.Node) []*sitter.Node { return w.children(n, true) }

// childrenK is children with the kind of each child. Every cgo call counts
// here: the walk makes more of them than anything else.
func (w *walker) childrenK(n *sitter.Node, named bool) ([]*sitter.Node, []kind) {
	var out []*sitter.Node
	var kinds []kind
	if named {
		// Most nodes have a few named children among as many punctuation
		// tokens: fetching the named ones by index takes fewer cgo calls
		// than stepping a cursor over all of them. NamedChild(i) costs
		// O(i), so long lists use the cursor.
		if c := n.NamedChildCount(); c <= 32 {
			out = make([]*sitter.Node, 0, c)
			kinds = make([]kind, 0, c)
			for i := uint(0); i < c; i++ {
				ch := n.NamedChild(i)
				if ch == nil {
					continue
				}
				k := w.kind(ch)
				if k == kComment {
					continue
				}
				out = append(out, ch)
				kinds = append(kinds, k)
			}
			return out, kinds
		}
	}
	w.cur.Reset(*n)
	for ok := w.cur.GotoFirstChild(); ok; ok = w.cur.GotoNextSibling() {
		ch := w.cur.Node()
		if ch == nil {
			continue
		}
		// One cgo call gives both the kind and whether the node is named
		// (ERROR nodes, outside the tables, are named).
		id := int(ch.KindId())
		k := kOther
		if id < len(w.g.kinds) {
			k = w.g.kinds[id]
			if k == kComment || named && !w.g.named[id] {
				continue
			}
		}
		out = append(out, ch)
		kinds = append(kinds, k)
	}
	return out, kinds
}

// firstError finds the first ERROR or MISSING node in document order.
func (w *walker) firstError(root *sitter.Node) *SyntaxError {
	n := root
	for {
		if n.IsMissing() {
			return &SyntaxError{Span: w.span(n), Message: fmt.Sprintf("syntax error: missing %q", n.Kind())}
		}
		if n.IsError() {
			// Report the start of the erroneous region; name the first token
			// it contains when that helps.
			msg := "syntax error"
			if t := strings.TrimSpace(w.text(n)); t != "" {
				if i := strings.IndexAny(t, "\r\n"); i >= 0 {
					t = t[:i]
				}
				if len(t) > 40 {
					t = t[:40] + "..."
				}
				msg = fmt.Sprintf("syntax error near %q", t)
			}
			return &SyntaxError{Span: w.span(n), Message: msg}
		}
		var next *sitter.Node
		for _, ch := range w.children(n, false) {
			if ch.HasError() {
				next = ch
				break
			}
		}
		if next == nil {
			return &SyntaxError{Span: w.span(n), Message: "syntax error"}
		}
		n = next
	}
}

// block walks the statements of a module or block. It returns the span of
// the statements, from the first's start to the last's end (comments left
// out); the block's own span when it has none, and a zero Span for a nil n.
func (w *walker) block(n *sitter.Node, sc scope) Span {
	if n == nil {
		return Span{}
	}
	stmts, kinds := w.childrenK(n, true)
	if len(stmts) == 0 && w.kind(n) == kBlock {
		w.layoutErrorAt(w.span(n), "syntax error: expected an indented block")
	}
	// Statements that begin a line must all be indented alike, and those of
	// the module not at all.
	indent := -1
	if w.kind(n) == kModule {
		indent = 0
	}
	for i, st := range stmts {
		if ws, ok := w.lineIndent(int(st.StartByte())); ok {
			switch {
			case indent < 0:
				indent = ws
			case ws > indent && (i == 0 || !isCompound(kinds[i-1])):
				w.layoutErrorAt(w.span(st), "syntax error: unexpected indent")
			case ws != indent:
				// After a compound statement: a dedent from its body
				// that stops between two levels.
				w.layoutErrorAt(w.span(st), "syntax error: unindent does not match any outer indentation level")
			}
		}
		w.statementK(st, kinds[i], sc)
	}
	if len(stmts) == 0 {
		return w.span(n)
	}
	return Span{Start: w.lines.pos(int(stmts[0].StartByte())), End: w.lines.pos(int(stmts[len(stmts)-1].EndByte()))}
}

func (w *walker) layoutErrorAt(s Span, msg string) {
	if w.layoutError == nil || s.Start.Offset < w.layoutError.Span.Start.Offset {
		w.layoutError = &SyntaxError{Span: s, Message: msg}
	}
}

// lineIndent returns the width in bytes of the indentation before off when
// only indentation precedes it on its logical line; false when code
// precedes it (`a = 1; b = 2`, `if x: y`, or a previous line ending in a
// backslash).
func (w *walker) lineIndent(off int) (int, bool) {
	if off > len(w.src) {
		return 0, false
	}
	line := w.lines.line(off)
	start := w.lines[line]
	if start == 0 && off >= 3 && bytes.HasPrefix(w.src, []byte("\ufeff")) {
		start = 3
	}
	// Scan back over the indentation only, so that a long line of
	// `a; b; c; ...` costs no more than its length.
	i, indentStart := off, -1
	for i > start {
		switch w.src[i-1] {
		case ' ', '\t':
		case '\f':
			// A form feed resets the indentation count, as in CPython.
			if indentStart < 0 {
				indentStart = i
			}
		default:
			return 0, false
		}
		i--
	}
	if indentStart < 0 {
		indentStart = start
	}
	if line > 0 {
		prev := w.src[w.lines[line-1]:w.lines[line]]
		prev = bytes.TrimRight(prev, "\r\n")
		if bytes.HasSuffix(prev, []byte{'\\'}) {
			return 0, false
		}
	}
	return off - indentStart, true
}

// isStatement reports whether a node of this kind is a statement the
// walker handles in statement(); used to recover statements that
// tree-sitter left inside an ERROR node.
func isStatement(k kind) bool {
	switch k {
	case kExpressionStatement, kImportStatement, kImportFromStatement, kFutureImportStatement,
		kClassDefinition, kFunctionDefinition, kDecoratedDefinition, kIfStatement, kTryStatement,
		kWithStatement, kForStatement, kWhileStatement, kMatchStatement, kRaiseStatement,
		kAssertStatement, kTypeAliasStatement:
		return true
	}
	return false
}

func isCompound(k kind) bool {
	switch k {
	case kClassDefinition, kFunctionDefinition, kDecoratedDefinition, kIfStatement, kTryStatement,
		kWithStatement, kForStatement, kWhileStatement, kMatchStatement:
		return true
	}
	return false
}

func (w *walker) statement(n *sitter.Node, sc scope) { w.statementK(n, w.kind(n), sc) }

// statementK is statement for a node whose kind the caller knows.
func (w *walker) statementK(n *sitter.Node, k kind, sc scope) {
	defer w.leave()
	if !w.enter(n) {
		return
	}
	switch k {
	case kExpressionStatement:
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kAssignment:
				w.assignment(ch, n, sc)
			case kAugmentedAssignment:
				left := w.field(ch, "left")
				if left != nil && sc.atModule() {
					w.bindTargets(left, BindAugAssign, sc, nil)
				}
				if op := w.field(ch, "operator"); op != nil && left != nil {
					var val *Expr
					if r := w.field(ch, "right"); r != nil {
						e := w.exprRef(r)
						val = &e
					}
					w.stores(left, w.text(op), val, sc)
				}
				w.targetExprs(left, sc)
				w.expr(w.field(ch, "right"), sc)
			default:
				w.expr(ch, sc)
			}
		}
	case kImportStatement, kImportFromStatement, kFutureImportStatement:
		w.importStmt(n, sc)
	case kClassDefinition:
		w.classDef(n, nil, sc)
	case kFunctionDefinition:
		w.funcDef(n, nil, sc)
	case kDecoratedDefinition:
		var decos []Expr
		for _, ch := range w.namedChildren(n) {
			if w.kind(ch) == kDecorator {
				for _, e := range w.namedChildren(ch) {
					decos = append(decos, w.exprRef(e))
					w.expr(e, sc)
				}
			}
		}
		def := w.field(n, "definition")
		if def == nil {
			return
		}
		switch w.kind(def) {
		case kClassDefinition:
			w.classDef(def, decos, sc)
		case kFunctionDefinition:
			w.funcDef(def, decos, sc)
		}
	case kIfStatement:
		cond := w.field(n, "condition")
		w.expr(cond, sc)
		body := sc
		body.where.Conditional = true
		var guard *MainGuard
		if sc.atModule() && cond != nil && w.isMainGuard(cond) {
			body.where.InMainGuard = true
			guard = &MainGuard{Span: w.span(n)}
			w.m.MainGuards = append(w.m.MainGuards, guard)
		}
		if cond != nil && sc.fn != nil {
			body = body.withGuard(w.exprRef(cond), false)
		}
		bodySpan := w.block(w.field(n, "consequence"), body)
		if guard != nil {
			guard.Body = bodySpan
		}
		// elif and else branches run when the guard is false: they are not
		// in the guard, whatever the guard is.
		alt := sc
		alt.where.Conditional = true
		if cond != nil && sc.fn != nil {
			alt = alt.withGuard(w.exprRef(cond), true)
		}
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kElifClause:
				c := w.field(ch, "condition")
				w.expr(c, alt)
				branch := alt
				if c != nil && sc.fn != nil {
					branch = alt.withGuard(w.exprRef(c), false)
					alt = alt.withGuard(w.exprRef(c), true)
				}
				w.block(w.field(ch, "consequence"), branch)
			case kElseClause:
				w.block(w.field(ch, "body"), alt)
			}
		}
	case kTryStatement:
		in := sc
		in.where.InTry = true
		var try *Try
		if sc.fn != nil {
			try = &Try{Span: w.span(n)}
			if b := w.field(n, "body"); b != nil {
				try.Body = w.span(b)
			}
			sc.fn.Tries = append(sc.fn.Tries, try)
		}
		w.block(w.field(n, "body"), in)
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kExceptClause, kExceptGroupClause:
				var h *Handler
				if try != nil {
					h = &Handler{Span: w.span(ch)}
					try.Handlers = append(try.Handlers, h)
				}
				raisesBefore := 0
				if sc.fn != nil {
					raisesBefore = len(sc.fn.Raises)
				}
				for _, c := range w.namedChildren(ch) {
					switch w.kind(c) {
					case kBlock:
						if h != nil {
							h.Body = w.span(c)
						}
						w.block(c, in)
					default:
						// The exception type; an `as e` name is unbound
						// again when the handler ends, so it binds nothing.
						if h != nil {
							if alias := w.field(ch, "alias"); alias != nil && alias.Equals(*c) {
								h.Name = w.text(c)
							} else {
								w.handlerTypes(c, h)
							}
						}
						w.expr(c, in)
					}
				}
				if h != nil && len(sc.fn.Raises) > raisesBefore {
					h.Reraises = true
				}
			case kElseClause:
				if try != nil {
					sp := w.span(ch)
					try.Else = &sp
				}
				w.block(w.field(ch, "body"), in)
			case kFinallyClause:
				if try != nil {
					sp := w.span(ch)
					try.Finally = &sp
				}
				for _, c := range w.namedChildren(ch) {
					w.block(c, in)
				}
			}
		}
	case kWithStatement:
		in := sc
		in.where.Conditional = true
		var with *With
		if sc.fn != nil {
			with = &With{Span: w.span(n)}
			if first := n.Child(0); first != nil && w.kind(first) == kAsync {
				with.Async = true
			}
			if b := w.field(n, "body"); b != nil {
				with.Body = w.span(b)
			}
			sc.fn.Withs = append(sc.fn.Withs, with)
		}
		for _, ch := range w.namedChildren(n) {
			if w.kind(ch) != kWithClause {
				continue
			}
			for _, item := range w.namedChildren(ch) {
				v := w.field(item, "value")
				if v == nil {
					continue
				}
				if with != nil {
					ctx := v
					if w.kind(v) == kAsPattern {
						if kids := w.namedChildren(v); len(kids) > 0 {
							ctx = kids[0]
						}
					}
					with.Items = append(with.Items, w.exprRef(ctx))
				}
				if w.kind(v) != kAsPattern {
					w.expr(v, sc)
					continue
				}
				kids := w.namedChildren(v)
				if len(kids) > 0 {
					w.expr(kids[0], sc)
				}
				for _, t := range kids[min(1, len(kids)):] {
					if w.kind(t) != kAsPatternTarget {
						continue
					}
					for _, tt := range w.namedChildren(t) {
						if sc.atModule() {
							w.bindTargets(tt, BindWith, sc, nil)
						}
						w.targetExprs(tt, sc)
					}
				}
			}
		}
		w.block(w.field(n, "body"), in)
	case kForStatement:
		in := sc
		in.where.Conditional = true
		left := w.field(n, "left")
		if left != nil && sc.atModule() {
			w.bindTargets(left, BindFor, sc, nil)
		}
		w.targetExprs(left, in)
		w.expr(w.field(n, "right"), sc)
		w.block(w.field(n, "body"), in)
		if alt := w.field(n, "alternative"); alt != nil {
			w.block(w.field(alt, "body"), in)
		}
	case kWhileStatement:
		in := sc
		in.where.Conditional = true
		w.expr(w.field(n, "condition"), sc)
		w.block(w.field(n, "body"), in)
		if alt := w.field(n, "alternative"); alt != nil {
			w.block(w.field(alt, "body"), in)
		}
	case kMatchStatement:
		in := sc
		in.where.Conditional = true
		for _, ch := range w.namedChildren(n) {
			if w.kind(ch) != kBlock {
				w.expr(ch, sc) // the subject
				continue
			}
			for _, c := range w.namedChildren(ch) {
				if w.kind(c) != kCaseClause {
					continue
				}
				// Patterns hold no calls; a guard may.
				if g := w.field(c, "guard"); g != nil {
					w.expr(g, in)
				}
				w.block(w.field(c, "consequence"), in)
			}
		}
	case kReturnStatement:
		r := &Return{Span: w.span(n), Guards: sc.guards}
		kids := w.namedChildren(n)
		if len(kids) > 0 {
			e := w.exprRef(kids[0])
			r.Value = &e
		}
		if sc.fn != nil {
			sc.fn.Returns = append(sc.fn.Returns, r)
		}
		for _, k := range kids {
			w.expr(k, sc)
		}
	case kDeleteStatement:
		for _, k := range w.namedChildren(n) {
			w.stores(k, "del", nil, sc)
			w.targetExprs(k, sc)
		}
	case kRaiseStatement:
		r := &Raise{Span: w.span(n), Guards: sc.guards}
		kids := w.namedChildren(n)
		if len(kids) > 0 {
			e := w.exprRef(kids[0])
			r.Exc = &e
		}
		w.addRaise(r, sc)
		for _, k := range kids {
			w.expr(k, sc)
		}
	case kAssertStatement:
		w.addRaise(&Raise{Assert: true, Span: w.span(n), Guards: sc.guards}, sc)
		for _, k := range w.namedChildren(n) {
			w.expr(k, sc)
		}
	case kTypeAliasStatement:
		if sc.atModule() {
			// `type X = ...` or `type X[T] = ...`: left is a type node
			// holding the identifier or a generic_type led by it.
			id := w.field(n, "left")
			for id != nil && (w.kind(id) == kType || w.kind(id) == kGenericType) && id.NamedChildCount() > 0 {
				id = id.NamedChild(0)
			}
			if id != nil && w.kind(id) == kIdentifier {
				name, span := w.textSpan(id)
				w.m.Bindings = append(w.m.Bindings, &Binding{Name: name, Kind: BindTypeAlias, Span: span, Where: sc.where})
			}
		}
	case kGlobalStatement, kNonlocalStatement, kComment:
	case kBlock:
		w.block(n, sc)
	default:
		// return, del, print, exec, pass, an ERROR node, ...: look for calls
		// inside, and for whole statements tree-sitter could not place.
		w.expr(n, sc)
	}
}

func (w *walker) addRaise(r *Raise, sc scope) {
	if sc.fn != nil {
		sc.fn.Raises = append(sc.fn.Raises, r)
	}
}

// prologue returns the span of the statements that must start the module:
// a docstring (a string statement first in the module) and the
// `from __future__` imports after it; nil when it starts with neither.
func (w *walker) prologue(root *sitter.Node) *Span {
	var sp *Span
	for i, st := range w.namedChildren(root) {
		switch w.kind(st) {
		case kFutureImportStatement:
		case kExpressionStatement:
			if i > 0 || !w.isStringStatement(st) {
				return sp
			}
		default:
			return sp
		}
		s := w.span(st)
		if sp == nil {
			sp = &s
		} else {
			sp.End = s.End
		}
	}
	return sp
}

// isStringStatement reports whether an expression statement is one string
// literal, implicitly concatenated or not.
func (w *walker) isStringStatement(st *sitter.Node) bool {
	kids := w.namedChildren(st)
	return len(kids) == 1 && (w.kind(kids[0]) == kString || kids[0].Kind() == "concatenated_string")
}

// isMainGuard reports whether cond is `__name__ == "__main__"` (either
// order, either quote style, in parentheses or not).
func (w *walker) isMainGuard(cond *sitter.Node) bool {
	t := w.text(cond)
	if len(t) > 64 {
		return false
	}
	t = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '\f', '\\', '(', ')':
			return -1
		case '\'':
			return '"'
		}
		return r
	}, t)
	return t == `__name__=="__main__"` || t == `"__main__"==__name__`
}

func (w *walker) assignment(n, stmt *sitter.Node, sc scope) {
	right := w.field(n, "right")
	typ := w.field(n, "type")
	// Chained assignment a = b = value: the right side is itself an
	// assignment; every left side gets the same value.
	targets := []*sitter.Node{w.field(n, "left")}
	value := right
	for value != nil && w.kind(value) == kAssignment {
		targets = append(targets, w.field(value, "left"))
		value = w.field(value, "right")
	}
	switch {
	case sc.class != nil && sc.fn == nil:
		w.classAttrs(targets, typ, value, stmt, sc.class)
	case sc.atModule() && !(typ != nil && right == nil): // `x: int` declares without binding
		kindOf := BindAssign
		if typ != nil {
			kindOf = BindAnnAssign
		}
		for _, t := range targets {
			var val *Expr
			if value != nil && t != nil && w.kind(t) == kIdentifier {
				e := w.exprRef(value)
				val = &e
			}
			w.bindTargets(t, kindOf, sc, val)
		}
	}
	if sc.fn != nil {
		var val *Expr
		if value != nil {
			e := w.exprRef(value)
			val = &e
		}
		for _, t := range targets {
			w.stores(t, "=", val, sc)
		}
	}
	// Targets may hold calls too (`x[f()] = v`); walk in source order.
	for _, t := range targets {
		w.targetExprs(t, sc)
	}
	w.expr(value, sc)
}

// stores records the attribute and subscript targets of an assignment or
// del inside a function. The value is kept for a single target only.
func (w *walker) stores(t *sitter.Node, op string, val *Expr, sc scope) {
	if t == nil || sc.fn == nil {
		return
	}
	switch w.kind(t) {
	case kAttribute:
		sc.fn.Stores = append(sc.fn.Stores, &Store{Target: w.exprRef(t), Op: op, Value: val, Span: w.span(t), Guards: sc.guards})
	case kSubscript:
		st := &Store{Target: w.exprRef(t), Op: op, Value: val, Span: w.span(t), Guards: sc.guards}
		if key := w.subscriptKey(t); key != nil {
			k := w.exprRef(key)
			st.Key = &k
		}
		sc.fn.Stores = append(sc.fn.Stores, st)
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kParenthesizedExpression, kExpressionList:
		for _, ch := range w.namedChildren(t) {
			w.stores(ch, op, nil, sc)
		}
	}
}

// handlerTypes records the types an except clause catches.
func (w *walker) handlerTypes(c *sitter.Node, h *Handler) {
	switch w.kind(c) {
	case kAsPattern:
		kids := w.namedChildren(c)
		if len(kids) > 0 {
			w.handlerTypes(kids[0], h)
		}
		for _, t := range kids[min(1, len(kids)):] {
			if w.kind(t) == kAsPatternTarget {
				h.Name = strings.TrimSpace(w.text(t))
			}
		}
	case kTuple, kParenthesizedExpression:
		for _, e := range w.namedChildren(c) {
			w.handlerTypes(e, h)
		}
	default:
		h.Types = append(h.Types, w.exprRef(c))
	}
}

// subscriptKey returns the index expression of x[k] (nil for x[a, b]).
func (w *walker) subscriptKey(n *sitter.Node) *sitter.Node {
	kids := w.namedChildren(n)
	if len(kids) == 2 {
		return kids[1]
	}
	return nil
}

// targetExprs walks an assignment target for the calls it contains:
// `x.y[f()] = 1` calls f. Names bind, so only the expressions inside
// attributes and subscripts count.
func (w *walker) targetExprs(t *sitter.Node, sc scope) {
	if t == nil {
		return
	}
	defer w.leave()
	if !w.enter(t) {
		return
	}
	switch w.kind(t) {
	case kIdentifier:
	case kSubscript:
		// The store itself is recorded by stores; its object and index
		// are evaluated (and may hold calls and reads).
		for _, ch := range w.namedChildren(t) {
			w.expr(ch, sc)
		}
	case kAttribute, kCall:
		w.expr(t, sc)
	default:
		for _, ch := range w.namedChildren(t) {
			w.targetExprs(ch, sc)
		}
	}
}

// classAttrs records the names a class-body assignment binds.
func (w *walker) classAttrs(targets []*sitter.Node, typ, value, stmt *sitter.Node, c *Class) {
	ann := ""
	if typ != nil {
		ann = w.text(typ)
	}
	var add func(t *sitter.Node, val bool)
	add = func(t *sitter.Node, val bool) {
		if t == nil {
			return
		}
		defer w.leave()
		if !w.enter(t) {
			return
		}
		switch w.kind(t) {
		case kIdentifier:
			name, span := w.textSpan(t)
			attr := &ClassAttr{Name: name, Annotation: ann, Span: span, StmtSpan: w.span(stmt)}
			if val && value != nil {
				e := w.exprRef(value)
				attr.Value = &e
			}
			c.Attrs = append(c.Attrs, attr)
		case kPatternList, kTuplePattern, kListPattern, kListSplatPattern:
			for _, ch := range w.namedChildren(t) {
				add(ch, false)
			}
		}
	}
	for _, t := range targets {
		add(t, true)
	}
}

// bindTargets records module-level bindings for the names in an assignment
// target: identifiers, possibly nested in tuple or list patterns. Attribute
// and subscript targets bind no name.
func (w *walker) bindTargets(t *sitter.Node, k BindingKind, sc scope, val *Expr) {
	if !sc.atModule() || t == nil {
		return
	}
	defer w.leave()
	if !w.enter(t) {
		return
	}
	switch w.kind(t) {
	case kIdentifier:
		name, span := w.textSpan(t)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: name, Kind: k, Span: span, Where: sc.where, Value: val})
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kParenthesizedExpression, kListSplatPattern, kListSplat:
		for _, ch := range w.namedChildren(t) {
			w.bindTargets(ch, k, sc, nil)
		}
	}
}

func (w *walker) importStmt(n *sitter.Node, sc scope) {
	moduleScope := sc.fn == nil && sc.class == nil
	add := func(imp *Import) {
		if imp.Module == "" && imp.Level == 0 || imp.Name == "" && imp.Bound == "" || imp.Name != "" && imp.Bound == "" && imp.Name != "*" {
			return // a MISSING name in a broken import
		}
		imp.Span = w.span(n)
		imp.Where = sc.where
		imp.ModuleScope = moduleScope
		w.m.Imports = append(w.m.Imports, imp)
		if sc.atModule() && imp.Bound != "" {
			w.m.Bindings = append(w.m.Bindings, &Binding{Name: imp.Bound, Kind: BindImport, Span: imp.Span, Where: sc.where})
		}
	}
	switch w.kind(n) {
	case kFutureImportStatement:
		return
	case kImportStatement:
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kDottedName:
				mod := compactDots(w.text(ch))
				bound, _, _ := strings.Cut(mod, ".")
				add(&Import{Module: mod, Bound: bound})
			case kAliasedImport:
				name, alias := w.field(ch, "name"), w.field(ch, "alias")
				if name != nil && alias != nil {
					add(&Import{Module: compactDots(w.text(name)), Bound: w.text(alias)})
				}
			}
		}
	case kImportFromStatement:
		modNode := w.field(n, "module_name")
		if modNode == nil {
			return
		}
		level, mod := 0, ""
		if w.kind(modNode) == kRelativeImport {
			for _, ch := range w.namedChildren(modNode) {
				switch w.kind(ch) {
				case kImportPrefix:
					level = strings.Count(w.text(ch), ".")
				case kDottedName:
					mod = w.text(ch)
				}
			}
		} else {
			mod = w.text(modNode)
		}
		mod = compactDots(mod)
		for _, ch := range w.namedChildren(n) {
			if ch.Equals(*modNode) {
				continue
			}
			switch w.kind(ch) {
			case kWildcardImport:
				add(&Import{Module: mod, Level: level, Name: "*"})
			case kDottedName:
				name := compactDots(w.text(ch))
				add(&Import{Module: mod, Level: level, Name: name, Bound: name})
			case kAliasedImport:
				name, alias := w.field(ch, "name"), w.field(ch, "alias")
				if name != nil && alias != nil {
					add(&Import{Module: mod, Level: level, Name: compactDots(w.text(name)), Bound: w.text(alias)})
				}
			}
		}
	}
}

// compactDots removes white space, line continuations and comments inside
// a dotted name ("a . b" and "a.\<newline>b" are legal Python).
func compactDots(s string) string {
	if !strings.ContainsAny(s, " \t\f\r\n\\#") {
		return s
	}
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, r := range line {
			switch r {
			case ' ', '\t', '\f', '\r', '\\':
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

func (w *walker) classDef(n *sitter.Node, decos []Expr, sc scope) {
	nameNode := w.field(n, "name")
	if nameNode == nil {
		return
	}
	name, nameSpan := w.textSpan(nameNode)
	c := &Class{Name: name, NameSpan: nameSpan, Span: w.span(n), Decorators: decos, Where: sc.where}
	if sup := w.field(n, "superclasses"); sup != nil {
		c.Bases, c.Keywords = w.arguments(sup, sc)
	}
	switch {
	case sc.atModule():
		w.m.Classes = append(w.m.Classes, c)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: c.Name, Kind: BindClass, Span: c.NameSpan, Where: sc.where})
	case sc.class != nil && sc.fn == nil:
		sc.class.Attrs = append(sc.class.Attrs, &ClassAttr{Name: c.Name, Span: c.NameSpan, StmtSpan: c.Span})
	}
	// A nested class body is its own scope; its methods are not this
	// module's or the enclosing class's, but their calls still count for
	// the enclosing function.
	inner := scope{class: c, fn: sc.fn, where: sc.where}
	c.Body = w.block(w.field(n, "body"), inner)
}

func (w *walker) funcDef(n *sitter.Node, decos []Expr, sc scope) {
	nameNode := w.field(n, "name")
	if nameNode == nil {
		return
	}
	name, nameSpan := w.textSpan(nameNode)
	f := &Function{Name: name, NameSpan: nameSpan, Span: w.span(n), Decorators: decos}
	if first := n.Child(0); first != nil && w.kind(first) == kAsync {
		f.Async = true
	}
	if params := w.field(n, "parameters"); params != nil {
		for _, p := range w.namedChildren(params) {
			switch w.kind(p) {
			case kPositionalSeparator, kKeywordSeparator:
				continue
			}
			if name := w.paramName(p); name != "" {
				f.Params = append(f.Params, name)
			}
			// Default values are evaluated where the def runs.
			if v := w.field(p, "value"); v != nil {
				w.expr(v, sc)
			}
		}
	}
	switch {
	case sc.class != nil && sc.fn == nil:
		sc.class.Methods = append(sc.class.Methods, f)
	case sc.fn != nil:
		sc.fn.Nested = append(sc.fn.Nested, f)
	case sc.atModule():
		w.m.Functions = append(w.m.Functions, f)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: f.Name, Kind: BindDef, Span: f.NameSpan, Where: sc.where})
	}
	w.block(w.field(n, "body"), scope{fn: f, where: sc.where})
}

// paramName returns "x" for x, x=1, x: int and x: int = 1, "*args" and
// "**kwargs" for the star forms, "" for anything else.
func (w *walker) paramName(p *sitter.Node) string {
	switch w.kind(p) {
	case kIdentifier:
		return w.text(p)
	case kDefaultParameter, kTypedDefaultParameter:
		if nn := w.field(p, "name"); nn != nil {
			return w.paramName(nn)
		}
	case kTypedParameter:
		// x: int, *args: int, **kw: int; the first named child is the
		// name or the splat pattern.
		if kids := w.namedChildren(p); len(kids) > 0 {
			return w.paramName(kids[0])
		}
	case kListSplatPattern, kDictionarySplatPattern:
		prefix := "*"
		if w.kind(p) == kDictionarySplatPattern {
			prefix = "**"
		}
		for _, ch := range w.namedChildren(p) {
			if w.kind(ch) == kIdentifier {
				return prefix + w.text(ch)
			}
		}
	}
	return ""
}

// exprRef reduces an expression to an Expr.
func (w *walker) exprRef(n *sitter.Node) Expr {
	var e Expr
	e.Text, e.Span = w.textSpan(n)
	switch w.kind(n) {
	case kIdentifier, kAttribute:
		e.Dotted = w.dotted(n)
	case kSubscript:
		v := w.field(n, "value")
		if v != nil {
			e.Dotted = w.dotted(v)
		}
		if !w.enter(n) {
			w.leave()
			break
		}
		for _, s := range w.namedChildren(n) {
			if v != nil && s.Equals(*v) {
				continue
			}
			e.Args = append(e.Args, w.exprRef(s))
		}
		w.leave()
	case kCall:
		e.Call = true
		if f := w.field(n, "function"); f != nil {
			e.Dotted = w.dotted(f)
		}
	}
	return e
}

// dotted returns "a.b.c" for a name or an attribute chain of names, else "".
func (w *walker) dotted(n *sitter.Node) string {
	switch w.kind(n) {
	case kIdentifier:
		return w.text(n)
	case kAttribute:
	default:
		return ""
	}
	if t := w.text(n); plainDotted(t) {
		return t
	}
	// White space, comments or brackets inside: walk down the chain.
	var parts []string
	for w.kind(n) == kAttribute {
		obj, attr := w.field(n, "object"), w.field(n, "attribute")
		if obj == nil || attr == nil {
			return ""
		}
		parts = append(parts, w.text(attr))
		n = obj
	}
	if w.kind(n) != kIdentifier {
		return ""
	}
	parts = append(parts, w.text(n))
	slices.Reverse(parts)
	return strings.Join(parts, ".")
}

// isFString reports whether a string node is an f-string, from its prefix.
func (w *walker) isFString(n *sitter.Node) bool {
	for i := int(n.StartByte()); i < len(w.src); i++ {
		switch w.src[i] {
		case 'f', 'F':
			return true
		case '"', '\'':
			return false
		}
	}
	return false
}

// plainDotted reports whether an identifier or attribute node's text is
// the dotted name itself: identifier bytes and dots only.
func plainDotted(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c == '.' || c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return t != ""
}

// expr walks an expression for calls and walrus bindings.
func (w *walker) expr(n *sitter.Node, sc scope) {
	if n == nil {
		return
	}
	w.exprK(n, w.kind(n), sc)
}

// exprK is expr for a node whose kind the caller knows.
func (w *walker) exprK(n *sitter.Node, k kind, sc scope) {
	switch k {
	case kIdentifier, kComment, kLeaf:
		return
	}
	defer w.leave()
	if !w.enter(n) {
		return
	}
	switch k {
	case kAttribute:
		if sc.fn != nil {
			if e := w.exprRef(n); e.Dotted != "" {
				sc.fn.Refs = append(sc.fn.Refs, e)
			}
		}
		if plainDotted(w.text(n)) {
			return // a.b.c: nothing to call
		}
	case kString:
		// Only an f-string's {interpolations} hold code.
		if !w.isFString(n) {
			return
		}
		for _, ch := range w.namedChildren(n) {
			if w.kind(ch) == kInterpolation {
				w.expr(ch, sc)
			}
		}
		return
	case kAwait:
		if sc.fn != nil {
			if kids := w.namedChildren(n); len(kids) > 0 {
				sc.fn.Awaits = append(sc.fn.Awaits, &Await{Value: w.exprRef(kids[0]), Span: w.span(n)})
			}
		}
	case kSubscript:
		if sc.fn != nil {
			if obj, key := w.field(n, "value"), w.subscriptKey(n); obj != nil && key != nil {
				sc.fn.Subscripts = append(sc.fn.Subscripts, &Subscript{Object: w.exprRef(obj), Key: w.exprRef(key), Span: w.span(n)})
			}
		}
	case kCall:
		f := w.field(n, "function")
		if f == nil {
			break // only in a broken region
		}
		c := &Call{Span: w.span(n), Where: sc.where, Callee: w.exprRef(f)}
		if k := w.kind(f); k != kIdentifier && k != kAttribute {
			// `f()()` and `handlers[k]()` do not call f or handlers.
			c.Callee.Dotted = ""
		}
		// Record the call before the calls in its callee and arguments, so
		// that calls are listed in source order.
		switch {
		case sc.fn != nil:
			sc.fn.Calls = append(sc.fn.Calls, c)
		case sc.class == nil:
			w.m.Calls = append(w.m.Calls, c)
		}
		w.expr(f, sc)
		args := w.field(n, "arguments")
		if args == nil {
			return
		}
		if w.kind(args) == kGeneratorExpression {
			// f(x for x in y): the generator is the only argument.
			c.Args = append(c.Args, w.exprRef(args))
			w.expr(args, sc)
			return
		}
		c.Args, c.Kwargs = w.arguments(args, sc)
		return
	case kNamedExpression:
		name, value := w.field(n, "name"), w.field(n, "value")
		if sc.atModule() && name != nil {
			text, span := w.textSpan(name)
			b := &Binding{Name: text, Kind: BindWalrus, Span: span, Where: sc.where}
			if value != nil {
				e := w.exprRef(value)
				b.Value = &e
			}
			w.m.Bindings = append(w.m.Bindings, b)
		}
		w.expr(value, sc)
		return
	case kLambda:
		// A lambda's body runs later, in its own scope: walrus targets in it
		// bind nothing at module level. Its calls are not module-level calls;
		// inside a function they count for the function.
		inner := scope{fn: sc.fn, where: sc.where}
		if inner.fn == nil {
			inner.fn = &Function{Name: "<lambda>"}
		}
		for _, ch := range w.namedChildren(n) {
			w.expr(ch, inner)
		}
		return
	}
	kids, kinds := w.childrenK(n, true)
	for i, ch := range kids {
		if k := kinds[i]; isStatement(k) || k == kBlock {
			// Only inside an ERROR node: a statement tree-sitter could not
			// attach to its parent. Keep it in its scope.
			w.statementK(ch, k, sc)
			continue
		}
		w.exprK(ch, kinds[i], sc)
	}
}

// lineIndex maps byte offsets to 1-based lines and byte columns. Lines end
// at '\n' (so "\r\n" too), as tree-sitter counts them.
type lineIndex []int // start offset of each line

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, len(src)/32+1)
	for i, b := range src {
		if b == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// line returns the 0-based index of the line holding off.
func (l lineIndex) line(off int) int {
	i := sort.Search(len(l), func(i int) bool { return l[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i
}

func (l lineIndex) pos(off int) Pos {
	i := l.line(off)
	return Pos{Offset: off, Line: i + 1, Col: off - l[i] + 1}
}

// arguments splits an argument list (of a call or of a class's bases) into
// positional and keyword arguments (`**x` is a keyword argument with no
// name), walking each for calls.
func (w *walker) arguments(list *sitter.Node, sc scope) (pos []Expr, kw []KeywordArg) {
	for _, a := range w.namedChildren(list) {
		switch w.kind(a) {
		case kKeywordArgument:
			if kn, vn := w.field(a, "name"), w.field(a, "value"); kn != nil && vn != nil {
				kw = append(kw, KeywordArg{Name: w.text(kn), Value: w.exprRef(vn)})
			}
		case kDictionarySplat:
			kw = append(kw, KeywordArg{Value: w.exprRef(a)})
		default:
			pos = append(pos, w.exprRef(a))
		}
		w.expr(a, sc)
	}
	return pos, kw
}
