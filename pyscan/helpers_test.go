package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// parseSrc parses src as pkg/app.py with a fresh parser and checks the
// model's invariants.
func parseSrc(t testing.TB, src string) *Module {
	t.Helper()
	p := NewParser(Options{})
	defer p.Close()
	m := p.Parse("pkg/app.py", []byte(src))
	checkInvariants(t, m, []byte(src))
	return m
}

// py turns an indented raw string into Python source: the common leading
// tab indentation of the Go literal is removed and tabs become 4 spaces.
func py(s string) string {
	s = strings.TrimPrefix(s, "\n")
	lines := strings.Split(s, "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
			continue
		}
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		lines[i] = strings.Repeat("    ", n) + l[n:]
	}
	return strings.Join(lines, "\n")
}

func whereFlags(w Where) string {
	var b strings.Builder
	if w.InMainGuard {
		b.WriteString(" main")
	}
	if w.InTry {
		b.WriteString(" try")
	}
	if w.Conditional {
		b.WriteString(" cond")
	}
	return b.String()
}

// lc is the line:col of an offset.
func lc(m *Module, off int32) string {
	p := m.Pos(off)
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// dumpImport: `"Module" level=N name="X" bound="Y" [local] where-flags`.
func dumpImport(i *Import) string {
	s := fmt.Sprintf("%q level=%d name=%q bound=%q", i.Module, i.Level, i.Name, i.Bound)
	if !i.ModuleScope {
		s += " local"
	}
	return s + whereFlags(i.Where)
}

// dumpBinding: `name kind line:col where-flags [= value source]`.
func dumpBinding(m *Module) func(*Binding) string {
	return func(b *Binding) string {
		s := fmt.Sprintf("%s %s %s%s", b.Name, b.Kind, lc(m, b.Span.Start), whereFlags(b.Where))
		if b.Value != nil {
			s += " = " + m.Text(b.Value)
		}
		return s
	}
}

// dumpParams: the names of a def's parameters with their kinds' marks:
// `a, /` for positional-only ones, `*args`, `*, k` for keyword-only ones,
// `**kw`, `=` after a default and `: ann` for an annotation.
func dumpParams(m *Module, ps []*Param) string {
	var out []string
	star := false
	for i, p := range ps {
		s := p.Name
		switch p.Kind {
		case ParamVarArgs:
			s, star = "*"+s, true
		case ParamVarKwargs:
			s = "**" + s
		case ParamKwOnly:
			if !star {
				out, star = append(out, "*"), true
			}
		}
		if p.Annotation != nil {
			s += ": " + m.Text(p.Annotation)
		}
		if p.Default != nil {
			s += "=" + m.Text(p.Default)
		}
		out = append(out, s)
		if p.Kind == ParamPosOnly && (i+1 == len(ps) || ps[i+1].Kind != ParamPosOnly) {
			out = append(out, "/")
		}
	}
	return strings.Join(out, ", ")
}

// dumpFunctionHead: `[async ]def name(params) line:col [@decorator...]`.
func dumpFunctionHead(m *Module, f *Function) string {
	head := ""
	if f.Async {
		head = "async "
	}
	head += fmt.Sprintf("def %s(%s) %s", f.Name, dumpParams(m, f.Params), lc(m, f.NameSpan.Start))
	for _, d := range f.Decorators {
		head += " @" + m.Text(d)
	}
	return head
}

// dumpClass lists a class, its bases, keywords, decorators, attributes and
// methods.
func dumpClass(m *Module, c *Class) []string {
	out := []string{fmt.Sprintf("class %s %s%s", c.Name, lc(m, c.NameSpan.Start), whereFlags(c.Where))}
	for _, b := range c.Bases {
		out = append(out, "  base "+m.Text(b)+" "+kindOf(b))
	}
	for _, k := range c.Keywords {
		name := k.Name
		if k.Kind == StarStarArg {
			name = "**"
		}
		out = append(out, "  keyword "+name+"="+m.Text(k.Value))
	}
	for _, d := range c.Decorators {
		out = append(out, "  @"+m.Text(d))
	}
	for _, a := range c.Attrs {
		s := "  attr " + a.Name
		if a.Annotation != nil {
			s += ": " + m.Text(a.Annotation)
		}
		if a.Value != nil {
			s += " = " + m.Text(a.Value)
		}
		out = append(out, s)
	}
	for _, f := range c.Methods {
		out = append(out, "  "+dumpFunctionHead(m, f))
	}
	return out
}

// kindOf is the model's type name of a node: "Name", "Call", ...
func kindOf(n Node) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*pyscan.")
}

