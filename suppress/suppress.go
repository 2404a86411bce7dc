// Package suppress applies gymlint's inline suppressions: comments that
// silence one finding, or every finding of some rules in one file, and that
// must say why.
//
// # Syntax
//
// Python (.py) and YAML (.yaml, .yml) files, in a # comment:
//
//	x = 1  # gymlint: ignore[GL101] the app is built by a factory
//	# gymlint: ignore[GL101,late-worker-refusal] why this is fine
//	# gymlint: ignore-file[GL101] why this is fine for the whole file
//
// Go (.go) files, staticcheck-style, in a // comment that starts with the
// directive (no space after //):
//
//	//gymlint:ignore GL201 why this is fine
//	//gymlint:file-ignore GL201,GL202 why this is fine for the whole file
//
// The codes are rule codes (GL101) or rule names (undeclared-workers),
// comma-separated. A reason, any text after the codes, is required. `ignore`
// without codes (`# gymlint: ignore reason`, `ignore[]`) is not a
// suppression.
//
// # Which lines a suppression covers
//
// A line suppression covers the line of its comment. When the comment is
// alone on its line, it also covers the line of code below it; comment-only
// lines in between are skipped (so suppressions and explanations can be
// stacked above the code), a blank line ends the search. A trailing comment
// covers only its own line. A finding is covered by the line of its start.
//
// A file suppression covers every finding of its rules in the file. In Python
// and YAML it counts only in the file's leading comment block: the comment and
// blank lines (and YAML `---` and `%` directive lines) before the first line of
// code; a Python module docstring ends the block. A misplaced ignore-file is
// reported as unused (GL010). In Go, //gymlint:file-ignore counts anywhere in
// the file, as staticcheck's //lint:file-ignore does.
//
// # What is reported
//
// A suppression without a reason, or without codes, is reported as GL009
// suppression-without-reason and suppresses nothing: the finding stays. A
// code of a suppression that covers no finding with that code is reported as
// GL010 unused-suppression (one diagnostic per suppression, naming the unused
// codes), as is a code that names no rule; its safe fix removes the
// suppression, or the unused codes from it (removeFix). A comment meant as a
// suppression but not written as one (malformed.go: a misspelt directive,
// the wrong case, codes outside [...] or, in Go, inside them, a space after
// // in Go, a Python `# noqa:` naming GL codes) suppresses nothing and is
// reported as GL013 malformed-suppression with the form to write, and a
// safe fix to it when it has a reason; it counts only when its codes name
// rules in some case. GL009, GL010 and GL013 cannot be suppressed inline:
// they report the suppressions themselves, and a suppression that could
// silence them would loop (an unused suppression of GL010 is itself a
// GL010). A suppression naming them is reported as GL010 and must be
// removed; fix the suppression instead. All are positioned at the
// directive's comment.
//
// # Files that were not analysed
//
// A suppression in a file that gymlint did not analyse is never reported
// unused: nothing tells whether its finding is there, and its safe fix
// would delete a reviewed suppression that the next run, once the file is
// analysed again, needs. A file was not analysed when, before suppressions
// apply, a finding of one of these rules is at it (NotAnalysed):
//
//   - GL001 python-syntax-error: the module does not parse, and the rules
//     skip it until it does (a half-typed line in an editor);
//   - GL002 unreadable-file: the file was not read, or its parse ran out of
//     budget (its own, or the scan's --parse-budget) and nothing of it was
//     taken in;
//   - GL003 invalid-config: the YAML file does not parse, or a part of it
//     was not taken in (an alias or nesting beyond the bounds, a bad merge,
//     a second document, a server whose entrypoint is not a file name);
//   - GL008 go-load-error: the Go file, or its package, was not loaded or
//     did not type-check, so the Go analyzers did not run on it;
//   - GL011 internal-error: a rule failed on the file, so its findings
//     there are missing.
//
// (The Go files of a package that does not type-check are left out of the
// files a scan checks, package goanalysis, whether or not a GL008 is at
// them.) In such a file, codes that name no rule, codes that cannot be
// suppressed and a misplaced ignore-file are still reported as GL010, and
// GL009 and GL013 still apply: they are read from the comment alone.
//
// # Comments, not strings
//
// Go files are tokenised with go/scanner, so only real // comments count.
// Python and YAML files are read with a small line scanner: in Python a #
// outside '...', "..." (with backslash escapes) and triple-quoted strings
// (tracked across lines) starts a comment; in YAML a # at the start of a line
// or after a space or tab starts a comment, outside '...' and "..." scalars
// that open at the start of a token, and block scalars (| and >, by
// indentation) are skipped. Limits: a Python single-quoted string continued
// with a backslash-newline, a YAML quoted scalar that spans lines, and
// Python's nested quotes inside f-string replacement fields (3.12) are not
// tracked; a directive there may be taken for a comment. Other file types
// have no suppressions.
//
// In a Python or YAML comment, a suppression may follow other comment text
// (`# noqa: F401  # gymlint: ignore[GL101] reason`); its reason ends where a
// further `# ` (a # between white space and a space) starts another comment.
//
// # Writing suppressions
//
// Fix (fix.go) is the editor's quick fix that suppresses one finding with
// a placeholder reason; Adopt (adopt.go) plans what gymlint --add-noqa
// writes in a file: a suppression with a given reason for every finding,
// merged into one that already covers the line. Both place a comment only
// where the parser above then takes it to cover the finding's line, so
// they follow these rules rather than restate them; Adopt also asks the
// language's own parser (AdoptOptions.SameCode, go/scanner for Go) that
// the code is unchanged, since this package's line scanner has the limits
// above.
package suppress

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/lineends"
	"github.com/gymlint/gymlint/internal/workers"
)

