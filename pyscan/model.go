package pyscan

import (
	"fmt"
	"strings"
	"unsafe"
)

// Pos is a place in a source file. Offset is a 0-based byte offset; Line and
// Col are 1-based, and Col counts bytes (as go/token and tree-sitter do).
// Conversion to UTF-16 columns happens at the edges (SARIF, LSP).
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// Span is the half-open byte range [Start, End) of a syntax item.
type Span struct {
	Start Pos
	End   Pos
}

// Module is the semantic model of one Python file: what it imports, which
// classes and functions it defines at module scope, which names it binds
// there, and the calls and raises in its code. It is built in one pass over
// the tree-sitter syntax tree and keeps no reference to the tree; its
// strings are slices of one copy of the file's text.
type Module struct {
	Path      string // slash-separated path relative to the scanned root
	Name      string // dotted module name from the root: "pkg.mod", "pkg" for pkg/__init__.py
	IsPackage bool   // the file is a package's __init__.py
	Size      int    // bytes

	Imports   []*Import
	Classes   []*Class    // classes defined at module scope, in source order
	Functions []*Function // functions defined at module scope, in source order
	Bindings  []*Binding  // every module-scope name binding, in source order
	Calls     []*Call     // calls at module scope (outside functions, classes and lambdas), in source order

	// Prologue spans the statements that must stay first in the module:
	// its docstring and the `from __future__` imports that follow it, from
	// the first's start to the last's end; nil when it starts with neither.
	Prologue *Span
	// MainGuards are the `if __name__ == "__main__":` statements at module
	// scope (see Where.InMainGuard), in source order.
	MainGuards []*MainGuard

	// SyntaxError is the first syntax error in the file, or nil. Items that
	// come from a broken region may be missing or incomplete, so rules should
	// not report findings that rest on the absence of something.
	SyntaxError *SyntaxError

	text string // the file's text, which the model's strings slice
}

// Source returns the text the module was parsed from, without a copy: the
// model's strings already hold it. The returned slice must not be modified.
func (m *Module) Source() []byte {
	if m.text == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(m.text), len(m.text))
}

// SyntaxError describes the first syntax error in a file: the first ERROR
// or MISSING node tree-sitter recovered with, or the first of the errors
// tree-sitter-python accepts but Python rejects (a compound statement
// without a body, inconsistent indentation, nesting too deep to walk),
// whichever comes first; or a parse that ran out of time (at offset 0).
type SyntaxError struct {
	Span    Span
	Message string
}

// MainGuard is an `if __name__ == "__main__":` statement at module scope.
type MainGuard struct {
	Span Span // the whole statement, its elif and else clauses included
	// Body spans the statements of the guard's own body (not its elif and
	// else clauses), from the first's start to the last's end; comments
	// before the first and after the last are outside it.
	Body Span
}

// Where says in which part of a module a statement sits. A module-scope
// statement may still be inside a compound statement.
type Where struct {
	// InMainGuard: inside the body (not the elif/else branches) of
	// `if __name__ == "__main__":`. Such code does not run when the module
	// is imported (as uvicorn imports module:app).
	InMainGuard bool
	// InTry: inside a try statement: its body, handlers, else or finally.
	InTry bool
	// Conditional: inside an if/elif/else, for, while, with or match body.
	Conditional bool
}

// Import is one imported name. `import a.b as c` gives Module "a.b",
// Bound "c"; `import a.b` gives Module "a.b", Bound "a"; `from ..p import x
// as y` gives Level 2, Module "p", Name "x", Bound "y"; a wildcard gives
// Name "*" and no Bound.
type Import struct {
	Module string
	Level  int    // number of leading dots of a relative import
	Name   string // the imported name of a from-import; "" for a plain import
	Bound  string // the name bound in the importing scope
	Span   Span
	Where  Where
	// ModuleScope is false for an import inside a function or class body.
	ModuleScope bool
}

// IsFrom reports whether the import is a from-import.
func (i *Import) IsFrom() bool { return i.Name != "" }

