package pyscan

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// This file turns the tree-sitter syntax tree into the model, in one walk:
// every statement and expression into the typed syntax of ast.go, and, on
// the way, the module-scope facts of model.go (imports, bindings, classes,
// functions, main guards).

type walker struct {
	g    *grammar
	src  []byte
	text string // the one copy of src that every string of the model slices
	m    *Module
	// t is the syntax tree, copied out of tree-sitter in one cgo call
	// (cwalk.go): the walk reads it with no cgo call of its own.
	t     []flatNode
	depth int // of expression and statement recursion
	// nest is how much deeper in the model than depth the walk is: the
	// links of the chains it walks in a loop (see chain and bitwise), and
	// spine the stack of those links.
	nest  int
	spine []chainLink
	// ks is a stack of the children lists that kids and named return:
	// each is a slice of it, valid until the leave that pairs with the
	// last enter before it was made, which drops the lists made since
	// that enter (marks holds each enter's length of ks). The walk then
	// allocates no children lists of its own.
	ks    []kid
	marks []int32
	// layoutError is the first block layout error that tree-sitter-python
	// accepts but Python rejects: a compound statement without a body, or
	// a statement indented differently from the others of its block.
	layoutError *SyntaxError
	// The most frequent nodes, from chunks (slab.go).
	names      slab[Name]
	attrs      slab[Attribute]
	calls      slab[Call]
	consts     slab[Constant]
	subscripts slab[Subscript]
	paramSlab  slab[Param]
}

// name is a new Name for the identifier at sp.
func (w *walker) name(sp Span) *Name {
	n := w.names.alloc()
	*n = Name{Span: sp, Id: w.spanText(sp)}
	return n
}

// attr is a new Attribute.
func (w *walker) attr(sp Span, value Expr, attr string) *Attribute {
	a := w.attrs.alloc()
	*a = Attribute{Span: sp, Value: value, Attr: attr}
	return a
}

// constant is a new Constant.
func (w *walker) constant(sp Span, k ConstKind, value string) *Constant {
	c := w.consts.alloc()
	*c = Constant{Span: sp, Kind: k, Value: value}
	return c
}

// subscript is a new Subscript of value, its index to be set.
func (w *walker) subscript(sp Span, value Expr) *Subscript {
	s := w.subscripts.alloc()
	*s = Subscript{Span: sp, Value: value}
	return s
}

// scope is where the walker is, for the module-scope facts.
type scope struct {
	module bool      // statements bind module-level names
	class  *Class    // directly in this class's body (not in a function of it)
	fn     *Function // inside this function's body
	lambda bool      // inside a lambda or comprehension: nothing binds at module scope
	where  Where
}

// atModule reports whether statements here run in the module namespace.
func (sc scope) atModule() bool { return sc.module && sc.class == nil && sc.fn == nil && !sc.lambda }

// kid is one child of a node, with what the walker asks of it.
type kid struct {
	n     nodeRef
	k     kind  // for a named child
	t     tok   // for an anonymous child
	f     field // the field it fills, if any
	named bool
	span  Span
}

// maxDepth bounds the walker's recursion: nested brackets, statements,
// and right-recursive expressions (not not x, -(-x), a if b else c if d
// else e, lambdas in lambdas). CPython takes 200 levels of brackets and
// 100 of indentation, and about 3,000 levels of the rest (so that code
// nesting those deeper than 1,000 is, wrongly, a syntax error here; none
// was seen in the standard library); the bound keeps the Go stack small
// (the walker's frames take about 2 KB a level) on pathological input.
const maxDepth = 1000

// maxNesting bounds the depth of the model: the walker's recursion plus
// the links of the left-deep chains (a.b.c, a + b + c, a or b or c) it
// walks in a loop (see chain), which CPython takes up to about 3,000 links
// (10,000 in 3.13; an `or` of any length). A deeper model would cost the
// recursive walks over it (Inspect, the rules) about 1 KB of Go stack a
// level, and a longer chain the walk about 1 KB of memory a link.
const maxNesting = 15000

// enter counts one level of recursion; it reports false, after noting a
// syntax error, when the walk is too deep to go on. Every enter is paired
// with a leave.
func (w *walker) enter(s Span) bool {
	w.depth++
	w.marks = append(w.marks, int32(len(w.ks)))
	if w.depth > maxDepth || w.depth+w.nest > maxNesting {
		w.layoutErrorAt(s, "syntax error: too deeply nested")
		return false
	}
	return true
}

func (w *walker) leave() {
	w.depth--
	last := len(w.marks) - 1
	w.ks = w.ks[:w.marks[last]]
	w.marks = w.marks[:last]
}

// spanOf is the byte span of node n.
func (w *walker) spanOf(n nodeRef) Span {
	return Span{Start: int32(w.t[n].start), End: int32(w.t[n].end)}
}

func (w *walker) spanText(s Span) string {
	if s.Start < 0 || s.Start > s.End || int(s.End) > len(w.text) {
		return ""
	}
	return w.text[s.Start:s.End]
}

// kids returns the node's children in order, comments left out (and noted
// in the module's Comments). The list is on the walker's stack (see ks).
func (w *walker) kids(n nodeRef) []kid {
	t := w.t
	end := nodeRef(t[n].next)
	if n+1 >= end {
		return nil
	}
	start := len(w.ks)
	for i := n + 1; i < end; i = nodeRef(t[i].next) {
		c := &t[i]
		span := Span{Start: int32(c.start), End: int32(c.end)}
		id := int(c.symbol)
		named, k, tk := true, kError, tok(0) // ERROR nodes are outside the tables
		if id < len(w.g.kinds) {
			named, k = w.g.named[id], 0
			if named {
				k = w.g.kinds[id]
			} else {
				tk = w.g.toks[id]
			}
		}
		if k == kComment && named {
			// tree-sitter's comment runs on over the "\r" of a "\r\n";
			// CPython's ends before it, as the line does.
			if span.End > span.Start && w.text[span.End-1] == '\r' {
				span.End--
			}
			w.m.Comments = append(w.m.Comments, span)
			continue
		}
		// Filled in place, field by field: a kid built whole and then
		// copied in is read back as one 16-byte load right after its
		// narrow stores, which the processor cannot forward.
		w.ks = slices.Grow(w.ks, 1)
		w.ks = w.ks[:len(w.ks)+1]
		p := &w.ks[len(w.ks)-1]
		p.n, p.k, p.t, p.f, p.named, p.span = i, k, tk, w.g.fieldOf(uint16(c.field)), named, span
	}
	return w.ks[start:len(w.ks):len(w.ks)]
}

// named keeps the named children of a kids list, on the walker's stack
// (see ks).
func (w *walker) named(ks []kid) []kid {
	start := len(w.ks)
	for _, k := range ks {
		if k.named {
			w.ks = append(w.ks, k)
		}
	}
	return w.ks[start:len(w.ks):len(w.ks)]
}

// byField returns the first child filling field f, or nil.
func byField(ks []kid, f field) *kid {
	for i := range ks {
		if ks[i].f == f {
			return &ks[i]
		}
	}
	return nil
}

func (w *walker) layoutErrorAt(s Span, msg string) {
	if w.layoutError == nil || s.Start < w.layoutError.Span.Start {
		w.layoutError = &SyntaxError{Span: s, Message: msg}
	}
}

// firstError finds the first ERROR or MISSING node in document order, in
// a tree with an error.
func (w *walker) firstError() *SyntaxError {
	n := nodeRef(0)
	for {
		fn := &w.t[n]
		if fn.flags&flagMissing != 0 {
			return &SyntaxError{Span: w.spanOf(n), Message: fmt.Sprintf("syntax error: missing %q", w.g.kindName(uint16(fn.symbol)))}
		}
		if fn.symbol == errorSymbol {
			// Report the start of the erroneous region; name the first token
			// it contains when that helps.
			msg := "syntax error"
			if t := strings.TrimSpace(w.spanText(w.spanOf(n))); t != "" {
				if i := strings.IndexAny(t, "\r\n"); i >= 0 {
					t = t[:i]
				}
				if len(t) > 40 {
					t = t[:40] + "..."
				}
				msg = fmt.Sprintf("syntax error near %q", t)
			}
			return &SyntaxError{Span: w.spanOf(n), Message: msg}
		}
		next := nodeRef(-1)
		for i, end := n+1, nodeRef(fn.next); i < end; i = nodeRef(w.t[i].next) {
			if w.t[i].flags&flagHasError != 0 {
				next = i
				break
			}
		}
		if next < 0 {
			return &SyntaxError{Span: w.spanOf(n), Message: "syntax error"}
		}
		n = next
	}
}

