// Package mdfence reads the fenced code blocks of a Markdown file: the
// documentation's tested examples and configurations.
package mdfence

import "strings"

// Block is a fenced block: its info string (`sh doctest exit=1`), the
// line of its opening fence (1-based), and its lines.
type Block struct {
	Info  string
	Line  int
	Lines []string
}

// Text is the block's content, each line ending in "\n".
func (b Block) Text() string {
	if len(b.Lines) == 0 {
		return ""
	}
	return strings.Join(b.Lines, "\n") + "\n"
}

// Blocks returns the fenced blocks of a Markdown text, in order: a line
// that starts with ``` opens one (the rest of the line is its info string)
// and a line that is only ``` closes it. An unclosed block is left out.
func Blocks(text string) []Block {
	var out []Block
	var cur *Block
	for i, l := range strings.Split(text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &Block{Info: strings.TrimSpace(strings.TrimPrefix(l, "```")), Line: i + 1}
		case cur != nil && strings.TrimSpace(l) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.Lines = append(cur.Lines, l)
		}
	}
	return out
}
