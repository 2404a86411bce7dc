package fixes

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

// analysedAs is an Options.Analysed that knows the content the analysis
// read of each file.
func analysedAs(files map[string]string) func(string) (Sum, bool) {
	return func(p string) (Sum, bool) {
		c, ok := files[p]
		if !ok {
			return Sum{}, false
		}
		return sha256.Sum256([]byte(c)), true
	}
}

// renameFix is a GL010-like fix of app.py as analysed: "def total" (at
// byte 4 of the analysed text) becomes "def sum_total".
func renameFix() diag.Fix {
	return diag.Fix{Message: "rename", Edits: []diag.TextEdit{edit("app.py", 4, 4, "sum_")}}
}

const analysedApp = "def total(body):\n    return body\n"

// TestStaleFileNotFixed: a file edited between the analysis and --fix (five
// lines prepended) is left byte for byte as it is, and said to be; the
// other files' fixes are applied, and --diff does not show the stale one.
func TestStaleFileNotFixed(t *testing.T) {
	edited := "# 1\n# 2\n# 3\n# 4\n# 5\n" + analysedApp
	root := writeTree(t, map[string]string{"app.py": edited, "b.txt": "abc\n"})
	if err := os.Chmod(filepath.Join(root, "b.txt"), 0o640); err != nil {
		t.Fatal(err)
	}
	ds := []diag.Diagnostic{
		{Path: "app.py", Start: diag.Pos{Line: 1, Col: 5}, Code: "GL999", Fixes: []diag.Fix{renameFix()}},
		{Path: "app.py", Start: diag.Pos{Line: 2, Col: 5}, Code: "GL998", Fixes: []diag.Fix{{Message: "m", Edits: []diag.TextEdit{edit("app.py", 20, 22, "")}}}},
		{Path: "b.txt", Start: diag.Pos{Line: 1, Col: 1}, Code: "GL999", Fixes: []diag.Fix{{Message: "m", Edits: []diag.TextEdit{edit("b.txt", 0, 1, "A")}}}},
		// Two files, one of them stale: not taken at all.
		{Path: "b.txt", Start: diag.Pos{Line: 1, Col: 3}, Code: "GL997", Fixes: []diag.Fix{{Message: "m", Edits: []diag.TextEdit{edit("b.txt", 2, 3, "C"), edit("app.py", 0, 0, "#")}}}},
	}
	opts := Options{Analysed: analysedAs(map[string]string{"app.py": analysedApp, "b.txt": "abc\n"})}

	var out, errs bytes.Buffer
	if err := NewPlanFrom(root, ds, opts).Diff(&out, &errs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "app.py") || !strings.Contains(out.String(), "+++ b/b.txt") {
		t.Errorf("--diff shows:\n%s", out.String())
	}
	if !strings.Contains(errs.String(), "app.py: it changed since gymlint analysed it: its 3 fixes are not applied") {
		t.Errorf("--diff says:\n%s", errs.String())
	}

	errs.Reset()
	p := NewPlanFrom(root, ds, opts)
	if err := p.Apply(&errs); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "app.py")); string(got) != edited {
		t.Errorf("app.py was written:\n%s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "b.txt")); string(got) != "Abc\n" {
		t.Errorf("b.txt = %q, want its fix applied", got)
	}
	if st, _ := os.Stat(filepath.Join(root, "b.txt")); st.Mode().Perm() != 0o640 {
		t.Errorf("b.txt mode %v, want 0640 kept", st.Mode().Perm())
	}
	for _, want := range []string{
		"gymlint: app.py: it changed since gymlint analysed it: its 3 fixes are not applied (run gymlint again)\n",
		"gymlint: fixed b.txt: GL999 (1 edit)\n",
		"gymlint: applied 1 fix to 1 file; 1 file changed since the analysis and was left as it was (run gymlint --fix again)\n",
	} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs.String())
		}
	}

	// A file the analysis did not read, or read twice with different
	// contents (Analysed cannot say), is not fixed either.
	errs.Reset()
	opts.Analysed = analysedAs(map[string]string{"b.txt": "Abc\n"})
	if err := NewPlanFrom(root, ds[:1], opts).Apply(&errs); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "app.py")); string(got) != edited || !strings.Contains(errs.String(), "cannot tell which content of it the analysis read") {
		t.Errorf("app.py %q; stderr:\n%s", got, errs.String())
	}
}

// TestFreshFileFixed: the file as analysed is fixed, through a temporary
// file renamed over it (no temporary file is left), keeping its mode.
func TestFreshFileFixed(t *testing.T) {
	root := writeTree(t, map[string]string{"app.py": analysedApp})
	full := filepath.Join(root, "app.py")
	if err := os.Chmod(full, 0o755); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(full)
	ds := []diag.Diagnostic{{Path: "app.py", Start: diag.Pos{Line: 1, Col: 5}, Code: "GL999", Fixes: []diag.Fix{renameFix()}}}
	var errs bytes.Buffer
	if err := NewPlanFrom(root, ds, Options{Analysed: analysedAs(map[string]string{"app.py": analysedApp})}).Apply(&errs); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(full); string(got) != "def sum_total(body):\n    return body\n" {
		t.Errorf("app.py = %q", got)
	}
	after, _ := os.Stat(full)
	if after.Mode().Perm() != 0o755 || os.SameFile(before, after) {
		t.Errorf("mode %v (want 0755); same inode %v (want a new file renamed over it)", after.Mode().Perm(), os.SameFile(before, after))
	}
	if es, _ := os.ReadDir(root); len(es) != 1 {
		t.Errorf("the directory holds %d entries, want 1 (no temporary file left)", len(es))
	}
	if errs.String() != "gymlint: fixed app.py: GL999 (1 edit)\ngymlint: applied 1 fix to 1 file\n" {
		t.Errorf("stderr:\n%s", errs.String())
	}
}