// module walks the whole file, from the root of the flat tree.
func (w *walker) module() {
	m := w.m
	m.Body, _ = w.block(kid{n: 0, k: kModule, span: w.spanOf(0), named: true}, scope{module: true})
	m.Prologue = prologue(m.Body)
	// The walk meets a walrus in an assignment's value, or in a class's
	// bases, before the names the statement binds, which come first in
	// the source.
	byStart := func(i, j int) bool { return m.Bindings[i].Span.Start < m.Bindings[j].Span.Start }
	if !sort.SliceIsSorted(m.Bindings, byStart) {
		sort.SliceStable(m.Bindings, byStart)
	}
	if len(m.Comments) > 1 && !sort.SliceIsSorted(m.Comments, func(i, j int) bool { return m.Comments[i].Start < m.Comments[j].Start }) {
		sort.Slice(m.Comments, func(i, j int) bool { return m.Comments[i].Start < m.Comments[j].Start })
	}
}

// prologue returns the span of the statements that must start the module:
// a docstring (a string statement first in the module) and the
// `from __future__` imports after it; nil when it starts with neither.
func prologue(body []Stmt) *Span {
	var sp *Span
	for i, st := range body {
		switch s := st.(type) {
		case *ImportStmt:
			if !s.Future {
				return sp
			}
		case *ExprStmt:
			if c, ok := s.Value.(*Constant); !ok || i > 0 || c.Kind != ConstStr {
				return sp
			}
		default:
			return sp
		}
		s := st.Range()
		if sp == nil {
			sp = &s
		} else {
			sp.End = s.End
		}
	}
	return sp
}

// block walks the statements of a module or block. It returns them and
// their span, from the first's start to the last's end (comments left
// out): the block's own span when it has none, and a zero Span for a nil n.
func (w *walker) block(b kid, sc scope) ([]Stmt, Span) {
	k := b.k
	stmts := w.named(w.kids(b.n))
	if len(stmts) == 0 && k == kBlock {
		w.layoutErrorAt(b.span, "syntax error: expected an indented block")
	}
	// Statements that begin a line must all be indented alike, and those of
	// the module not at all.
	indent := -1
	if k == kModule {
		indent = 0
	}
	out := make([]Stmt, 0, len(stmts))
	for i, st := range stmts {
		if ws, ok := w.lineIndent(int(st.span.Start)); ok {
			switch {
			case indent < 0:
				indent = ws
			case ws > indent && (i == 0 || !isCompound(stmts[i-1].k)):
				w.layoutErrorAt(st.span, "syntax error: unexpected indent")
			case ws != indent:
				// After a compound statement: a dedent from its body
				// that stops between two levels.
				w.layoutErrorAt(st.span, "syntax error: unindent does not match any outer indentation level")
			}
		}
		out = w.stmt(out, st, sc)
	}
	if len(stmts) == 0 {
		return out, b.span
	}
	return out, Span{Start: stmts[0].span.Start, End: w.endOf(stmts[len(stmts)-1])}
}

// lineIndent returns the width in bytes of the indentation before off when
// only indentation precedes it on its logical line; false when code
// precedes it (`a = 1; b = 2`, `if x: y`, or a previous line ending in a
// backslash).
func (w *walker) lineIndent(off int) (int, bool) {
	if off > len(w.src) {
		return 0, false
	}
	lines := w.m.lines
	line := lines.line(int32(off))
	start := int(lines[line])
	if start == 0 && off >= 3 && strings.HasPrefix(w.text, "\ufeff") {
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
		prev := strings.TrimRight(w.text[lines[line-1]:lines[line]], "\r\n")
		if strings.HasSuffix(prev, "\\") {
			return 0, false
		}
	}
	return off - indentStart, true
}

