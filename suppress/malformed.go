package suppress

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

// hasFoldPrefix says whether s starts with p in any case.
func hasFoldPrefix(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
}

// directiveWord classifies the word of a directive: file says it is a
// file-level one; ok is false for a word that is no attempt at a
// suppression directive. Misspellings within one edit of ignore,
// ignore-file or file-ignore (any case, - or _ or nothing between the
// parts) and a few other linters' words count.
func directiveWord(w string) (file, ok bool) {
	l := strings.ToLower(w)
	switch l {
	case "ignore", "disable", "noqa", "nolint", "skip", "suppress":
		return false, true
	case "ignore-file", "file-ignore", "disable-file", "skip-file":
		return true, true
	}
	n := strings.NewReplacer("-", "", "_", "").Replace(l)
	if len(n) >= 5 && editsAtMostOne(n, "ignore") {
		return false, true
	}
	if len(n) >= 9 && (editsAtMostOne(n, "ignorefile") || editsAtMostOne(n, "fileignore")) {
		return true, true
	}
	return false, false
}

// editsAtMostOne says whether a becomes b by at most one insertion,
// deletion, substitution or swap of neighbours.
func editsAtMostOne(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swap
	}
	return a[i:] == b[i+1:] // insertion
}

// codeList reads a list of codes at the start of a: in [...] (or, wrongly,
// (...), {...}, <...>) or, bare, the first field. It returns the codes,
// their span in a, the rest after them, and whether they were in square
// brackets; ok is false for an unclosed bracket.
func codeList(a string) (codes []string, at [2]int, rest string, square, bare, ok bool) {
	if a == "" {
		return nil, at, "", false, true, true
	}
	if cl := strings.IndexByte("[({<", a[0]); cl >= 0 {
		e := strings.IndexByte(a, "])}>"[cl])
		if e < 0 {
			return nil, at, "", false, false, false
		}
		return splitCodes(a[1:e]), [2]int{1, e}, a[e+1:], cl == 0, false, true
	}
	f := a
	if i := strings.IndexAny(a, " \t"); i >= 0 {
		f = a[:i]
	}
	return splitCodes(f), [2]int{0, len(f)}, a[len(f):], false, true, true
}

// parseHash parses a Python or YAML comment that starts a gymlint
// directive: `# gymlint: ignore[CODES] reason`, a malformed one, or (in
// Python) a `# noqa:` that names gymlint codes. It returns nil for other
// comments. codesAt is relative to text.
func parseHash(text string, lg lang) *directive {
	body := text[1:]
	rest := strings.TrimLeft(body, " \t")
	if lg == langPython && hasFoldPrefix(rest, "noqa") {
		return parseNoqa(text, len(text)-len(rest)+len("noqa"))
	}
	if !hasFoldPrefix(rest, "gymlint") {
		return nil
	}
	d := &directive{}
	if !strings.HasPrefix(rest, "gymlint") {
		d.malformed = append(d.malformed, "gymlint must be lower case")
	}
	r := rest[len("gymlint"):]
	r2 := strings.TrimLeft(r, " \t")
	if strings.HasPrefix(r2, ":") {
		if len(r2) != len(r) {
			d.malformed = append(d.malformed, "no space goes before the colon")
		}
		r2 = strings.TrimLeft(r2[1:], " \t")
	} else {
		if len(r2) == len(r) {
			return nil // gymlintfoo
		}
		d.malformed = append(d.malformed, "a colon follows gymlint")
	}
	w, ok := d.readWord(r2, "ignore-file")
	if !ok {
		return nil
	}
	after := r2[w:]
	a := strings.TrimLeft(after, " \t")
	if a != "" && (a[0] == ':' || a[0] == '=') {
		d.malformed = append(d.malformed, fmt.Sprintf("no %c goes before the codes", a[0]))
		a = strings.TrimLeft(a[1:], " \t")
	} else if a == after && a != "" && a[0] != '[' && a[0] != '(' && a[0] != '{' && a[0] != '<' {
		return nil // ignorefoo
	}
	codes, at, tail, square, bare, ok := codeList(a)
	if !ok {
		if len(d.malformed) > 0 {
			return nil
		}
		d.noCodes = true
		return d
	}
	if !square {
		d.malformed = append(d.malformed, "the codes go in [...]")
	}
	off := len(text) - len(a)
	d.codesAt = [2]int{off + at[0], off + at[1]}
	d.codes = codes
	d.bare = bare
	d.reason = strings.TrimSpace(tail)
	d.noCodes = len(codes) == 0
	if d.noCodes {
		if bare && len(d.malformed) == 1 {
			// `# gymlint: ignore` without codes: GL009, as it always was.
			d.malformed = nil
			d.reason = strings.TrimSpace(a)
			return d
		}
		if len(d.malformed) > 0 {
			return nil
		}
	}
	return d
}

