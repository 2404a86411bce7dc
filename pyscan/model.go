package pyscan

import (
	"fmt"
	"unsafe"
)

// Module is the semantic model of one Python file: every statement of it as
// typed syntax (Body, see ast.go), and the module-scope facts the view
// needs before any body is read: what it imports, which classes and
// functions it defines at module scope, which names it binds there, its
// `if __name__ == "__main__":` guards. It is built in one pass over the
// tree-sitter syntax tree and keeps no reference to the tree; its strings
// are slices of one copy of the file's text, and its positions are byte
// offsets (Span) that Pos turns into lines and columns.
type Module struct {
	Path      string // slash-separated path relative to the scanned root
	Name      string // dotted module name from the root: "pkg.mod", "pkg" for pkg/__init__.py
	IsPackage bool   // the file is a package's __init__.py
	Size      int    // bytes

	// Body is the module's statements, in source order.
	Body []Stmt

	Imports   []*Import   // every import of the module, function bodies' included, in source order
	Classes   []*Class    // classes defined at module scope (also inside top-level if/try/...), in source order
	Functions []*Function // functions defined at module scope, in source order
	Bindings  []*Binding  // every module-scope name binding, in source order

	// Prologue spans the statements that must stay first in the module:
	// its docstring and the `from __future__` imports that follow it, from
	// the first's start to the last's end; nil when it starts with neither.
	Prologue *Span
	// MainGuards are the `if __name__ == "__main__":` statements at module
	// scope (see Where.InMainGuard), in source order.
	MainGuards []*MainGuard
	// Comments are the spans of the module's comments, in source order.
	Comments []Span

	// SyntaxError is the first syntax error in the file, or nil. Items that
	// come from a broken region may be missing or incomplete, so rules should
	// not report findings that rest on the absence of something.
	SyntaxError *SyntaxError

	text  string    // the file's text, which the model's strings slice
	lines lineIndex // start offset of each line
}

// Source returns the text the module was parsed from, without a copy: the
// model's strings already hold it. The returned slice must not be modified.
// It is for the view's consumers outside the rules (suppression comments,
// editors); rules read the model.
func (m *Module) Source() []byte {
	if m.text == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(m.text), len(m.text))
}

// HasComment reports whether a comment starts inside s.
func (m *Module) HasComment(s Span) bool {
	for _, c := range m.Comments {
		if c.Start >= s.Start && c.Start < s.End {
			return true
		}
		if c.Start >= s.End {
			break
		}
	}
	return false
}

// SyntaxError describes the first syntax error in a file: the first ERROR
// or MISSING node tree-sitter recovered with, or the first of the errors
// tree-sitter-python accepts but Python rejects (a compound statement
// without a body, inconsistent indentation, nesting too deep to walk),
// whichever comes first; or a parse that did not finish (at offset 0, with
// Stopped set).
type SyntaxError struct {
	Span    Span
	Message string
	// Stopped is set when the parse ran out of budget: the file was not
	// analysed, and nothing is known of its syntax.
	Stopped *ParseStop
}

// MainGuard is an `if __name__ == "__main__":` statement at module scope.
type MainGuard struct {
	Span Span // the whole statement, its elif and else clauses included
	// Body spans the statements of the guard's own body (not its elif and
	// else clauses), from the first's start to the last's end; comments
	// before the first and after the last are outside it.
	Body Span
	// If is the statement.
	If *If
}

// Where says in which part of a module a module-scope item (an import, a
// binding, a class) sits. A module-scope statement may still be inside a
// compound statement. (Inside function bodies, ContextOf says where a node
// is.)
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
	Span   Span   // the whole import statement
	Where  Where
	// ModuleScope is false for an import inside a function or class body.
	ModuleScope bool
}

// IsFrom reports whether the import is a from-import.
func (i *Import) IsFrom() bool { return i.Name != "" }

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
	Value Expr
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

// Class is a class statement. Module.Classes lists those at module scope;
// a class defined in a function body is a statement of that body only.
type Class struct {
	Span       // the class statement, decorators excluded
	Name       string
	NameSpan   Span
	Bases      []Expr // positional superclasses, in order
	Keywords   []Arg  // class keywords such as metaclass=, and ** splats
	Decorators []Expr
	// Body is the class body's statements.
	Body []Stmt
	// BodySpan spans the statements of the class body, from the first's
	// start to the last's end; comments before the first and after the
	// last are outside it. For `class A: pass` it starts on the class's
	// own line.
	BodySpan Span
	Methods  []*Function // functions defined in the class body (also under if/try there)
	Attrs    []*ClassAttr
	Where    Where
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

// ClassAttr is a name bound in a class body by an assignment, with or
// without an annotation (`x: ClassVar[int] = 1`, `x = 1`, `x: int`), or by
// a nested class statement.
type ClassAttr struct {
	Name       string
	Annotation Expr // nil if none
	Value      Expr // nil when there is no value, and for names in tuple targets
	Span       Span // the target identifier
	StmtSpan   Span // the whole statement
}

// Function is a def or async def statement.
type Function struct {
	Span       // the def statement, decorators excluded
	Name       string
	NameSpan   Span
	Async      bool
	Decorators []Expr
	Params     []*Param
	// ReturnType is the return annotation, or nil.
	ReturnType Expr
	// Body is the function body's statements; nested defs and classes are
	// statements of it.
	Body []Stmt
}

// ParamKind says how a parameter is passed.
type ParamKind uint8

// The kinds of parameter.
const (
	ParamNormal    ParamKind = iota // positional or keyword
	ParamPosOnly                    // before a `/`
	ParamKwOnly                     // after `*` or *args
	ParamVarArgs                    // *args
	ParamVarKwargs                  // **kwargs
)

// Param is a parameter of a def or a lambda.
type Param struct {
	Span
	Name       string
	Kind       ParamKind
	Annotation Expr // nil if none
	Default    Expr // nil if none
}

// Param returns the parameter of that name, or nil.
func (f *Function) Param(name string) *Param {
	for _, p := range f.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Receiver is the name of a method's first parameter ("self", "cls"), or
// "" for a @staticmethod, or a function whose first parameter is a star
// form or that has none.
func (f *Function) Receiver() string {
	for _, d := range f.Decorators {
		if n, ok := d.(*Name); ok && n.Id == "staticmethod" {
			return ""
		}
	}
	if len(f.Params) == 0 || f.Params[0].Kind >= ParamKwOnly {
		return ""
	}
	return f.Params[0].Name
}
