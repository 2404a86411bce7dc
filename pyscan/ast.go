package pyscan

// This file is the typed syntax of Python that the model keeps for every
// body: expressions (Expr) and statements (Stmt), each node with its Span.
// It follows the shape of CPython's ast module, with three differences:
//
//   - parentheses are dropped (a node's span is the inner expression's);
//   - a call keeps its arguments in source order as Args, each positional,
//     keyword, *args or **kwargs;
//   - a literal's value is decoded once (Constant.Value, FString.Parts), so
//     rules compare values, never source text.
//
// Anything the model does not represent (a pattern of a match case, a
// region tree-sitter could not parse) is Other. Text is never stored in a
// node: Module.Text gives a node's source, which rules use only in messages
// and fix texts.

// Node is any node of the syntax model.
type Node interface {
	// Range is the node's span.
	Range() Span
}

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// ---- expressions ----

// Name is an identifier used as an expression.
type Name struct {
	Span
	Id string
}

// Attribute is Value.Attr.
type Attribute struct {
	Span
	Value Expr
	Attr  string
}

// Call is Func(Args...).
type Call struct {
	Span
	Func Expr
	// Args are the arguments in source order. `f(x for x in y)` has one
	// positional argument, the generator.
	Args []Arg
}

// ArgKind says what kind of argument an Arg is.
type ArgKind uint8

// The kinds of argument.
const (
	Positional  ArgKind = iota // f(x)
	Keyword                    // f(name=x)
	StarArg                    // f(*x)
	StarStarArg                // f(**x)
)

// Arg is one argument of a call (or of a class statement's bases).
type Arg struct {
	Kind  ArgKind
	Name  string // for Keyword
	Value Expr
	Span  Span // the whole argument, its name and stars included
}

// Subscript is Value[Index]; `x[a, b]` has a Tuple index, `x[a:b]` a Slice.
type Subscript struct {
	Span
	Value Expr
	Index Expr
}

// Slice is lower:upper:step in a subscript; absent parts are nil.
type Slice struct {
	Span
	Lower, Upper, Step Expr
}

// ConstKind says which kind of literal a Constant is.
type ConstKind uint8

// The kinds of constant.
const (
	ConstNone ConstKind = iota
	ConstTrue
	ConstFalse
	ConstEllipsis
	ConstInt
	ConstFloat
	ConstComplex
	ConstStr
	ConstBytes
)

// Constant is a literal: None, True, False, ..., a number, a string or a
// bytes literal. Adjacent string literals ("a" "b") are one Constant.
type Constant struct {
	Span
	Kind ConstKind
	// Value is the decoded value of a string or bytes literal (escapes
	// applied, implicit concatenation joined), and the literal as written
	// for a number ("0x1f", "1_000", "2.5e3"); "" otherwise.
	Value string
}

// FString is an f-string, possibly concatenated with plain strings:
// f"a{b!r:>3}c" "d" has parts "a", b, "cd".
type FString struct {
	Span
	Parts []FStringPart
}

// FStringPart is a literal piece of an f-string (Value is nil) or a
// replacement field: Value is its expression and Spec its format
// specification, itself literal pieces and replacement fields (the
// "{width}" of f"{x:>{width}}"); the conversion is left out.
type FStringPart struct {
	Lit   string
	Value Expr
	Spec  []FStringPart
}

// CmpOp is a comparison operator.
type CmpOp uint8

// The comparison operators.
const (
	Eq CmpOp = iota
	NotEq
	Lt
	LtE
	Gt
	GtE
	Is
	IsNot
	In
	NotIn
)

var cmpOpNames = [...]string{Eq: "==", NotEq: "!=", Lt: "<", LtE: "<=", Gt: ">", GtE: ">=", Is: "is", IsNot: "is not", In: "in", NotIn: "not in"}

func (o CmpOp) String() string { return cmpOpNames[o] }

// Negate returns the operator that holds exactly when o does not.
func (o CmpOp) Negate() CmpOp {
	switch o {
	case Eq:
		return NotEq
	case NotEq:
		return Eq
	case Lt:
		return GtE
	case LtE:
		return Gt
	case Gt:
		return LtE
	case GtE:
		return Lt
	case Is:
		return IsNot
	case IsNot:
		return Is
	case In:
		return NotIn
	}
	return In
}

// Compare is Left Ops[0] Comparators[0] Ops[1] Comparators[1] ...
type Compare struct {
	Span
	Left        Expr
	Ops         []CmpOp
	Comparators []Expr
}

// BoolOpKind is and or or.
type BoolOpKind uint8

// The boolean operators.
const (
	And BoolOpKind = iota
	Or
)