// TestChangedWhileFixing: a file that changes after the plan read it
// (before the write, or while the new content is being written: lines
// appended) is left as the other writer made it, and said to be.
func TestChangedWhileFixing(t *testing.T) {
	for _, when := range []string{"before Apply", "during the write"} {
		t.Run(when, func(t *testing.T) {
			root := writeTree(t, map[string]string{"app.py": analysedApp})
			full := filepath.Join(root, "app.py")
			ds := []diag.Diagnostic{{Path: "app.py", Start: diag.Pos{Line: 1, Col: 5}, Code: "GL999", Fixes: []diag.Fix{renameFix()}}}
			p := NewPlanFrom(root, ds, Options{Analysed: analysedAs(map[string]string{"app.py": analysedApp})})
			appended := analysedApp + "x = 1\n"
			appendLine := func(string) {
				if err := os.WriteFile(full, []byte(appended), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if when == "before Apply" {
				appendLine("")
			} else {
				testHookBeforeLastCheck = appendLine
				defer func() { testHookBeforeLastCheck = nil }()
			}
			var errs bytes.Buffer
			if err := p.Apply(&errs); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(full); string(got) != appended {
				t.Errorf("app.py = %q, want the appended line kept and no fix", got)
			}
			if !strings.Contains(errs.String(), "app.py: it changed while gymlint was fixing it: its 1 fix is not applied") ||
				!strings.Contains(errs.String(), "applied 0 fixes to 0 files; 1 file changed since the analysis") {
				t.Errorf("stderr:\n%s", errs.String())
			}
			if es, _ := os.ReadDir(root); len(es) != 1 {
				t.Errorf("%d entries, want no temporary file left", len(es))
			}
		})
	}
}

// TestDiffQuotesUnusualPaths: a path with a line feed, a tab, a quote, a
// backslash, an escape or a bidirectional control is quoted in the --diff
// header as git quotes it, so that the header cannot break and `git
// apply` takes the patch; an ordinary path (non-ASCII letters included)
// is written as before.
func TestDiffQuotesUnusualPaths(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a/dir/app.py", "a/dir/app.py"},
		{"a/résumé/app.py", "a/résumé/app.py"},
		{"a/my dir/app.py", "a/my dir/app.py"},
		{"a/x\ny.py", `"a/x\ny.py"`},
		{"a/x\ty.py", `"a/x\ty.py"`},
		{`a/x"y\z.py`, `"a/x\"y\\z.py"`},
		{"a/\x1b[2J.py", `"a/\033[2J.py"`},
		{"a/x\u202eyp.py", `"a/x\342\200\256yp.py"`},
		{"a/é\x01", `"a/\303\251\001"`},
	} {
		if got := QuotePath(tc.in); got != tc.want {
			t.Errorf("QuotePath(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git: the patches are not checked with git apply")
	}
	for _, name := range []string{"dir\nx.py:1:1: GL999 forged/app.py", "t\tab.py", `q"uote\back.py`, "\x1b]0;title\x07.py", "rlo\u202eyp.py", "my dir/é.py", "plain.py"} {
		root := writeTree(t, map[string]string{name: analysedApp})
		run := func(args ...string) {
			t.Helper()
			cmd := exec.Command(git, args...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%q: git %s: %v\n%s", name, strings.Join(args, " "), err, out)
			}
		}
		run("init", "-q")
		ds := []diag.Diagnostic{{Path: name, Start: diag.Pos{Line: 1, Col: 5}, Code: "GL999",
			Fixes: []diag.Fix{{Message: "rename", Edits: []diag.TextEdit{edit(name, 4, 4, "sum_")}}}}}
		var out, errs bytes.Buffer
		if err := NewPlan(root, ds).Diff(&out, &errs); err != nil {
			t.Fatal(err)
		}
		if strings.Count(out.String(), "\n") != 6 || strings.ContainsAny(out.String()[:strings.Index(out.String(), "@@")], "\x1b\u202e") {
			t.Errorf("%q: diff\n%s", name, out.String())
		}
		patch := filepath.Join(t.TempDir(), "fix.patch")
		if err := os.WriteFile(patch, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		run("apply", "--check", patch)
		run("apply", patch)
		if got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(name))); string(got) != "def sum_total(body):\n    return body\n" {
			t.Errorf("%q after git apply: %q", name, got)
		}
	}
}

// TestMessagesEscaped: what Apply says on stderr is escaped: a path with a
// line feed or an escape sequence shows as text.
func TestMessagesEscaped(t *testing.T) {
	name := "d\x1b[2J/x\ny.py"
	root := writeTree(t, map[string]string{name: analysedApp})
	ds := []diag.Diagnostic{
		{Path: name, Start: diag.Pos{Line: 1, Col: 5}, Code: "GL999", Fixes: []diag.Fix{{Message: "rename", Edits: []diag.TextEdit{edit(name, 4, 4, "sum_")}}}},
		{Path: name, Start: diag.Pos{Line: 1, Col: 6}, Code: "GL998", Fixes: []diag.Fix{{Message: "\x1b]0;t\x07", Edits: []diag.TextEdit{edit(name, 3, 5, "x")}}}},
	}
	var errs bytes.Buffer
	if err := NewPlan(root, ds).Apply(&errs); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(errs.String(), "\x1b") || strings.Count(errs.String(), "\n") != 3 ||
		!strings.Contains(errs.String(), `gymlint: fixed d\x1b[2J/x\ny.py: GL999 (1 edit)`) {
		t.Errorf("stderr:\n%q", errs.String())
	}
}
