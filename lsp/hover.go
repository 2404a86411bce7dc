package lsp

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/lsp/protocol"
	"github.com/gymlint/gymlint/suppress"
)

// hover answers textDocument/hover. At a finding that was published for
// the document (its latest analysis), it shows, for each finding there,
// the rule's code, name and summary, the finding's message and help, and
// the rule's documentation (codeDescription's address). On a rule code or
// name in a suppression comment of the buffer as it is now, it shows that
// rule's code, name and summary (or that no rule has it), before the
// findings there (a suppression that suppresses nothing is one). Sections
// are separated by a rule (---). Elsewhere: nothing (null).
//
// It starts no analysis: it reads what the last one published and the
// current text. A finding whose lines the buffer has changed since that
// analysis is not shown (its range no longer says where it is); the next
// publication places it again.
func (s *server) hover(p protocol.HoverParams) *protocol.Hover {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return nil
	}
	pos := p.Position
	pub := s.published[rel]
	var text []byte
	switch {
	case s.docs[rel] != nil:
		text = s.docs[rel].text
	case pub != nil:
		text = pub.contents[rel]
	}
	var codes, findings []string // the sections: codes first
	var rng *protocol.Range
	add := func(to *[]string, section string, r protocol.Range) {
		*to = append(*to, section)
		if rng == nil {
			rng = &r
			return
		}
		// Every range contains pos: what they have in common does too.
		if less(rng.Start, r.Start) {
			rng.Start = r.Start
		}
		if less(r.End, rng.End) {
			rng.End = r.End
		}
	}
	markdown := s.caps.hoverMarkdown

	if pub != nil {
		var now, then *protocol.Mapper
		if s.bufferDiffers(rel, pub) {
			now, then = protocol.NewMapper(text), protocol.NewMapper(pub.contents[rel])
		}
		for i, ld := range pub.lsp {
			if !within(pos, ld.Range) {
				continue
			}
			if now != nil && !sameLines(now, then, ld.Range) {
				continue
			}
			add(&findings, findingSection(pub.diags[i], markdown), ld.Range)
		}
	}
	if text != nil {
		m := protocol.NewMapper(text)
		off, err := m.Offset(pos, s.enc)
		// A position past the end of its line is nowhere in it.
		if err == nil && m.Position(off, s.enc) == pos {
			for _, c := range suppress.Codes(rel, text) {
				if c.Start <= off && off <= c.End {
					add(&codes, codeSection(c.Text, markdown), m.Range(c.Start, c.End, s.enc))
				}
			}
		}
	}
	sections := append(codes, findings...)
	if len(sections) == 0 {
		return nil
	}
	kind := protocol.PlainText
	if markdown {
		kind = protocol.Markdown
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: strings.Join(sections, "\n\n---\n\n")}, Range: rng}
}

// within says whether p is in r, its end included (a cursor just after
// the last character of a name is still on it).
func within(p protocol.Position, r protocol.Range) bool {
	return !less(p, r.Start) && !less(r.End, p)
}

// sameLines says whether the lines of r hold the same text in two versions
// of a document.
func sameLines(now, then *protocol.Mapper, r protocol.Range) bool {
	for l := r.Start.Line; l <= r.End.Line; l++ {
		if line(now, l) != line(then, l) {
			return false
		}
	}
	return true
}

// line returns the text of a 0-based line ("\x00" for a line past the
// last, which no line holds).
func line(m *protocol.Mapper, l uint32) string {
	if int(l) >= m.LineCount() {
		return "\x00"
	}
	start, _ := m.Offset(protocol.Position{Line: l}, protocol.UTF8)
	end, _ := m.Offset(protocol.Position{Line: l, Character: ^uint32(0)}, protocol.UTF8)
	return string(m.Content()[start:end])
}

// findingSection explains one finding: its rule, its message and help,
// and where the rule is documented.
func findingSection(d diag.Diagnostic, markdown bool) string {
	r := lint.Lookup(d.Code)
	var b strings.Builder
	if markdown {
		b.WriteString(ruleTitle(r, d.Code, d.Rule, fmt.Sprintf(" · %s · %s", escapeMarkdown(d.Analyzer), d.Severity), true))
		b.WriteString("\n\n" + escapeMarkdown(d.Message))
		if d.Help != "" {
			b.WriteString("\n\n**Help:** " + escapeMarkdown(d.Help))
		}
		if r != nil {
			b.WriteString("\n\n" + docLink(r))
		}
		return b.String()
	}
	b.WriteString(ruleTitle(r, d.Code, d.Rule, fmt.Sprintf(" (%s, %s)", d.Analyzer, d.Severity), false))
	b.WriteString("\n\n" + d.Message)
	if d.Help != "" {
		b.WriteString("\n\nhelp: " + d.Help)
	}
	if r != nil {
		b.WriteString("\n\ndocumentation: " + r.URL())
	}
	return b.String()
}

// ruleTitle is the rule's code and name, then extra, and its summary on
// the next line; a rule not in the catalogue has the code and name given.
func ruleTitle(r *diag.Rule, code, name, extra string, markdown bool) string {
	summary := ""
	if r != nil {
		code, name, summary = r.Code, r.Name, r.Summary
	}
	if !markdown {
		t := strings.TrimSpace(code+" "+name) + extra
		if summary != "" {
			t += "\n" + summary
		}
		return t
	}
	t := "**" + escapeMarkdown(code) + "**"
	if name != "" {
		t += " `" + strings.ReplaceAll(name, "`", "") + "`"
	}
	t += extra
	if summary != "" {
		t += "  \n" + escapeMarkdown(summary) // a hard line break
	}
	return t
}

func docLink(r *diag.Rule) string {
	return fmt.Sprintf("[Documentation of %s %s](%s)", r.Code, escapeMarkdown(r.Name), r.URL())
}

// codeSection explains a rule code or name of a suppression comment.
func codeSection(text string, markdown bool) string {
	if r := lint.Lookup(text); r != nil {
		title := ruleTitle(r, "", "", "", markdown)
		if !markdown {
			return title + "\n\ndocumentation: " + r.URL()
		}
		return title + "\n\n" + docLink(r)
	}
	msg := "unknown rule: no gymlint rule has this code or name"
	if r := lookupFold(text); r != nil {
		msg = fmt.Sprintf("unknown rule: codes and names are written as gymlint writes them; did you mean %s (%s)?", r.Code, r.Name)
	}
	if markdown {
		return fmt.Sprintf("`%s`: %s", strings.ReplaceAll(text, "`", ""), escapeMarkdown(msg))
	}
	return text + ": " + msg
}

// lookupFold finds the rule whose code or name is s in another case.
func lookupFold(s string) *diag.Rule {
	for _, r := range lint.Rules() {
		if strings.EqualFold(s, r.Code) || strings.EqualFold(s, r.Name) {
			return r
		}
	}
	return nil
}

// markdownEscaper escapes what CommonMark would read as markup in a
// message: emphasis, code spans, links, HTML, tables.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `~`, `\~`, `#`, `\#`,
)

// escapeMarkdown makes s show as it is in Markdown; a line break is kept.
func escapeMarkdown(s string) string {
	return strings.ReplaceAll(markdownEscaper.Replace(s), "\n", "  \n")
}