// isStatement reports whether a node of this kind is a statement; used to
// recover statements that tree-sitter left inside an ERROR node.
func isStatement(k kind) bool {
	switch k {
	case kExpressionStatement, kImportStatement, kImportFromStatement, kFutureImportStatement,
		kClassDefinition, kFunctionDefinition, kDecoratedDefinition, kIfStatement, kTryStatement,
		kWithStatement, kForStatement, kWhileStatement, kMatchStatement, kRaiseStatement,
		kReturnStatement, kDeleteStatement, kAssertStatement, kTypeAliasStatement,
		kGlobalStatement, kNonlocalStatement, kPassStatement, kBreakStatement, kContinueStatement:
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

// endOf returns where a node's last token ends, the comments after it left
// out: tree-sitter ends a block, and so the compound statement, clause or
// case holding it, after the comments that follow its last statement
// (`x = 1  # noqa`, or on lines of their own), where CPython ends them at
// the statement.
func (w *walker) endOf(k kid) int32 {
	t := w.t
	for {
		// The last child, and the last that is no comment.
		last, code := nodeRef(-1), nodeRef(-1)
		for i, end := k.n+1, nodeRef(t[k.n].next); i < end; i = nodeRef(t[i].next) {
			last = i
			if s := t[i].symbol; !(int(s) < len(w.g.kinds) && w.g.named[s] && w.g.kinds[s] == kComment) {
				code = i
			}
		}
		if code < 0 || code == last && int32(t[code].end) < k.span.End {
			// No child but comments, or a node (an ERROR) that runs on
			// past its last child.
			return k.span.End
		}
		k = kid{n: code, span: w.spanOf(code)}
	}
}

// stmt converts one statement node and appends what it gives to out.
// (enter and leave bracket the conversion without a defer: a panic ends
// the parse, and the walker's stacks with it.)
func (w *walker) stmt(out []Stmt, st kid, sc scope) []Stmt {
	if !w.enter(st.span) {
		w.leave()
		return append(out, &BadStmt{Span: st.span})
	}
	out = w.stmtIn(out, st, sc)
	w.leave()
	return out
}

// stmtIn is stmt within enter and leave.
func (w *walker) stmtIn(out []Stmt, st kid, sc scope) []Stmt {
	n, sp := st.n, st.span
	if isCompound(st.k) {
		sp.End = w.endOf(st)
	}
	switch st.k {
	case kExpressionStatement:
		ks := w.kids(n)
		// `a, b` and `a,` are one tuple: tree-sitter has its elements and
		// commas as the statement's children.
		if t := w.bareTuple(ks, sp, sc); t != nil {
			return append(out, &ExprStmt{Span: sp, Value: t})
		}
		for _, ch := range w.named(ks) {
			s := sp
			if ch.span.Start > sp.Start || ch.span.End < sp.End {
				s = ch.span
			}
			switch ch.k {
			case kAssignment:
				out = append(out, w.assignment(ch.n, s, sp, sc))
			case kAugmentedAssignment:
				out = append(out, w.augAssignment(ch.n, s, sc))
			default:
				out = append(out, &ExprStmt{Span: s, Value: w.expr(ch, sc)})
			}
		}
		return out
	case kImportStatement, kImportFromStatement, kFutureImportStatement:
		return append(out, w.importStmt(n, st.k, sp, sc))
	case kClassDefinition:
		if c := w.classDef(n, sp, nil, sc); c != nil {
			return append(out, c)
		}
		return append(out, &BadStmt{Span: sp})
	case kFunctionDefinition:
		if f := w.funcDef(n, sp, nil, sc); f != nil {
			return append(out, f)
		}
		return append(out, &BadStmt{Span: sp})
	case kDecoratedDefinition:
		return append(out, w.decorated(n, sp, sc))
	case kIfStatement:
		return append(out, w.ifStmt(n, sp, sc))
	case kTryStatement:
		return append(out, w.tryStmt(n, sp, sc))
	case kWithStatement:
		return append(out, w.withStmt(n, sp, sc))
	case kForStatement:
		return append(out, w.forStmt(n, sp, sc))
	case kWhileStatement:
		ks := w.kids(n)
		in := sc
		in.where.Conditional = true
		s := &While{Span: sp}
		if c := byField(ks, fCondition); c != nil {
			s.Test = w.expr(*c, sc)
		}
		if b := byField(ks, fBody); b != nil {
			s.Body, _ = w.block(*b, in)
		}
		if a := byField(ks, fAlternative); a != nil {
			s.Else = w.elseBody(a.n, in)
		}
		return append(out, s)
	case kMatchStatement:
		return append(out, w.matchStmt(n, sp, sc))
	case kReturnStatement:
		s := &Return{Span: sp}
		if ks := w.named(w.kids(n)); len(ks) > 0 {
			s.Value = w.exprList(ks, sc)
		}
		return append(out, s)
	case kRaiseStatement:
		s := &Raise{Span: sp}
		for _, ch := range w.named(w.kids(n)) {
			if ch.f == fCause {
				s.Cause = w.expr(ch, sc)
			} else if s.Exc == nil {
				s.Exc = w.expr(ch, sc)
			}
		}
		return append(out, s)
	case kAssertStatement:
		s := &Assert{Span: sp}
		for i, ch := range w.named(w.kids(n)) {
			switch i {
			case 0:
				s.Test = w.expr(ch, sc)
			case 1:
				s.Msg = w.expr(ch, sc)
			}
		}
		return append(out, s)
	case kDeleteStatement:
		s := &Delete{Span: sp}
		for _, ch := range w.named(w.kids(n)) {
			if ch.k == kExpressionList {
				for _, e := range w.named(w.kids(ch.n)) {
					s.Targets = append(s.Targets, w.expr(e, sc))
				}
				continue
			}
			s.Targets = append(s.Targets, w.expr(ch, sc))
		}
		return append(out, s)
	case kGlobalStatement, kNonlocalStatement:
		s := &Global{Span: sp, Nonlocal: st.k == kNonlocalStatement}
		for _, ch := range w.named(w.kids(n)) {
			if ch.k == kIdentifier {
				s.Names = append(s.Names, w.spanText(ch.span))
			}
		}
		return append(out, s)
	case kPassStatement:
		return append(out, &Pass{Span: sp})
	case kBreakStatement:
		return append(out, &Break{Span: sp})
	case kContinueStatement:
		return append(out, &Continue{Span: sp})
	case kTypeAliasStatement:
		return append(out, w.typeAlias(n, sp, sc))
	case kBlock:
		body, _ := w.block(st, sc)
		return append(out, body...)
	case kError:
		// Statements tree-sitter could not attach to their parent: keep
		// them in their scope, the expressions as expression statements,
		// after the region itself as a bad statement (which comes first,
		// so that the body stays in source order).
		out = append(out, &BadStmt{Span: sp})
		for _, ch := range w.named(w.kids(n)) {
			switch {
			case isStatement(ch.k) || ch.k == kBlock || ch.k == kError:
				out = w.stmt(out, ch, sc)
			case isExprKind(ch.k):
				out = append(out, &ExprStmt{Span: ch.span, Value: w.expr(ch, sc)})
			}
		}
		return out
	}
	// print and exec statements of Python 2, and anything else: the
	// statement, then the expressions in it.
	out = append(out, &BadStmt{Span: sp})
	for _, ch := range w.named(w.kids(n)) {
		if isExprKind(ch.k) {
			out = append(out, &ExprStmt{Span: ch.span, Value: w.expr(ch, sc)})
		}
	}
	return out
}

// isExprKind reports whether a node of this kind converts to an expression
// that can hold calls (used where statements are recovered).
func isExprKind(k kind) bool {
	switch k {
	case kCall, kAttribute, kSubscript, kIdentifier, kAwait, kBinaryOperator, kBooleanOperator,
		kComparisonOperator, kNotOperator, kUnaryOperator, kConditionalExpression, kList, kTuple,
		kSet, kDictionary, kParenthesizedExpression, kString, kConcatenatedString, kLambda,
		kNamedExpression, kListComprehension, kSetComprehension, kDictionaryComprehension,
		kGeneratorExpression, kExpressionList, kYield:
		return true
	}
	return false
}

// bareTuple returns the tuple that the children of an expression statement
// make when they are expressions separated by commas (an ERROR among them
// an Other), else nil.
func (w *walker) bareTuple(ks []kid, sp Span, sc scope) Expr {
	var el []kid
	comma := false
	for _, k := range ks {
		switch {
		case !k.named:
			comma = comma || k.t == tComma
		case k.k == kAssignment || k.k == kAugmentedAssignment:
			return nil
		default:
			el = append(el, k)
		}
	}
	if !comma || len(el) == 0 {
		return nil
	}
	t := &Tuple{Span: sp, Elts: make([]Expr, 0, len(el))}
	for _, k := range el {
		t.Elts = append(t.Elts, w.expr(k, sc))
	}
	return t
}

func (w *walker) elseBody(n nodeRef, sc scope) []Stmt {
	ks := w.kids(n)
	if b := byField(ks, fBody); b != nil {
		body, _ := w.block(*b, sc)
		return body
	}
	return nil
}

// exprList converts the named children of a return, a yield or a
// for-in clause: one expression, or several as a Tuple.
func (w *walker) exprList(ks []kid, sc scope) Expr {
	if len(ks) == 1 {
		return w.expr(ks[0], sc)
	}
	t := &Tuple{Span: Span{Start: ks[0].span.Start, End: ks[len(ks)-1].span.End}}
	for _, k := range ks {
		t.Elts = append(t.Elts, w.expr(k, sc))
	}
	return t
}

func (w *walker) assignment(n nodeRef, sp, stmtSpan Span, sc scope) Stmt {
	ks := w.kids(n)
	left, right, typ := byField(ks, fLeft), byField(ks, fRight), byField(ks, fType)
	// Chained assignment a = b = value: the right side is itself an
	// assignment; every left side gets the same value.
	var targets []kid
	if left != nil {
		targets = append(targets, *left)
	}
	value := right
	for value != nil && value.k == kAssignment {
		vk := w.kids(value.n)
		if l := byField(vk, fLeft); l != nil {
			targets = append(targets, *l)
		}
		value = byField(vk, fRight)
	}
	if len(targets) > 1 {
		// `a: int = b = 1` is not Python, but tree-sitter reads it: the
		// statement is an Assign, without the annotation.
		typ = nil
	}
	var annot Expr
	if typ != nil {
		annot = w.expr(*typ, sc)
	}
	var val Expr
	if value != nil {
		if value.k == kAugmentedAssignment {
			// a = b += 1 is not Python; keep what can be kept.
			val = &Other{Span: value.span}
		} else {
			val = w.expr(*value, sc)
		}
	}
	var texprs []Expr
	for _, t := range targets {
		texprs = append(texprs, w.expr(t, sc))
	}
	switch {
	case sc.class != nil && sc.fn == nil:
		w.classAttrs(texprs, annot, val, stmtSpan, sc.class)
	case sc.atModule() && !(typ != nil && right == nil): // `x: int` declares without binding
		kindOf := BindAssign
		if typ != nil {
			kindOf = BindAnnAssign
		}
		for _, t := range texprs {
			w.bind(t, kindOf, sc, val)
		}
	}
	if typ != nil && len(texprs) == 1 {
		return &AnnAssign{Span: sp, Target: texprs[0], Annotation: annot, Value: val}
	}
	if val == nil {
		val = &Other{Span: Span{Start: sp.End, End: sp.End}}
	}
	return &Assign{Span: sp, Targets: texprs, Value: val}
}

func (w *walker) augAssignment(n nodeRef, sp Span, sc scope) Stmt {
	ks := w.kids(n)
	s := &AugAssign{Span: sp}
	if l := byField(ks, fLeft); l != nil {
		s.Target = w.expr(*l, sc)
	}
	if op := byField(ks, fOperator); op != nil && op.t >= tAddEq && op.t <= tBitAndEq {
		s.Op = BinOpKind(op.t - tAddEq)
	}
	if r := byField(ks, fRight); r != nil {
		s.Value = w.expr(*r, sc)
	}
	if s.Target == nil {
		s.Target = &Other{Span: sp}
	}
	if s.Value == nil {
		s.Value = &Other{Span: Span{Start: sp.End, End: sp.End}}
	}
	if sc.atModule() {
		w.bind(s.Target, BindAugAssign, sc, nil)
	}
	return s
}

// bind records the module-scope bindings of the names in an assignment
// target: identifiers, possibly nested in tuples and lists. Attribute and
// subscript targets bind no name. val is kept for a plain-name target.
func (w *walker) bind(t Expr, k BindingKind, sc scope, val Expr) {
	switch t := t.(type) {
	case *Name:
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: t.Id, Kind: k, Span: t.Span, Where: sc.where, Value: val})
	case *Tuple:
		for _, e := range t.Elts {
			w.bind(e, k, sc, nil)
		}
	case *List:
		for _, e := range t.Elts {
			w.bind(e, k, sc, nil)
		}
	case *Starred:
		w.bind(t.Value, k, sc, nil)
	}
}

// classAttrs records the names a class-body assignment binds.
func (w *walker) classAttrs(targets []Expr, annot, value Expr, stmtSpan Span, c *Class) {
	var add func(t Expr, val bool)
	add = func(t Expr, val bool) {
		switch t := t.(type) {
		case *Name:
			a := &ClassAttr{Name: t.Id, Annotation: annot, Span: t.Span, StmtSpan: stmtSpan}
			if val {
				a.Value = value
			}
			c.Attrs = append(c.Attrs, a)
		case *Tuple:
			for _, e := range t.Elts {
				add(e, false)
			}
		case *List:
			for _, e := range t.Elts {
				add(e, false)
			}
		case *Starred:
			add(t.Value, false)
		}
	}
	for _, t := range targets {
		add(t, true)
	}
}

