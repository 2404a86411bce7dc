package suppress

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// reasonPlaceholder is the reason a suggested suppression carries until the
// author replaces it.
const reasonPlaceholder = "<why this is fine>"

// Fix returns a fix that suppresses d inline: a line suppression of d's
// rule, with a placeholder reason for the author to replace, in the
// comment syntax of d's file (content is that file). The fix is unsafe:
// it silences a finding, and the reason is a stub.
//
// The comment goes on a line of its own above the line where d starts,
// indented like it and ended like it (CRLF is kept; a byte order mark stays
// first). Where such a comment would not cover d's line, it goes at the end
// of d's line instead, as a trailing comment: when d's line has no code (a
// comment or blank line: a comment line above covers the next line of
// code, not it), when it is the last line of a multi-line string, and in
// Python when a backslash continues the line above (a comment line there
// would break the statement). Each candidate is checked with the parser
// that Apply uses; when neither suppresses d, there is no fix. So there is
// none for a line inside a multi-line string (Python triple-quoted strings,
// Go raw strings, YAML block scalars), where either comment would be string
// content, nor for a Python line 1 that is a shebang (a trailing comment
// would become an argument of the interpreter) or a line that a backslash
// continues.
//
// It reports false for GL009, GL010 and GL013 (they cannot be suppressed), for a
// file that is not Python, YAML or Go, and when d's line is not in the
// file.
func Fix(d diag.Diagnostic, content []byte) (diag.Fix, bool) {
	lg := langOf(d.Path)
	if lg == langNone || d.Code == "" || isSelfCode(d.Code) || strings.ContainsAny(d.Code, " \t,[]") {
		return diag.Fix{}, false
	}
	ls := splitLines(content, lg != langGo)
	n := d.Start.Line
	if n < 1 || n > len(ls) {
		return diag.Fix{}, false
	}
	l := ls[n-1]
	comment := "# gymlint: ignore[" + d.Code + "] " + reasonPlaceholder
	if lg == langGo {
		comment = "//gymlint:ignore " + d.Code + " " + reasonPlaceholder
	}
	message := fmt.Sprintf("Suppress %s on this line (give the reason in place of %s)", d.Code, reasonPlaceholder)

	// Above the line.
	start := l.start
	if n == 1 && strings.HasPrefix(l.text, "\ufeff") {
		start += len("\ufeff") // the byte order mark stays first
	}
	text := l.text[start-l.start:]
	indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
	continued := lg == langPython && n > 1 && strings.HasSuffix(ls[n-2].text, `\`)
	if !continued {
		at := diag.Pos{Offset: start, Line: n, Col: start - l.start + 1}
		edit := diag.TextEdit{Path: d.Path, Start: at, End: at, NewText: indent + comment + lineEnding(content, ls, n)}
		if suppresses(d, content, edit, n+1) {
			return diag.Fix{Message: message, Edits: []diag.TextEdit{edit}, Applicability: diag.Unsafe}, true
		}
	}

	// At the end of the line.
	if lg == langPython && (n == 1 && strings.HasPrefix(text, "#!") || strings.HasSuffix(l.text, `\`)) {
		return diag.Fix{}, false
	}
	sep := "  "
	if strings.TrimSpace(l.text) == "" {
		sep = ""
	}
	end := diag.Pos{Offset: l.start + len(l.text), Line: n, Col: len(l.text) + 1}
	edit := diag.TextEdit{Path: d.Path, Start: end, End: end, NewText: sep + comment}
	if suppresses(d, content, edit, n) {
		return diag.Fix{Message: message, Edits: []diag.TextEdit{edit}, Applicability: diag.Unsafe}, true
	}
	return diag.Fix{}, false
}

// lineEnding returns the line ending of line n (1-based): "\r\n", "\n" or
// a lone "\r"; for a last line without one, that of the line before it,
// or "\n".
func lineEnding(content []byte, ls []line, n int) string {
	for ; n >= 1; n-- {
		l := ls[n-1]
		end := l.start + len(l.text)
		if end < len(content) && content[end] == '\r' {
			if end+1 < len(content) && content[end+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
		if end < len(content) {
			return "\n"
		}
	}
	return "\n"
}

// suppresses reports whether, once edit is made, a suppression of d's code
// that Apply accepts covers line n, where d then starts.
func suppresses(d diag.Diagnostic, content []byte, edit diag.TextEdit, n int) bool {
	s := string(content)
	out := s[:edit.Start.Offset] + edit.NewText + s[edit.End.Offset:]
	for _, dir := range parse(d.Path, []byte(out)) {
		if dir.active() && !dir.fileLevel && contains(dir.covers, n) && slices.Contains(dir.codes, d.Code) {
			return true
		}
	}
	return false
}

// removeFix returns the safe fix of a GL010: when all, it removes the
// directive d (with the white space that separates it from the code or
// comment before it; a line left empty goes, with its line ending), else
// it removes the codes drop from d's list and keeps the rest in the order
// written. Nothing else on the line changes, and no trailing white space
// is left. There is none for a misplaced ignore-file, which should be
// moved rather than removed.
func removeFix(p string, d *directive, ls []line, all bool, drop []string) (diag.Fix, bool) {
	if d.misplaced || d.line < 1 || d.line > len(ls) {
		return diag.Fix{}, false
	}
	if !all {
		var keep []string
		for _, c := range d.codes {
			if !slices.Contains(drop, c) {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 || d.codesAt[0] >= d.codesAt[1] {
			return diag.Fix{}, false
		}
		sep := ","
		l := ls[d.line-1]
		if strings.Contains(l.text[d.codesAt[0]-l.start:d.codesAt[1]-l.start], ", ") {
			sep = ", "
		}
		return diag.Fix{
			Message:       "Remove " + strings.Join(drop, ", ") + " from the suppression",
			Edits:         []diag.TextEdit{editAt(p, ls, d.codesAt[0], d.codesAt[1], strings.Join(keep, sep))},
			Applicability: diag.Safe,
		}, true
	}
	l := ls[d.line-1]
	start, end := d.start.Offset, d.end.Offset
	lineEnd := l.start + len(l.text)
	if start < l.start || end > lineEnd || start >= end {
		return diag.Fix{}, false
	}
	if next := strings.TrimLeft(l.text[end-l.start:], " \t"); next != "" {
		// Another comment follows: it takes the directive's place.
		end = lineEnd - len(next)
	} else {
		end = lineEnd
		for start > l.start && (l.text[start-l.start-1] == ' ' || l.text[start-l.start-1] == '\t') {
			start--
		}
		if start == l.start {
			// The line held only the directive: remove the line.
			if d.line < len(ls) {
				end = ls[d.line].start
			}
		}
	}
	return diag.Fix{
		Message:       "Remove the unused suppression",
		Edits:         []diag.TextEdit{editAt(p, ls, start, end, "")},
		Applicability: diag.Safe,
	}, true
}

// editAt is an edit of the bytes [start, end) of a file with lines ls.
func editAt(p string, ls []line, start, end int, text string) diag.TextEdit {
	return diag.TextEdit{Path: p, Start: posAt(ls, start), End: posAt(ls, end), NewText: text}
}

// posAt is the position of a byte offset in a file with lines ls.
func posAt(ls []line, off int) diag.Pos {
	i := sort.Search(len(ls), func(i int) bool { return ls[i].start > off }) - 1
	if i < 0 {
		return diag.Pos{Offset: off, Line: 1, Col: off + 1}
	}
	return diag.Pos{Offset: off, Line: i + 1, Col: off - ls[i].start + 1}
}
