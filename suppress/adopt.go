package suppress

import (
	"bytes"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/gymlint/gymlint/diag"
)

// This file plans what gymlint --add-noqa writes in one file: an inline
// suppression, with a reason the user gives, for every finding of a check,
// placed where Apply takes it to cover the finding's line.

// Adoption is what Adopt plans for one file.
type Adoption struct {
	// Edits make the file's new content from the content Adopt was given:
	// sorted by offset, none overlapping another.
	Edits []diag.TextEdit
	// Added counts the codes the edits write: one for each line and code.
	Added int
	// Suppressed are the findings that the new content suppresses.
	Suppressed []diag.Diagnostic
	// Missed are the findings that no suppression could be placed for,
	// each with why.
	Missed []Miss
}

// Miss is a finding that gymlint --add-noqa does not suppress, and why.
type Miss struct {
	Diagnostic diag.Diagnostic
	Why        string
}

// AdoptOptions are how Adopt writes the suppressions.
type AdoptOptions struct {
	// Reason is the reason every suppression gives (see CheckReason).
	Reason string
	// SameCode reports whether new is old with comments added only, as
	// the file's language reads it: nothing but white space and comments
	// changed, and each offset of comments (in new) lies in a comment.
	// Adopt's own reading of a file is this package's line scanner, which
	// has limits (see the package doc); SameCode is the language's parser.
	// nil: not checked, except for Go files, which Adopt checks with
	// go/scanner itself.
	SameCode func(old, new []byte, comments []int) bool
}

// The reasons a finding is missed: each reads after a count of findings
// ("2 inside a multi-line string ...").
const (
	WhyNoSyntax   = "in a file with no inline suppressions (not Python, YAML or Go)"
	WhyNoLine     = "on a line not in its file"
	WhyBadCode    = "with a code that a suppression cannot name"
	WhySelf       = "of GL009, GL010 or GL013, which cannot be suppressed inline"
	WhyInString   = "inside a multi-line string (or YAML block scalar, Go raw string or /* */ comment), where a comment would be text"
	WhyShebang    = "on a #! line 1, which a comment would break"
	WhyBackslash  = "on a line that a backslash continues or ends, where a comment cannot go"
	WhyEncoding   = "where a comment above would move the encoding declaration off the first two lines"
	WhyChangeCode = "where a comment would change the code, as the language's parser reads it"
)

// CheckReason says what is wrong with a reason for the suppressions that
// gymlint --add-noqa writes, or returns nil: it must be one line of
// printable text that every comment syntax reads back whole (in Python
// and YAML a "# " after white space would start another comment).
func CheckReason(reason string) error {
	r := strings.TrimSpace(reason)
	if r == "" {
		return fmt.Errorf("the reason is empty")
	}
	for _, c := range r {
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085' || c == '\ufeff' {
			return fmt.Errorf("the reason must be one line of printable text, without %q", c)
		}
	}
	for _, lg := range []lang{langPython, langGo} {
		comment := newComment(lg, []string{"GL001"}, r)
		var d *directive
		if lg == langGo {
			d = parseGo(comment)
		} else {
			ds := hashDirectives(line{text: comment, comment: 0}, 1, lg)
			if len(ds) == 1 {
				d = ds[0]
			}
		}
		if d == nil || !d.active() || d.reason != r {
			return fmt.Errorf("the reason %q would not be read back whole from %s", r, comment)
		}
	}
	return nil
}

// newComment is a new line suppression of codes with reason.
func newComment(lg lang, codes []string, reason string) string {
	if lg == langGo {
		return "//gymlint:ignore " + strings.Join(codes, ",") + " " + reason
	}
	return "# gymlint: ignore[" + strings.Join(codes, ",") + "] " + reason
}

// A group is the findings that start on one line: one suppression covers
// them.
type group struct {
	line  int
	codes []string // sorted, each once
	ds    []diag.Diagnostic
	cands []candidate
	pick  int    // the candidate taken, -1 for none
	why   string // why none, when none is
}

// A candidate is one way to suppress a group: one edit of the original
// content.
type candidate struct {
	edit   diag.TextEdit
	markIn int // where in edit.NewText the comment's text is
	lines  int // the lines the edit adds before the group's line (0 or 1)
	added  int // the codes it writes
	merge  *directive
}