func (w *walker) importStmt(n nodeRef, k kind, sp Span, sc scope) Stmt {
	s := &ImportStmt{Span: sp, Future: k == kFutureImportStatement}
	if k == kFutureImportStatement {
		return s
	}
	moduleScope := sc.fn == nil && sc.class == nil
	add := func(imp *Import) {
		if imp.Module == "" && imp.Level == 0 || imp.Name == "" && imp.Bound == "" || imp.Name != "" && imp.Bound == "" && imp.Name != "*" {
			return // a MISSING name in a broken import
		}
		imp.Span = sp
		imp.Where = sc.where
		imp.ModuleScope = moduleScope
		w.m.Imports = append(w.m.Imports, imp)
		s.Names = append(s.Names, imp)
		if sc.atModule() && imp.Bound != "" {
			w.m.Bindings = append(w.m.Bindings, &Binding{Name: imp.Bound, Kind: BindImport, Span: sp, Where: sc.where})
		}
	}
	ks := w.kids(n)
	aliased := func(ch kid) (name, alias string, ok bool) {
		ak := w.kids(ch.n)
		nm, al := byField(ak, fName), byField(ak, fAlias)
		if nm == nil || al == nil {
			return "", "", false
		}
		return compactDots(w.spanText(nm.span)), w.spanText(al.span), true
	}
	switch k {
	case kImportStatement:
		for _, ch := range w.named(ks) {
			switch ch.k {
			case kDottedName:
				mod := compactDots(w.spanText(ch.span))
				bound, _, _ := strings.Cut(mod, ".")
				add(&Import{Module: mod, Bound: bound})
			case kAliasedImport:
				if name, alias, ok := aliased(ch); ok {
					add(&Import{Module: name, Bound: alias})
				}
			}
		}
	case kImportFromStatement:
		modNode := byField(ks, fModuleName)
		if modNode == nil {
			return s
		}
		level, mod := 0, ""
		if modNode.k == kRelativeImport {
			for _, ch := range w.named(w.kids(modNode.n)) {
				switch ch.k {
				case kImportPrefix:
					level = strings.Count(w.spanText(ch.span), ".")
				case kDottedName:
					mod = w.spanText(ch.span)
				}
			}
		} else {
			mod = w.spanText(modNode.span)
		}
		mod = compactDots(mod)
		for _, ch := range w.named(ks) {
			if ch.f == fModuleName {
				continue
			}
			switch ch.k {
			case kWildcardImport:
				add(&Import{Module: mod, Level: level, Name: "*"})
			case kDottedName:
				name := compactDots(w.spanText(ch.span))
				add(&Import{Module: mod, Level: level, Name: name, Bound: name})
			case kAliasedImport:
				if name, alias, ok := aliased(ch); ok {
					add(&Import{Module: mod, Level: level, Name: name, Bound: alias})
				}
			}
		}
	}
	return s
}

// compactDots removes white space, line continuations and comments inside
// a dotted name ("a . b" and "a.\<newline>b" are legal Python).
func compactDots(s string) string {
	if !strings.ContainsAny(s, " \t\f\r\n\\#") {
		return s
	}
	var b strings.Builder
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for _, line := range lines {
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

func (w *walker) decorated(n nodeRef, sp Span, sc scope) Stmt {
	var decos []Expr
	var def *kid
	ks := w.kids(n)
	for i, ch := range ks {
		switch {
		case ch.k == kDecorator && ch.named:
			for _, e := range w.named(w.kids(ch.n)) {
				decos = append(decos, w.expr(e, sc))
			}
		case ch.f == fDefinition:
			def = &ks[i]
		}
	}
	if def != nil {
		def.span.End = sp.End
		switch def.k {
		case kClassDefinition:
			if c := w.classDef(def.n, def.span, decos, sc); c != nil {
				return c
			}
		case kFunctionDefinition:
			if f := w.funcDef(def.n, def.span, decos, sc); f != nil {
				return f
			}
		}
	}
	return &BadStmt{Span: sp}
}

func (w *walker) classDef(n nodeRef, sp Span, decos []Expr, sc scope) *Class {
	ks := w.kids(n)
	nameNode := byField(ks, fName)
	if nameNode == nil {
		return nil
	}
	c := &Class{Span: sp, Name: w.spanText(nameNode.span), NameSpan: nameNode.span, Decorators: decos, Where: sc.where}
	if sup := byField(ks, fSuperclasses); sup != nil {
		for _, a := range w.arguments(sup.n, sc) {
			switch a.Kind {
			case Positional:
				c.Bases = append(c.Bases, a.Value)
			case StarArg:
				c.Bases = append(c.Bases, &Starred{Span: a.Span, Value: a.Value})
			default:
				c.Keywords = append(c.Keywords, a)
			}
		}
	}
	switch {
	case sc.atModule():
		w.m.Classes = append(w.m.Classes, c)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: c.Name, Kind: BindClass, Span: c.NameSpan, Where: sc.where})
	case sc.class != nil && sc.fn == nil:
		sc.class.Attrs = append(sc.class.Attrs, &ClassAttr{Name: c.Name, Span: c.NameSpan, StmtSpan: c.Span})
	}
	// A class body is its own scope: its methods and attributes are the
	// class's, whether the class is at module scope or not.
	if b := byField(ks, fBody); b != nil {
		c.Body, c.BodySpan = w.block(*b, scope{class: c, where: sc.where})
	}
	return c
}

func (w *walker) funcDef(n nodeRef, sp Span, decos []Expr, sc scope) *Function {
	ks := w.kids(n)
	nameNode := byField(ks, fName)
	if nameNode == nil {
		return nil
	}
	f := &Function{Span: sp, Name: w.spanText(nameNode.span), NameSpan: nameNode.span, Decorators: decos}
	if len(ks) > 0 && !ks[0].named && ks[0].t == tAsync {
		f.Async = true
	}
	if p := byField(ks, fParameters); p != nil {
		// Defaults and annotations are evaluated where the def runs.
		f.Params = w.params(p.n, sc)
	}
	if r := byField(ks, fReturnType); r != nil {
		f.ReturnType = w.expr(*r, sc)
	}
	switch {
	case sc.class != nil && sc.fn == nil:
		sc.class.Methods = append(sc.class.Methods, f)
	case sc.atModule():
		w.m.Functions = append(w.m.Functions, f)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: f.Name, Kind: BindDef, Span: f.NameSpan, Where: sc.where})
	}
	if b := byField(ks, fBody); b != nil {
		f.Body, _ = w.block(*b, scope{fn: f, where: sc.where})
	}
	return f
}

// params converts the parameters of a def or a lambda.
func (w *walker) params(n nodeRef, sc scope) []*Param {
	var out []*Param
	kw := false
	for _, ch := range w.named(w.kids(n)) {
		switch ch.k {
		case kPositionalSeparator:
			for _, p := range out {
				if p.Kind == ParamNormal {
					p.Kind = ParamPosOnly
				}
			}
			continue
		case kKeywordSeparator:
			kw = true
			continue
		}
		p := w.param(ch, sc)
		if p == nil {
			continue
		}
		switch {
		case p.Kind == ParamVarArgs:
			kw = true
		case p.Kind == ParamNormal && kw:
			p.Kind = ParamKwOnly
		}
		out = append(out, p)
	}
	return out
}

func (w *walker) param(ch kid, sc scope) *Param {
	var p Param
	if !w.paramInto(&p, ch, sc) {
		return nil
	}
	out := w.paramSlab.alloc()
	*out = p
	return out
}

// paramInto fills p with the parameter ch; false when ch is none.
func (w *walker) paramInto(p *Param, ch kid, sc scope) bool {
	*p = Param{Span: ch.span}
	switch ch.k {
	case kIdentifier:
		p.Name = w.spanText(ch.span)
	case kDefaultParameter, kTypedDefaultParameter:
		ks := w.kids(ch.n)
		nm := byField(ks, fName)
		if nm == nil || nm.k != kIdentifier {
			return false // a tuple parameter of Python 2
		}
		p.Name = w.spanText(nm.span)
		if t := byField(ks, fType); t != nil {
			p.Annotation = w.expr(*t, sc)
		}
		if v := byField(ks, fValue); v != nil {
			p.Default = w.expr(*v, sc)
		}
	case kTypedParameter:
		ks := w.kids(ch.n)
		for _, k := range w.named(ks) {
			if k.f == fType {
				p.Annotation = w.expr(k, sc)
				continue
			}
			if p.Name != "" {
				continue
			}
			var inner Param
			if !w.paramInto(&inner, k, sc) {
				return false
			}
			p.Name, p.Kind = inner.Name, inner.Kind
		}
		if p.Name == "" {
			return false
		}
	case kListSplatPattern, kDictionarySplatPattern:
		p.Kind = ParamVarArgs
		if ch.k == kDictionarySplatPattern {
			p.Kind = ParamVarKwargs
		}
		for _, k := range w.named(w.kids(ch.n)) {
			if k.k == kIdentifier {
				p.Name = w.spanText(k.span)
			}
		}
		if p.Name == "" {
			return false
		}
	default:
		return false
	}
	return p.Name != "" // not a MISSING name
}

