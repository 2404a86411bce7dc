package refusal

import (
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/pyscan"
)

// canon writes an expression's structure: the same expression gives the
// same string however it is spaced, quoted, parenthesised or commented,
// and different expressions give different strings. Opaque tests are
// identified by it. Expressions whose structure the model does not keep
// (a lambda, a comprehension, a region that did not parse) are identified
// by their position, so that two of them are never taken for one.
func canon(e pyscan.Expr) string {
	var b strings.Builder
	writeCanon(&b, e, 0)
	return b.String()
}

// maxCanonDepth bounds the nesting canon writes out; deeper expressions
// are identified by position.
const maxCanonDepth = 64

func writeCanon(b *strings.Builder, e pyscan.Expr, depth int) {
	if e == nil {
		b.WriteString("_")
		return
	}
	if depth > maxCanonDepth {
		writePosition(b, e)
		return
	}
	// group writes "(" + the parts + ")": strings as they are,
	// expressions in canonical form.
	group := func(parts ...any) {
		b.WriteByte('(')
		for _, p := range parts {
			switch p := p.(type) {
			case string:
				b.WriteString(p)
			case pyscan.Expr:
				writeCanon(b, p, depth+1)
			}
		}
		b.WriteByte(')')
	}
	list := func(open, close string, es []pyscan.Expr) {
		b.WriteString(open)
		for i, x := range es {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanon(b, x, depth+1)
		}
		b.WriteString(close)
	}
	switch e := e.(type) {
	case *pyscan.Name:
		b.WriteString(e.Id)
	case *pyscan.Attribute:
		writeCanon(b, e.Value, depth+1)
		b.WriteByte('.')
		b.WriteString(e.Attr)
	case *pyscan.Call:
		writeCanon(b, e.Func, depth+1)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			switch a.Kind {
			case pyscan.Keyword:
				b.WriteString(a.Name + "=")
			case pyscan.StarArg:
				b.WriteByte('*')
			case pyscan.StarStarArg:
				b.WriteString("**")
			}
			writeCanon(b, a.Value, depth+1)
		}
		b.WriteByte(')')
	case *pyscan.Subscript:
		writeCanon(b, e.Value, depth+1)
		b.WriteByte('[')
		writeCanon(b, e.Index, depth+1)
		b.WriteByte(']')
	case *pyscan.Slice:
		writeCanon(b, e.Lower, depth+1)
		b.WriteByte(':')
		writeCanon(b, e.Upper, depth+1)
		b.WriteByte(':')
		writeCanon(b, e.Step, depth+1)
	case *pyscan.Constant:
		switch e.Kind {
		case pyscan.ConstNone:
			b.WriteString("None")
		case pyscan.ConstTrue:
			b.WriteString("True")
		case pyscan.ConstFalse:
			b.WriteString("False")
		case pyscan.ConstEllipsis:
			b.WriteString("...")
		case pyscan.ConstStr:
			b.WriteString(strconv.Quote(e.Value))
		case pyscan.ConstBytes:
			b.WriteByte('b')
			b.WriteString(strconv.Quote(e.Value))
		default:
			// A number: its value when it has one, else as written.
			if f, ok := e.Float(); ok {
				b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			} else {
				b.WriteString("#" + e.Value)
			}
		}
	case *pyscan.FString:
		b.WriteString("f(")
		for _, p := range e.Parts {
			if p.Value == nil {
				b.WriteString(strconv.Quote(p.Lit))
				continue
			}
			b.WriteByte('{')
			writeCanon(b, p.Value, depth+1)
			b.WriteByte('}')
		}
		b.WriteByte(')')
	case *pyscan.Compare:
		parts := []any{e.Left}
		for i, op := range e.Ops {
			parts = append(parts, " "+op.String()+" ", e.Comparators[i])
		}
		group(parts...)
	case *pyscan.BoolOp:
		var parts []any
		for i, x := range e.Values {
			if i > 0 {
				parts = append(parts, " "+e.Op.String()+" ")
			}
			parts = append(parts, x)
		}
		group(parts...)
	case *pyscan.UnaryOp:
		group([...]string{pyscan.Not: "not ", pyscan.USub: "-", pyscan.UAdd: "+", pyscan.Invert: "~"}[e.Op], e.Operand)
	case *pyscan.BinOp:
		group(e.Left, " "+e.Op.String()+" ", e.Right)
	case *pyscan.IfExp:
		group(e.Body, " if ", e.Test, " else ", e.OrElse)
	case *pyscan.NamedExpr:
		group(e.Target, " := ", e.Value)
	case *pyscan.Await:
		group("await ", e.Value)
	case *pyscan.Tuple:
		list("(", ",)", e.Elts)
	case *pyscan.List:
		list("[", "]", e.Elts)
	case *pyscan.Set:
		list("{", "}", e.Elts)
	case *pyscan.Dict:
		b.WriteByte('{')
		for i, it := range e.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if it.Key == nil {
				b.WriteString("**")
			} else {
				writeCanon(b, it.Key, depth+1)
				b.WriteByte(':')
			}
			writeCanon(b, it.Value, depth+1)
		}
		b.WriteByte('}')
	case *pyscan.Starred:
		b.WriteByte('*')
		writeCanon(b, e.Value, depth+1)
	default:
		writePosition(b, e)
	}
}