// parseNoqa parses `# noqa: CODES [text]` as ruff reads it (codes are
// letters then digits, separated by commas or white space); i is where
// the text after `noqa` starts. It returns nil unless a code is a gymlint
// code (GL and digits, any case).
func parseNoqa(text string, i int) *directive {
	r := strings.TrimLeft(text[i:], " \t")
	if !strings.HasPrefix(r, ":") {
		return nil
	}
	j := len(text) - len(r) + 1
	d := &directive{noqa: true, malformed: []string{"noqa"}}
	start := -1
	for j < len(text) {
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == ',') {
			j++
		}
		k := j
		for k < len(text) && (text[k] >= 'A' && text[k] <= 'Z' || text[k] >= 'a' && text[k] <= 'z') {
			k++
		}
		m := k
		for m < len(text) && text[m] >= '0' && text[m] <= '9' {
			m++
		}
		if k == j || m == k || m < len(text) && text[m] != ' ' && text[m] != '\t' && text[m] != ',' {
			break
		}
		if start < 0 {
			start = j
		}
		if c := text[j:m]; isGLCode(c) {
			d.codes = append(d.codes, c)
		} else {
			d.others = append(d.others, c)
		}
		d.codesAt = [2]int{start, m}
		j = m
	}
	if len(d.codes) == 0 {
		return nil
	}
	d.reason = strings.TrimSpace(text[d.codesAt[1]:])
	return d
}

// isGLCode says whether c is GL and digits, in any case.
func isGLCode(c string) bool {
	if len(c) < 3 || !hasFoldPrefix(c, "gl") {
		return false
	}
	for i := 2; i < len(c); i++ {
		if c[i] < '0' || c[i] > '9' {
			return false
		}
	}
	return true
}

// parseGo parses `//gymlint:ignore CODES reason`,
// `//gymlint:file-ignore CODES reason` and malformed versions of them;
// nil for other comments. codesAt is relative to lit.
func parseGo(lit string) *directive {
	if !strings.HasPrefix(lit, "//") {
		return nil
	}
	body := lit[2:]
	rest := strings.TrimLeft(body, " \t")
	if !hasFoldPrefix(rest, "gymlint") {
		return nil
	}
	d := &directive{lang: langGo}
	if len(rest) != len(body) {
		d.malformed = append(d.malformed, "no space goes after //")
	}
	if !strings.HasPrefix(rest, "gymlint") {
		d.malformed = append(d.malformed, "gymlint must be lower case")
	}
	r := rest[len("gymlint"):]
	r2 := strings.TrimLeft(r, " \t")
	if !strings.HasPrefix(r2, ":") {
		return nil
	}
	r3 := strings.TrimLeft(r2[1:], " \t")
	if len(r2) != len(r) || len(r3) != len(r2)-1 {
		d.malformed = append(d.malformed, "no space goes around the colon")
	}
	w, ok := d.readWord(r3, "file-ignore")
	if !ok {
		return nil
	}
	after := r3[w:]
	a := strings.TrimLeft(after, " \t")
	switch {
	case a == "":
	case a[0] == ':' || a[0] == '=':
		d.malformed = append(d.malformed, fmt.Sprintf("no %c goes before the codes", a[0]))
		a = strings.TrimLeft(a[1:], " \t")
	case strings.IndexByte("[({<", a[0]) >= 0:
		d.malformed = append(d.malformed, "the codes follow the directive after a space, without brackets")
	case a == after:
		return nil // ignorefoo
	}
	codes, at, tail, _, bare, ok := codeList(a)
	if !ok {
		return nil
	}
	off := len(lit) - len(a)
	d.codesAt = [2]int{off + at[0], off + at[1]}
	d.codes = codes
	d.bare = bare && len(d.malformed) > 0
	d.reason = strings.TrimSpace(tail)
	d.noCodes = len(codes) == 0
	if d.noCodes && len(d.malformed) > 0 {
		return nil
	}
	return d
}

// canonical is the code or name c stands for when written in another
// case, or "" when it names no rule in any case (with a nil lookup, only
// GL codes are known).
func canonical(c string, lookup func(string) *diag.Rule) string {
	if lookup == nil {
		if isGLCode(c) {
			return strings.ToUpper(c)
		}
		return ""
	}
	for _, k := range []string{c, strings.ToUpper(c), strings.ToLower(c)} {
		if lookup(k) != nil {
			return k
		}
	}
	return ""
}