func (w *walker) ifStmt(n nodeRef, sp Span, sc scope) Stmt {
	ks := w.kids(n)
	s := &If{Span: sp}
	cond := byField(ks, fCondition)
	if cond != nil {
		s.Test = w.expr(*cond, sc)
	} else {
		s.Test = &Other{Span: sp}
	}
	body := sc
	body.where.Conditional = true
	var guard *MainGuard
	if sc.atModule() && isMainGuard(s.Test) {
		body.where.InMainGuard = true
		guard = &MainGuard{Span: sp, If: s}
		w.m.MainGuards = append(w.m.MainGuards, guard)
	}
	var bodySpan Span
	if c := byField(ks, fConsequence); c != nil {
		s.Body, bodySpan = w.block(*c, body)
	}
	if guard != nil {
		guard.Body = bodySpan
	}
	// elif and else branches run when the test is false: they are not in
	// the guard, whatever the guard is.
	alt := sc
	alt.where.Conditional = true
	tail := s
	for _, ch := range ks {
		if ch.f != fAlternative {
			continue
		}
		switch ch.k {
		case kElifClause:
			ek := w.kids(ch.n)
			e := &If{Span: Span{Start: ch.span.Start, End: sp.End}, Elif: true}
			if c := byField(ek, fCondition); c != nil {
				e.Test = w.expr(*c, alt)
			} else {
				e.Test = &Other{Span: ch.span}
			}
			if c := byField(ek, fConsequence); c != nil {
				e.Body, _ = w.block(*c, alt)
			}
			tail.Else = []Stmt{e}
			tail = e
		case kElseClause:
			tail.Else = w.elseBody(ch.n, alt)
		}
	}
	return s
}

// isMainGuard reports whether a test is `__name__ == "__main__"` (either
// order).
func isMainGuard(e Expr) bool {
	c, ok := e.(*Compare)
	if !ok || len(c.Ops) != 1 || c.Ops[0] != Eq {
		return false
	}
	is := func(a, b Expr) bool {
		n, ok := a.(*Name)
		s, ok2 := b.(*Constant)
		return ok && ok2 && n.Id == "__name__" && s.Kind == ConstStr && s.Value == "__main__"
	}
	return is(c.Left, c.Comparators[0]) || is(c.Comparators[0], c.Left)
}

func (w *walker) tryStmt(n nodeRef, sp Span, sc scope) Stmt {
	in := sc
	in.where.InTry = true
	s := &Try{Span: sp}
	for _, ch := range w.kids(n) {
		switch {
		case ch.f == fBody:
			s.Body, s.BodySpan = w.block(ch, in)
		case ch.k == kExceptClause || ch.k == kExceptGroupClause:
			h := &Handler{Span: Span{Start: ch.span.Start, End: w.endOf(ch)}}
			hk := w.kids(ch.n)
			if ch.k == kExceptGroupClause {
				s.Star = true
			}
			for _, c := range w.named(hk) {
				switch {
				case c.k == kBlock:
					h.Body, _ = w.block(c, in)
				case c.f == fAlias:
					h.Name = w.targetName(c)
				default:
					if h.Type != nil {
						continue
					}
					t := c
					if c.k == kAsPattern {
						// except (A, B) as e
						for _, a := range w.named(w.kids(c.n)) {
							if a.f == fAlias || a.k == kAsPatternTarget {
								h.Name = w.targetName(a)
							} else if h.Type == nil {
								t = a
								h.Type = w.expr(t, in)
							}
						}
						continue
					}
					h.Type = w.expr(t, in)
				}
			}
			if st, ok := h.Type.(*Starred); ok {
				// except* E: tree-sitter reads the star as a splat.
				s.Star = true
				h.Type = st.Value
			}
			s.Handlers = append(s.Handlers, h)
		case ch.k == kElseClause:
			s.Else = w.elseBody(ch.n, in)
		case ch.k == kFinallyClause:
			for _, c := range w.named(w.kids(ch.n)) {
				if c.k == kBlock {
					s.Finally, _ = w.block(c, in)
				}
			}
		}
	}
	return s
}

// targetName returns the identifier of an as_pattern_target (or an
// identifier), "" for anything else.
func (w *walker) targetName(c kid) string {
	if c.k == kIdentifier {
		return w.spanText(c.span)
	}
	ks := w.named(w.kids(c.n))
	if len(ks) == 1 && ks[0].k == kIdentifier {
		return w.spanText(ks[0].span)
	}
	return ""
}

func (w *walker) withStmt(n nodeRef, sp Span, sc scope) Stmt {
	in := sc
	in.where.Conditional = true
	s := &With{Span: sp}
	ks := w.kids(n)
	if len(ks) > 0 && !ks[0].named && ks[0].t == tAsync {
		s.Async = true
	}
	for _, ch := range ks {
		if ch.k == kWithClause && ch.named {
			for _, item := range w.named(w.kids(ch.n)) {
				if item.k != kWithItem {
					continue
				}
				v := byField(w.kids(item.n), fValue)
				if v == nil {
					continue
				}
				if v.k == kParenthesizedExpression {
					// with (a as b): one item, in parentheses.
					in := w.named(w.kids(v.n))
					if len(in) != 1 {
						s.Items = append(s.Items, WithItem{Context: &Other{Span: v.span}})
						continue
					}
					v = &in[0]
				}
				if v.k != kAsPattern {
					s.Items = append(s.Items, WithItem{Context: w.expr(*v, sc)})
					continue
				}
				var it WithItem
				for _, a := range w.named(w.kids(v.n)) {
					if a.f == fAlias || a.k == kAsPatternTarget {
						for _, t := range w.named(w.kids(a.n)) {
							it.Target = w.expr(t, sc)
							if sc.atModule() {
								w.bind(it.Target, BindWith, sc, nil)
							}
						}
					} else if it.Context == nil {
						it.Context = w.expr(a, sc)
					}
				}
				if it.Context != nil {
					s.Items = append(s.Items, it)
				}
			}
		}
		if ch.f == fBody {
			s.Body, s.BodySpan = w.block(ch, in)
		}
	}
	return s
}

func (w *walker) forStmt(n nodeRef, sp Span, sc scope) Stmt {
	in := sc
	in.where.Conditional = true
	s := &For{Span: sp}
	ks := w.kids(n)
	if len(ks) > 0 && !ks[0].named && ks[0].t == tAsync {
		s.Async = true
	}
	var rights []kid
	for _, ch := range ks {
		switch ch.f {
		case fLeft:
			s.Target = w.expr(ch, in)
			if sc.atModule() {
				w.bind(s.Target, BindFor, sc, nil)
			}
		case fRight:
			if ch.named {
				rights = append(rights, ch)
			}
		case fBody:
			s.Body, _ = w.block(ch, in)
		case fAlternative:
			s.Else = w.elseBody(ch.n, in)
		}
	}
	if len(rights) > 0 {
		s.Iter = w.exprList(rights, sc)
	}
	if s.Target == nil {
		s.Target = &Other{Span: sp}
	}
	if s.Iter == nil {
		s.Iter = &Other{Span: sp}
	}
	return s
}

func (w *walker) matchStmt(n nodeRef, sp Span, sc scope) Stmt {
	in := sc
	in.where.Conditional = true
	s := &Match{Span: sp}
	var subjects []kid
	for _, ch := range w.kids(n) {
		switch {
		case ch.f == fSubject && ch.named:
			subjects = append(subjects, ch)
		case ch.f == fBody || ch.k == kBlock && ch.named:
			for _, c := range w.named(w.kids(ch.n)) {
				if c.k != kCaseClause {
					continue
				}
				mc := &MatchCase{Span: Span{Start: c.span.Start, End: w.endOf(c)}}
				for _, part := range w.kids(c.n) {
					switch {
					case part.f == fGuard:
						if g := w.named(w.kids(part.n)); len(g) > 0 {
							mc.Guard = w.expr(g[0], in)
						}
					case part.f == fConsequence:
						mc.Body, _ = w.block(part, in)
					case part.named && mc.Pattern == nil:
						// Patterns hold no calls; the model keeps them opaque.
						mc.Pattern = &Other{Span: part.span}
					}
				}
				s.Cases = append(s.Cases, mc)
			}
		}
	}
	if len(subjects) > 0 {
		s.Subject = w.exprList(subjects, sc)
	} else {
		s.Subject = &Other{Span: sp}
	}
	return s
}

func (w *walker) typeAlias(n nodeRef, sp Span, sc scope) Stmt {
	ks := w.kids(n)
	s := &TypeAlias{Span: sp}
	if l := byField(ks, fLeft); l != nil {
		// `type X = ...` or `type X[T] = ...`: left is a type node
		// holding the identifier or a generic_type led by it.
		id := *l
		for id.k == kType || id.k == kGenericType {
			inner := w.named(w.kids(id.n))
			if len(inner) == 0 {
				break
			}
			id = inner[0]
		}
		if id.k == kIdentifier {
			s.Name = w.spanText(id.span)
			if sc.atModule() {
				w.m.Bindings = append(w.m.Bindings, &Binding{Name: s.Name, Kind: BindTypeAlias, Span: id.span, Where: sc.where})
			}
		}
	}
	if r := byField(ks, fRight); r != nil {
		// The value is evaluated lazily, in a scope of its own: nothing in
		// it binds at module scope (Python refuses a walrus there).
		inner := sc
		inner.lambda = true
		s.Value = w.expr(*r, inner)
	} else {
		s.Value = &Other{Span: sp}
	}
	return s
}

