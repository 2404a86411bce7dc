package pyscan

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// str converts a string literal, or adjacent literals, into a Constant
// (str or bytes) or an FString. The value is decoded as CPython would:
// prefixes (r, b, f, u), escape sequences, and "{{"/"}}" in f-strings.
// Mixing bytes with str is a syntax error in Python and gives Other.
func (w *walker) str(x kid, sc scope) Expr {
	parts := []kid{x}
	if x.k == kConcatenatedString {
		parts = w.named(w.kids(x.n))
	}
	var lit strings.Builder
	litOnly := ""     // the value while it is one slice of the text
	litSliced := true // lit is empty and litOnly holds the value
	var fparts []FStringPart
	isF, isBytes, isStr := false, false, false
	mark := len(w.m.Bindings)
	flush := func() {
		s := litOnly
		if !litSliced {
			s = lit.String()
			lit.Reset()
		}
		litOnly, litSliced = "", true
		if s == "" {
			return
		}
		if n := len(fparts); n > 0 && fparts[n-1].Value == nil {
			fparts[n-1].Lit += s
			return
		}
		fparts = append(fparts, FStringPart{Lit: s})
	}
	appendLit := func(s string) {
		if s == "" {
			return
		}
		if litSliced && litOnly == "" {
			litOnly = s
			return
		}
		if litSliced {
			lit.WriteString(litOnly)
			litOnly, litSliced = "", false
		}
		lit.WriteString(s)
	}
	for _, p := range parts {
		if p.k != kString {
			return w.discard(x.span, mark)
		}
		var raw, bytes, fstr bool
		delim := 1 // the length of the closing quote
		for _, k := range w.kids(p.n) {
			switch k.k {
			case kStringStart:
				start := w.spanText(k.span)
				if strings.HasSuffix(start, `'''`) || strings.HasSuffix(start, `"""`) {
					delim = 3
				}
				for _, c := range strings.ToLower(start) {
					switch c {
					case 'r':
						raw = true
					case 'b':
						bytes = true
					case 'f':
						fstr = true
					}
				}
				if bytes {
					isBytes = true
				} else {
					isStr = true
				}
				if fstr {
					isF = true
				}
			case kStringContent:
				appendLit(decodeString(w.spanText(k.span), raw, bytes, fstr))
			case kStringEnd:
				// tree-sitter-python's scanner ends a raw string whose text
				// is only escaped quotes or backslashes (r'\'', r'\\') with
				// a string_end that holds the text too.
				if t := w.spanText(k.span); len(t) > delim {
					appendLit(decodeString(t[:len(t)-delim], raw, bytes, fstr))
				}
			case kInterpolation:
				ik := w.kids(k.n)
				// f"{x = }" has the text of its expression, up to its
				// conversion, format specification or "}", before the value.
				for i := 1; i+1 < len(ik); i++ {
					if !ik[i].named && w.spanText(ik[i].span) == "=" {
						t := w.spanText(Span{Start: ik[0].span.End, End: ik[i+1].span.Start})
						if strings.Contains(t, "\r") { // line ends read as Python reads them
							t = strings.ReplaceAll(strings.ReplaceAll(t, "\r\n", "\n"), "\r", "\n")
						}
						appendLit(t)
						break
					}
				}
				flush()
				fparts = append(fparts, w.replacementField(k, ik, sc))
			}
		}
	}
	if isBytes && isStr {
		return w.discard(x.span, mark)
	}
	if isF {
		flush()
		return &FString{Span: x.span, Parts: fparts}
	}
	value := litOnly
	if !litSliced {
		value = lit.String()
	}
	c := w.constant(x.span, ConstStr, value)
	if isBytes {
		c.Kind = ConstBytes
	}
	return c
}