func writePosition(b *strings.Builder, e pyscan.Expr) {
	s := e.Range()
	b.WriteString("@" + strconv.Itoa(int(s.Start)) + "-" + strconv.Itoa(int(s.End)))
}

// display is an expression's source on one line, without its comments,
// for messages and conditions.
func display(m *pyscan.Module, e pyscan.Node) string {
	s := e.Range()
	if !m.HasComment(s) {
		return oneLine(m.SpanText(s))
	}
	var b strings.Builder
	at := s.Start
	for _, c := range m.Comments {
		if c.Start < s.Start {
			continue
		}
		if c.Start >= s.End {
			break
		}
		b.WriteString(m.SpanText(pyscan.Span{Start: at, End: c.Start}))
		at = c.End
	}
	b.WriteString(m.SpanText(pyscan.Span{Start: at, End: s.End}))
	return oneLine(b.String())
}

// oneLine puts a multi-line expression on one line: each line trimmed
// (and rid of a line continuation), blank lines dropped, joined by spaces.
func oneLine(s string) string {
	if !strings.Contains(s, "\n") {
		return strings.TrimSpace(s)
	}
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "\\"))
		if l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// operand writes an operand of a comparison, parenthesised when it binds
// less tightly than the comparison.
func operand(m *pyscan.Module, e pyscan.Expr) string {
	switch x := e.(type) {
	case *pyscan.BoolOp, *pyscan.IfExp, *pyscan.Lambda, *pyscan.NamedExpr, *pyscan.Compare:
		return "(" + display(m, e) + ")"
	case *pyscan.UnaryOp:
		if x.Op == pyscan.Not {
			return "(" + display(m, e) + ")"
		}
	}
	return display(m, e)
}

// primary reports whether an expression can follow `not` without
// parentheses and still read as one test.
func primary(e pyscan.Expr) bool {
	switch e.(type) {
	case *pyscan.Name, *pyscan.Attribute, *pyscan.Call, *pyscan.Subscript, *pyscan.Constant,
		*pyscan.FString, *pyscan.List, *pyscan.Set, *pyscan.Dict, *pyscan.Comprehension:
		return true
	}
	return false
}

// loose reports whether an expression needs parentheses beside `and`.
func loose(e pyscan.Expr) bool {
	switch e.(type) {
	case *pyscan.BoolOp, *pyscan.IfExp, *pyscan.Lambda, *pyscan.NamedExpr:
		return true
	}
	return false
}