// arguments converts an argument list (of a call or of a class's bases).
func (w *walker) arguments(list nodeRef, sc scope) []Arg {
	args := w.named(w.kids(list))
	if len(args) == 0 {
		return nil
	}
	out := make([]Arg, 0, len(args))
	for _, a := range args {
		switch a.k {
		case kKeywordArgument:
			ks := w.kids(a.n)
			kn, vn := byField(ks, fName), byField(ks, fValue)
			if kn != nil && vn != nil {
				out = append(out, Arg{Kind: Keyword, Name: w.spanText(kn.span), Value: w.expr(*vn, sc), Span: a.span})
			}
		case kListSplat:
			out = append(out, Arg{Kind: StarArg, Value: w.splatValue(a, sc), Span: a.span})
		case kDictionarySplat:
			out = append(out, Arg{Kind: StarStarArg, Value: w.splatValue(a, sc), Span: a.span})
		default:
			out = append(out, Arg{Kind: Positional, Value: w.expr(a, sc), Span: a.span})
		}
	}
	return out
}

// splatValue is the operand of *x or **x.
func (w *walker) splatValue(a kid, sc scope) Expr {
	defer w.leave()
	if !w.enter(a.span) {
		return &Other{Span: a.span}
	}
	if ks := w.named(w.kids(a.n)); len(ks) > 0 {
		return w.expr(ks[0], sc)
	}
	return &Other{Span: a.span}
}

// expr converts an expression node.
func (w *walker) expr(x kid, sc scope) Expr {
	switch x.k {
	case kIdentifier:
		return w.name(x.span)
	case kInteger:
		return w.number(x.span, ConstInt)
	case kFloat:
		return w.number(x.span, ConstFloat)
	case kTrue:
		return w.constant(x.span, ConstTrue, "")
	case kFalse:
		return w.constant(x.span, ConstFalse, "")
	case kNone:
		return w.constant(x.span, ConstNone, "")
	case kEllipsis:
		return w.constant(x.span, ConstEllipsis, "")
	}
	if !w.enter(x.span) {
		w.leave()
		return &Other{Span: x.span}
	}
	e := w.exprIn(x, sc)
	w.leave()
	return e
}

// exprIn is expr within enter and leave, for the nodes that have parts.
func (w *walker) exprIn(x kid, sc scope) Expr {
	n, sp := x.n, x.span
	switch x.k {
	case kAttribute, kCall, kSubscript, kBooleanOperator:
		return w.chain(x, sc)
	case kSlice:
		s := &Slice{Span: sp}
		part := 0
		mark := len(w.m.Bindings)
		for _, k := range w.kids(n) {
			if !k.named {
				if k.t == tColon {
					part++
				}
				continue
			}
			e := w.expr(k, sc)
			var slot *Expr
			switch part {
			case 0:
				slot = &s.Lower
			case 1:
				slot = &s.Upper
			default:
				slot = &s.Step
			}
			if *slot != nil || part > 2 {
				// Two expressions in one part, or a fourth part: error
				// recovery's slice (`x[a:=0 b:]`), which Python refuses.
				return w.discard(sp, mark)
			}
			*slot = e
		}
		return s
	case kString, kConcatenatedString:
		return w.str(x, sc)
	case kComparisonOperator:
		c := &Compare{Span: sp}
		mark := len(w.m.Bindings)
		for _, k := range w.kids(n) {
			if k.named {
				e := w.expr(k, sc)
				if c.Left == nil {
					c.Left = e
				} else {
					c.Comparators = append(c.Comparators, e)
				}
				continue
			}
			if k.t >= tEq && k.t <= tNotIn {
				c.Ops = append(c.Ops, CmpOp(k.t-tEq))
			}
		}
		if c.Left == nil || len(c.Ops) != len(c.Comparators) || len(c.Ops) == 0 {
			return w.discard(sp, mark)
		}
		return c
	case kNotOperator:
		if a := byField(w.kids(n), fArgument); a != nil {
			return &UnaryOp{Span: sp, Op: Not, Operand: w.expr(*a, sc)}
		}
		return &Other{Span: sp}
	case kUnaryOperator:
		ks := w.kids(n)
		a, op := byField(ks, fArgument), byField(ks, fOperator)
		if a == nil || op == nil {
			return &Other{Span: sp}
		}
		u := &UnaryOp{Span: sp}
		switch op.t {
		case tSub:
			u.Op = USub
		case tAdd:
			u.Op = UAdd
		case tInvert:
			u.Op = Invert
		default:
			return &Other{Span: sp}
		}
		u.Operand = w.expr(*a, sc)
		return u
	case kBinaryOperator:
		if t := w.operatorOf(x); t != tBitXor && t != tBitAnd {
			return w.chain(x, sc)
		}
		ks := w.kids(n)
		l, r, op := byField(ks, fLeft), byField(ks, fRight), byField(ks, fOperator)
		if l == nil || r == nil || op == nil {
			return &Other{Span: sp}
		}
		return w.bitwise(*l, op.t, *r, sc)
	case kConditionalExpression:
		ks := w.named(w.kids(n))
		if len(ks) != 3 {
			return &Other{Span: sp}
		}
		return &IfExp{Span: sp, Body: w.expr(ks[0], sc), Test: w.expr(ks[1], sc), OrElse: w.expr(ks[2], sc)}
	case kNamedExpression:
		ks := w.kids(n)
		nm, v := byField(ks, fName), byField(ks, fValue)
		if nm == nil || v == nil {
			return &Other{Span: sp}
		}
		ne := &NamedExpr{Span: sp, Target: &Name{Span: nm.span, Id: w.spanText(nm.span)}, Value: w.expr(*v, sc)}
		if sc.atModule() {
			w.m.Bindings = append(w.m.Bindings, &Binding{Name: ne.Target.Id, Kind: BindWalrus, Span: nm.span, Where: sc.where, Value: ne.Value})
		}
		return ne
	case kAwait:
		if ks := w.named(w.kids(n)); len(ks) > 0 {
			return &Await{Span: sp, Value: w.expr(ks[0], sc)}
		}
		return &Other{Span: sp}
	case kYield:
		y := &Yield{Span: sp}
		var vals []kid
		for _, k := range w.kids(n) {
			if !k.named {
				if k.t == tFrom {
					y.From = true
				}
				continue
			}
			vals = append(vals, k)
		}
		if len(vals) == 1 && vals[0].k == kExpressionList {
			y.Value = w.expr(vals[0], sc)
		} else if len(vals) > 0 {
			y.Value = w.exprList(vals, sc)
		}
		return y
	case kLambda:
		// A lambda's body runs later, in its own scope: walrus targets in
		// it bind nothing at module scope.
		inner := sc
		inner.lambda = true
		l := &Lambda{Span: sp}
		for _, k := range w.kids(n) {
			switch k.f {
			case fParameters:
				l.Params = w.params(k.n, sc)
			case fBody:
				l.Body = w.expr(k, inner)
			}
		}
		if l.Body == nil {
			l.Body = &Other{Span: sp}
		}
		return l
	case kList, kListPattern:
		return &List{Span: sp, Elts: w.elements(n, sc)}
	case kTuplePattern:
		// A parenthesized target, (a) = 1, is a tuple only with a comma.
		ks := w.kids(n)
		el, comma := w.named(ks), false
		for _, k := range ks {
			comma = comma || !k.named && k.t == tComma
		}
		if len(el) == 1 && !comma {
			return w.expr(el[0], sc)
		}
		t := &Tuple{Span: sp, Elts: make([]Expr, 0, len(el))}
		for _, k := range el {
			t.Elts = append(t.Elts, w.expr(k, sc))
		}
		return t
	case kTuple, kPatternList, kExpressionList:
		return &Tuple{Span: sp, Elts: w.elements(n, sc)}
	case kSet:
		return &Set{Span: sp, Elts: w.elements(n, sc)}
	case kDictionary:
		d := &Dict{Span: sp}
		for _, k := range w.named(w.kids(n)) {
			switch k.k {
			case kPair:
				pk := w.kids(k.n)
				key, val := byField(pk, fKey), byField(pk, fValue)
				if key != nil && val != nil {
					d.Items = append(d.Items, DictItem{Key: w.expr(*key, sc), Value: w.expr(*val, sc)})
				}
			case kDictionarySplat:
				d.Items = append(d.Items, DictItem{Value: w.splatValue(k, sc)})
			}
		}
		return d
	case kListComprehension, kSetComprehension, kDictionaryComprehension, kGeneratorExpression:
		return w.comprehension(x, sc)
	case kParenthesizedExpression:
		ks := w.named(w.kids(n))
		if len(ks) == 1 {
			return w.expr(ks[0], sc)
		}
		return &Other{Span: sp}
	case kListSplat, kListSplatPattern, kParenthesizedListSplat:
		if ks := w.named(w.kids(n)); len(ks) > 0 {
			if x.k == kParenthesizedListSplat {
				return w.expr(ks[0], sc)
			}
			return &Starred{Span: sp, Value: w.expr(ks[0], sc)}
		}
		return &Other{Span: sp}
	case kDictionarySplat, kDictionarySplatPattern:
		// **x outside a call or a dict display: kept as a starred value.
		return &Starred{Span: sp, Value: w.splatValue(x, sc)}
	case kType:
		if ks := w.named(w.kids(n)); len(ks) == 1 {
			return w.expr(ks[0], sc)
		}
		return &Other{Span: sp}
	case kGenericType:
		// list[int] in an annotation.
		ks := w.named(w.kids(n))
		if len(ks) != 2 || ks[0].k != kIdentifier || ks[1].k != kTypeParameter {
			return &Other{Span: sp}
		}
		s := w.subscript(sp, w.expr(ks[0], sc))
		params := w.named(w.kids(ks[1].n))
		switch len(params) {
		case 0:
			s.Index = &Other{Span: ks[1].span}
		case 1:
			s.Index = w.expr(params[0], sc)
		default:
			t := &Tuple{Span: Span{Start: params[0].span.Start, End: params[len(params)-1].span.End}}
			for _, p := range params {
				t.Elts = append(t.Elts, w.expr(p, sc))
			}
			s.Index = t
		}
		return s
	case kMemberType:
		ks := w.named(w.kids(n))
		if len(ks) != 2 || ks[1].k != kIdentifier {
			return &Other{Span: sp}
		}
		return w.attr(sp, w.expr(ks[0], sc), w.spanText(ks[1].span))
	case kUnionType:
		ks := w.named(w.kids(n))
		if len(ks) != 2 {
			return &Other{Span: sp}
		}
		return &BinOp{Span: sp, Left: w.expr(ks[0], sc), Op: BitOr, Right: w.expr(ks[1], sc)}
	case kSplatType:
		if ks := w.named(w.kids(n)); len(ks) == 1 {
			return &Starred{Span: sp, Value: w.expr(ks[0], sc)}
		}
		return &Other{Span: sp}
	case kDottedName:
		// a.b.c where tree-sitter keeps a dotted name (decorators of
		// Python 2 code, patterns).
		var e Expr
		for _, k := range w.named(w.kids(n)) {
			if k.k != kIdentifier {
				return &Other{Span: sp}
			}
			if e == nil {
				e = w.name(k.span)
			} else {
				e = w.attr(Span{Start: sp.Start, End: k.span.End}, e, w.spanText(k.span))
			}
		}
		if e == nil {
			return &Other{Span: sp}
		}
		return e
	case kKeywordArgument:
		// Only in a broken region: keep the value.
		if v := byField(w.kids(n), fValue); v != nil {
			return w.expr(*v, sc)
		}
		return &Other{Span: sp}
	}
	// Anything else (patterns, an ERROR node): opaque, but statements
	// tree-sitter left inside an ERROR node are not the model's concern
	// here; the region is a syntax error the view reports.
	return &Other{Span: sp}
}

