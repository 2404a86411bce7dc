package pyscan

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

// checkInvariants checks what must hold for the model of any input:
//
//   - the header: Size, Source;
//   - every node's span lies inside the file and is ordered, and
//     Module.Text(n) is the source at it;
//   - a child's span lies inside its parent's, with one exception: the
//     decorators of a def or class come before its span, which starts at
//     `def` or `class` (as CPython's ast has it);
//   - Inspect visits nodes in source order: each node starts at or after
//     the node visited before it (a def or class counted from its first
//     decorator), and siblings do not overlap;
//   - the fields that the model documents as set are set (a rule never
//     needs a nil check for them), whatever the input;
//   - the module-scope indexes (Imports, Bindings, Classes with their
//     Methods and Attrs, Functions, MainGuards, Prologue, Comments) are
//     what Body says they are, computed here again independently;
//   - SyntaxError, when set, has a span in the file and a message.
func checkInvariants(t testing.TB, m *Module, src []byte) {
	t.Helper()
	c := &invChecker{t: t, m: m, src: src}
	c.run()
}

type invChecker struct {
	t        testing.TB
	m        *Module
	src      []byte
	failures int

	// computed again from Body
	imports       []*Import
	bindingStarts []bindingAt
	classes       []*Class
	functions     []*Function
	guards        []*If
}

func (c *invChecker) fail(format string, args ...any) {
	c.t.Helper()
	c.failures++
	if c.failures <= 10 {
		c.t.Errorf(format, args...)
	}
}

func (c *invChecker) run() {
	c.t.Helper()
	m, src := c.m, c.src
	if m.Size != len(src) {
		c.fail("Size %d, want %d", m.Size, len(src))
	}
	if string(m.Source()) != string(src) {
		c.fail("Source() differs from the parsed text")
	}
	if m.SyntaxError != nil {
		c.span("SyntaxError", m.SyntaxError.Span)
		if m.SyntaxError.Message == "" {
			c.fail("SyntaxError without a message")
		}
	}
	if len(m.Body) > 0 && m.lines == nil {
		c.fail("no line table")
	}

	// Spans, containment, order and required fields, over every node.
	prevStart := int32(-1)
	var prevNode Node
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		what := fmt.Sprintf("%s at %d", kindOf(n), n.Range().Start)
		if isNilNode(n) {
			c.fail("Inspect visits a nil %T under %s", n, kindOf(stack[len(stack)-2]))
			return false
		}
		s := n.Range()
		c.span(what, s)
		if got := m.Text(n); int(s.End) <= len(src) && s.Start <= s.End && s.Start >= 0 && got != string(src[s.Start:s.End]) {
			c.fail("%s: Text %q, source at the span %q", what, got, src[s.Start:s.End])
		}
		if len(stack) >= 2 {
			parent := stack[len(stack)-2]
			if ps := extSpan(parent); !ps.Contains(s) {
				c.fail("%s %v lies outside its parent %s %v", what, s, kindOf(parent), ps)
			}
		}
		if st := extSpan(n).Start; st < prevStart {
			c.fail("Inspect visits %s %v after %s %v, which starts later", what, s, kindOf(prevNode), prevNode.Range())
		}
		prevStart, prevNode = extSpan(n).Start, n
		c.siblings(n)
		c.required(n)
		// An elif is the only statement of its If's Else.
		if i, ok := n.(*If); ok && i.Elif {
			if p, ok := stack[len(stack)-2].(*If); !ok || len(p.Else) != 1 || p.Else[0] != Stmt(i) {
				c.fail("an elif If %v outside an If's Else", i.Span)
			}
		}
		return true
	})
	c.siblings(&Class{Body: m.Body, Span: Span{0, int32(len(src))}})

	// The module-scope indexes.
	c.body(m.Body, Where{}, true)
	c.compareIndexes()
	for i, cm := range m.Comments {
		c.span(fmt.Sprintf("Comments[%d]", i), cm)
		if cm.Start < cm.End && src[cm.Start] != '#' {
			c.fail("Comments[%d] %v does not start with #: %q", i, cm, src[cm.Start:cm.End])
		}
		if i > 0 && cm.Start < m.Comments[i-1].End {
			c.fail("Comments[%d] %v overlaps the previous one", i, cm)
		}
	}
}