func mapSlice[T any](xs []T, f func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func dumpClasses(m *Module) []string {
	out := []string{}
	for _, c := range m.Classes {
		out = append(out, dumpClass(m, c)...)
	}
	return out
}

// checkLines compares two line lists and reports a readable diff.
func checkLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	t.Errorf("%s:\n got:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
}

// at is the text of src at a span.
func at(src string, s Span) string { return src[s.Start:s.End] }

// find returns the nodes under the module's body for which keep holds, in
// the order Inspect visits them.
func find[T Node](m *Module, keep func(T) bool) []T {
	var out []T
	InspectBody(m.Body, func(n Node, _ []Node) bool {
		if x, ok := n.(T); ok && (keep == nil || keep(x)) {
			out = append(out, x)
		}
		return true
	})
	return out
}

// dumpCtx renders where a node is, from ContextOf and the stack: the
// guards that hold ([test] or [not test]), then loop, try (in a try's
// body), inTry (in another part of a try), handler, finally, with,
// match, deferred, main, and class when the node runs in a class body
// (which ContextOf does not tell).
func dumpCtx(m *Module, stack []Node) string {
	c := ContextOf(stack)
	var b strings.Builder
	for _, g := range c.Guards {
		if g.Negated {
			b.WriteString(" [not " + m.Text(g.Test) + "]")
		} else {
			b.WriteString(" [" + m.Text(g.Test) + "]")
		}
	}
	flag := func(on bool, s string) {
		if on {
			b.WriteString(" " + s)
		}
	}
	flag(c.Loop, "loop")
	flag(len(c.Tries) > 0, "try")
	flag(c.InTry && len(c.Tries) == 0, "inTry")
	flag(c.Handler != nil, "handler")
	flag(c.Finally, "finally")
	flag(len(c.Withs) > 0, "with")
	flag(c.Match, "match")
	flag(c.Deferred, "deferred")
	flag(c.InMainGuard, "main")
	inClass := false
	for i := len(stack) - 2; i >= 0; i-- {
		if stack[i] == Node(c.Function) {
			break
		}
		if cl, ok := stack[i].(*Class); ok && inBody(cl.Body, stack[i+1]) {
			inClass = true
			break
		}
	}
	flag(inClass, "class")
	return b.String()
}

// dumpCall: `callee(args)`, the callee as Dotted or <its text>, the
// arguments as written (keywords as name=value, splats with their stars).
func dumpCall(m *Module, c *Call) string {
	callee := Dotted(c.Func)
	if callee == "" {
		callee = "<" + m.Text(c.Func) + ">"
	}
	var args []string
	for _, a := range c.Args {
		switch a.Kind {
		case Keyword:
			args = append(args, a.Name+"="+m.Text(a.Value))
		case StarArg:
			args = append(args, "*"+m.Text(a.Value))
		case StarStarArg:
			args = append(args, "**"+m.Text(a.Value))
		default:
			args = append(args, m.Text(a.Value))
		}
	}
	return callee + "(" + strings.Join(args, ", ") + ")"
}

// dumpFlow lists, in source order, the calls, raises, asserts, returns
// and awaits that run in fn (nil: at module level, class bodies
// included), each with dumpCtx's flags.
func dumpFlow(m *Module, fn *Function) []string {
	out := []string{}
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		if ContextOf(stack).Function != fn {
			return true
		}
		var s string
		switch n := n.(type) {
		case *Call:
			s = "call " + dumpCall(m, n)
		case *Raise:
			s = "raise"
			if n.Exc != nil {
				s += " " + m.Text(n.Exc)
			}
			if n.Cause != nil {
				s += " from " + m.Text(n.Cause)
			}
		case *Assert:
			s = "assert " + m.Text(n.Test)
		case *Return:
			s = "return"
			if n.Value != nil {
				s += " " + m.Text(n.Value)
			}
		case *Await:
			s = "await " + m.Text(n.Value)
		default:
			return true
		}
		out = append(out, s+dumpCtx(m, stack))
		return true
	})
	return out
}

// allFunctions lists every def of the module, nested ones included, in
// source order.
func allFunctions(m *Module) []*Function {
	return find[*Function](m, nil)
}

// funcNamed returns the first def of that name, nested ones included.
func funcNamed(t *testing.T, m *Module, name string) *Function {
	t.Helper()
	for _, f := range allFunctions(m) {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no def %s", name)
	return nil
}
