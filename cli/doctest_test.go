package cli

import (
	"fmt"
	"github.com/gymlint/gymlint/internal/mdfence"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The documentation's examples are tested, as rustdoc and ruff test
// theirs. In README.md and docs/guide/*.md, a fenced block whose info
// string is `sh doctest` (`sh doctest exit=N` when its exit status is not 0) holds one gymlint
// command, run from the top of the repository; the fenced block after it
// with info `text` is what it prints on stdout, and an optional block after
// that with info `text stderr` what it prints on stderr. In an expected
// line, `[...]` matches any text (a duration), and a line that is only
// `...` matches any number of lines.

// docExample is one tested example.
type docExample struct {
	file    string
	line    int
	args    []string
	exit    int
	stdout  []string
	stderr  []string
	hasErr  bool
	hasExit bool
}

// docExamples reads the tested examples of a Markdown file.
func docExamples(t *testing.T, file string) []docExample {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fs := mdfence.Blocks(string(data))
	var out []docExample
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		fields := strings.Fields(f.Info)
		if len(fields) < 2 || fields[0] != "sh" || fields[1] != "doctest" {
			continue
		}
		ex := docExample{file: file, line: f.Line, hasExit: true} // exit 0 unless the block says otherwise
		for _, opt := range fields[2:] {
			if v, ok := strings.CutPrefix(opt, "exit="); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("%s:%d: bad %q", file, f.Line, opt)
				}
				ex.exit, ex.hasExit = n, true
			}
		}
		if len(f.Lines) != 1 {
			t.Fatalf("%s:%d: a doctest block holds one command", file, f.Line)
		}
		args := shellWords(f.Lines[0])
		if len(args) == 0 || args[0] != "gymlint" {
			t.Fatalf("%s:%d: a doctest command runs gymlint: %q", file, f.Line, f.Lines[0])
		}
		ex.args = args[1:]
		if i+1 >= len(fs) || fs[i+1].Info != "text" {
			t.Fatalf("%s:%d: a doctest block is followed by a text block of its output", file, f.Line)
		}
		ex.stdout = fs[i+1].Lines
		i++
		if i+1 < len(fs) && fs[i+1].Info == "text stderr" {
			ex.stderr, ex.hasErr = fs[i+1].Lines, true
			i++
		}
		out = append(out, ex)
	}
	return out
}

// shellWords splits a command line at spaces, with single and double
// quotes (no escapes, no variables: the examples need none).
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// matchLines reports whether got matches the expected lines (see the
// package comment), and where it first does not.
func matchLines(want, got []string) (bool, string) {
	var pat strings.Builder
	pat.WriteString(`\A`)
	for _, w := range want {
		if w == "..." {
			pat.WriteString(`(?:.*\n)*?`)
			continue
		}
		parts := strings.Split(w, "[...]")
		for i, p := range parts {
			if i > 0 {
				pat.WriteString(`.*`)
			}
			pat.WriteString(regexp.QuoteMeta(p))
		}
		pat.WriteString(`\n`)
	}
	pat.WriteString(`\z`)
	text := strings.Join(got, "\n")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if len(got) == 0 || len(got) == 1 && got[0] == "" {
		text = ""
	}
	re, err := regexp.Compile(pat.String())
	if err != nil {
		return false, err.Error()
	}
	if re.MatchString(text) {
		return true, ""
	}
	return false, fmt.Sprintf("want:\n%s\ngot:\n%s", strings.Join(want, "\n"), text)
}

func TestDocExamples(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "guide", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{filepath.Join("..", "README.md")}, pages...)
	var all []docExample
	for _, f := range files {
		all = append(all, docExamples(t, f)...)
	}
	if len(all) == 0 {
		t.Fatal("no tested example in the documentation")
	}
	readme := 0
	for _, ex := range all {
		if strings.HasSuffix(ex.file, "README.md") {
			readme++
		}
	}
	if readme == 0 {
		t.Error("the README's quick start has no tested example")
	}
	for _, ex := range all {
		name := fmt.Sprintf("%s:%d", filepath.Base(ex.file), ex.line)
		t.Run(name, func(t *testing.T) {
			t.Setenv("NO_COLOR", "1")
			t.Setenv("GYMLINT_CACHE_DIR", t.TempDir())
			t.Chdir("..")
			out, errOut, code := run(t, ex.args...)
			if ex.hasExit && code != ex.exit {
				t.Errorf("gymlint %s: exit %d, the page says %d\nstderr:\n%s", strings.Join(ex.args, " "), code, ex.exit, errOut)
			}
			if ok, diff := matchLines(ex.stdout, strings.Split(strings.TrimSuffix(out, "\n"), "\n")); !ok {
				t.Errorf("gymlint %s: stdout differs from the page\n%s", strings.Join(ex.args, " "), diff)
			}
			if ex.hasErr {
				if ok, diff := matchLines(ex.stderr, strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")); !ok {
					t.Errorf("gymlint %s: stderr differs from the page\n%s", strings.Join(ex.args, " "), diff)
				}
			}
		})
	}
}

// The matcher itself: exact lines, `[...]` and `...`.
func TestMatchLines(t *testing.T) {
	for _, tc := range []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"a", "b"}, []string{"a", "b"}, true},
		{[]string{"a", "b"}, []string{"a", "c"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{[]string{"a", "..."}, []string{"a", "b", "c"}, true},
		{[]string{"...", "c"}, []string{"a", "b", "c"}, true},
		{[]string{"x [...] z"}, []string{"x 0.12s z"}, true},
		{[]string{"x [...] z"}, []string{"x 0.12s y"}, false},
		{[]string{"a.b"}, []string{"axb"}, false},
	} {
		if ok, _ := matchLines(tc.want, tc.got); ok != tc.ok {
			t.Errorf("matchLines(%q, %q) = %v", tc.want, tc.got, ok)
		}
	}
}

// Every relative link of the README and the guide leads to a file of the
// repository, and to a heading of it when it names one (GitHub's anchors).
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "guide", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan := regexp.MustCompile("`[^`]*`")
	anchorsOf := map[string]map[string]bool{}
	anchors := func(file string) map[string]bool {
		if a, ok := anchorsOf[file]; ok {
			return a
		}
		a := map[string]bool{}
		data, err := os.ReadFile(file)
		if err == nil {
			inFence := false
			for _, l := range strings.Split(string(data), "\n") {
				if strings.HasPrefix(l, "```") {
					inFence = !inFence
					continue
				}
				if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && !inFence && strings.HasPrefix(l, "#") {
					a[slug(h)] = true
				}
			}
		}
		anchorsOf[file] = a
		return a
	}
	n := 0
	for _, page := range append(pages, filepath.Join("..", "README.md")) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "```") {
				inFence = !inFence
			}
			if inFence {
				continue
			}
			for _, m := range link.FindAllStringSubmatch(codeSpan.ReplaceAllString(l, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				n++
				file, anchor, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), file)
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link %s: no file %s", page, i+1, target, path)
					continue
				}
				if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(path)[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading #%s", page, i+1, target, path, anchor)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no relative link found")
	}
}

// slug is GitHub's anchor for a heading: lower case, punctuation other
// than - and _ dropped, spaces made -.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && unicode.IsLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
