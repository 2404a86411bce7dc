package pyscan

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// This file adapts the text tree-sitter-python parses where its lexer
// reads Python differently from CPython's tokenizer. Each rewrite keeps
// every byte offset (it only replaces bytes, one for one), so the tree's
// spans are spans of the original text, which the model keeps and slices.
//
//   - Line ends. CPython ends a line at "\n", "\r\n" or a lone "\r";
//     tree-sitter-python only at "\n" (a lone "\r" is white space to it,
//     and a comment runs on over it), so `x = 1\ry = 2` would be one broken
//     line and `# note\rimport os` one comment. sitterText turns each lone
//     "\r" into "\n" before every parse; the line index (span.go) counts
//     lines as CPython does.
//
//   - Line breaks inside brackets. tree-sitter-python's scanner decides
//     whether it is inside brackets from the tokens the parser could take
//     next; after `bar.`, `a +` or `f(x=` no closing bracket can come, so
//     it takes a continuation line indented less than the statement for a
//     dedent, and the file gets a syntax error (valid Python: CPython
//     ignores line breaks and indentation inside brackets). When a parse
//     has an error and the text has such a line, bracketText writes the
//     text again with every line break inside brackets (and the backslash
//     or "\r" before it) as a space and the comments there blanked out
//     (they would otherwise run to the end of the joined line), and the
//     file is parsed again; the comments go into the model from here.
//
// A parse of a rewritten text is not kept for incremental parsing (see
// relex): the next version of the file is parsed afresh.

// sitterText returns src with each lone "\r" made "\n", and whether it
// changed anything (src itself is returned, not copied, when not).
func sitterText(src []byte) ([]byte, bool) {
	i := loneCR(src, 0)
	if i < 0 {
		return src, false
	}
	out := bytes.Clone(src)
	for ; i >= 0; i = loneCR(out, i+1) {
		out[i] = '\n'
	}
	return out, true
}

// loneCR returns the offset of the first "\r" at or after from that no
// "\n" follows, or -1.
func loneCR(b []byte, from int) int {
	for from < len(b) {
		j := bytes.IndexByte(b[from:], '\r')
		if j < 0 {
			return -1
		}
		i := from + j
		if i+1 >= len(b) || b[i+1] != '\n' {
			return i
		}
		from = i + 2
	}
	return -1
}

// relex returns the tree to build m from: tree itself, or, when tree has
// an error and bracketText finds a line break inside brackets that
// tree-sitter-python may misread, the parse of the rewritten text if that
// parse has no error, or its first error comes later than tree's. The
// comments the rewrite blanked out are added to m.Comments. retain is
// false when the tree is the parse of a rewritten text (of either kind, see
// above): such a tree must not be handed to an incremental parse of the
// original text. The second parse is charged to scan, as the first was.
func (p *Parser) relex(m *Module, src []byte, tree *sitter.Tree, scan *Budget) (_ *sitter.Tree, retain bool) {
	in, crs := sitterText(src)
	if !tree.RootNode().HasError() {
		return tree, !crs
	}
	out, comments, dedent := bracketText(in)
	if !dedent {
		return tree, !crs
	}
	again, _ := p.parseTree(out, nil, scan)
	if again == nil { // a budget ran out: the first parse stands
		return tree, !crs
	}
	if r := again.RootNode(); r.HasError() && firstErrorStart(r) <= firstErrorStart(tree.RootNode()) {
		again.Close()
		return tree, !crs
	}
	tree.Close()
	m.Comments = append(m.Comments, comments...)
	return again, false
}

// firstErrorStart returns the start of the first ERROR or MISSING node of
// a tree with an error, in document order.
func firstErrorStart(root *sitter.Node) uint {
	n := root
	for !n.IsError() && !n.IsMissing() {
		var next *sitter.Node
		cur := n.Walk()
		for ok := cur.GotoFirstChild(); ok; ok = cur.GotoNextSibling() {
			if ch := cur.Node(); ch != nil && (ch.HasError() || ch.IsMissing()) {
				next = ch
				break
			}
		}
		cur.Close()
		if next == nil {
			break
		}
		n = next
	}
	return n.StartByte()
}