// chainLink is one node of a left-deep chain (see chain): its children,
// the one of them that is its left-hand operand, and how many levels of
// the model it lies below the chain's top.
type chainLink struct {
	x    kid
	ks   []kid
	left *kid // nil for a link that converts to an Other: its left is not converted
	nest int
}

// isChainLink reports whether the walker converts x as a link of a
// left-deep chain (see chain).
func (w *walker) isChainLink(x kid) bool {
	switch x.k {
	case kAttribute, kCall, kSubscript, kBooleanOperator:
		return true
	case kBinaryOperator:
		t := w.operatorOf(x)
		return t != tBitXor && t != tBitAnd
	}
	return false
}

// chainLeft returns the left-hand operand of a chain link with children
// ks, or nil when the link is incomplete (only in a broken region) and
// converts to an Other.
func chainLeft(k kind, ks []kid) *kid {
	switch k {
	case kAttribute:
		if byField(ks, fAttribute) == nil {
			return nil
		}
		return byField(ks, fObject)
	case kCall:
		return byField(ks, fFunction)
	case kSubscript:
		return byField(ks, fValue)
	case kBooleanOperator:
		if byField(ks, fRight) == nil || byField(ks, fOperator) == nil {
			return nil
		}
		return byField(ks, fLeft)
	case kBinaryOperator:
		op := byField(ks, fOperator)
		if byField(ks, fRight) == nil || op == nil || op.t != tStar && op.t != tStarStar && (op.t < tAdd || op.t > tBitAnd) {
			return nil
		}
		return byField(ks, fLeft)
	}
	return nil
}

// chain converts a left-deep chain: an attribute, call or subscript of an
// attribute, call or subscript (a.b(c)[d].e), or a boolean or binary
// operator whose left operand is one (a + b + c, a or b or c, and mixes).
// Such chains run long in real code (a generated `or` of a thousand names,
// a sum of a thousand terms, a builder's chain of calls) and CPython takes
// them up to its recursion limit (about 3,000 links; 10,000 in 3.13; an
// `or` or an `and` of any length, which is one BoolOp), so the walk goes
// down the chain and back up it in a loop: the links count against
// maxNesting, not against maxDepth (the walker's recursion), every link of
// an `or` or an `and` too, which bounds the memory the walk of one chain
// holds (an `or` of more than about 15,000 terms is too deeply nested
// here, where CPython takes any length). The operands are converted in
// source order, as a recursive walk would.
func (w *walker) chain(x kid, sc scope) Expr {
	base := len(w.spine)
	defer func() { w.spine = w.spine[:base] }()
	saved := w.nest
	defer func() { w.nest = saved }()
	cur := x
	for {
		ks := w.kids(cur.n)
		c := chainLink{x: cur, ks: ks, left: chainLeft(cur.k, ks)}
		if n := len(w.spine); n > base {
			// a or b or c is one BoolOp: the inner or is no level of its
			// own.
			p := &w.spine[n-1]
			c.nest = p.nest + 1
			if c.x.k == kBooleanOperator && p.x.k == kBooleanOperator && c.left != nil &&
				byField(c.ks, fOperator).t == byField(p.ks, fOperator).t {
				c.nest--
			}
		}
		// Too long: stop here, before reading the rest of the chain. Every
		// link counts, an or's or an and's too (the walk holds each one's
		// children), though the model makes them one BoolOp.
		if w.depth+saved+(len(w.spine)-base)+1 > maxNesting {
			w.layoutErrorAt(x.span, "syntax error: too deeply nested")
			return &Other{Span: x.span}
		}
		w.spine = append(w.spine, c)
		if c.left == nil || !w.isChainLink(*c.left) {
			break
		}
		cur = *c.left
	}
	links := w.spine[base:]
	last := len(links) - 1
	var e Expr
	if l := links[last].left; l != nil {
		w.nest = saved + links[last].nest
		e = w.expr(*l, sc)
	}
	for i := last; i >= 0; i-- {
		w.nest = saved + links[i].nest
		e = w.chainNode(links[i], e, sc)
	}
	return e
}

// chainNode converts one link of a chain whose left-hand operand converted
// to left (nil when the link has none: it converts to an Other).
func (w *walker) chainNode(c chainLink, left Expr, sc scope) Expr {
	ks, sp := c.ks, c.x.span
	if c.left == nil {
		return &Other{Span: sp} // only in a broken region
	}
	switch c.x.k {
	case kAttribute:
		return w.hoistStar(w.attr(sp, left, w.spanText(byField(ks, fAttribute).span)))
	case kCall:
		call := w.calls.alloc()
		*call = Call{Span: sp, Func: left}
		if a := byField(ks, fArguments); a != nil {
			if a.k == kGeneratorExpression {
				// f(x for x in y): the generator is the only argument.
				call.Args = []Arg{{Kind: Positional, Value: w.expr(*a, sc), Span: a.span}}
			} else {
				call.Args = w.arguments(a.n, sc)
			}
		}
		return w.hoistStar(call)
	case kSubscript:
		s := w.subscript(sp, left)
		var idx []kid
		comma := int32(-1) // the end of a comma after an index: x[a,] is x[(a,)]
		for _, k := range ks {
			switch {
			case k.f == fSubscript && k.named:
				idx = append(idx, k)
			case !k.named && k.t == tComma && len(idx) > 0:
				comma = k.span.End
			}
		}
		switch {
		case len(idx) == 0:
			s.Index = &Other{Span: Span{Start: sp.End, End: sp.End}}
		case len(idx) == 1 && comma < 0:
			s.Index = w.expr(idx[0], sc)
		default:
			t := &Tuple{Span: Span{Start: idx[0].span.Start, End: max(idx[len(idx)-1].span.End, comma)}}
			for _, k := range idx {
				t.Elts = append(t.Elts, w.expr(k, sc))
			}
			s.Index = t
		}
		return w.hoistStar(s)
	case kBooleanOperator:
		r, op := byField(ks, fRight), byField(ks, fOperator)
		b := &BoolOp{Span: sp, Op: And}
		if op.t == tOr {
			b.Op = Or
		}
		// a or b or c is one BoolOp, as CPython has it; a parenthesized
		// (a or b) or c is not (its span starts after the parenthesis).
		if lb, ok := left.(*BoolOp); ok && lb.Op == b.Op && c.left.k == kBooleanOperator {
			b.Values = append(lb.Values, w.expr(*r, sc))
		} else {
			b.Values = []Expr{left, w.expr(*r, sc)}
		}
		return b
	case kBinaryOperator:
		r, op := byField(ks, fRight), byField(ks, fOperator)
		b := &BinOp{Span: sp, Left: left}
		switch op.t {
		case tStar:
			b.Op = Mult
		case tStarStar:
			b.Op = Pow
		default:
			b.Op = BinOpKind(op.t - tAdd)
		}
		b.Right = w.expr(*r, sc)
		return w.hoistStar(b)
	}
	return &Other{Span: sp}
}