// Rules are the rules of this package.
var Rules = []*diag.Rule{core.SuppressionWithoutReason, core.UnusedSuppression, core.MalformedSuppression}

// lang is the comment syntax of a file.
type lang int

const (
	langNone lang = iota
	langPython
	langYAML
	langGo
)

// Language names the comment syntax of a file, by its name: "python",
// "yaml", "go", or "" for a file that has no suppressions.
func Language(p string) string {
	switch langOf(p) {
	case langPython:
		return "python"
	case langYAML:
		return "yaml"
	case langGo:
		return "go"
	}
	return ""
}

func langOf(p string) lang {
	switch strings.ToLower(path.Ext(p)) {
	case ".py":
		return langPython
	case ".yaml", ".yml":
		return langYAML
	case ".go":
		return langGo
	}
	return langNone
}

// line is one line of a file, without its line ending.
type line struct {
	start   int // byte offset of the line in the file
	text    string
	hasCode bool // something other than a comment or white space starts or runs on it
	comment int  // byte index of the # that starts its comment (Python, YAML), or -1
}

func (l line) blank() bool { return strings.TrimSpace(l.text) == "" }

// directive is one suppression comment.
type directive struct {
	lang      lang
	fileLevel bool
	line      int // 1-based
	start     diag.Pos
	end       diag.Pos
	codes     []string // as written, deduplicated
	codesAt   [2]int   // byte offsets in the file of the text that lists the codes
	noCodes   bool     // malformed: no [..] or no code in it
	// malformed: why the directive is not written as it must be (GL013);
	// a malformed directive suppresses nothing.
	malformed []string
	bare      bool     // the codes are not in [...] (Python, YAML), or a malformed Go list
	noqa      bool     // a `# noqa:` naming gymlint codes
	others    []string // the noqa's codes that are not gymlint's
	reason    string
	misplaced bool  // an ignore-file after the leading comment block
	covers    []int // lines a line suppression covers
	target    int   // the line named in messages
	used      map[string]bool
}

// splitLines splits content into lines at "\n" and "\r\n", and, when
// loneCR, at a lone "\r" too: Python (CPython's tokenizer, and pyscan's
// positions) and YAML end lines there; Go does not.
func splitLines(content []byte, loneCR bool) []line {
	var ls []line
	for _, l := range lineends.Split(string(content), loneCR) {
		ls = append(ls, line{start: l.Start, text: l.Text, comment: -1})
	}
	return ls
}