// formWith is the directive as it should be written, with a reason (the
// placeholder when there is none).
func (d *directive) formWith(codes []string, reason string) string {
	if reason == "" {
		reason = reasonPlaceholder
	}
	f := d.form(strings.Join(codes, ","))
	return strings.TrimSuffix(f, reasonPlaceholder) + reason
}

// reportMalformed returns the GL013 of a malformed directive, and false
// when the comment is no suppression after all (a code that names no
// rule in any case).
func reportMalformed(p string, d *directive, lookup func(string) *diag.Rule, ls []line) (diag.Diagnostic, bool) {
	var codes []string
	for _, c := range d.codes {
		k := canonical(c, lookup)
		if k == "" {
			return diag.Diagnostic{}, false
		}
		codes = append(codes, k)
	}
	form := d.formWith(codes, d.reason)
	var msg string
	if d.noqa {
		if len(d.others) > 0 {
			form = "# noqa: " + strings.Join(d.others, ", ") + "  " + d.formWith(codes, "")
		}
		msg = "# noqa does not suppress gymlint findings, only ruff's and flake8's"
	} else {
		msg = fmt.Sprintf("malformed suppression, it suppresses nothing (%s)", strings.Join(d.malformed, ", "))
	}
	rd := core.MalformedSuppression.New(p, d.start, d.end, msg)
	rd.Help = "write " + form
	if d.reason != "" && len(d.others) == 0 {
		rd.Fixes = []diag.Fix{{
			Message:       "Rewrite as " + form,
			Edits:         []diag.TextEdit{editAt(p, ls, d.start.Offset, d.end.Offset, form)},
			Applicability: diag.Safe,
		}}
	}
	return rd, true
}

// reportMiscased returns the GL013 of the codes of a well-formed directive
// that name a rule only in another case, and the codes it reports.
func reportMiscased(p string, d *directive, lookup func(string) *diag.Rule, ls []line) (diag.Diagnostic, []string) {
	var miscased, fixed []string
	var all []string
	for _, c := range d.codes {
		k := c
		if lookup != nil && lookup(c) == nil || lookup == nil && isGLCode(c) && c != strings.ToUpper(c) {
			if kk := canonical(c, lookup); kk != "" && kk != c {
				miscased = append(miscased, c)
				fixed = append(fixed, kk)
				k = kk
			}
		}
		all = append(all, k)
	}
	if len(miscased) == 0 {
		return diag.Diagnostic{}, nil
	}
	var parts []string
	for i := range miscased {
		parts = append(parts, miscased[i]+" is "+fixed[i])
	}
	form := d.formWith(all, d.reason)
	rd := core.MalformedSuppression.New(p, d.start, d.end, fmt.Sprintf(
		"%s in another case names no rule, so this suppression does not suppress it (%s)",
		orList(miscased), strings.Join(parts, ", ")))
	rd.Help = "write " + form
	if d.reason != "" && d.codesAt[0] < d.codesAt[1] {
		l := ls[d.line-1]
		sep := ","
		if strings.Contains(l.text[d.codesAt[0]-l.start:d.codesAt[1]-l.start], ", ") {
			sep = ", "
		}
		rd.Fixes = []diag.Fix{{
			Message:       "Write " + strings.Join(fixed, ", "),
			Edits:         []diag.TextEdit{editAt(p, ls, d.codesAt[0], d.codesAt[1], strings.Join(all, sep))},
			Applicability: diag.Safe,
		}}
	}
	return rd, miscased
}

// readWord reads the directive word at the start of s ("ignore", or
// fileWord, the file-level form of the language), records whether it is
// file-level, and notes a wrong case or spelling; it returns the word's
// length, and false when s starts with no directive word at all.
func (d *directive) readWord(s, fileWord string) (int, bool) {
	w := 0
	for w < len(s) && isWordByte(s[w]) {
		w++
	}
	word := s[:w]
	file, ok := directiveWord(word)
	if !ok {
		return 0, false
	}
	d.fileLevel = file
	want := "ignore"
	if file {
		want = fileWord
	}
	if word != want {
		if strings.EqualFold(word, want) {
			d.malformed = append(d.malformed, want+" must be lower case")
		} else {
			d.malformed = append(d.malformed, fmt.Sprintf("the directive is %s, not %s", want, word))
		}
	}
	return w, true
}
