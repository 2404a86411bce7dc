package output

import "strings"

// PlainText turns a rule's Markdown doc into plain text for readers that
// show text as it is (SARIF's help.text): headings lose their #s, fenced
// code loses its fences and is indented four spaces, code spans lose
// their backticks, **strong** loses its marks (__x__ is left alone: it is
// far likelier a dunder such as __main__ than emphasis), links
// [text](url) become "text (url)", <url> becomes url, and backslash
// escapes become the character. Text inside code is kept as written.
// It is the subset of Markdown the rule docs use, not CommonMark.
func PlainText(md string) string {
	md = strings.ReplaceAll(md, "\r\n", "\n")
	var out, para []string
	// flush makes the paragraph's inline Markdown plain: a code span or
	// **strong** text may run over a line break.
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.Split(inline(strings.Join(para, "\n")), "\n")...)
			para = para[:0]
		}
	}
	fence := "" // the open fence's marker, "" outside code
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if indent <= 3 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
				continue
			}
			if line == "" {
				out = append(out, "")
			} else {
				out = append(out, "    "+line)
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			out = append(out, "")
			continue
		}
		if indent <= 3 {
			if m := fenceMarker(trimmed); m != "" {
				flush()
				fence = m
				continue
			}
			if h, ok := heading(trimmed); ok {
				flush()
				out = append(out, inline(h))
				continue
			}
			if strings.HasPrefix(trimmed, "> ") || trimmed == ">" {
				line = strings.Repeat(" ", indent) + strings.TrimPrefix(strings.TrimPrefix(trimmed, ">"), " ")
			}
		}
		para = append(para, line)
	}
	flush()
	return strings.Join(out, "\n")
}

// fenceMarker returns the run of three or more backticks or tildes that
// opens a fenced code block on the line, or "".
func fenceMarker(s string) string {
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(s) && s[n] == c[0] {
			n++
		}
		if n >= 3 {
			if c == "`" && strings.Contains(s[n:], "`") {
				return "" // an info string with a backtick: not a fence
			}
			return s[:n]
		}
	}
	return ""
}

// heading returns the text of an ATX heading ("## Why it matters").
func heading(s string) (string, bool) {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t') {
		return "", false
	}
	h := strings.TrimSpace(s[n:])
	// A closing run of #s, when a space separates it.
	if t := strings.TrimRight(h, "#"); t != h && (t == "" || strings.HasSuffix(t, " ")) {
		h = strings.TrimSpace(t)
	}
	return h, true
}

// inline makes a paragraph's inline Markdown plain.
func inline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := run(s, i, '`')
			if end := closingTicks(s, i+n, n); end >= 0 {
				code := s[i+n : end]
				if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				b.WriteString(code)
				i = end + n
				continue
			}
			b.WriteString(s[i : i+n]) // no closing run: literal backticks
			i += n
			continue
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			if end := strings.Index(s[i+2:], s[i:i+2]); end > 0 && s[i+2] != ' ' && s[i+2+end-1] != ' ' {
				b.WriteString(inline(s[i+2 : i+2+end]))
				i += 2 + end + 2
				continue
			}
		case c == '[':
			if text, url, n, ok := link(s[i:]); ok {
				b.WriteString(inline(text) + " (" + url + ")")
				i += n
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 {
				u := s[i+1 : i+end]
				if (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && !strings.ContainsAny(u, " <") {
					b.WriteString(u)
					i += end + 1
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// run counts the bytes c from s[i].
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingTicks finds a run of exactly n backticks from s[from], or -1.
func closingTicks(s string, from, n int) int {
	for j := from; j < len(s); {
		if s[j] != '`' {
			j++
			continue
		}
		m := run(s, j, '`')
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// link reads "[text](url)" at the start of s: the text, the url, and the
// bytes read.
func link(s string) (text, url string, n int, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				if i+1 >= len(s) || s[i+1] != '(' {
					return "", "", 0, false
				}
				end := strings.IndexByte(s[i+2:], ')')
				if end < 0 {
					return "", "", 0, false
				}
				url = s[i+2 : i+2+end]
				if strings.ContainsAny(url, " \t") {
					return "", "", 0, false
				}
				return s[1:i], url, i + 2 + end + 1, true
			}
		}
	}
	return "", "", 0, false
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}