// replacementField converts an interpolation (or a format_expression
// nested in a format specification), whose children are ik, into an
// FStringPart.
func (w *walker) replacementField(k kid, ik []kid, sc scope) FStringPart {
	part := FStringPart{Value: &Other{Span: k.span}}
	if v := byField(ik, fExpression); v != nil {
		part.Value = w.expr(*v, sc)
	}
	for _, c := range ik {
		if c.k != kFormatSpecifier {
			continue
		}
		// The literal text of a specification is a hidden token: it is
		// what lies between the ':' and the nested fields.
		at := c.span.Start
		lit := func(end int32) {
			if end <= at {
				return
			}
			text := w.spanText(Span{Start: at, End: end})
			if n := len(part.Spec); n > 0 && part.Spec[n-1].Value == nil {
				part.Spec[n-1].Lit += text
			} else {
				part.Spec = append(part.Spec, FStringPart{Lit: text})
			}
		}
		for i, s := range w.kids(c.n) {
			if i == 0 && !s.named { // the ':'
				at = s.span.End
				continue
			}
			if s.k == kFormatExpression {
				lit(s.span.Start)
				part.Spec = append(part.Spec, w.replacementField(s, w.kids(s.n), sc))
				at = s.span.End
			}
		}
		lit(c.span.End)
	}
	return part
}

// decodeString decodes the body of one string literal (the text between
// its quotes): escape sequences unless raw, in an f-string's literal text
// "{{" and "}}", and line ends: "\r\n" and a lone "\r" are "\n", as Python
// reads them. The result is a slice of body when nothing needed decoding.
// For bytes, each escape gives one byte.
func decodeString(body string, raw, bytes, fstr bool) string {
	if !strings.ContainsAny(body, "\\{}\r") || raw && !fstr && !strings.Contains(body, "\r") {
		return body
	}
	var sb strings.Builder
	for j := 0; j < len(body); j++ {
		c := body[j]
		if c == '\r' {
			sb.WriteByte('\n')
			if j+1 < len(body) && body[j+1] == '\n' {
				j++
			}
			continue
		}
		if fstr && (c == '{' || c == '}') && j+1 < len(body) && body[j+1] == c {
			sb.WriteByte(c)
			j++
			continue
		}
		if c != '\\' || raw || j+1 == len(body) {
			sb.WriteByte(c)
			continue
		}
		j++
		switch e := body[j]; e {
		case '\n':
			// A line continuation inside the literal.
		case '\r':
			if j+1 < len(body) && body[j+1] == '\n' {
				j++
			}
		case '\\', '\'', '"':
			sb.WriteByte(e)
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'v':
			sb.WriteByte('\v')
		case 'x', 'u', 'U':
			size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if bytes && e != 'x' || j+1+size > len(body) {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			v, err := strconv.ParseUint(body[j+1:j+1+size], 16, 32)
			if err != nil {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			if bytes {
				sb.WriteByte(byte(v))
			} else if utf8.ValidRune(rune(v)) {
				sb.WriteRune(rune(v))
			} else {
				sb.WriteRune(utf8.RuneError)
			}
			j += size
		case '0', '1', '2', '3', '4', '5', '6', '7':
			k := j
			for k < len(body) && k < j+3 && body[k] >= '0' && body[k] <= '7' {
				k++
			}
			v, _ := strconv.ParseUint(body[j:k], 8, 32)
			if bytes {
				sb.WriteByte(byte(v))
			} else {
				sb.WriteRune(rune(v))
			}
			j = k - 1
		default:
			// \N{...} and unknown escapes are kept as written.
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

// Int returns the value of an integer literal (decimal, hex, octal or
// binary, with underscores); ok is false for anything else and for values
// that do not fit in an int64.
func (c *Constant) Int() (int64, bool) {
	if c.Kind != ConstInt {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(c.Value, "_", ""), 0, 64)
	if err != nil {
		// "010" is not Python 3, "0_7" and "00" are: ParseInt's base
		// detection agrees on the rest.
		return 0, false
	}
	return v, true
}

// Float returns the value of an integer or float literal.
func (c *Constant) Float() (float64, bool) {
	switch c.Kind {
	case ConstInt:
		v, ok := c.Int()
		return float64(v), ok
	case ConstFloat:
		v, err := strconv.ParseFloat(strings.ReplaceAll(c.Value, "_", ""), 64)
		return v, err == nil
	}
	return 0, false
}

// HasLiteralText reports whether an f-string has literal text outside its
// replacement fields.
func (f *FString) HasLiteralText() bool {
	for _, p := range f.Parts {
		if p.Value == nil && p.Lit != "" {
			return true
		}
	}
	return false
}