// Apply removes the diagnostics that an inline suppression covers and
// returns the rest plus a diagnostic for every suppression without a reason
// (it suppresses nothing) and every suppression that matched nothing, sorted
// by diag.Sort.
//
// read returns a root-relative file's content; when it fails, that file's
// diagnostics are kept as they are. Only Python, YAML and Go files that have
// diagnostics or are listed in scan are read. lookup finds a rule by code or
// name; it may be nil, and then a suppression's codes match diagnostics by
// their Code or Rule only and are never reported as unknown.
func Apply(ds []diag.Diagnostic, scan []string, read func(path string) ([]byte, error), lookup func(codeOrName string) *diag.Rule) []diag.Diagnostic {
	return ApplyConfig(ds, scan, read, Config{Lookup: lookup})
}

// Config says how ApplyConfig reads suppressions.
type Config struct {
	// Lookup finds a rule by code or name (see Apply); nil finds none.
	Lookup func(codeOrName string) *diag.Rule
	// Ran reports whether the rule with this code was run. A suppression's
	// code for a rule that did not run (a rule the configuration disables)
	// is never reported as unused: the finding it silences may be there.
	// nil: every rule ran.
	Ran func(code string) bool
	// Jobs is how many files are read and scanned at once; 0: the number
	// of CPUs. read, Lookup and Ran are called from that many goroutines.
	Jobs int
}

