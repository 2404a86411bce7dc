package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// parseSrc parses src as pkg/app.py with a fresh parser.
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

func pos(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// dumpImport: `Module level=N name=X bound=Y [local] where-flags`.
func dumpImport(i *Import) string {
	s := fmt.Sprintf("%q level=%d name=%q bound=%q", i.Module, i.Level, i.Name, i.Bound)
	if !i.ModuleScope {
		s += " local"
	}
	return s + whereFlags(i.Where)
}

// dumpBinding: `name kind line:col where-flags [= value]`.
func dumpBinding(b *Binding) string {
	s := fmt.Sprintf("%s %s %s%s", b.Name, b.Kind, pos(b.Span.Start), whereFlags(b.Where))
	if b.Value != nil {
		s += " = " + b.Value.Text
	}
	return s
}

func dumpExpr(e Expr) string {
	s := e.Text
	if e.Dotted != "" && e.Dotted != e.Text {
		s += " dotted=" + e.Dotted
	}
	if e.Call {
		s += " call"
	}
	if len(e.Args) > 0 {
		var args []string
		for _, a := range e.Args {
			args = append(args, dumpExpr(a))
		}
		s += " args=[" + strings.Join(args, ", ") + "]"
	}
	return s
}

func dumpKeywords(kws []KeywordArg) string {
	var out []string
	for _, k := range kws {
		out = append(out, k.Name+"="+dumpExpr(k.Value))
	}
	return strings.Join(out, ", ")
}

// dumpCall: `callee(args; kwargs) where-flags` with the callee's Dotted.
func dumpCall(c *Call) string {
	var args []string
	for _, a := range c.Args {
		args = append(args, a.Text)
	}
	s := fmt.Sprintf("%s(%s", c.Callee.Dotted, strings.Join(args, ", "))
	if len(c.Kwargs) > 0 {
		s += "; " + dumpKeywords(c.Kwargs)
	}
	s += ")"
	if c.Callee.Dotted == "" {
		s = "<" + c.Callee.Text + ">" + s
	}
	return s + whereFlags(c.Where)
}

func dumpRaise(r *Raise) string {
	switch {
	case r.Assert:
		return "assert " + pos(r.Span.Start)
	case r.Exc == nil:
		return "raise " + pos(r.Span.Start)
	}
	return "raise " + dumpExpr(*r.Exc) + " " + pos(r.Span.Start)
}

// dumpFunction lists a function and, indented, its calls, raises and
// nested functions.
func dumpFunction(f *Function, indent string) []string {
	head := indent
	if f.Async {
		head += "async "
	}
	head += fmt.Sprintf("def %s(%s) %s", f.Name, strings.Join(f.Params, ", "), pos(f.NameSpan.Start))
	for _, d := range f.Decorators {
		head += " @" + dumpExpr(d)
	}
	out := []string{head}
	for _, c := range f.Calls {
		out = append(out, indent+"  call "+dumpCall(c))
	}
	for _, r := range f.Raises {
		out = append(out, indent+"  "+dumpRaise(r))
	}
	for _, n := range f.Nested {
		out = append(out, dumpFunction(n, indent+"  ")...)
	}
	return out
}

// dumpClass lists a class, its bases, keywords, decorators, attributes and
// methods (without their calls).
func dumpClass(c *Class) []string {
	out := []string{fmt.Sprintf("class %s %s%s", c.Name, pos(c.NameSpan.Start), whereFlags(c.Where))}
	for _, b := range c.Bases {
		out = append(out, "  base "+dumpExpr(b))
	}
	for _, k := range c.Keywords {
		out = append(out, "  keyword "+k.Name+"="+dumpExpr(k.Value))
	}
	for _, d := range c.Decorators {
		out = append(out, "  @"+dumpExpr(d))
	}
	for _, a := range c.Attrs {
		s := "  attr " + a.Name
		if a.Annotation != "" {
			s += ": " + a.Annotation
		}
		if a.Value != nil {
			s += " = " + dumpExpr(*a.Value)
		}
		out = append(out, s)
	}
	for _, m := range c.Methods {
		head := "  "
		if m.Async {
			head += "async "
		}
		head += fmt.Sprintf("def %s(%s)", m.Name, strings.Join(m.Params, ", "))
		for _, d := range m.Decorators {
			head += " @" + dumpExpr(d)
		}
		out = append(out, head)
	}
	return out
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
		out = append(out, dumpClass(c)...)
	}
	return out
}

func dumpFunctions(m *Module) []string {
	out := []string{}
	for _, f := range m.Functions {
		out = append(out, dumpFunction(f, "")...)
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
