package pyscan

import "strings"

// Inspect traverses the syntax under root depth-first, in source order,
// calling f for every node with the stack of nodes from root down to it
// (stack[0] is root, stack[len(stack)-1] the node). If f returns false,
// the node's children are skipped. The stack is valid only during the
// call: copy what must outlive it.
//
// Function and class statements are visited like any other, their
// decorators, parameters (a *Param, then its annotation and default) and
// bodies included; a rule that wants one scope stops at the *Function,
// *Class, *Lambda or *Comprehension it does not want to enter. A Call's
// arguments are visited as their values, a Handler and a MatchCase as
// nodes of their own.
func Inspect(root Node, f func(n Node, stack []Node) bool) {
	if root == nil {
		return
	}
	in := &inspector{f: f, stack: make([]Node, 0, 16)}
	in.visit(root)
}

// InspectBody is Inspect over each statement of body in turn.
func InspectBody(body []Stmt, f func(n Node, stack []Node) bool) {
	in := &inspector{f: f, stack: make([]Node, 0, 16)}
	for _, s := range body {
		in.visit(s)
	}
}

type inspector struct {
	f     func(Node, []Node) bool
	stack []Node
}

func (in *inspector) visit(n Node) {
	if n == nil {
		return
	}
	in.stack = append(in.stack, n)
	if in.f(n, in.stack) {
		in.children(n)
	}
	in.stack = in.stack[:len(in.stack)-1]
}

// children visits each child node of n, in source order.
func (in *inspector) children(n Node) {
	switch n := n.(type) {
	case *Attribute:
		in.visit(n.Value)
	case *Call:
		in.visit(n.Func)
		for _, a := range n.Args {
			in.visit(a.Value)
		}
	case *Subscript:
		in.visit(n.Value)
		in.visit(n.Index)
	case *Slice:
		in.visit(n.Lower)
		in.visit(n.Upper)
		in.visit(n.Step)
	case *FString:
		in.fstringParts(n.Parts)
	case *Compare:
		in.visit(n.Left)
		in.exprs(n.Comparators)
	case *BoolOp:
		in.exprs(n.Values)
	case *UnaryOp:
		in.visit(n.Operand)
	case *BinOp:
		in.visit(n.Left)
		in.visit(n.Right)
	case *IfExp:
		in.visit(n.Body)
		in.visit(n.Test)
		in.visit(n.OrElse)
	case *NamedExpr:
		in.visit(n.Target)
		in.visit(n.Value)
	case *Await:
		in.visit(n.Value)
	case *Yield:
		in.visit(n.Value)
	case *Lambda:
		for _, p := range n.Params {
			in.visit(p)
		}
		in.visit(n.Body)
	case *List:
		in.exprs(n.Elts)
	case *Tuple:
		in.exprs(n.Elts)
	case *Set:
		in.exprs(n.Elts)
	case *Dict:
		for _, it := range n.Items {
			in.visit(it.Key)
			in.visit(it.Value)
		}
	case *Comprehension:
		in.visit(n.Key)
		in.visit(n.Elt)
		for _, g := range n.Generators {
			in.visit(g.Target)
			in.visit(g.Iter)
			in.exprs(g.Ifs)
		}
	case *Starred:
		in.visit(n.Value)
	case *Param:
		in.visit(n.Annotation)
		in.visit(n.Default)

	case *ExprStmt:
		in.visit(n.Value)
	case *Assign:
		in.exprs(n.Targets)
		in.visit(n.Value)
	case *AnnAssign:
		in.visit(n.Target)
		in.visit(n.Annotation)
		in.visit(n.Value)
	case *AugAssign:
		in.visit(n.Target)
		in.visit(n.Value)
	case *Delete:
		in.exprs(n.Targets)
	case *Return:
		in.visit(n.Value)
	case *Raise:
		in.visit(n.Exc)
		in.visit(n.Cause)
	case *Assert:
		in.visit(n.Test)
		in.visit(n.Msg)
	case *If:
		in.visit(n.Test)
		in.stmts(n.Body)
		in.stmts(n.Else)
	case *For:
		in.visit(n.Target)
		in.visit(n.Iter)
		in.stmts(n.Body)
		in.stmts(n.Else)
	case *While:
		in.visit(n.Test)
		in.stmts(n.Body)
		in.stmts(n.Else)
	case *Try:
		in.stmts(n.Body)
		for _, h := range n.Handlers {
			in.visit(h)
		}
		in.stmts(n.Else)
		in.stmts(n.Finally)
	case *Handler:
		in.visit(n.Type)
		in.stmts(n.Body)
	case *With:
		for _, it := range n.Items {
			in.visit(it.Context)
			in.visit(it.Target)
		}
		in.stmts(n.Body)
	case *Match:
		in.visit(n.Subject)
		for _, c := range n.Cases {
			in.visit(c)
		}
	case *MatchCase:
		in.visit(n.Pattern)
		in.visit(n.Guard)
		in.stmts(n.Body)
	case *TypeAlias:
		in.visit(n.Value)
	case *Function:
		in.exprs(n.Decorators)
		for _, p := range n.Params {
			in.visit(p)
		}
		in.visit(n.ReturnType)
		in.stmts(n.Body)
	case *Class:
		in.exprs(n.Decorators)
		// Bases and keywords in source order: `class A(metaclass=M,
		// *bases)` is legal.
		i, j := 0, 0
		for i < len(n.Bases) || j < len(n.Keywords) {
			if j == len(n.Keywords) || i < len(n.Bases) && n.Bases[i].Range().Start < n.Keywords[j].Span.Start {
				in.visit(n.Bases[i])
				i++
			} else {
				in.visit(n.Keywords[j].Value)
				j++
			}
		}
		in.stmts(n.Body)
	}
}

