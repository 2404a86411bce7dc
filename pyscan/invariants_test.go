package pyscan

import (
	"fmt"
	"testing"
)

// checkInvariants checks what must hold for the model of any input: every
// position lies inside the file and agrees with its offset, every span is
// ordered, texts are the source at their spans, and calls are listed in
// source order.
func checkInvariants(t testing.TB, m *Module, src []byte) {
	t.Helper()
	c := invariantChecker{t: t, src: src}
	c.lineStarts = []int{0}
	for i, b := range src {
		if b == '\n' {
			c.lineStarts = append(c.lineStarts, i+1)
		}
	}
	if m.Size != len(src) {
		c.fail("Size %d, want %d", m.Size, len(src))
	}
	if m.SyntaxError != nil {
		c.span("SyntaxError", m.SyntaxError.Span)
		if m.SyntaxError.Message == "" {
			c.fail("SyntaxError without a message")
		}
	}
	for i, imp := range m.Imports {
		c.span(fmt.Sprintf("Imports[%d]", i), imp.Span)
		if imp.Name == "" && imp.Bound == "" {
			c.fail("Imports[%d] binds nothing: %+v", i, imp)
		}
	}
	for i, b := range m.Bindings {
		what := fmt.Sprintf("Bindings[%d] %q", i, b.Name)
		c.span(what, b.Span)
		if b.Kind != BindImport {
			c.text(what, b.Name, b.Span)
		}
		if b.Value != nil {
			c.expr(what+".Value", *b.Value)
		}
	}
	for _, cl := range m.Classes {
		c.class(cl)
	}
	if m.Prologue != nil {
		c.span("Prologue", *m.Prologue)
	}
	for i, g := range m.MainGuards {
		what := fmt.Sprintf("MainGuards[%d]", i)
		c.span(what, g.Span)
		c.span(what+".Body", g.Body)
		if g.Body.Start.Offset < g.Span.Start.Offset || g.Body.End.Offset > g.Span.End.Offset {
			c.fail("%s: body %+v outside the statement %+v", what, g.Body, g.Span)
		}
	}
	c.calls("Module.Calls", m.Calls)
	for _, f := range m.Functions {
		c.function(f)
	}
}

type invariantChecker struct {
	t          testing.TB
	src        []byte
	lineStarts []int
	failures   int
}

func (c *invariantChecker) fail(format string, args ...any) {
	c.t.Helper()
	c.failures++
	if c.failures <= 10 {
		c.t.Errorf(format, args...)
	}
}

func (c *invariantChecker) pos(what string, p Pos) {
	c.t.Helper()
	if p.Offset < 0 || p.Offset > len(c.src) || p.Line < 1 || p.Col < 1 {
		c.fail("%s: position %+v outside [0, %d]", what, p, len(c.src))
		return
	}
	line := 0
	for line+1 < len(c.lineStarts) && c.lineStarts[line+1] <= p.Offset {
		line++
	}
	if want := (Pos{p.Offset, line + 1, p.Offset - c.lineStarts[line] + 1}); p != want {
		c.fail("%s: position %+v, want %+v", what, p, want)
	}
}

func (c *invariantChecker) span(what string, s Span) {
	c.t.Helper()
	c.pos(what+".Start", s.Start)
	c.pos(what+".End", s.End)
	if s.Start.Offset > s.End.Offset {
		c.fail("%s: span %+v ends before it starts", what, s)
	}
}

func (c *invariantChecker) text(what, text string, s Span) {
	c.t.Helper()
	if s.Start.Offset < 0 || s.Start.Offset > s.End.Offset || s.End.Offset > len(c.src) {
		return // reported by span
	}
	if got := string(c.src[s.Start.Offset:s.End.Offset]); got != text {
		c.fail("%s: text %q, source at span %q", what, text, got)
	}
}

func (c *invariantChecker) expr(what string, e Expr) {
	c.t.Helper()
	c.span(what, e.Span)
	c.text(what, e.Text, e.Span)
	for i, a := range e.Args {
		c.expr(fmt.Sprintf("%s.Args[%d]", what, i), a)
	}
}

func (c *invariantChecker) class(cl *Class) {
	c.t.Helper()
	what := "class " + cl.Name
	c.span(what, cl.Span)
	c.span(what+".NameSpan", cl.NameSpan)
	c.text(what, cl.Name, cl.NameSpan)
	if cl.Body != (Span{}) {
		c.span(what+".Body", cl.Body)
		if cl.Body.Start.Offset < cl.NameSpan.End.Offset || cl.Body.End.Offset > cl.Span.End.Offset {
			c.fail("%s: body %+v outside the class %+v", what, cl.Body, cl.Span)
		}
	}
	for i, b := range cl.Bases {
		c.expr(fmt.Sprintf("%s.Bases[%d]", what, i), b)
	}
	for i, k := range cl.Keywords {
		c.expr(fmt.Sprintf("%s.Keywords[%d]", what, i), k.Value)
	}
	for i, d := range cl.Decorators {
		c.expr(fmt.Sprintf("%s.Decorators[%d]", what, i), d)
	}
	for _, a := range cl.Attrs {
		c.span(what+".attr "+a.Name, a.Span)
		c.span(what+".attr "+a.Name+".StmtSpan", a.StmtSpan)
		c.text(what+".attr", a.Name, a.Span)
		if a.Value != nil {
			c.expr(what+".attr "+a.Name+".Value", *a.Value)
		}
	}
	for _, f := range cl.Methods {
		c.function(f)
	}
}

func (c *invariantChecker) function(f *Function) {
	c.t.Helper()
	what := "def " + f.Name
	c.span(what, f.Span)
	c.span(what+".NameSpan", f.NameSpan)
	c.text(what, f.Name, f.NameSpan)
	for i, d := range f.Decorators {
		c.expr(fmt.Sprintf("%s.Decorators[%d]", what, i), d)
	}
	for _, p := range f.Params {
		if p == "" {
			c.fail("%s: empty parameter name in %q", what, f.Params)
		}
	}
	c.calls(what+".Calls", f.Calls)
	for i, r := range f.Raises {
		c.span(fmt.Sprintf("%s.Raises[%d]", what, i), r.Span)
		if r.Exc != nil {
			c.expr(fmt.Sprintf("%s.Raises[%d].Exc", what, i), *r.Exc)
		}
	}
	for _, n := range f.Nested {
		c.function(n)
	}
}

func (c *invariantChecker) calls(what string, calls []*Call) {
	c.t.Helper()
	for i, call := range calls {
		w := fmt.Sprintf("%s[%d]", what, i)
		c.span(w, call.Span)
		c.expr(w+".Callee", call.Callee)
		for j, a := range call.Args {
			c.expr(fmt.Sprintf("%s.Args[%d]", w, j), a)
		}
		for j, k := range call.Kwargs {
			c.expr(fmt.Sprintf("%s.Kwargs[%d]", w, j), k.Value)
		}
		if i > 0 && call.Span.Start.Offset < calls[i-1].Span.Start.Offset {
			c.fail("%s: call at %d listed after the call at %d", w, call.Span.Start.Offset, calls[i-1].Span.Start.Offset)
		}
	}
}
