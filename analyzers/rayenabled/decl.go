package rayenabled

import (
	"strings"

	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/pyscan"
)

// ownDecl is the ray_enabled binding in the body of a server class: the
// class attribute, and the assignment statement that makes it (nil when it
// is not one: an annotation alone, a nested class).
type ownDecl struct {
	attr *pyscan.ClassAttr
	stmt pyscan.Stmt // *pyscan.Assign or *pyscan.AnnAssign
}

// ownDeclOf returns the ray_enabled binding of a class body, or nil.
func ownDeclOf(c *pyscan.Class) *ownDecl {
	at := c.Attr(Attr)
	if at == nil {
		return nil
	}
	return &ownDecl{attr: at, stmt: assignmentOf(c.Body, at)}
}

// assignmentOf finds the class-body statement that binds at: an Assign or
// AnnAssign whose targets include at's name, in the body or in the blocks
// of its compound statements (not in nested defs and classes).
func assignmentOf(body []pyscan.Stmt, at *pyscan.ClassAttr) pyscan.Stmt {
	var found pyscan.Stmt
	pyscan.InspectBody(body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class:
			return false
		case *pyscan.Assign:
			for _, t := range n.Targets {
				if t.Range() == at.Span {
					found = n
				}
			}
			return false
		case *pyscan.AnnAssign:
			if n.Target.Range() == at.Span {
				found = n
			}
			return false
		}
		_, stmt := n.(pyscan.Stmt)
		return stmt
	})
	return found
}

// isTrue and isFalse report whether e is that literal (the model drops
// parentheses).
func isTrue(e pyscan.Expr) bool  { return pyscan.IsConst(e, pyscan.ConstTrue) }
func isFalse(e pyscan.Expr) bool { return pyscan.IsConst(e, pyscan.ConstFalse) }

// valueText is the value of a class attribute, for messages (without the
// parentheses around it, which the model drops).
func valueText(m *pyscan.Module, at *pyscan.ClassAttr) string {
	if at.Value == nil {
		return ""
	}
	return m.Text(at.Value)
}

// runtimeSet is a place that sets ray_enabled when code runs: an
// assignment to X.ray_enabled in a function, or a setattr(X,
// "ray_enabled", ...) call anywhere, with a value other than the literal
// False.
type runtimeSet struct {
	span    pyscan.Span // the target X.ray_enabled, or the setattr call
	fn      *facts.Func // the function it is in; nil at module scope
	setattr bool
	recv    pyscan.Expr   // X
	owner   *pyscan.Class // the class of the module X is, when known
}

// setFinder collects the runtime sets of ray_enabled of a module, in
// source order, from the nodes of a walk of it (the walk of the
// entrypoint that looks for Ray use: see scanner.module).
type setFinder struct {
	f       *facts.Facts
	m       *pyscan.Module
	sc      *scopes
	classes map[string]*pyscan.Class
	out     []runtimeSet
}

func newSetFinder(f *facts.Facts, m *pyscan.Module, sc *scopes) *setFinder {
	classes := map[string]*pyscan.Class{}
	for _, c := range m.Classes {
		classes[c.Name] = c
	}
	return &setFinder{f: f, m: m, sc: sc, classes: classes}
}

// owner is the class an assignment to recv.ray_enabled in fn sets; nil
// when unknown.
func (s *setFinder) owner(recv pyscan.Expr, fn *facts.Func) *pyscan.Class {
	if fn != nil && fn.Recv != "" && isReceiver(recv, fn.Recv) {
		return fn.Owner().Class
	}
	if n, ok := recv.(*pyscan.Name); ok && (fn == nil || !s.f.IsLocal(fn, n.Id)) {
		return s.classes[n.Id]
	}
	return nil
}

func (s *setFinder) visit(n pyscan.Node, stack []pyscan.Node) {
	switch n := n.(type) {
	case *pyscan.Assign:
		for _, t := range n.Targets {
			s.store(t, n.Value, stack)
		}
	case *pyscan.AnnAssign:
		s.store(n.Target, n.Value, stack)
	case *pyscan.Call:
		if !namesSetattr(n.Func) {
			return
		}
		fn := s.sc.enclosing(stack)
		if recv, ok := setattrRay(s.f, s.m, n, fn); ok {
			s.out = append(s.out, runtimeSet{span: n.Span, fn: fn, setattr: true, recv: recv, owner: s.owner(recv, fn)})
		}
	}
}

// store records `X.ray_enabled = value` in a function, at its target.
func (s *setFinder) store(t, value pyscan.Expr, stack []pyscan.Node) {
	a, ok := t.(*pyscan.Attribute)
	if !ok || a.Attr != Attr || value == nil || isFalse(value) {
		return
	}
	if fn := s.sc.enclosing(stack); fn != nil {
		s.out = append(s.out, runtimeSet{span: a.Span, fn: fn, recv: a.Value, owner: s.owner(a.Value, fn)})
	}
}

// isReceiver reports whether e is a method's receiver or its class:
// `self`, `type(self)`, `self.__class__` (for receiver self).
func isReceiver(e pyscan.Expr, recv string) bool {
	switch e := e.(type) {
	case *pyscan.Name:
		return e.Id == recv
	case *pyscan.Call:
		n, ok := e.Func.(*pyscan.Name)
		if !ok || n.Id != "type" || len(e.Args) != 1 {
			return false
		}
		r, ok := e.Positional(0).(*pyscan.Name)
		return ok && r.Id == recv
	case *pyscan.Attribute:
		r, ok := e.Value.(*pyscan.Name)
		return ok && r.Id == recv && e.Attr == "__class__"
	}
	return false
}

// namesSetattr reports whether a callee is written `setattr` or
// `builtins.setattr` (what it denotes is for the resolver).
func namesSetattr(e pyscan.Expr) bool {
	switch e := e.(type) {
	case *pyscan.Name:
		return e.Id == "setattr"
	case *pyscan.Attribute:
		b, ok := e.Value.(*pyscan.Name)
		return ok && b.Id == "builtins" && e.Attr == "setattr"
	}
	return false
}

// setattrRay recognises setattr(recv, "ray_enabled", value), the builtin,
// with a value other than the literal False, and returns recv.
func setattrRay(f *facts.Facts, m *pyscan.Module, c *pyscan.Call, fn *facts.Func) (pyscan.Expr, bool) {
	if !namesSetattr(c.Func) {
		return nil, false
	}
	if root := chainRoot(c.Func); fn != nil && f.IsLocal(fn, root.Id) {
		return nil, false
	}
	if f.View().QualifiedName(m, c.Func) != "builtins.setattr" {
		return nil, false
	}
	name, ok := pyscan.Str(c.Positional(1))
	if !ok || name != Attr {
		return nil, false
	}
	if v := c.Positional(2); v != nil && isFalse(v) {
		return nil, false
	}
	recv := c.Positional(0)
	return recv, recv != nil
}

// short is text for a message: white space runs made one space, at most 60
// characters.
func short(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return string(r)
}
