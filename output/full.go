package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/lineends"
)

// Full writes each diagnostic as ruff's and rustc's full output does: the
// header line of the text format with the severity, the source line(s) of
// the span with a caret under it, each related position with its own
// line, and the suggested fixes with their applicability. Lines are read
// with opts.Source (the engine's root-confined reader); a file it cannot
// read is shown without source. With opts.Color, ANSI colours mark the
// severity, the code, the caret and the gutters.
func Full(w io.Writer, ds []diag.Diagnostic, opts Options) error {
	p := &fullPrinter{opts: opts, files: map[string][]lineends.Line{}}
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		p.diagnostic(&b, d)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type fullPrinter struct {
	opts  Options
	files map[string][]lineends.Line // nil: not readable
}

// ANSI styles.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
)

func (p *fullPrinter) style(s, code string) string {
	if !p.opts.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (p *fullPrinter) severityStyle(s diag.Severity) string {
	switch s {
	case diag.Error:
		return ansiBold + ansiRed
	case diag.Warning:
		return ansiBold + ansiYellow
	}
	return ansiBold + ansiBlue
}

func (p *fullPrinter) diagnostic(b *strings.Builder, d diag.Diagnostic) {
	msg := Visible(d.Message)
	fmt.Fprintf(b, "%s: %s %s %s\n",
		p.style(fmt.Sprintf("%s:%d:%d", p.opts.display(d.Path), d.Start.Line, d.Start.Col), ansiBold),
		p.style(d.Code, p.severityStyle(d.Severity)),
		p.style("["+string(d.Severity)+"]", p.severityStyle(d.Severity)), msg)
	p.snippet(b, d.Path, d.Start, d.End, "")
	if d.Help != "" {
		fmt.Fprintf(b, "  %s %s\n", p.style("= help:", ansiCyan), Visible(d.Help))
	}
	for _, r := range d.Related {
		fmt.Fprintf(b, "  %s %s:%d:%d: %s\n", p.style("= related:", ansiCyan), p.opts.display(r.Path), r.Start.Line, r.Start.Col, Visible(r.Message))
		p.snippet(b, r.Path, r.Start, r.End, "    ")
	}
	for _, f := range d.Fixes {
		how := "safe fix: gymlint --fix applies it"
		if !f.IsSafe() {
			how = "unsafe fix: review it; gymlint --fix --unsafe-fixes applies it"
		}
		fmt.Fprintf(b, "  %s %s (%s)\n", p.style("= fix:", ansiGreen), Visible(f.Message), how)
	}
}

// snippet writes the lines of [start, end) in path with a gutter and a
// caret line under the span: its first line, and, for a span over several
// lines, a note of how many more it covers.
func (p *fullPrinter) snippet(b *strings.Builder, path string, start, end diag.Pos, indent string) {
	lines := p.lines(path)
	if start.Line < 1 || start.Line > len(lines) {
		return
	}
	text := lines[start.Line-1].Text
	width := len(strconv.Itoa(max(start.Line, end.Line)))
	gutter := indent + strings.Repeat(" ", width) + " " + p.style("|", ansiBlue)
	fmt.Fprintf(b, "%s\n", gutter)
	fmt.Fprintf(b, "%s%s %s %s\n", indent, p.style(fmt.Sprintf("%*d", width, start.Line), ansiBlue), p.style("|", ansiBlue), visible(text))
	from := min(max(start.Col-1, 0), len(text))
	to := len(text)
	if end.Line == start.Line {
		to = min(max(end.Col-1, from+1), len(text))
	}
	n := max(displayWidth(text[from:to]), 1)
	caret := strings.Repeat("^", n)
	if end.Line > start.Line {
		caret += fmt.Sprintf(" (and %d more %s)", end.Line-start.Line, noun(end.Line-start.Line, "line", "lines"))
	}
	fmt.Fprintf(b, "%s %s%s\n", gutter, pad(text[:from]), p.style(caret, p.caretStyle()))
}

func (p *fullPrinter) caretStyle() string { return ansiBold + ansiRed }

// lines returns path's lines as the findings count them, or nil.
func (p *fullPrinter) lines(path string) []lineends.Line {
	if ls, ok := p.files[path]; ok {
		return ls
	}
	var ls []lineends.Line
	if p.opts.Source != nil {
		if data, err := p.opts.Source(path); err == nil {
			ls = lineends.Split(string(data), !strings.HasSuffix(path, ".go"))
		}
	}
	p.files[path] = ls
	return ls
}

// visible shows a source line as a terminal should: tabs kept, other
// control characters and the bidirectional controls escaped (a line of a
// hostile file must not move the cursor, change colours, or reorder
// what the reader sees, as in "Trojan source").
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteRune(r)
		case escaped(r):
			b.WriteString(escape(r))
		case r == utf8.RuneError:
			b.WriteString("\ufffd")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Visible is s as gymlint prints a path, a message or any other text of
// the repository's on a terminal, on one line: a line feed and a carriage
// return become \n and \r, other control characters \xNN, and the
// bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E,
// U+2066-U+2069) and the line and paragraph separators (U+2028, U+2029)
// \uNNNN; tabs are kept, and bytes that are not UTF-8 show as U+FFFD. A
// name with a line feed then cannot forge a finding line, nor an escape
// sequence reach the terminal. Text without these characters is
// unchanged. The text formats (text, full) and gymlint's messages on
// stderr print through it; JSON and SARIF escape with encoding/json.
func Visible(s string) string {
	return visible(strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s))
}

// pad is white space as wide as prefix on a terminal (tabs kept, so that
// the caret lines up under a tab-indented line), counting a character
// that visible escapes as its escape.
func pad(prefix string) string {
	var b strings.Builder
	for _, r := range prefix {
		switch {
		case r == '\t':
			b.WriteByte('\t')
		case escaped(r):
			b.WriteString(strings.Repeat(" ", len(escape(r))))
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// escaped reports whether visible shows r escaped: a C0 or C1 control
// character, DEL, a bidirectional control or a line or paragraph
// separator (visible keeps a tab, which it handles first).
func escaped(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || bidi(r)
}

// bidi reports whether r is a bidirectional formatting character (the
// embeddings, overrides, isolates and marks of Unicode's bidirectional
// algorithm) or a line or paragraph separator: characters that change
// what a terminal or an editor shows without being seen.
func bidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escape is how visible shows a character that escaped reports: \xNN
// for a control character, \uNNNN for the others.
func escape(r rune) string {
	if r < 0x100 {
		return fmt.Sprintf("\\x%02x", r)
	}
	return fmt.Sprintf("\\u%04x", r)
}

// displayWidth is how many columns visible(s) takes, a tab counted as one.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if r != '\t' && escaped(r) {
			n += len(escape(r))
		} else {
			n++
		}
	}
	return n
}

// noun is one or many, for n.
func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