func (o BoolOpKind) String() string {
	if o == And {
		return "and"
	}
	return "or"
}

// BoolOp is Values[0] Op Values[1] Op ...; a chain of one operator without
// parentheses is one BoolOp, as in CPython.
type BoolOp struct {
	Span
	Op     BoolOpKind
	Values []Expr
}

// UnaryOpKind is a unary operator.
type UnaryOpKind uint8

// The unary operators.
const (
	Not UnaryOpKind = iota
	USub
	UAdd
	Invert
)

// UnaryOp is Op Operand: not x, -x, +x, ~x.
type UnaryOp struct {
	Span
	Op      UnaryOpKind
	Operand Expr
}

// BinOpKind is an arithmetic or bitwise operator.
type BinOpKind uint8

// The binary operators.
const (
	Add BinOpKind = iota
	Sub
	Mult
	MatMult
	Div
	FloorDiv
	Mod
	Pow
	LShift
	RShift
	BitOr
	BitXor
	BitAnd
)

var binOpNames = [...]string{Add: "+", Sub: "-", Mult: "*", MatMult: "@", Div: "/", FloorDiv: "//", Mod: "%", Pow: "**", LShift: "<<", RShift: ">>", BitOr: "|", BitXor: "^", BitAnd: "&"}

func (o BinOpKind) String() string { return binOpNames[o] }

// BinOp is Left Op Right.
type BinOp struct {
	Span
	Left  Expr
	Op    BinOpKind
	Right Expr
}

// IfExp is Body if Test else OrElse.
type IfExp struct {
	Span
	Test, Body, OrElse Expr
}

// NamedExpr is Target := Value.
type NamedExpr struct {
	Span
	Target *Name
	Value  Expr
}

// Await is await Value.
type Await struct {
	Span
	Value Expr
}

// Yield is yield Value (nil for a bare yield) or, with From, yield from Value.
type Yield struct {
	Span
	Value Expr
	From  bool
}

// Lambda is lambda Params: Body.
type Lambda struct {
	Span
	Params []*Param
	Body   Expr
}

// List is [Elts...].
type List struct {
	Span
	Elts []Expr
}

// Tuple is (Elts...), with or without parentheses.
type Tuple struct {
	Span
	Elts []Expr
}

// Set is {Elts...}.
type Set struct {
	Span
	Elts []Expr
}

// Dict is {Key: Value, **Value, ...}; a **splat item has a nil Key.
type Dict struct {
	Span
	Items []DictItem
}

// DictItem is one item of a Dict.
type DictItem struct {
	Key   Expr // nil for **Value
	Value Expr
}

// CompKind says which comprehension a Comprehension is.
type CompKind uint8

// The kinds of comprehension.
const (
	ListComp CompKind = iota
	SetComp
	DictComp
	GeneratorExp
)

// Comprehension is [Elt for ... if ...], {Elt ...}, {Key: Elt ...} or
// (Elt ...).
type Comprehension struct {
	Span
	Kind       CompKind
	Key        Expr // DictComp only
	Elt        Expr
	Generators []ComprehensionFor
}

// ComprehensionFor is one `for Target in Iter if Ifs...` clause.
type ComprehensionFor struct {
	Async  bool
	Target Expr
	Iter   Expr
	Ifs    []Expr
}

// Starred is *Value: in a list, a tuple, a set, an assignment target or a
// subscript. (Call arguments keep their stars in Arg.Kind, dicts in
// DictItem.)
type Starred struct {
	Span
	Value Expr
}

// Other is an expression the model does not represent: a region with a
// syntax error, a pattern of a match statement. Rules treat it as opaque.
type Other struct {
	Span
}

// ---- statements ----

// ExprStmt is an expression used as a statement.
type ExprStmt struct {
	Span
	Value Expr
}

// Assign is Targets[0] = Targets[1] = ... = Value.
type Assign struct {
	Span
	Targets []Expr
	Value   Expr
}

// AnnAssign is Target: Annotation = Value (Value nil when there is none).
type AnnAssign struct {
	Span
	Target     Expr
	Annotation Expr
	Value      Expr
}

// AugAssign is Target Op= Value.
type AugAssign struct {
	Span
	Target Expr
	Op     BinOpKind
	Value  Expr
}

// Delete is del Targets...
type Delete struct {
	Span
	Targets []Expr
}

// Return is return Value (nil for a bare return).
type Return struct {
	Span
	Value Expr
}

// Raise is raise Exc from Cause; a bare raise has a nil Exc.
type Raise struct {
	Span
	Exc, Cause Expr
}

// Assert is assert Test, Msg.
type Assert struct {
	Span
	Test, Msg Expr
}