// ApplyConfig is Apply with a Config.
func ApplyConfig(ds []diag.Diagnostic, scan []string, read func(path string) ([]byte, error), cfg Config) []diag.Diagnostic {
	lookup := cfg.Lookup
	byPath := map[string][]int{}
	files := map[string]bool{}
	for i, d := range ds {
		byPath[d.Path] = append(byPath[d.Path], i)
		if langOf(d.Path) != langNone {
			files[d.Path] = true
		}
	}
	for _, p := range scan {
		if langOf(p) != langNone {
			files[p] = true
		}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	// The files are independent of one another (a diagnostic is at one
	// file, a directive in one file), so they are read and scanned in
	// parallel, and their reports joined in path order.
	suppressed := make([]bool, len(ds))
	reports := make([][]diag.Diagnostic, len(paths))
	workers.Each(len(paths), cfg.Jobs, func(_, k int) {
		p := paths[k]
		content, err := read(p)
		if err != nil || !mayHoldDirective(content, langOf(p)) {
			return
		}
		dirs, ls := parseLines(p, content)
		if len(dirs) == 0 {
			return
		}
		analysed := true
		for _, i := range byPath[p] {
			if NotAnalysed(ds[i]) {
				analysed = false
			}
		}
		for _, i := range byPath[p] {
			d := ds[i]
			if isSelfCode(d.Code) {
				continue
			}
			for _, dir := range dirs {
				if !dir.active() || !dir.fileLevel && !contains(dir.covers, d.Start.Line) {
					continue
				}
				for _, c := range dir.codes {
					if !isSelf(c, lookup) && matches(c, d, lookup) {
						dir.used[c] = true
						suppressed[i] = true
					}
				}
			}
		}
		for _, dir := range dirs {
			reports[k] = append(reports[k], report(p, dir, lookup, cfg.Ran, analysed, ls)...)
		}
	})
	var out []diag.Diagnostic
	for _, r := range reports {
		out = append(out, r...)
	}
	kept := make([]diag.Diagnostic, 0, len(ds)+len(out))
	for i, d := range ds {
		if !suppressed[i] {
			kept = append(kept, d)
		}
	}
	kept = append(kept, out...)
	diag.Sort(kept)
	return kept
}

// notAnalysed are the codes of the findings that say that gymlint did not
// analyse (all of) the file they are at: see the package doc.
var notAnalysed = map[string]bool{
	core.SyntaxError.Code:    true,
	core.UnreadableFile.Code: true,
	core.InvalidConfig.Code:  true,
	core.GoLoadError.Code:    true,
	core.InternalError.Code:  true,
}

// NotAnalysed reports whether d says that gymlint did not analyse the file
// d is at, or a part of it (a GL001, GL002, GL003, GL008 or GL011): the
// suppressions of that file are then never reported unused.
func NotAnalysed(d diag.Diagnostic) bool { return notAnalysed[d.Code] }

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// active says whether the directive suppresses anything.
func (d *directive) active() bool {
	return !d.noCodes && d.reason != "" && !d.misplaced && len(d.malformed) == 0
}

func isSelfCode(code string) bool {
	return code == core.SuppressionWithoutReason.Code || code == core.UnusedSuppression.Code || code == core.MalformedSuppression.Code
}

// isSelf says whether a suppression's code names GL009 or GL010.
func isSelf(c string, lookup func(string) *diag.Rule) bool {
	for _, r := range Rules {
		if c == r.Code || c == r.Name {
			return true
		}
	}
	if lookup != nil {
		if r := lookup(c); r != nil && isSelfCode(r.Code) {
			return true
		}
	}
	return false
}

func matches(c string, d diag.Diagnostic, lookup func(string) *diag.Rule) bool {
	if c == d.Code || c == d.Rule {
		return true
	}
	if lookup != nil {
		if r := lookup(c); r != nil {
			return r.Code == d.Code
		}
	}
	return false
}

// form is the directive as it should be written, with codes and a
// placeholder reason.
func (d *directive) form(codes string) string {
	switch {
	case d.lang == langGo && d.fileLevel:
		return "//gymlint:file-ignore " + codes + " <why this is fine>"
	case d.lang == langGo:
		return "//gymlint:ignore " + codes + " <why this is fine>"
	case d.fileLevel:
		return "# gymlint: ignore-file[" + codes + "] <why this is fine>"
	}
	return "# gymlint: ignore[" + codes + "] <why this is fine>"
}

// report returns the GL009, GL010 and GL013 diagnostics of a directive;
// analysed says whether gymlint analysed its file (NotAnalysed).
func report(p string, d *directive, lookup func(string) *diag.Rule, ran func(string) bool, analysed bool, ls []line) []diag.Diagnostic {
	if len(d.malformed) > 0 {
		if rd, ok := reportMalformed(p, d, lookup, ls); ok {
			return []diag.Diagnostic{rd}
		}
		if !d.bare || d.lang == langGo || len(d.malformed) != 1 {
			return nil // no suppression after all
		}
		// `# gymlint: ignore reason`: it names no rule.
		d.noCodes = true
	}
	var out []diag.Diagnostic
	miscased := map[string]bool{}
	if !d.noCodes {
		if rd, cs := reportMiscased(p, d, lookup, ls); len(cs) > 0 {
			out = append(out, rd)
			for _, c := range cs {
				miscased[c] = true
			}
		}
	}
	if rd, ok := reportWellFormed(p, d, lookup, ran, analysed, ls, miscased); ok {
		out = append(out, rd)
	}
	return out
}

// reportWellFormed returns the GL009 or GL010 diagnostic of a directive,
// if any, leaving out the miscased codes (GL013's). In a file that was not
// analysed, no code of a rule is unused.
func reportWellFormed(p string, d *directive, lookup func(string) *diag.Rule, ran func(string) bool, analysed bool, ls []line, miscased map[string]bool) (diag.Diagnostic, bool) {
	if d.noCodes {
		rd := core.SuppressionWithoutReason.New(p, d.start, d.end, "this suppression names no rule, so it suppresses nothing")
		rd.Help = "name the codes or rule names and give a reason after them: " + d.form("GL101")
		return rd, true
	}
	codes := strings.Join(d.codes, ",")
	if d.reason == "" {
		rd := core.SuppressionWithoutReason.New(p, d.start, d.end, fmt.Sprintf(
			"this suppression of %s gives no reason, so it suppresses nothing", orList(d.codes)))
		rd.Help = "add a reason after the codes: " + d.form(codes)
		return rd, true
	}
	if d.misplaced {
		rd := core.UnusedSuppression.New(p, d.start, d.end, "this ignore-file suppression comes after the first line of code, so it suppresses nothing")
		rd.Help = fmt.Sprintf("move it into the comment block at the top of the file, or remove it (for one line use %s)",
			(&directive{lang: d.lang}).form(codes))
		return rd, true
	}
	var unused, self, unknown []string
	for _, c := range d.codes {
		switch {
		case d.used[c] || miscased[c]:
		case ran != nil && lookup != nil && lookup(c) != nil && !ran(lookup(c).Code):
			// Its rule did not run: nothing tells whether it is used.
		case isSelf(c, lookup):
			self = append(self, c)
		case lookup != nil && lookup(c) == nil:
			unknown = append(unknown, c)
		case !analysed:
			// The file was not analysed: nothing tells whether it is used.
		default:
			unused = append(unused, c)
		}
	}
	if len(unused)+len(self)+len(unknown) == 0 {
		return diag.Diagnostic{}, false
	}
	all := len(unused)+len(self)+len(unknown) == len(d.codes)
	var why []string
	if len(unused) > 0 {
		where := fmt.Sprintf("on line %d", d.target)
		if d.fileLevel {
			where = "in this file"
		}
		why = append(why, fmt.Sprintf("nothing %s reports %s", where, orList(unused)))
	}
	if len(unknown) > 0 {
		why = append(why, fmt.Sprintf("%s %s not a gymlint rule code or name", strings.Join(unknown, ", "), isAre(unknown)))
	}
	if len(self) > 0 {
		why = append(why, fmt.Sprintf("%s cannot be suppressed inline (GL009, GL010 and GL013 report suppressions themselves)", strings.Join(self, ", ")))
	}
	what, help := "unused suppression", "remove the suppression"
	drop := append(append(unused, unknown...), self...)
	if !all {
		what, help = "suppression partly unused", "remove "+strings.Join(drop, ", ")+" from the suppression"
	}
	if len(self) > 0 {
		help += ", and fix the suppression that " + orList(self) + " reports instead"
	}
	rd := core.UnusedSuppression.New(p, d.start, d.end, what+": "+strings.Join(why, "; "))
	rd.Help = help
	if fix, ok := removeFix(p, d, ls, all, drop); ok {
		rd.Fixes = []diag.Fix{fix}
	}
	return rd, true
}

func orList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

func isAre(xs []string) string {
	if len(xs) == 1 {
		return "is"
	}
	return "are"
}

// parse finds the suppressions of a file.
func parse(p string, content []byte) []*directive {
	dirs, _ := parseLines(p, content)
	return dirs
}

// parseLines finds the suppressions of a file, and returns its lines.
func parseLines(p string, content []byte) ([]*directive, []line) {
	lg := langOf(p)
	ls := splitLines(content, lg != langGo)
	var dirs []*directive
	switch lg {
	case langPython, langYAML:
		if lg == langPython {
			scanPython(ls)
		} else {
			scanYAML(ls)
		}
		leading := true
		for i, l := range ls {
			if leading && l.hasCode && !(lg == langYAML && yamlPreamble(l.text)) {
				leading = false
			}
			if l.comment < 0 {
				continue
			}
			for _, d := range hashDirectives(l, i+1, lg) {
				d.lang = lg
				d.misplaced = d.fileLevel && !leading
				dirs = append(dirs, d)
			}
		}
	case langGo:
		dirs = goDirectives(ls, content)
	}
	for _, d := range dirs {
		d.used = map[string]bool{}
		d.target = d.line
		if d.fileLevel {
			continue
		}
		d.covers = []int{d.line}
		l := ls[d.line-1]
		if strings.TrimSpace(l.text[:d.start.Col-1]) != "" {
			continue // a trailing comment covers its own line only
		}
		for n := d.line + 1; n <= len(ls); n++ {
			next := ls[n-1]
			if next.hasCode {
				d.covers = append(d.covers, n)
				d.target = n
				break
			}
			if next.blank() {
				break
			}
		}
	}
	return dirs, ls
}

func yamlPreamble(s string) bool {
	t := strings.TrimSpace(s)
	return t == "---" || strings.HasPrefix(t, "%")
}

// scanPython sets hasCode and comment of Python lines.
func scanPython(ls []line) {
	triple := "" // the closing quotes of an open triple-quoted string
	for i := range ls {
		s := ls[i].text
		j := 0
	scan:
		for j < len(s) {
			if triple != "" {
				ls[i].hasCode = true
				k := closing(s, j, triple)
				if k < 0 {
					break scan
				}
				j, triple = k+3, ""
				continue
			}
			switch c := s[j]; c {
			case '#':
				ls[i].comment = j
				break scan
			case '"', '\'':
				ls[i].hasCode = true
				if q := strings.Repeat(string(c), 3); strings.HasPrefix(s[j:], q) {
					triple = q
					j += 3
					continue
				}
				j++
				for j < len(s) {
					if s[j] == '\\' {
						j += 2
						continue
					}
					j++
					if s[j-1] == c {
						break
					}
				}
			case ' ', '\t', '\f':
				j++
			default:
				ls[i].hasCode = true
				j++
			}
		}
	}
}

// closing finds the closing triple quotes q in s from j, skipping
// backslash escapes.
func closing(s string, j int, q string) int {
	for j < len(s) {
		if s[j] == '\\' {
			j += 2
			continue
		}
		if strings.HasPrefix(s[j:], q) {
			return j
		}
		j++
	}
	return -1
}

// startsBlockScalar reports whether the code of a line (its comment cut
// off) starts a YAML block scalar: it ends with | or > and the indicators
// that may follow ([-+0-9]*), at its start or after white space. (The
// regexp `(^|\s)[|>][-+0-9]*$` says the same, at a cost that showed on
// every line of every config.)
func startsBlockScalar(code string) bool {
	k := len(code)
	for k > 0 && (code[k-1] == '-' || code[k-1] == '+' || code[k-1] >= '0' && code[k-1] <= '9') {
		k--
	}
	if k == 0 || code[k-1] != '|' && code[k-1] != '>' {
		return false
	}
	k--
	return k == 0 || strings.IndexByte(" \t\n\f\r", code[k-1]) >= 0
}

// scanYAML sets hasCode and comment of YAML lines.
func scanYAML(ls []line) {
	block := -1 // the indentation of the line that opened a block scalar
	for i := range ls {
		s := ls[i].text
		indent := len(s) - len(strings.TrimLeft(s, " "))
		if block >= 0 {
			if ls[i].blank() {
				continue
			}
			if indent > block {
				ls[i].hasCode = true
				continue
			}
			block = -1
		}
		j, end := 0, len(s)
	scan:
		for j < len(s) {
			c := s[j]
			switch {
			case c == '#' && (j == 0 || s[j-1] == ' ' || s[j-1] == '\t'):
				ls[i].comment, end = j, j
				break scan
			case (c == '"' || c == '\'') && (j == 0 || strings.IndexByte(" \t[{,:-?", s[j-1]) >= 0):
				ls[i].hasCode = true
				j++
				for j < len(s) {
					if c == '"' && s[j] == '\\' {
						j += 2
						continue
					}
					if c == '\'' && strings.HasPrefix(s[j:], "''") {
						j += 2
						continue
					}
					j++
					if s[j-1] == c {
						break
					}
				}
			case c == ' ' || c == '\t':
				j++
			default:
				ls[i].hasCode = true
				j++
			}
		}
		if startsBlockScalar(strings.TrimRight(s[:min(end, len(s))], " \t")) {
			block = indent
		}
	}
}

// hashDirectives finds the suppressions in the # comment of a Python or
// YAML line.
func hashDirectives(l line, n int, lg lang) []*directive {
	c := l.comment
	s := l.text
	// Where each directive starts: a # at the comment's start or after white
	// space, followed by `gymlint` in any case (or, in Python, `noqa`).
	var starts []int
	for j := c; j < len(s); j++ {
		if s[j] != '#' || j > c && s[j-1] != ' ' && s[j-1] != '\t' {
			continue
		}
		if t := strings.TrimLeft(s[j+1:], " \t"); hasFoldPrefix(t, "gymlint") || lg == langPython && hasFoldPrefix(t, "noqa") {
			starts = append(starts, j)
		}
	}
	var dirs []*directive
	for k, st := range starts {
		end := len(s)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		// Another comment after the directive: `#` between white space and
		// a space, or at the end.
		for j := st + 1; j < end; j++ {
			if s[j] == '#' && (s[j-1] == ' ' || s[j-1] == '\t') && (j+1 == len(s) || s[j+1] == ' ' || s[j+1] == '\t') {
				end = j
				break
			}
		}
		text := strings.TrimRight(s[st:end], " \t")
		d := parseHash(text, lg)
		if d == nil {
			continue
		}
		d.codesAt[0] += l.start + st
		d.codesAt[1] += l.start + st
		d.line = n
		d.start = diag.Pos{Offset: l.start + st, Line: n, Col: st + 1}
		e := st + len(text)
		d.end = diag.Pos{Offset: l.start + e, Line: n, Col: e + 1}
		dirs = append(dirs, d)
	}
	return dirs
}

func splitCodes(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// goDirectives finds the //gymlint:ignore and //gymlint:file-ignore
// comments of a Go file and marks its lines of code.
func goDirectives(ls []line, content []byte) []*directive {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(content))
	var s scanner.Scanner
	s.Init(f, content, func(token.Position, string) {}, scanner.ScanComments)
	var dirs []*directive
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		p := f.Position(pos)
		if tok != token.COMMENT {
			if !(tok == token.SEMICOLON && lit == "\n") && p.Line >= 1 && p.Line <= len(ls) {
				ls[p.Line-1].hasCode = true
			}
			continue
		}
		lit = strings.TrimRight(lit, "\r")
		d := parseGo(lit)
		if d == nil {
			continue
		}
		off := f.Offset(pos)
		d.codesAt[0] += off
		d.codesAt[1] += off
		d.line = p.Line
		d.start = diag.Pos{Offset: off, Line: p.Line, Col: p.Column}
		d.end = diag.Pos{Offset: off + len(lit), Line: p.Line, Col: p.Column + len(lit)}
		dirs = append(dirs, d)
	}
	return dirs
}