// Expr is a reference to an expression, reduced to what rules ask about.
type Expr struct {
	Text string // source text
	// Dotted is the name or attribute chain ("a", "a.b.C") the expression
	// denotes, with a subscript stripped ("Base[A, B]" gives "Base"), or ""
	// for anything else (a call, a literal, ...).
	Dotted string
	// Args are the subscript arguments of "Base[A, B]".
	Args []Expr
	// Call is set when the expression is a call; Dotted then names the callee.
	Call bool
	Span Span
}

// Binding is a name bound at module scope: by an assignment (including
// tuple targets and walrus), an annotated assignment with a value, an
// augmented assignment, an import, a def, a class, a for target, a with
// target, or a type alias.
type Binding struct {
	Name string
	Kind BindingKind
	// Span is the bound identifier; for an import, the whole import
	// statement (equal to the Import's Span).
	Span  Span
	Where Where
	// Value is the assigned expression when the target is a plain name: of
	// an assignment (each name of a chained `a = b = v` gets v), an
	// annotated assignment or a walrus. Nil for names in tuple targets.
	Value *Expr
}

// BindingKind says which statement bound a name.
type BindingKind int

// The kinds of binding.
const (
	BindAssign BindingKind = iota
	BindAnnAssign
	BindAugAssign
	BindWalrus
	BindImport
	BindDef
	BindClass
	BindFor
	BindWith
	BindTypeAlias
)

var bindingKindNames = [...]string{
	BindAssign:    "assign",
	BindAnnAssign: "annassign",
	BindAugAssign: "augassign",
	BindWalrus:    "walrus",
	BindImport:    "import",
	BindDef:       "def",
	BindClass:     "class",
	BindFor:       "for",
	BindWith:      "with",
	BindTypeAlias: "typealias",
}

func (k BindingKind) String() string {
	if k >= 0 && int(k) < len(bindingKindNames) {
		return bindingKindNames[k]
	}
	return fmt.Sprintf("BindingKind(%d)", int(k))
}

// Class is a class definition at module scope.
type Class struct {
	Name       string
	NameSpan   Span
	Span       Span
	Bases      []Expr       // positional superclasses, in order
	Keywords   []KeywordArg // class keywords such as metaclass=; a **splat has Name ""
	Decorators []Expr
	Methods    []*Function // functions defined directly in the class body
	Attrs      []*ClassAttr
	Where      Where
	// Body spans the statements of the class body, from the first's start
	// to the last's end; comments before the first and after the last are
	// outside it. For `class A: pass` it starts on the class's own line.
	Body Span
}

// Method returns the last method of that name defined in the class body, or nil.
func (c *Class) Method(name string) *Function {
	var found *Function
	for _, m := range c.Methods {
		if m.Name == name {
			found = m
		}
	}
	return found
}

// Attr returns the last class-body binding of that name, or nil.
func (c *Class) Attr(name string) *ClassAttr {
	var found *ClassAttr
	for _, a := range c.Attrs {
		if a.Name == name {
			found = a
		}
	}
	return found
}

// KeywordArg is a keyword argument (name=value).
type KeywordArg struct {
	Name  string
	Value Expr
}

// ClassAttr is a name bound in a class body by an assignment, with or
// without an annotation (`x: ClassVar[int] = 1`, `x = 1`, `x: int`), or by
// a nested class statement.
type ClassAttr struct {
	Name       string
	Annotation string // source text of the annotation, "" if none
	Value      *Expr  // nil when there is no value, and for names in tuple targets
	Span       Span   // the target identifier
	StmtSpan   Span   // the whole statement
}

