package gymtest

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// key is a line of a file of the case.
type key struct {
	path string
	line int
}

// expectation is one quoted regexp of a `# want` or `# related` comment.
type expectation struct {
	related bool
	rx      *regexp.Regexp
}

// parseExpectations reads the `# want` and `# related` comments of a file.
func parseExpectations(content []byte) (map[int][]*expectation, []string) {
	out := map[int][]*expectation{}
	var errs []string
	for i, line := range strings.Split(string(content), "\n") {
		n := i + 1
		rest := strings.TrimSuffix(line, "\r")
		for {
			kind, after, ok := nextDirective(rest)
			if !ok {
				break
			}
			delta, exps, tail, err := parseRegexps(after)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%d: in a %q comment: %v", n, "# "+kind, err))
				break
			}
			for _, e := range exps {
				e.related = kind == "related"
			}
			out[n+delta] = append(out[n+delta], exps...)
			rest = tail
		}
	}
	return out, errs
}

// nextDirective finds the next `# want` or `# related` in s and returns
// its kind and the text after the word.
func nextDirective(s string) (kind, after string, ok bool) {
	for {
		i := strings.IndexByte(s, '#')
		if i < 0 {
			return "", "", false
		}
		s = s[i+1:]
		word := strings.TrimLeft(s, " \t")
		for _, k := range []string{"want", "related"} {
			if rest, found := strings.CutPrefix(word, k); found && (rest == "" || strings.ContainsRune(" \t+\"`", rune(rest[0]))) {
				return k, rest, true
			}
		}
	}
}

// parseRegexps reads `[+N] "rx" ...` and returns the rest of the line,
// which must be empty or start another comment.
func parseRegexps(s string) (delta int, exps []*expectation, tail string, err error) {
	s = strings.TrimLeft(s, " \t")
	if strings.HasPrefix(s, "+") {
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if delta, err = strconv.Atoi(s[1:j]); err != nil {
			return 0, nil, "", fmt.Errorf("want +N, got %q", s[:j])
		}
		s = s[j:]
	}
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" || s[0] == '#' {
			if len(exps) == 0 {
				return 0, nil, "", fmt.Errorf("no quoted regular expression")
			}
			return delta, exps, s, nil
		}
		if s[0] != '"' && s[0] != '`' {
			return 0, nil, "", fmt.Errorf("got %q, want a quoted regular expression", s)
		}
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return 0, nil, "", fmt.Errorf("%v: %s", err, s)
		}
		pattern, _ := strconv.Unquote(q) // cannot fail after QuotedPrefix
		rx, err := regexp.Compile(pattern)
		if err != nil {
			return 0, nil, "", err
		}
		exps = append(exps, &expectation{rx: rx})
		s = s[len(q):]
	}
}

// checkExpectations matches the checked diagnostics with the `# want`
// comments and their related positions with the `# related` comments.
func (k *kase) checkExpectations(t Testing, ds []diag.Diagnostic) {
	t.Helper()
	want := map[key][]*expectation{}
	related := map[key][]*expectation{}
	for _, p := range slices.Sorted(maps.Keys(k.files)) {
		if !expectationFile(p) {
			continue
		}
		exps, errs := parseExpectations(k.files[p])
		for _, e := range errs {
			t.Errorf("%s:%s", k.show(p), e)
		}
		for line, es := range exps {
			for _, e := range es {
				if e.related {
					related[key{p, line}] = append(related[key{p, line}], e)
				} else {
					want[key{p, line}] = append(want[key{p, line}], e)
				}
			}
		}
	}

	// Every checked diagnostic takes one expectation of its line.
	type relPos struct {
		d diag.Diagnostic
		r diag.Related
	}
	rels := map[key][]relPos{}
	for _, d := range ds {
		if !k.checked(d) {
			continue
		}
		for _, r := range d.Related {
			rels[key{r.Path, r.Start.Line}] = append(rels[key{r.Path, r.Start.Line}], relPos{d, r})
		}
		text := d.Code + " " + d.Message
		if d.Help != "" {
			text += " help: " + d.Help
		}
		at := key{d.Path, d.Start.Line}
		exps := want[at]
		i := slices.IndexFunc(exps, func(e *expectation) bool { return e.rx.MatchString(text) })
		if i >= 0 {
			want[at] = slices.Delete(exps, i, i+1)
			continue
		}
		where := fmt.Sprintf("%s:%d:%d", k.show(d.Path), d.Start.Line, d.Start.Col)
		if len(exps) == 0 {
			t.Errorf("%s: unexpected diagnostic: %s", where, text)
			continue
		}
		var pats []string
		for _, e := range exps {
			pats = append(pats, fmt.Sprintf("%#q", e.rx))
		}
		t.Errorf("%s: diagnostic %q does not match pattern %s", where, text, strings.Join(pats, " or "))
	}
	for _, at := range sortedKeys(want) {
		for _, e := range want[at] {
			t.Errorf("%s:%d: no diagnostic was reported matching %#q", k.show(at.path), at.line, e.rx)
		}
	}

	// Every `# related` takes one related position of its line.
	for _, at := range sortedKeys(related) {
		here := rels[at]
		for _, e := range related[at] {
			i := slices.IndexFunc(here, func(rp relPos) bool { return e.rx.MatchString(rp.r.Message) })
			if i >= 0 {
				here = slices.Delete(here, i, i+1)
				continue
			}
			var msgs []string
			for _, rp := range here {
				msgs = append(msgs, fmt.Sprintf("%q (of %s at %s:%d)", rp.r.Message, rp.d.Code, rp.d.Path, rp.d.Start.Line))
			}
			switch {
			case len(msgs) > 0:
				t.Errorf("%s:%d: no related position was reported matching %#q; on this line: %s", k.show(at.path), at.line, e.rx, strings.Join(msgs, ", "))
			case len(rels[at]) > 0:
				t.Errorf("%s:%d: no related position was reported matching %#q (those on this line match other # related)", k.show(at.path), at.line, e.rx)
			default:
				t.Errorf("%s:%d: no related position was reported matching %#q (none on this line)", k.show(at.path), at.line, e.rx)
			}
		}
	}
}

func sortedKeys[V any](m map[key]V) []key {
	return slices.SortedFunc(maps.Keys(m), func(a, b key) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.line - b.line
	})
}