// lexFrame is one open bracket, string or replacement field of bracketText.
type lexFrame struct {
	kind   byte // '(', '[', '{', 's' an f-string, 'f' a replacement field of one
	quote  byte // of an f-string
	triple bool // of an f-string
	spec   bool // of a replacement field: in its format specification
}

// bracketText returns a copy of in, which has no lone "\r", where every
// line break inside brackets, with the "\r" or the backslash before it,
// is a space and every comment inside brackets is blanked out (spaces),
// with the spans of those comments; dedent reports whether a line inside
// brackets is indented less than the first line of its statement (the
// lines tree-sitter-python's scanner may take for a dedent). It follows
// CPython's tokenizer: strings (with their prefixes, triple quotes and
// escapes) and f-strings (with nested replacement fields, their format
// specifications and, as in Python 3.12, any quotes inside a field) are
// read as such. A lexical error (an unterminated string, a bracket that
// does not match) is read on as CPython's tokenizer would go on if it
// could: the rewrite is only used when the file parses better with it.
func bracketText(in []byte) (out []byte, comments []Span, dedent bool) {
	out = bytes.Clone(in)
	var stack []lexFrame
	// inBrackets: the innermost frame is a bracket, or the code of a
	// replacement field (inside its braces).
	inBrackets := func() bool {
		if len(stack) == 0 {
			return false
		}
		f := stack[len(stack)-1]
		return f.kind != 's' && !(f.kind == 'f' && f.spec)
	}
	stmtIndent := -1 // the indentation of the current statement's first line
	lineStart := true
	n := len(in)
	for i := 0; i < n; {
		if lineStart {
			lineStart = false
			w, j := indentWidth(in, i)
			if j < n && in[j] != '\n' && in[j] != '\r' && in[j] != '#' && !(in[j] == '\\' && j+1 < n && (in[j+1] == '\n' || in[j+1] == '\r')) {
				switch {
				case len(stack) == 0:
					stmtIndent = w
				case inBrackets() && w < stmtIndent:
					dedent = true
				}
			}
			i = j
			continue
		}
		if top := len(stack) - 1; top >= 0 && (stack[top].kind == 's' || stack[top].kind == 'f' && stack[top].spec) {
			i = fstringBody(in, i, &stack)
			continue
		}
		c := in[i]
		switch c {
		case '\n':
			if inBrackets() {
				out[i] = ' '
				if i > 0 && in[i-1] == '\r' {
					out[i-1] = ' '
				}
			}
			lineStart = true
			i++
		case '\\':
			// A line continuation: the statement goes on.
			j := i + 1
			if j < n && in[j] == '\r' {
				j++
			}
			if j < n && in[j] == '\n' {
				if inBrackets() {
					out[i] = ' '
					for k := i + 1; k <= j; k++ {
						out[k] = ' '
					}
				}
				i = j + 1
				if len(stack) > 0 {
					lineStart = true
				}
				continue
			}
			i++
		case '#':
			j := i
			for j < n && in[j] != '\n' {
				j++
			}
			if inBrackets() {
				for k := i; k < j; k++ {
					out[k] = ' '
				}
				if j > i && in[j-1] == '\r' {
					j-- // the comment ends before the "\r" of a "\r\n"
				}
				comments = append(comments, Span{Start: int32(i), End: int32(j)})
			}
			i = j
		case '(', '[', '{':
			stack = append(stack, lexFrame{kind: c})
			i++
		case ')', ']', '}':
			if top := len(stack) - 1; top >= 0 {
				switch {
				case stack[top].kind == 'f' && c == '}':
					stack = stack[:top] // the field ends: back in its f-string
				case stack[top].kind != 'f':
					stack = stack[:top]
				}
			}
			i++
		case ':':
			if top := len(stack) - 1; top >= 0 && stack[top].kind == 'f' {
				stack[top].spec = true
			}
			i++
		case '\'', '"':
			raw, fstr := stringPrefix(in, i)
			triple := i+2 < n && in[i+1] == c && in[i+2] == c
			if fstr {
				stack = append(stack, lexFrame{kind: 's', quote: c, triple: triple})
				i += 1 + 2*btoi(triple)
				continue
			}
			i = stringEnd(in, i, c, triple, raw)
		default:
			i++
		}
	}
	return out, comments, dedent
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// indentWidth returns the indentation at the line start i as
// tree-sitter-python's scanner counts it (a tab is 8, a form feed starts
// again), and the offset after it.
func indentWidth(in []byte, i int) (int, int) {
	w := 0
	for ; i < len(in); i++ {
		switch in[i] {
		case ' ':
			w++
		case '\t':
			w += 8
		case '\f':
			w = 0
		default:
			return w, i
		}
	}
	return w, i
}

// stringPrefix reads the prefix of the string literal whose opening quote
// is at q: whether it is raw and whether it is an f-string (or a t-string,
// Python 3.14's template strings, which are read alike). A run of letters
// that is not a prefix (`print'x'`, an error) counts as none.
func stringPrefix(in []byte, q int) (raw, fstr bool) {
	s := q
	for s > 0 && isIdentByte(in[s-1]) {
		s--
	}
	p := in[s:q]
	if len(p) == 0 || len(p) > 2 {
		return false, false
	}
	var r, f, b, u int
	for _, c := range p {
		switch c | 0x20 {
		case 'r':
			r++
		case 'f', 't':
			f++
		case 'b':
			b++
		case 'u':
			u++
		default:
			return false, false
		}
	}
	if r > 1 || f > 1 || b > 1 || u > 1 || u == 1 && len(p) > 1 || f == 1 && b == 1 {
		return false, false
	}
	return r == 1, f == 1
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// stringEnd returns the offset after the string literal (not an f-string)
// whose opening quote is at q. A backslash escapes the next byte, raw or
// not (in a raw string it stays, but the quote after it still does not end
// the string). A single-quoted string ends at the end of its line without
// a closing quote (an error; the tokenizer goes on from the line break).
func stringEnd(in []byte, q int, quote byte, triple, raw bool) int {
	_ = raw
	n := len(in)
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < n {
		switch c := in[i]; {
		case c == '\\':
			i += 2
			if i-1 < n && in[i-1] == '\r' && i < n && in[i] == '\n' {
				i++
			}
		case c == quote:
			if !triple {
				return i + 1
			}
			if i+2 < n && in[i+1] == quote && in[i+2] == quote {
				return i + 3
			}
			i++
		case c == '\n' && !triple:
			return i
		default:
			i++
		}
	}
	return n
}

// fstringBody reads on from i inside the f-string or the format
// specification on top of the stack, up to the next thing that changes
// the stack (a replacement field's brace, the closing quote, a line break
// that ends a single-quoted f-string), and returns the offset after it.
func fstringBody(in []byte, i int, stack *[]lexFrame) int {
	n := len(in)
	top := len(*stack) - 1
	f := (*stack)[top]
	// The f-string whose text this is: the frame itself, or the one below
	// the field whose specification this is.
	str := f
	for k := top; k >= 0; k-- {
		if (*stack)[k].kind == 's' {
			str = (*stack)[k]
			break
		}
	}
	for i < n {
		c := in[i]
		switch {
		case c == '\\' && f.kind == 's':
			if i+1 < n && (in[i+1] == '{' || in[i+1] == '}') {
				i++ // `\{`: the backslash is text, the brace is not escaped
				continue
			}
			i += 2
			if i-1 < n && in[i-1] == '\r' && i < n && in[i] == '\n' {
				i++
			}
		case c == '{':
			if f.kind == 's' && i+1 < n && in[i+1] == '{' {
				i += 2
				continue
			}
			*stack = append(*stack, lexFrame{kind: 'f'})
			return i + 1
		case c == '}':
			if f.kind == 's' {
				i += 1 + btoi(i+1 < n && in[i+1] == '}')
				continue
			}
			*stack = (*stack)[:top] // the specification's field ends
			return i + 1
		case c == str.quote && f.kind == 's':
			if !f.triple {
				*stack = (*stack)[:top]
				return i + 1
			}
			if i+2 < n && in[i+1] == c && in[i+2] == c {
				*stack = (*stack)[:top]
				return i + 3
			}
			i++
		case c == '\n' && !str.triple:
			// An unterminated f-string: CPython's error. Drop it (and the
			// fields and specifications above it) and go on from the
			// line break.
			for len(*stack) > 0 && (*stack)[len(*stack)-1].kind != 's' {
				*stack = (*stack)[:len(*stack)-1]
			}
			if len(*stack) > 0 {
				*stack = (*stack)[:len(*stack)-1]
			}
			return i
		default:
			i++
		}
	}
	return n
}