// bitwise converts a chain of ^ and & operators, l op r. tree-sitter-python
// gives ^ a higher precedence than &, Python the reverse (| < ^ < &): the
// chain's operands and operators are read in source order and grouped
// again, & first, each from the left. (| and the operators above & are
// ordered alike in both.)
func (w *walker) bitwise(l kid, op tok, r kid, sc scope) Expr {
	var operands []Expr
	var spans []Span // the operands' spans, their parentheses included
	var ops []BinOpKind
	// The chain is read in source order in a loop (a long `a & b & c ...`
	// is a deep tree), from a stack of what is still to read: nodes, and
	// the operators between them.
	type item struct {
		k    kid
		op   tok
		isOp bool
	}
	saved := w.nest
	defer func() { w.nest = saved }()
	todo := []item{{k: r}, {op: op, isOp: true}, {k: l}}
	for len(todo) > 0 {
		// Too long: stop before reading the rest of the chain.
		if w.depth+saved+len(ops)+len(todo)/2 > maxNesting {
			w.layoutErrorAt(Span{Start: l.span.Start, End: r.span.End}, "syntax error: too deeply nested")
			return &Other{Span: Span{Start: l.span.Start, End: r.span.End}}
		}
		it := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		k := it.k
		if it.isOp {
			ops = append(ops, BinOpKind(it.op-tAdd))
			continue
		}
		if t := w.operatorOf(k); t == tBitXor || t == tBitAnd {
			ks := w.kids(k.n)
			kl, kr := byField(ks, fLeft), byField(ks, fRight)
			if kl != nil && kr != nil {
				todo = append(todo, item{k: *kr}, item{op: t, isOp: true}, item{k: *kl})
				continue
			}
			operands = append(operands, &Other{Span: k.span})
			spans = append(spans, k.span)
			continue
		}
		// Regrouped, the chain is at most one level an operator deep.
		w.nest = saved + len(ops) + len(todo)/2
		operands = append(operands, w.expr(k, sc))
		spans = append(spans, k.span)
	}
	if w.depth+saved+len(ops) > maxNesting {
		w.layoutErrorAt(Span{Start: spans[0].Start, End: spans[len(spans)-1].End}, "syntax error: too deeply nested")
		return &Other{Span: Span{Start: spans[0].Start, End: spans[len(spans)-1].End}}
	}
	join := func(a Expr, as Span, o BinOpKind, b Expr, bs Span) (Expr, Span) {
		s := Span{Start: as.Start, End: bs.End}
		return w.hoistStar(&BinOp{Span: s, Left: a, Op: o, Right: b}), s
	}
	xs, xspans := []Expr{operands[0]}, []Span{spans[0]}
	var xops []BinOpKind
	for i, o := range ops {
		if o == BitAnd {
			j := len(xs) - 1
			xs[j], xspans[j] = join(xs[j], xspans[j], BitAnd, operands[i+1], spans[i+1])
		} else {
			xs, xspans, xops = append(xs, operands[i+1]), append(xspans, spans[i+1]), append(xops, o)
		}
	}
	e, es := xs[0], xspans[0]
	for i, o := range xops {
		e, es = join(e, es, o, xs[i+1], xspans[i+1])
	}
	return e
}

// discard returns an Other for a node whose parts were converted already,
// and drops the walrus bindings they recorded: the model does not hold
// them.
func (w *walker) discard(sp Span, mark int) Expr {
	w.m.Bindings = w.m.Bindings[:mark]
	return &Other{Span: sp}
}

// hoistStar turns (*a)(x), (*a).b, (*a)[i] and (*a) + b, as tree-sitter
// reads `*a(x)`, `*a.b`, `*a[i]` and `*a + b` in a display or a bare
// tuple, into *(a(x)) and so on: in Python the star applies to the whole
// expression that it starts.
func (w *walker) hoistStar(e Expr) Expr {
	var left *Expr
	var start *int32
	switch e := e.(type) {
	case *Call:
		left, start = &e.Func, &e.Span.Start
	case *Attribute:
		left, start = &e.Value, &e.Span.Start
	case *Subscript:
		left, start = &e.Value, &e.Span.Start
	case *BinOp:
		left, start = &e.Left, &e.Span.Start
	default:
		return e
	}
	st, ok := (*left).(*Starred)
	if !ok || st.Start != *start {
		return e
	}
	out := &Starred{Span: e.Range(), Value: e}
	*left = st.Value
	// The expression starts after the star and the space after it (at
	// the latest where its operand does: a MISSING one has no text).
	s := st.Start + 1
	for int(s) < len(w.text) && strings.IndexByte(" \t\f\r\n\\", w.text[s]) >= 0 {
		s++
	}
	*start = min(s, st.Value.Range().Start)
	return out
}

// operatorOf returns the operator of a binary_operator node (tNone for any
// other node), read without kids so that its comments are not noted twice.
func (w *walker) operatorOf(k kid) tok {
	if k.k != kBinaryOperator {
		return tNone
	}
	t := w.t
	for i, end := k.n+1, nodeRef(t[k.n].next); i < end; i = nodeRef(t[i].next) {
		if c := &t[i]; w.g.fieldOf(uint16(c.field)) == fOperator && int(c.symbol) < len(w.g.toks) {
			return w.g.toks[c.symbol]
		}
	}
	return tNone
}

// elements converts the items of a list, tuple or set display or target.
func (w *walker) elements(n nodeRef, sc scope) []Expr {
	ks := w.named(w.kids(n))
	out := make([]Expr, 0, len(ks))
	for _, k := range ks {
		out = append(out, w.expr(k, sc))
	}
	return out
}

func (w *walker) comprehension(x kid, sc scope) Expr {
	// The element and conditions run in the comprehension's own scope,
	// but a walrus in them binds in the enclosing one (PEP 572): at module
	// scope, a module name. (The iteration variables bind nothing the
	// model records.)
	inner := sc
	c := &Comprehension{Span: x.span}
	switch x.k {
	case kListComprehension:
		c.Kind = ListComp
	case kSetComprehension:
		c.Kind = SetComp
	case kDictionaryComprehension:
		c.Kind = DictComp
	default:
		c.Kind = GeneratorExp
	}
	for _, k := range w.kids(x.n) {
		switch {
		case k.f == fBody:
			if k.k == kPair {
				pk := w.kids(k.n)
				if key := byField(pk, fKey); key != nil {
					c.Key = w.expr(*key, inner)
				}
				if val := byField(pk, fValue); val != nil {
					c.Elt = w.expr(*val, inner)
				}
			} else {
				c.Elt = w.expr(k, inner)
			}
		case k.k == kForInClause && k.named:
			g := ComprehensionFor{}
			var rights []kid
			for i, fk := range w.kids(k.n) {
				switch {
				case i == 0 && !fk.named && fk.t == tAsync:
					g.Async = true
				case fk.f == fLeft:
					g.Target = w.expr(fk, inner)
				case fk.f == fRight && fk.named:
					rights = append(rights, fk)
				}
			}
			if len(rights) > 0 {
				g.Iter = w.exprList(rights, inner)
			}
			if g.Target == nil {
				g.Target = &Other{Span: k.span}
			}
			if g.Iter == nil {
				g.Iter = &Other{Span: k.span}
			}
			c.Generators = append(c.Generators, g)
		case k.k == kIfClause && k.named:
			if len(c.Generators) == 0 {
				continue
			}
			if ks := w.named(w.kids(k.n)); len(ks) > 0 {
				g := &c.Generators[len(c.Generators)-1]
				g.Ifs = append(g.Ifs, w.expr(ks[0], inner))
			}
		}
	}
	if c.Elt == nil {
		c.Elt = &Other{Span: x.span}
	}
	return c
}

func (w *walker) number(sp Span, k ConstKind) Expr {
	t := w.spanText(sp)
	if k == ConstFloat || k == ConstInt {
		if strings.HasSuffix(t, "j") || strings.HasSuffix(t, "J") {
			k = ConstComplex
		}
	}
	return w.constant(sp, k, t)
}