// Adopt plans a suppression, with opts.Reason, for every finding of ds in
// the file p (root-relative, slash-separated) whose content is content:
// one per line, naming the codes of the findings that start on that line,
// sorted. Where a suppression already covers the line (on it, or alone
// on a line above), the codes are added to its list and its reason kept;
// else a new comment goes at the end of the line (Python, YAML) or alone
// on the line above (Go, where gofmt would realign a trailing comment
// among its neighbours' comments; at the end of the line where gofmt
// would change the file for the one above but not for it: a struct field,
// a declaration under its doc comment), and where that one cannot be, at
// the other place. Each is checked by reading the new content back with the
// parser Apply uses, and with opts.SameCode: a finding is missed rather
// than suppressed with a comment that is not one (in a multi-line string,
// after a backslash continuation, a #! line...). The other bytes of the
// file stay as they are: line endings, byte order mark, white space, the
// last line's missing line end.
//
// ds must be findings of p; GL009, GL010 and GL013 are missed (they cannot
// be suppressed).
func Adopt(p string, content []byte, ds []diag.Diagnostic, opts AdoptOptions) Adoption {
	var a Adoption
	lg := langOf(p)
	reason := strings.TrimSpace(opts.Reason)
	byLine := map[int]*group{}
	var groups []*group
	for _, d := range ds {
		switch {
		case lg == langNone:
			a.miss(d, WhyNoSyntax)
			continue
		case isSelfCode(d.Code):
			a.miss(d, WhySelf)
			continue
		case d.Code == "" || strings.ContainsAny(d.Code, " \t,[]#\r\n"):
			a.miss(d, WhyBadCode)
			continue
		}
		g := byLine[d.Start.Line]
		if g == nil {
			g = &group{line: d.Start.Line, pick: -1}
			byLine[d.Start.Line] = g
			groups = append(groups, g)
		}
		g.ds = append(g.ds, d)
		if !slices.Contains(g.codes, d.Code) {
			g.codes = append(g.codes, d.Code)
		}
	}
	if len(groups) == 0 {
		return a
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].line < groups[j].line })
	dirs, ls := parseLines(p, content)
	pl := &planner{p: p, lg: lg, content: content, ls: ls, dirs: dirs, reason: reason, same: opts.SameCode,
		inactive: countInactive(dirs), merged: map[*directive]bool{}}
	var live []*group
	for _, g := range groups {
		sort.Strings(g.codes)
		if g.line < 1 || g.line > len(ls) {
			g.why = WhyNoLine
		} else {
			pl.candidates(g)
			for i := range g.cands {
				if pl.check([]*group{g}, []int{i}, false) {
					g.pick = i
					break
				}
			}
		}
		if g.pick < 0 {
			if g.why == "" {
				g.why = WhyInString
			}
			continue
		}
		if m := g.cands[g.pick].merge; m != nil {
			pl.merged[m] = true
		}
		live = append(live, g)
	}
	// All of them together, and with the language's parser.
	if !pl.check(live, picks(live), true) {
		// Each alone with the language's parser: the first candidate of
		// each that passes both checks.
		var ok []*group
		for _, g := range live {
			found := false
			for i := g.pick; i < len(g.cands); i++ {
				if m := g.cands[i].merge; m != nil && m != g.cands[g.pick].merge && pl.merged[m] {
					continue
				}
				if pl.check([]*group{g}, []int{i}, true) {
					g.pick, found = i, true
					break
				}
			}
			if found {
				ok = append(ok, g)
			} else {
				g.pick, g.why = -1, WhyChangeCode
			}
		}
		live = ok
		if !pl.check(live, picks(live), true) {
			// They do not go together: one at a time.
			var kept []*group
			for _, g := range live {
				if pl.check(append(slices.Clone(kept), g), picks(append(slices.Clone(kept), g)), true) {
					kept = append(kept, g)
				} else {
					g.pick, g.why = -1, WhyChangeCode
				}
			}
			live = kept
		}
	}
	for _, g := range groups {
		if g.pick < 0 {
			for _, d := range g.ds {
				a.miss(d, g.why)
			}
			continue
		}
		c := g.cands[g.pick]
		a.Edits = append(a.Edits, c.edit)
		a.Added += c.added
		a.Suppressed = append(a.Suppressed, g.ds...)
	}
	sort.SliceStable(a.Edits, func(i, j int) bool { return a.Edits[i].Start.Offset < a.Edits[j].Start.Offset })
	return a
}

func (a *Adoption) miss(d diag.Diagnostic, why string) {
	a.Missed = append(a.Missed, Miss{Diagnostic: d, Why: why})
}

func picks(gs []*group) []int {
	out := make([]int, len(gs))
	for i, g := range gs {
		out[i] = g.pick
	}
	return out
}

// planner places the suppressions of one file.
type planner struct {
	p        string
	lg       lang
	content  []byte
	ls       []line
	dirs     []*directive
	reason   string
	same     func(old, new []byte, comments []int) bool
	inactive int                 // the file's suppressions that suppress nothing
	merged   map[*directive]bool // the suppressions a group's codes go into
	// formatted says whether a Go file is as gofmt formats it (nil: not
	// yet known).
	formatted *bool
}

// countInactive counts the suppressions that suppress nothing (GL009,
// GL013, a misplaced ignore-file).
func countInactive(dirs []*directive) int {
	n := 0
	for _, d := range dirs {
		if !d.active() {
			n++
		}
	}
	return n
}