// Function is a def or async def, with the calls and raises of its body.
// Calls and raises of nested functions and classes belong to those.
type Function struct {
	Name       string
	NameSpan   Span
	Span       Span
	Async      bool
	Decorators []Expr
	// Params are the parameter names in order, star forms with their stars
	// ("*args", "**kwargs"); the bare `*` and `/` markers are left out.
	Params []string
	// Calls are the calls in the body (and in lambdas there), in source
	// order, including those in classes defined in the body; decorators
	// and default values belong to the scope where the def runs.
	Calls  []*Call
	Raises []*Raise
	// Returns are the return statements of the body, in source order.
	Returns []*Return
	// Stores are the assignments (=, augmented, del) whose target is an
	// attribute or a subscript (`self.x = v`, `self.envs[k] = v`,
	// `del self.envs[k]`), in source order. Plain names are locals and are
	// not listed.
	Stores []*Store
	// Subscripts are the subscript reads of the body (`self.envs[k]`),
	// in source order; subscript targets of stores are in Stores.
	Subscripts []*Subscript
	// Tries are the try statements of the body, in source order, with
	// their handlers; whether a call, store or raise is inside a try body
	// or a handler is a matter of comparing spans.
	Tries []*Try
	// Withs are the with and async with statements of the body.
	Withs []*With
	// Awaits are the await expressions of the body, in source order.
	Awaits []*Await
	// Refs are the attribute chains the body mentions, outermost first
	// ("body.resources_session_id", "request.session"), in source order,
	// assignment targets included. Plain names are not listed.
	Refs   []Expr
	Nested []*Function // functions defined in this function's body
}

// Try is a try statement.
type Try struct {
	Span     Span
	Body     Span // the try block
	Handlers []*Handler
	Else     *Span
	Finally  *Span
}

// Handler is an except clause.
type Handler struct {
	Span  Span
	Types []Expr // the caught types (several for `except (A, B)`); none for a bare except
	Name  string // the `as` name, or ""
	Body  Span
	// Reraises is set when the handler's own statements (not nested
	// functions) contain a raise statement.
	Reraises bool
}

// With is a with statement.
type With struct {
	Async bool
	Items []Expr // the context expressions
	Span  Span
	Body  Span
}

// Await is an await expression.
type Await struct {
	Value Expr // the awaited expression
	Span  Span
}

// Binding returns the module-scope binding of name that an importer sees:
// the last one outside the `__main__` guard, else the last one; nil when
// the module does not bind the name.
func (m *Module) Binding(name string) *Binding {
	var last, visible *Binding
	for _, b := range m.Bindings {
		if b.Name != name {
			continue
		}
		last = b
		if !b.Where.InMainGuard {
			visible = b
		}
	}
	if visible != nil {
		return visible
	}
	return last
}

// Receiver is the name of a method's first parameter ("self", "cls"), or
// "" for a @staticmethod or a function whose first parameter is a star form
// or that has none.
func (f *Function) Receiver() string {
	for _, d := range f.Decorators {
		if d.Dotted == "staticmethod" {
			return ""
		}
	}
	if len(f.Params) == 0 || strings.HasPrefix(f.Params[0], "*") {
		return ""
	}
	return f.Params[0]
}

// Guard is the test of an enclosing if/elif that decides whether a
// statement runs: Negated is set for a test that must have failed (the
// statement is in a later elif or in the else branch).
type Guard struct {
	Cond    Expr
	Negated bool
}

// Return is a return statement.
type Return struct {
	Value  *Expr // nil for a bare return
	Span   Span
	Guards []Guard // the enclosing if/elif tests inside the function, outermost first
}

// Store is an assignment to an attribute or a subscript, or a del of one.
type Store struct {
	// Target is the assigned expression; for a subscript, Target.Dotted
	// names the subscripted object ("self.envs") and Key is the index.
	Target Expr
	Key    *Expr
	Op     string // "=", an augmented operator such as "+=", or "del"
	Value  *Expr  // nil for del and for a target of a tuple assignment
	Span   Span   // the target
	Guards []Guard
}

// Subscript is a subscript read `obj[key]`.
type Subscript struct {
	Object Expr // Object.Dotted is "self.envs" for self.envs[k]
	Key    Expr
	Span   Span
}

// Call is a call expression.
type Call struct {
	Callee Expr // Callee.Dotted names the function when it is a name or attribute chain
	Span   Span
	Args   []Expr       // positional arguments, *splats included; a generator argument is one
	Kwargs []KeywordArg // keyword arguments; a **splat has Name ""
	Where  Where
}

// Raise is a raise or assert statement.
type Raise struct {
	Assert bool  // an assert statement
	Exc    *Expr // the raised expression (nil for a bare raise and for assert)
	Span   Span
	Guards []Guard // the enclosing if/elif tests inside the function, outermost first
}