// Pass is pass.
type Pass struct{ Span }

// Break is break.
type Break struct{ Span }

// Continue is continue.
type Continue struct{ Span }

// Global is global Names... or, with Nonlocal, nonlocal Names...
type Global struct {
	Span
	Names    []string
	Nonlocal bool
}

// ImportStmt is an import or from-import statement; its names are the
// module's Imports it declares.
type ImportStmt struct {
	Span
	Names  []*Import
	Future bool // a `from __future__ import` statement (it declares no Imports)
}

// If is if Test: Body else: Else. An elif is an If alone in Else with Elif
// set, as CPython's ast has it.
type If struct {
	Span
	Test Expr
	Body []Stmt
	Else []Stmt
	Elif bool // this If is the elif clause of the enclosing one
}

// For is [async] for Target in Iter: Body else: Else.
type For struct {
	Span
	Async  bool
	Target Expr
	Iter   Expr
	Body   []Stmt
	Else   []Stmt
}

// While is while Test: Body else: Else.
type While struct {
	Span
	Test Expr
	Body []Stmt
	Else []Stmt
}

// Try is try: Body, its except clauses, else: Else, finally: Finally.
type Try struct {
	Span
	Body     []Stmt
	Handlers []*Handler
	Else     []Stmt
	Finally  []Stmt
	Star     bool // except* clauses
	// BodySpan covers the try block's statements.
	BodySpan Span
}

// Handler is one except clause.
type Handler struct {
	Span
	// Type is the caught expression: a name, an attribute, a Tuple for
	// `except (A, B)`; nil for a bare except.
	Type Expr
	// Name is the `as` name, or "".
	Name string
	Body []Stmt
}

// Types returns the exception expressions a handler catches: Type's
// elements for a tuple, else Type alone; none for a bare except.
func (h *Handler) Types() []Expr {
	switch t := h.Type.(type) {
	case nil:
		return nil
	case *Tuple:
		return t.Elts
	}
	return []Expr{h.Type}
}

// With is [async] with Items...: Body.
type With struct {
	Span
	Async bool
	Items []WithItem
	Body  []Stmt
	// BodySpan covers the with block's statements.
	BodySpan Span
}

// WithItem is Context as Target (Target nil without `as`).
type WithItem struct {
	Context Expr
	Target  Expr
}

// Match is match Subject: its cases.
type Match struct {
	Span
	Subject Expr
	Cases   []*MatchCase
}

// MatchCase is case Pattern if Guard: Body. The pattern is Other.
type MatchCase struct {
	Span
	Pattern Expr
	Guard   Expr
	Body    []Stmt
}

// TypeAlias is type Name = Value.
type TypeAlias struct {
	Span
	Name  string
	Value Expr
}

// BadStmt is a statement the model does not represent: a region
// tree-sitter could not parse, a Python 2 print or exec statement. The
// statements recovered from inside it (and a print statement's
// expressions, as expression statements) follow it in its body, their
// spans inside its span.
type BadStmt struct{ Span }

func (*Name) expr()          {}
func (*Attribute) expr()     {}
func (*Call) expr()          {}
func (*Subscript) expr()     {}
func (*Slice) expr()         {}
func (*Constant) expr()      {}
func (*FString) expr()       {}
func (*Compare) expr()       {}
func (*BoolOp) expr()        {}
func (*UnaryOp) expr()       {}
func (*BinOp) expr()         {}
func (*IfExp) expr()         {}
func (*NamedExpr) expr()     {}
func (*Await) expr()         {}
func (*Yield) expr()         {}
func (*Lambda) expr()        {}
func (*List) expr()          {}
func (*Tuple) expr()         {}
func (*Set) expr()           {}
func (*Dict) expr()          {}
func (*Comprehension) expr() {}
func (*Starred) expr()       {}
func (*Other) expr()         {}

func (*ExprStmt) stmt()   {}
func (*Assign) stmt()     {}
func (*AnnAssign) stmt()  {}
func (*AugAssign) stmt()  {}
func (*Delete) stmt()     {}
func (*Return) stmt()     {}
func (*Raise) stmt()      {}
func (*Assert) stmt()     {}
func (*Pass) stmt()       {}
func (*Break) stmt()      {}
func (*Continue) stmt()   {}
func (*Global) stmt()     {}
func (*ImportStmt) stmt() {}
func (*If) stmt()         {}
func (*For) stmt()        {}
func (*While) stmt()      {}
func (*Try) stmt()        {}
func (*With) stmt()       {}
func (*Match) stmt()      {}
func (*TypeAlias) stmt()  {}
func (*BadStmt) stmt()    {}
func (*Function) stmt()   {}
func (*Class) stmt()      {}