func isNilNode(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// extSpan is a node's span, a decorated def's or class's from its first
// decorator.
func extSpan(n Node) Span {
	s := n.Range()
	var decos []Expr
	switch n := n.(type) {
	case *Function:
		decos = n.Decorators
	case *Class:
		decos = n.Decorators
	}
	for _, d := range decos {
		if ds := d.Range(); ds.Start < s.Start {
			s.Start = ds.Start
		}
	}
	return s
}

func (c *invChecker) span(what string, s Span) {
	c.t.Helper()
	if s.Start < 0 || s.Start > s.End || int(s.End) > len(c.src) {
		c.fail("%s: span %v outside [0, %d] or reversed", what, s, len(c.src))
	}
}

// eachChild calls visit for each child of n that Inspect visits, in order.
func eachChild(n Node, visit func(Node)) {
	Inspect(n, func(x Node, stack []Node) bool {
		if len(stack) == 1 {
			return true
		}
		visit(x)
		return false
	})
}

// siblings checks that the children of n do not overlap, in order; the
// statements that follow a BadStmt may lie inside it (see BadStmt).
func (c *invChecker) siblings(n Node) {
	c.t.Helper()
	var prev Node
	var bad Span
	eachChild(n, func(ch Node) {
		if prev != nil && !isNilNode(prev) && !isNilNode(ch) {
			a, b := extSpan(prev), extSpan(ch)
			if _, ok := ch.(Stmt); ok && bad.Contains(b) && !bad.IsZero() {
				a.End = bad.Start
			}
			if b.Start < a.End {
				c.fail("children of %s %v overlap: %s %v and %s %v in %q", kindOf(n), n.Range(), kindOf(prev), a, kindOf(ch), b, clip(c.m.Text(n)))
			}
		}
		if bs, ok := ch.(*BadStmt); ok {
			bad = bs.Span
		} else if _, ok := ch.(Stmt); ok && !bad.Contains(extSpan(ch)) {
			bad = Span{}
		}
		prev = ch
	})
}

// required checks the fields the model always sets.
func (c *invChecker) required(n Node) {
	c.t.Helper()
	var missing []string
	need := func(name string, e Node) {
		if isNilNode(e) {
			missing = append(missing, name)
		}
	}
	switch n := n.(type) {
	case *Attribute:
		need("Value", n.Value)
	case *Call:
		need("Func", n.Func)
		for i, a := range n.Args {
			need(fmt.Sprintf("Args[%d].Value", i), a.Value)
			if !n.Span.Contains(a.Span) || !a.Span.Contains(a.Value.Range()) {
				c.fail("Call %v: argument %d's span %v is not between the call's and its value's", n.Span, i, a.Span)
			}
			if (a.Kind == Keyword) != (a.Name != "") {
				c.fail("Call %v: argument %d of kind %d has name %q", n.Span, i, a.Kind, a.Name)
			}
		}
	case *Subscript:
		need("Value", n.Value)
		need("Index", n.Index)
	case *Compare:
		need("Left", n.Left)
		if len(n.Ops) == 0 || len(n.Ops) != len(n.Comparators) {
			c.fail("Compare %v: %d operators, %d comparators", n.Span, len(n.Ops), len(n.Comparators))
		}
	case *BoolOp:
		if len(n.Values) < 2 {
			c.fail("BoolOp %v with %d values", n.Span, len(n.Values))
		}
	case *UnaryOp:
		need("Operand", n.Operand)
	case *BinOp:
		need("Left", n.Left)
		need("Right", n.Right)
	case *IfExp:
		need("Test", n.Test)
		need("Body", n.Body)
		need("OrElse", n.OrElse)
	case *NamedExpr:
		need("Target", n.Target)
		need("Value", n.Value)
	case *Await:
		need("Value", n.Value)
	case *Yield:
		if n.From {
			need("Value", n.Value)
		}
	case *Lambda:
		need("Body", n.Body)
	case *Dict:
		for i, it := range n.Items {
			need(fmt.Sprintf("Items[%d].Value", i), it.Value)
		}
	case *Comprehension:
		need("Elt", n.Elt)
		if (n.Kind == DictComp) != (n.Key != nil) {
			c.fail("Comprehension %v of kind %d with key %v", n.Span, n.Kind, n.Key)
		}
		if len(n.Generators) == 0 {
			c.fail("Comprehension %v without a for clause", n.Span)
		}
		for i, g := range n.Generators {
			need(fmt.Sprintf("Generators[%d].Target", i), g.Target)
			need(fmt.Sprintf("Generators[%d].Iter", i), g.Iter)
		}
	case *Starred:
		need("Value", n.Value)
	case *ExprStmt:
		need("Value", n.Value)
	case *Assign:
		need("Value", n.Value)
		if len(n.Targets) == 0 {
			c.fail("Assign %v without targets", n.Span)
		}
	case *AnnAssign:
		need("Target", n.Target)
		need("Annotation", n.Annotation)
	case *AugAssign:
		need("Target", n.Target)
		need("Value", n.Value)
	case *Assert:
		need("Test", n.Test)
	case *If:
		need("Test", n.Test)
	case *For:
		need("Target", n.Target)
		need("Iter", n.Iter)
	case *While:
		need("Test", n.Test)
	case *Try:
		if !n.Span.Contains(n.BodySpan) || !c.bodySpan(n.BodySpan, n.Body) {
			c.fail("Try %v: BodySpan %v is not its body's", n.Span, n.BodySpan)
		}
	case *With:
		for i, it := range n.Items {
			need(fmt.Sprintf("Items[%d].Context", i), it.Context)
		}
		if !n.Span.Contains(n.BodySpan) || !c.bodySpan(n.BodySpan, n.Body) {
			c.fail("With %v: BodySpan %v is not its body's", n.Span, n.BodySpan)
		}
	case *Match:
		need("Subject", n.Subject)
	case *TypeAlias:
		need("Value", n.Value)
	case *Function:
		c.nameSpan("def", n.Name, n.NameSpan, n.Span)
		for i, p := range n.Params {
			need(fmt.Sprintf("Params[%d]", i), p)
		}
	case *Class:
		c.nameSpan("class", n.Name, n.NameSpan, n.Span)
		if !n.BodySpan.IsZero() && !n.Span.Contains(n.BodySpan) || !c.bodySpan(n.BodySpan, n.Body) {
			c.fail("class %s: BodySpan %v is not its body's (%v)", n.Name, n.BodySpan, n.Span)
		}
	case *Param:
		if n.Name == "" {
			c.fail("a parameter without a name at %v", n.Span)
		}
	}
	if len(missing) > 0 {
		c.fail("%s %v: %s not set", kindOf(n), n.Range(), strings.Join(missing, ", "))
	}
}

func (c *invChecker) nameSpan(what, name string, s, outer Span) {
	c.t.Helper()
	c.span(what+" "+name+" NameSpan", s)
	if !outer.Contains(s) || c.m.SpanText(s) != name || name == "" {
		c.fail("%s %q: NameSpan %v holds %q (statement %v)", what, name, s, c.m.SpanText(s), outer)
	}
}

// body computes the module-scope facts of a body again. module is false
// inside a def or class.
func (c *invChecker) body(ss []Stmt, where Where, module bool) {
	for _, s := range ss {
		c.stmtFacts(s, where, module)
	}
}

func condWhere(w Where) Where { w.Conditional = true; return w }
func tryWhere(w Where) Where  { w.InTry = true; return w }

func (c *invChecker) bind(name string, k BindingKind, s Span, w Where, v Expr) {
	c.bindingStarts = append(c.bindingStarts, bindingAt{s.Start, fmt.Sprintf("%s %s %d-%d%s %v", name, k, s.Start, s.End, whereFlags(w), v != nil)})
}

type bindingAt struct {
	start int32
	s     string
}

// bindTarget is what assigning to t binds.
func (c *invChecker) bindTarget(t Expr, k BindingKind, w Where, v Expr) {
	switch t := t.(type) {
	case *Name:
		c.bind(t.Id, k, t.Span, w, v)
	case *Tuple:
		for _, e := range t.Elts {
			c.bindTarget(e, k, w, nil)
		}
	case *List:
		for _, e := range t.Elts {
			c.bindTarget(e, k, w, nil)
		}
	case *Starred:
		c.bindTarget(t.Value, k, w, nil)
	}
}

// walrus records the walrus bindings of expressions at module scope;
// those in a lambda's body bind in the lambda's scope. (A walrus in a
// comprehension binds in the enclosing scope, PEP 572.)
func (c *invChecker) walrus(w Where, module bool, es ...Expr) {
	if !module {
		return
	}
	for _, e := range es {
		if isNilNode(e) {
			continue
		}
		Inspect(e, func(n Node, _ []Node) bool {
			switch n := n.(type) {
			case *Lambda:
				// Its defaults are evaluated here, its body is its own.
				for _, p := range n.Params {
					c.walrus(w, module, p.Default)
				}
				return false
			case *NamedExpr:
				c.bind(n.Target.Id, BindWalrus, n.Target.Span, w, n.Value)
			}
			return true
		})
	}
}

func isMainGuardTest(e Expr) bool {
	cmp, ok := e.(*Compare)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != Eq {
		return false
	}
	one := func(a, b Expr) bool {
		n, ok := a.(*Name)
		s, ok2 := Str(b)
		return ok && ok2 && n.Id == "__name__" && s == "__main__"
	}
	return one(cmp.Left, cmp.Comparators[0]) || one(cmp.Comparators[0], cmp.Left)
}

func (c *invChecker) stmtFacts(s Stmt, w Where, module bool) {
	switch s := s.(type) {
	case *ExprStmt:
		c.walrus(w, module, s.Value)
	case *Assign:
		c.walrus(w, module, s.Value)
		c.walrus(w, module, s.Targets...)
		// An assignment without a value (`x = A: 0`, which tree-sitter
		// accepts) has an empty Other for one; its bindings have none.
		v := s.Value
		if o, ok := v.(*Other); ok && o.Start == o.End {
			v = nil
		}
		if module {
			for _, t := range s.Targets {
				c.bindTarget(t, BindAssign, w, v)
			}
		}
	case *AnnAssign:
		c.walrus(w, module, s.Annotation, s.Value, s.Target)
		if module && s.Value != nil {
			c.bindTarget(s.Target, BindAnnAssign, w, s.Value)
		}
	case *AugAssign:
		c.walrus(w, module, s.Target, s.Value)
		if module {
			c.bindTarget(s.Target, BindAugAssign, w, nil)
		}
	case *Delete:
		c.walrus(w, module, s.Targets...)
	case *Return:
		c.walrus(w, module, s.Value)
	case *Raise:
		c.walrus(w, module, s.Exc, s.Cause)
	case *Assert:
		c.walrus(w, module, s.Test, s.Msg)
	case *ImportStmt:
		for _, imp := range s.Names {
			c.imports = append(c.imports, imp)
			if imp.Span != s.Span || imp.Where != w || imp.ModuleScope != module {
				c.fail("import %s: span %v where %+v module scope %v, its statement's %v %+v %v", dumpImport(imp), imp.Span, imp.Where, imp.ModuleScope, s.Span, w, module)
			}
			if module && imp.Bound != "" {
				c.bind(imp.Bound, BindImport, s.Span, w, nil)
			}
		}
	case *If:
		c.walrus(w, module, s.Test)
		bw := condWhere(w)
		if module && !s.Elif && isMainGuardTest(s.Test) {
			bw.InMainGuard = true
			c.guards = append(c.guards, s)
		}
		c.body(s.Body, bw, module)
		c.body(s.Else, condWhere(w), module)
	case *For:
		c.walrus(w, module, s.Iter)
		if module {
			c.bindTarget(s.Target, BindFor, w, nil)
		}
		c.body(s.Body, condWhere(w), module)
		c.body(s.Else, condWhere(w), module)
	case *While:
		c.walrus(w, module, s.Test)
		c.body(s.Body, condWhere(w), module)
		c.body(s.Else, condWhere(w), module)
	case *Try:
		tw := tryWhere(w)
		c.body(s.Body, tw, module)
		for _, h := range s.Handlers {
			c.walrus(tw, module, h.Type)
			c.body(h.Body, tw, module)
		}
		c.body(s.Else, tw, module)
		c.body(s.Finally, tw, module)
	case *With:
		for _, it := range s.Items {
			c.walrus(w, module, it.Context)
			if it.Target != nil {
				c.walrus(w, module, it.Target)
				if module {
					c.bindTarget(it.Target, BindWith, w, nil)
				}
			}
		}
		c.body(s.Body, condWhere(w), module)
	case *Match:
		c.walrus(w, module, s.Subject)
		for _, mc := range s.Cases {
			c.walrus(condWhere(w), module, mc.Guard)
			c.body(mc.Body, condWhere(w), module)
		}
	case *TypeAlias:
		if module && s.Name != "" {
			// The name's own span is not in the statement's model: the
			// binding must lie in the statement, after `type`, and hold
			// the name (compareIndexes checks the text). The first
			// occurrence of the name is not it in broken input
			// (`type!T T=0` names the second T).
			var at *Span
			for _, b := range c.m.Bindings {
				if b.Kind == BindTypeAlias && b.Name == s.Name && b.Span.Start >= s.Start+4 && b.Span.End <= s.End {
					at = &b.Span
					break
				}
			}
			if at == nil {
				c.fail("type alias %q has no binding in its statement %q", s.Name, c.m.Text(s))
				return
			}
			c.bind(s.Name, BindTypeAlias, *at, w, nil)
		}
	case *Function:
		c.walrus(w, module, s.Decorators...)
		for _, p := range s.Params {
			c.walrus(w, module, p.Annotation, p.Default)
		}
		c.walrus(w, module, s.ReturnType)
		if module {
			c.functions = append(c.functions, s)
			c.bind(s.Name, BindDef, s.NameSpan, w, nil)
		}
		c.body(s.Body, w, false)
	case *Class:
		c.walrus(w, module, s.Decorators...)
		c.walrus(w, module, s.Bases...)
		for _, k := range s.Keywords {
			c.walrus(w, module, k.Value)
		}
		if s.Where != w {
			c.fail("class %s: Where %+v, want %+v", s.Name, s.Where, w)
		}
		if module {
			c.classes = append(c.classes, s)
			c.bind(s.Name, BindClass, s.NameSpan, w, nil)
		}
		c.classMembers(s)
		c.body(s.Body, w, false)
	}
}

// classMembers checks a class's Methods and Attrs against its body.
func (c *invChecker) classMembers(cl *Class) {
	var methods []*Function
	var attrs []string
	var add func(t Expr, annot, value Expr, stmt Span)
	add = func(t Expr, annot, value Expr, stmt Span) {
		switch t := t.(type) {
		case *Name:
			attrs = append(attrs, fmt.Sprintf("%s %v %v %v", t.Id, t.Span, stmt, value != nil))
		case *Tuple:
			for _, e := range t.Elts {
				add(e, annot, nil, stmt)
			}
		case *List:
			for _, e := range t.Elts {
				add(e, annot, nil, stmt)
			}
		case *Starred:
			add(t.Value, annot, nil, stmt)
		}
	}
	var walk func(ss []Stmt)
	walk = func(ss []Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *Function:
				methods = append(methods, s)
			case *Class:
				attrs = append(attrs, fmt.Sprintf("%s %v %v %v", s.Name, s.NameSpan, s.Span, false))
			case *Assign:
				v := s.Value
				if o, ok := v.(*Other); ok && o.Start == o.End {
					v = nil // no value (see stmtFacts)
				}
				for _, t := range s.Targets {
					add(t, nil, v, s.Span)
				}
			case *AnnAssign:
				add(s.Target, s.Annotation, s.Value, s.Span)
			case *If:
				walk(s.Body)
				walk(s.Else)
			case *For:
				walk(s.Body)
				walk(s.Else)
			case *While:
				walk(s.Body)
				walk(s.Else)
			case *Try:
				walk(s.Body)
				for _, h := range s.Handlers {
					walk(h.Body)
				}
				walk(s.Else)
				walk(s.Finally)
			case *With:
				walk(s.Body)
			case *Match:
				for _, mc := range s.Cases {
					walk(mc.Body)
				}
			}
		}
	}
	walk(cl.Body)
	if len(methods) != len(cl.Methods) {
		c.fail("class %s: %d methods in Methods, %d in its body", cl.Name, len(cl.Methods), len(methods))
	} else {
		for i := range methods {
			if methods[i] != cl.Methods[i] {
				c.fail("class %s: Methods[%d] is %s, the body's is %s", cl.Name, i, cl.Methods[i].Name, methods[i].Name)
			}
		}
	}
	var got []string
	for _, a := range cl.Attrs {
		got = append(got, fmt.Sprintf("%s %v %v %v", a.Name, a.Span, a.StmtSpan, a.Value != nil))
		if c.m.SpanText(a.Span) != a.Name {
			c.fail("class %s: attr %q at %v holds %q", cl.Name, a.Name, a.Span, c.m.SpanText(a.Span))
		}
	}
	if strings.Join(got, "|") != strings.Join(attrs, "|") {
		c.fail("class %s: Attrs\n\t%s\nbody:\n\t%s", cl.Name, strings.Join(got, "\n\t"), strings.Join(attrs, "\n\t"))
	}
}