func (in *inspector) exprs(es []Expr) {
	for _, e := range es {
		in.visit(e)
	}
}

func (in *inspector) stmts(ss []Stmt) {
	for _, s := range ss {
		in.visit(s)
	}
}

func (in *inspector) fstringParts(ps []FStringPart) {
	for _, p := range ps {
		in.visit(p.Value)
		in.fstringParts(p.Spec)
	}
}

// Guard is the test of an enclosing if/elif that decides whether a
// statement runs: Negated is set for a test that must have failed (the
// statement is in a later elif or in the else branch).
type Guard struct {
	Test    Expr
	Negated bool
	If      *If
}

// Context says where a node sits, from the stack Inspect gives it.
type Context struct {
	// Function is the innermost function holding the node (nil at module
	// or class scope); the rest is counted inside it.
	Function *Function
	// Guards are the if/elif tests that hold where the node is, outermost
	// first.
	Guards []Guard
	// Loop: inside the body or else of a for or while statement.
	Loop bool
	// Tries are the try statements whose body (not handlers, else or
	// finally) holds the node, outermost first: their handlers may catch
	// what the node raises.
	Tries []*Try
	// InTry: inside any part of a try statement.
	InTry bool
	// Handler is the innermost except clause holding the node.
	Handler *Handler
	// Finally: inside a finally block.
	Finally bool
	// Withs are the with statements whose body holds the node, outermost
	// first.
	Withs []*With
	// Match: inside a case of a match statement.
	Match bool
	// Deferred: inside a lambda or a comprehension (code that runs later,
	// or in a scope of its own), but for a lambda's defaults and a
	// comprehension's first iterable, which run where it is. A nested
	// def's body is a Function of its own; its decorators and defaults run
	// where the def does.
	Deferred bool
	// InMainGuard: inside the body of a module-scope
	// `if __name__ == "__main__":` (Function is nil then).
	InMainGuard bool
}

