package suppress

import "strings"

// A Code is one rule code or rule name as a suppression comment lists it:
// `GL101` in `# gymlint: ignore[GL101,late-worker-refusal] why`, or
// `go-thing` in `//gymlint:file-ignore GL201,go-thing why`.
type Code struct {
	// Text is the code or name as written (any case).
	Text string
	// Start and End are its byte offsets in the file, [Start, End).
	Start, End int
	// FileLevel says that it is in an ignore-file (file-ignore) comment.
	FileLevel bool
	// Suppresses says that the comment is a suppression that can take
	// effect: well-formed, with a reason, and (for ignore-file) in the
	// file's leading comment block. A malformed comment (GL013), one
	// without a reason (GL009) or a misplaced ignore-file lists codes too.
	Suppresses bool
}

// Codes returns the rule codes and names that the suppression comments of
// a Python, YAML or Go file list, in the order of the file, with their
// byte spans: for an editor that explains what a comment names. It reads
// comments as Apply does, so a directive inside a string is not one; a
// comment meant as a suppression but malformed counts too, and in a
// Python `# noqa:` only the GL codes count. Other files have none.
func Codes(path string, content []byte) []Code {
	var out []Code
	for _, d := range parse(path, content) {
		if d.codesAt[0] >= d.codesAt[1] {
			continue
		}
		list := string(content[d.codesAt[0]:d.codesAt[1]])
		at := d.codesAt[0]
		// The codes split as the check splits them (splitCodes: at
		// commas, each trimmed), so `ignore[GL101 GL102]` is the one
		// unknown code it reports; a `# noqa:` lists its codes at commas
		// and spaces alike, as ruff reads them.
		sep := func(r rune) bool { return r == ',' }
		if d.noqa {
			sep = isSeparator
		}
		for len(list) > 0 {
			j := strings.IndexFunc(list, sep)
			if j < 0 {
				j = len(list)
			}
			item := list[:j]
			lead := len(item) - len(strings.TrimLeft(item, " \t"))
			text := strings.TrimSpace(item)
			if text != "" && (!d.noqa || isGLCode(text)) {
				out = append(out, Code{Text: text, Start: at + lead, End: at + lead + len(text), FileLevel: d.fileLevel, Suppresses: d.active()})
			}
			if j == len(list) {
				break
			}
			list, at = list[j+1:], at+j+1
		}
	}
	return out
}

func isSeparator(r rune) bool { return r == ',' || r == ' ' || r == '\t' }