// candidates lists the ways to suppress g, best first: into a suppression
// on its line, into one above that covers it, then a new comment at the
// end of the line and alone above it (in Go, above first). A way that
// cannot work whatever the content says why in g.why.
func (pl *planner) candidates(g *group) {
	n := g.line
	for _, d := range pl.dirs {
		if d.active() && !d.fileLevel && d.line == n && !pl.merged[d] {
			if c, ok := pl.mergeInto(d, g.codes); ok {
				g.cands = append(g.cands, c)
			}
		}
	}
	for _, d := range pl.dirs {
		if d.active() && !d.fileLevel && d.line < n && contains(d.covers, n) && !pl.merged[d] {
			if c, ok := pl.mergeInto(d, g.codes); ok {
				g.cands = append(g.cands, c)
			}
		}
	}
	trailing, whyT := pl.trailing(g)
	above, whyA := pl.above(g)
	first, second := trailing, above
	if pl.lg == langGo && !(above != nil && trailing != nil && !pl.gofmtKept(above) && pl.gofmtKept(trailing)) {
		first, second = above, trailing
	}
	for _, c := range []*candidate{first, second} {
		if c != nil {
			g.cands = append(g.cands, *c)
		}
	}
	g.why = cmpOr(whyT, whyA)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// mergeInto is the candidate that adds codes to d's list: the codes stay
// sorted when they were, else the new ones follow in order.
func (pl *planner) mergeInto(d *directive, codes []string) (candidate, bool) {
	var add []string
	for _, c := range codes {
		if !slices.Contains(d.codes, c) {
			add = append(add, c)
		}
	}
	if len(add) == 0 || d.codesAt[0] >= d.codesAt[1] {
		return candidate{}, false
	}
	raw := string(pl.content[d.codesAt[0]:d.codesAt[1]])
	sep := ","
	if pl.lg != langGo && strings.Contains(raw, ", ") {
		sep = ", "
	}
	var text string
	if sort.StringsAreSorted(d.codes) {
		text = strings.Join(slices.Sorted(slices.Values(append(slices.Clone(d.codes), add...))), sep)
	} else {
		text = strings.TrimRight(raw, ", \t") + sep + strings.Join(add, sep)
	}
	return candidate{
		edit:  editAt(pl.p, pl.ls, d.codesAt[0], d.codesAt[1], text),
		added: len(add),
		merge: d,
	}, true
}

// encoding matches a Python encoding declaration (PEP 263).
var encoding = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*[-_.a-zA-Z0-9]+`)

// bom is the text of line 1 after a byte order mark, and the mark's length.
func (pl *planner) bom(n int) (string, int) {
	text := pl.ls[n-1].text
	if n == 1 && strings.HasPrefix(text, "\ufeff") {
		return text[len("\ufeff"):], len("\ufeff")
	}
	return text, 0
}

// shebang says whether line n is a Python #! line 1.
func (pl *planner) shebang(n int) bool {
	text, _ := pl.bom(n)
	return pl.lg == langPython && n == 1 && strings.HasPrefix(text, "#!")
}

// continues says whether a backslash at its end continues Python line n
// (outside a comment: a string's backslash-newline is left to the checks).
func (pl *planner) continues(n int) bool {
	l := pl.ls[n-1]
	return pl.lg == langPython && l.comment < 0 && strings.HasSuffix(l.text, `\`)
}

// trailing is a new comment at the end of g's line, or nil and why not.
func (pl *planner) trailing(g *group) (*candidate, string) {
	n := g.line
	l := pl.ls[n-1]
	switch {
	case pl.shebang(n):
		return nil, WhyShebang
	case pl.continues(n):
		return nil, WhyBackslash
	}
	body := strings.TrimRight(l.text, " \t")
	ws := len(l.text) - len(body)
	sep := ""
	switch {
	case strings.TrimSpace(l.text) == "" || strings.TrimSpace(strings.TrimPrefix(l.text, "\ufeff")) == "":
	case pl.lg == langGo:
		if ws == 0 {
			sep = " "
		}
	case ws == 0:
		sep = "  "
	case ws == 1:
		sep = " "
	}
	end := l.start + len(l.text)
	return &candidate{
		edit:   editAt(pl.p, pl.ls, end, end, sep+newComment(pl.lg, g.codes, pl.reason)),
		markIn: len(sep),
		added:  len(g.codes),
	}, ""
}

// above is a new comment alone on a line inserted above g's line, or nil
// and why not.
func (pl *planner) above(g *group) (*candidate, string) {
	n := g.line
	switch {
	case pl.shebang(n):
		return nil, WhyShebang
	case n > 1 && pl.continues(n-1):
		return nil, WhyBackslash
	case pl.lg == langPython && n <= 2 && len(pl.ls) >= 2 && encoding.MatchString(pl.ls[1].text) &&
		!encoding.MatchString(pl.ls[0].text):
		return nil, WhyEncoding
	}
	text, skip := pl.bom(n)
	indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
	at := pl.ls[n-1].start + skip
	return &candidate{
		edit:   editAt(pl.p, pl.ls, at, at, indent+newComment(pl.lg, g.codes, pl.reason)+lineEnding(pl.content, pl.ls, n)),
		markIn: len(indent),
		lines:  1,
		added:  len(g.codes),
	}, ""
}

// check reports whether the candidates which of groups gs, applied
// together to the content, suppress each group's findings as Apply reads
// the new content, leave every other suppression as it was (none more
// that suppresses nothing), and, when lang, leave the code as it was (Go:
// go/scanner; else SameCode).
func (pl *planner) check(gs []*group, which []int, lang bool) bool {
	type placed struct {
		g *group
		c candidate
	}
	ps := make([]placed, len(gs))
	for i, g := range gs {
		ps[i] = placed{g, g.cands[which[i]]}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].c.edit.Start.Offset < ps[j].c.edit.Start.Offset })
	var b bytes.Buffer
	var marks []int
	last := 0
	for i, x := range ps {
		e := x.c.edit
		if e.Start.Offset < last || i > 0 && e.Start.Offset == ps[i-1].c.edit.Start.Offset {
			return false // overlapping edits
		}
		b.Write(pl.content[last:e.Start.Offset])
		marks = append(marks, b.Len()+x.c.markIn)
		b.WriteString(e.NewText)
		last = e.End.Offset
	}
	b.Write(pl.content[last:])
	out := b.Bytes()
	dirs := parse(pl.p, out)
	if countInactive(dirs) != pl.inactive {
		return false
	}
	for _, x := range ps {
		// The group's line, once the lines inserted above it are counted.
		n := x.g.line
		for _, y := range ps {
			if y.c.lines > 0 && y.g.line <= x.g.line {
				n += y.c.lines
			}
		}
		for _, code := range x.g.codes {
			if !slices.ContainsFunc(dirs, func(d *directive) bool {
				return d.active() && !d.fileLevel && contains(d.covers, n) && slices.Contains(d.codes, code)
			}) {
				return false
			}
		}
	}
	if !lang {
		return true
	}
	if pl.lg == langGo {
		return sameGo(pl.content, out, marks)
	}
	return pl.same == nil || pl.same(pl.content, out, marks)
}

// gofmtKept reports whether the Go file, once c's edit is made, is still
// as gofmt formats it, or was not so before: a comment alone above a
// struct field splits the fields' alignment, one under a doc comment is
// moved into it, so the comment goes at the end of the line there.
func (pl *planner) gofmtKept(c *candidate) bool {
	if pl.formatted == nil {
		f, err := format.Source(pl.content)
		formatted := err == nil && bytes.Equal(f, pl.content)
		pl.formatted = &formatted
	}
	if !*pl.formatted {
		return true
	}
	e := c.edit
	out := slices.Concat(pl.content[:e.Start.Offset], []byte(e.NewText), pl.content[e.End.Offset:])
	f, err := format.Source(out)
	return err == nil && bytes.Equal(f, out)
}

// sameGo reports whether the Go source new is old with comments added
// only: the same tokens, comments aside, no more scanning errors, and
// each offset of marks inside a comment.
func sameGo(old, new []byte, marks []int) bool {
	type tok struct {
		tok token.Token
		lit string
	}
	scan := func(src []byte) (toks []tok, comments [][2]int, errs int) {
		fset := token.NewFileSet()
		f := fset.AddFile("", -1, len(src))
		var s scanner.Scanner
		s.Init(f, src, func(token.Position, string) { errs++ }, scanner.ScanComments)
		for {
			pos, t, lit := s.Scan()
			if t == token.EOF {
				return toks, comments, errs
			}
			switch t {
			case token.COMMENT:
				off := f.Offset(pos)
				comments = append(comments, [2]int{off, off + len(lit)})
			case token.SEMICOLON:
				toks = append(toks, tok{t, ""}) // "\n" or ";"
			default:
				toks = append(toks, tok{t, lit})
			}
		}
	}
	a, _, errsA := scan(old)
	b, comments, errsB := scan(new)
	if errsB > errsA || !slices.Equal(a, b) {
		return false
	}
	for _, m := range marks {
		if !slices.ContainsFunc(comments, func(c [2]int) bool { return c[0] <= m && m < c[1] }) {
			return false
		}
	}
	return true
}

// Unsuppressible reports whether findings of code cannot be suppressed
// inline: GL009, GL010 and GL013, which report suppressions themselves.
func Unsuppressible(code string) bool { return isSelfCode(code) }