// ContextOf computes the Context of the last node of a stack that Inspect
// gave.
func ContextOf(stack []Node) Context {
	start := 0
	var fn *Function
	for i := len(stack) - 2; i >= 0; i-- {
		if f, ok := stack[i].(*Function); ok && !inHeader(f, stack[i+1]) {
			fn, start = f, i
			break
		}
	}
	c := Context{Function: fn}
	for i := start; i < len(stack)-1; i++ {
		child := stack[i+1]
		switch s := stack[i].(type) {
		case *If:
			if child == Node(s.Test) {
				continue
			}
			neg := inBody(s.Else, child)
			if fn == nil && !neg && isMainGuard(s.Test) {
				c.InMainGuard = true
			}
			c.Guards = append(c.Guards, Guard{Test: s.Test, Negated: neg, If: s})
		case *For:
			if inBody(s.Body, child) || inBody(s.Else, child) {
				c.Loop = true
			}
		case *While:
			if child != Node(s.Test) {
				c.Loop = true
			}
		case *Try:
			c.InTry = true
			if inBody(s.Body, child) {
				c.Tries = append(c.Tries, s)
			}
			if inBody(s.Finally, child) {
				c.Finally = true
			}
		case *Handler:
			if child != Node(s.Type) {
				c.Handler = s
			}
		case *With:
			if inBody(s.Body, child) {
				c.Withs = append(c.Withs, s)
			}
		case *MatchCase:
			c.Match = true
		case *Lambda:
			// Its defaults are evaluated where the lambda is.
			if child == Node(s.Body) {
				c.Deferred = true
			}
		case *Comprehension:
			// Its first iterable is evaluated where the comprehension is.
			if len(s.Generators) == 0 || child != Node(s.Generators[0].Iter) {
				c.Deferred = true
			}
		}
	}
	return c
}

// ExitGuards are the tests that a node holds false because an if
// statement before it leaves the function: an if with no elif or else
// whose body ends with a return or a raise, in the block that holds the
// last node of the stack (which Inspect gave) or in a block that holds
// that one, within the innermost function. The node runs only when each
// such test is false; each is a Guard with Negated set, outermost first.
// None for a node inside a lambda or a comprehension, which runs later.
//
//	if sid not in self.sessions:
//	    return masked()
//	state = self._state(sid)  # ExitGuards: `sid not in self.sessions`, negated
//
// Context's Guards are the tests of the if statements that hold the node;
// these are the tests of those before it, asked for apart because finding
// them reads the statements of every block on the way.
func ExitGuards(stack []Node) []Guard {
	start := 0
	for i := len(stack) - 2; i >= 0; i-- {
		if f, ok := stack[i].(*Function); ok && !inHeader(f, stack[i+1]) {
			start = i
			break
		}
	}
	var out []Guard
	for i := start; i < len(stack)-1; i++ {
		switch stack[i].(type) {
		case *Lambda, *Comprehension, *Class:
			return nil
		}
		if i > start {
			if _, ok := stack[i].(*Function); ok {
				return nil
			}
		}
		child, ok := stack[i+1].(Stmt)
		if !ok {
			continue
		}
		for _, s := range blockHolding(stack[i], child) {
			if s == child {
				break
			}
			if x, ok := s.(*If); ok && len(x.Else) == 0 && leaves(x.Body) {
				out = append(out, Guard{Test: x.Test, Negated: true, If: x})
			}
		}
	}
	return out
}

// blockHolding is the statement list of parent that holds child.
func blockHolding(parent Node, child Stmt) []Stmt {
	var blocks [][]Stmt
	switch p := parent.(type) {
	case *Function:
		blocks = [][]Stmt{p.Body}
	case *If:
		blocks = [][]Stmt{p.Body, p.Else}
	case *For:
		blocks = [][]Stmt{p.Body, p.Else}
	case *While:
		blocks = [][]Stmt{p.Body, p.Else}
	case *With:
		blocks = [][]Stmt{p.Body}
	case *Try:
		blocks = [][]Stmt{p.Body, p.Else, p.Finally}
	case *Handler:
		blocks = [][]Stmt{p.Body}
	case *MatchCase:
		blocks = [][]Stmt{p.Body}
	}
	for _, b := range blocks {
		if inBody(b, child) {
			return b
		}
	}
	return nil
}

// leaves reports whether a block ends by leaving the function: its last
// statement is a return or a raise.
func leaves(body []Stmt) bool {
	if len(body) == 0 {
		return false
	}
	switch body[len(body)-1].(type) {
	case *Return, *Raise:
		return true
	}
	return false
}

// inHeader reports whether child is part of a def's header (decorators,
// parameters, return annotation), which runs where the def runs.
func inHeader(f *Function, child Node) bool {
	_, stmt := child.(Stmt)
	return !stmt
}