// MayHoldDirective reports whether the content of the file at p may hold
// a suppression directive, well formed or not: false for a file of a kind
// that has none (neither Python, YAML nor Go) and for one without a
// directive's word (see mayHoldDirective). A reader that knows a file's
// content lacks one may give ApplyConfig's read an error for it: the
// file then has nothing to suppress and nothing to report.
func MayHoldDirective(p string, content []byte) bool {
	lg := langOf(p)
	return lg != langNone && mayHoldDirective(content, lg)
}

// mayHoldDirective reports whether content may hold a suppression
// directive, well formed or not, of a file of language lg: every one
// begins with "gymlint", or in Python "noqa", in any case (hashDirectives,
// parseGo), and a `# noqa` is one only when it names a gymlint code
// (parseNoqa), which needs "gl" and a digit in the text. It looks at the
// bytes only, much faster than parseLines, so that the files without one
// (nearly all, even where ruff's `# noqa: E501` is on every page) are not
// split into lines.
func mayHoldDirective(content []byte, lg lang) bool {
	return containsFold(content, "gymlint", 1) ||
		lg == langPython && containsFold(content, "noqa", 2) && containsGLDigit(content)
}

// containsGLDigit reports whether s holds "gl", in any case, followed by
// a digit: the start of a gymlint code (isGLCode).
func containsGLDigit(s []byte) bool {
	for _, c := range [2]byte{'l', 'L'} {
		for i := 0; i < len(s); {
			j := bytes.IndexByte(s[i:], c)
			if j < 0 {
				break
			}
			k := i + j
			if k > 0 && s[k-1]|0x20 == 'g' && k+1 < len(s) && '0' <= s[k+1] && s[k+1] <= '9' {
				return true
			}
			i = k + 1
		}
	}
	return false
}

// containsFold reports whether s contains pat, a lower-case ASCII word,
// in any case. It looks for pat's byte at anchor (one that is rare in
// code: a search for it finds few places to compare) in both cases.
// strings.EqualFold, which the directives are matched with, folds no
// other character to the letters of "gymlint" and "noqa"
// (TestFoldedLettersAreASCII), so an ASCII comparison finds every match.
func containsFold(s []byte, pat string, anchor int) bool {
	lo := pat[anchor]
	for _, c := range [2]byte{lo, lo - 'a' + 'A'} {
		for i := 0; i < len(s); {
			j := bytes.IndexByte(s[i:], c)
			if j < 0 {
				break
			}
			at := i + j - anchor
			if at >= 0 && at+len(pat) <= len(s) && asciiEqualFold(s[at:at+len(pat)], pat) {
				return true
			}
			i += j + 1
		}
	}
	return false
}

// asciiEqualFold reports whether b is the lower-case ASCII word w in any
// case.
func asciiEqualFold(b []byte, w string) bool {
	for i := range len(w) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}
