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