// inBody reports whether child is one of the statements of body.
func inBody(body []Stmt, child Node) bool {
	for _, s := range body {
		if Node(s) == child {
			return true
		}
	}
	return false
}

// Dotted returns "a.b.c" for a name or an attribute chain of names, and ""
// for anything else (a call, a subscript, a literal, ...).
func Dotted(e Expr) string {
	switch e := e.(type) {
	case *Name:
		return e.Id
	case *Attribute:
		// Most chains are short: build the string once.
		n := 0
		x := Expr(e)
		for {
			switch t := x.(type) {
			case *Attribute:
				n += len(t.Attr) + 1
				x = t.Value
				continue
			case *Name:
				n += len(t.Id)
			default:
				return ""
			}
			break
		}
		var b strings.Builder
		b.Grow(n)
		var write func(x Expr)
		write = func(x Expr) {
			switch t := x.(type) {
			case *Attribute:
				write(t.Value)
				b.WriteByte('.')
				b.WriteString(t.Attr)
			case *Name:
				b.WriteString(t.Id)
			}
		}
		write(e)
		return b.String()
	}
	return ""
}

// Root returns the name an attribute chain, call or subscript starts from
// ("self" for self.x[k].get(y)), or nil.
func Root(e Expr) *Name {
	for {
		switch t := e.(type) {
		case *Name:
			return t
		case *Attribute:
			e = t.Value
		case *Subscript:
			e = t.Value
		case *Call:
			e = t.Func
		default:
			return nil
		}
	}
}

// Positional returns the i-th positional argument of a call, or nil when
// there is none or a *args comes at or before it (its position is then
// unknown).
func (c *Call) Positional(i int) Expr {
	k := 0
	for _, a := range c.Args {
		switch a.Kind {
		case StarArg:
			return nil
		case Positional:
			if k == i {
				return a.Value
			}
			k++
		}
	}
	return nil
}

// Keyword returns the value of the keyword argument name, or nil.
func (c *Call) Keyword(name string) Expr {
	for _, a := range c.Args {
		if a.Kind == Keyword && a.Name == name {
			return a.Value
		}
	}
	return nil
}

// Arg returns the argument for a parameter at position i (not counting a
// receiver) with name name: the keyword, else the positional one; nil when
// neither is given, or a * or ** splat may give it.
func (c *Call) Arg(i int, name string) Expr {
	if v := c.Keyword(name); v != nil {
		return v
	}
	if v := c.Positional(i); v != nil {
		return v
	}
	return nil
}

// HasSplat reports whether the call has a *args or **kwargs argument.
func (c *Call) HasSplat() bool {
	for _, a := range c.Args {
		if a.Kind == StarArg || a.Kind == StarStarArg {
			return true
		}
	}
	return false
}

// DisplayElts returns the elements of a tuple, list or set display; ok is
// false for anything else.
func DisplayElts(e Expr) (elts []Expr, ok bool) {
	switch e := e.(type) {
	case *Tuple:
		return e.Elts, true
	case *List:
		return e.Elts, true
	case *Set:
		return e.Elts, true
	}
	return nil, false
}

// Str returns the value of a str literal.
func Str(e Expr) (string, bool) {
	if c, ok := e.(*Constant); ok && c.Kind == ConstStr {
		return c.Value, true
	}
	return "", false
}

// IsNone reports whether e is the literal None.
func IsNone(e Expr) bool {
	c, ok := e.(*Constant)
	return ok && c.Kind == ConstNone
}

// IsConst reports whether e is a constant of kind k.
func IsConst(e Expr, k ConstKind) bool {
	c, ok := e.(*Constant)
	return ok && c.Kind == k
}

// SuperAttr reports whether e is `super().name` (or `super(C, self).name`)
// and returns the name.
func SuperAttr(e Expr) (string, bool) {
	a, ok := e.(*Attribute)
	if !ok {
		return "", false
	}
	c, ok := a.Value.(*Call)
	if !ok {
		return "", false
	}
	n, ok := c.Func.(*Name)
	if !ok || n.Id != "super" {
		return "", false
	}
	return a.Attr, true
}