func (c *invChecker) compareIndexes() {
	c.t.Helper()
	m := c.m
	if !reflect.DeepEqual(ptrs(m.Imports), ptrs(c.imports)) {
		c.fail("Imports:\n\t%s\nbody's:\n\t%s", strings.Join(mapSlice(m.Imports, dumpImport), "\n\t"), strings.Join(mapSlice(c.imports, dumpImport), "\n\t"))
	}
	for i, imp := range m.Imports {
		if imp.Module == "" && imp.Level == 0 || imp.Name == "" && imp.Bound == "" || imp.Name != "" && imp.Name != "*" && imp.Bound == "" {
			c.fail("Imports[%d] is incomplete: %s", i, dumpImport(imp))
		}
	}
	if !reflect.DeepEqual(ptrs(m.Classes), ptrs(c.classes)) {
		c.fail("Classes %v, body's %v", mapSlice(m.Classes, func(x *Class) string { return x.Name }), mapSlice(c.classes, func(x *Class) string { return x.Name }))
	}
	if !reflect.DeepEqual(ptrs(m.Functions), ptrs(c.functions)) {
		c.fail("Functions %v, body's %v", mapSlice(m.Functions, func(x *Function) string { return x.Name }), mapSlice(c.functions, func(x *Function) string { return x.Name }))
	}
	var got []string
	for _, b := range m.Bindings {
		got = append(got, fmt.Sprintf("%s %s %d-%d%s %v", b.Name, b.Kind, b.Span.Start, b.Span.End, whereFlags(b.Where), b.Value != nil))
		if b.Kind != BindImport && m.SpanText(b.Span) != b.Name {
			c.fail("binding %q at %v holds %q", b.Name, b.Span, m.SpanText(b.Span))
		}
	}
	// Bindings are in source order (those of one import statement share
	// its span), which is the order of the walk above but for a walrus in
	// a value, met before the targets.
	sort.SliceStable(c.bindingStarts, func(i, j int) bool { return c.bindingStarts[i].start < c.bindingStarts[j].start })
	var want []string
	for _, b := range c.bindingStarts {
		want = append(want, b.s)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		c.fail("Bindings:\n\t%s\nbody's:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if len(m.MainGuards) != len(c.guards) {
		c.fail("%d MainGuards, %d in the body", len(m.MainGuards), len(c.guards))
	} else {
		for i, g := range m.MainGuards {
			if g.If != c.guards[i] || g.Span != g.If.Span || !c.bodySpan(g.Body, g.If.Body) {
				c.fail("MainGuards[%d]: span %v body %v, statement %v", i, g.Span, g.Body, c.guards[i].Span)
			}
		}
	}
	var pro *Span
	for i, s := range m.Body {
		if is, ok := s.(*ImportStmt); ok && is.Future {
		} else if es, ok := s.(*ExprStmt); ok && i == 0 && IsConst(es.Value, ConstStr) {
		} else {
			break
		}
		sp := s.Range()
		if pro == nil {
			pro = &sp
		} else {
			pro.End = sp.End
		}
	}
	if !reflect.DeepEqual(pro, m.Prologue) {
		c.fail("Prologue %v, want %v", m.Prologue, pro)
	}
}

// bodySpan reports whether s spans the statements of body: from the first's
// start (a decorated one's "@") to the last's end.
func (c *invChecker) bodySpan(s Span, body []Stmt) bool {
	if len(body) == 0 {
		return true
	}
	// The last statement ends the body, unless it lies in a BadStmt
	// before it.
	first, end := extSpan(body[0]), int32(0)
	for _, st := range body {
		end = max(end, st.Range().End)
	}
	if s.End != end || s.Start > first.Start {
		return false
	}
	return strings.Trim(c.m.SpanText(Span{s.Start, first.Start}), "@ \t\r\n\\") == ""
}

func ptrs[T any](xs []*T) []uintptr {
	out := []uintptr{}
	for _, x := range xs {
		out = append(out, uintptr(unsafe.Pointer(x)))
	}
	return out
}
