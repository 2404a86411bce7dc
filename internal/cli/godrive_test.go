package cli

import (
	"encoding/json"
	"go/ast"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/gymlint/gymlint/diag"
)

// badName reports every function named bad*, with a fix that renames it
// to good*.
var badName = &analysis.Analyzer{
	Name:     "badname",
	Doc:      "reports functions named bad*",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(n ast.Node) {
			fd := n.(*ast.FuncDecl)
			if !strings.HasPrefix(fd.Name.Name, "bad") {
				return
			}
			pass.Report(analysis.Diagnostic{
				Pos: fd.Name.Pos(), End: fd.Name.End(), Category: "GL999",
				Message: "function " + fd.Name.Name + " is badly named",
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "rename to good" + fd.Name.Name[3:],
					TextEdits: []analysis.TextEdit{{Pos: fd.Name.Pos(), End: fd.Name.Pos() + 3, NewText: []byte("good")}},
				}},
			})
		})
		return nil, nil
	},
}

// withGoAnalyzers makes the Go driver run as for the duration of the test,
// with go list offline.
func withGoAnalyzers(t *testing.T, as ...*analysis.Analyzer) {
	t.Helper()
	oldA, oldEnv := goAnalyzers, goEnv
	goAnalyzers = func() []*analysis.Analyzer { return as }
	goEnv = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local"}
	t.Cleanup(func() { goAnalyzers, goEnv = oldA, oldEnv })
}

const goSrv = `package srv

func badSeed() {}

func goodVerify() {}

func badClose() {}
`

// TestGoMerged checks that Go findings are merged with the Python ones, in
// text and JSON, and that a package that does not type-check is reported.
func TestGoMerged(t *testing.T) {
	withGoAnalyzers(t, badName)
	root := writeTree(t, map[string]string{
		"resources_servers/plain/app.py": plainServer,
		"native/go.mod":                  "module example.com/native\n\ngo 1.26\n",
		"native/srv/srv.go":              goSrv,
		"native/broken/broken.go":        "package broken\n\nvar X int = \"s\"\n",
	})
	out, errOut, code := run(t, root)
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := []string{
		`native/broken/broken.go:3:13: GL008 Go package example.com/native/broken does not type-check: cannot use "s" (untyped string constant) as int value in variable declaration`,
		"native/srv/srv.go:3:6: GL999 function badSeed is badly named",
		"native/srv/srv.go:7:6: GL999 function badClose is badly named",
		"resources_servers/plain/app.py:4:7: GL101 server class PlainServer",
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], w)
		}
	}
	if !strings.Contains(errOut, "gymlint: 4 findings;") || !strings.Contains(errOut, "2 Go packages in 1 module in") {
		t.Errorf("summary: %q", errOut)
	}

	out, _, code = run(t, "--format", "json", root)
	if code != ExitFindings {
		t.Fatalf("json exit %d", code)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d JSON diagnostics:\n%s", len(got), out)
	}
	le := got[0]
	if le["code"] != "GL008" || le["rule"] != "go-load-error" || le["analyzer"] != "core" || le["severity"] != "error" ||
		le["url"] != "https://github.com/gymlint/gymlint/blob/main/docs/rules.md#gl008-go-load-error" {
		t.Errorf("GL008 in JSON: %v", le)
	}
	g := got[1]
	fixes := g["fixes"].([]any)
	if g["code"] != "GL999" || g["end_column"].(float64) != 13 || len(fixes) != 1 {
		t.Fatalf("GL999 in JSON: %v", g)
	}
	edit := fixes[0].(map[string]any)["edits"].([]any)[0].(map[string]any)
	if edit["path"] != "native/srv/srv.go" || edit["offset"].(float64) != float64(strings.Index(goSrv, "badSeed")) || edit["new_text"] != "good" {
		t.Errorf("fix edit: %v", edit)
	}
}

// Without registered analyzers, a go.mod changes nothing.
func TestGoNoAnalyzers(t *testing.T) {
	withGoAnalyzers(t)
	root := writeTree(t, map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.26\n",
		"broken.go": "package m\n\nvar X int = \"s\"\n",
	})
	out, errOut, code := run(t, root)
	if code != ExitClean || out != "" || strings.Contains(errOut, "Go packages") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestFixAndDiff(t *testing.T) {
	withGoAnalyzers(t, badName)
	files := map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.26\n",
		"srv/srv.go":       goSrv,
		"other/other.go":   "package other\n\nfunc badOne() {}\n",
		"clean/clean.go":   "package clean\n\nfunc goodOne() {}\n",
		"resources/app.py": "print('no server here')\n",
	}
	fixed := map[string]string{
		"srv/srv.go":     strings.ReplaceAll(goSrv, "func bad", "func good"),
		"other/other.go": "package other\n\nfunc goodOne() {}\n",
	}

	// -diff prints a patch, changes nothing, and exits 1: there are findings.
	root := writeTree(t, files)
	diff, errOut, code := run(t, "-diff", "--quiet", root)
	if code != ExitFindings {
		t.Errorf("-diff exit %d, stderr %q", code, errOut)
	}
	wantDiff := `--- a/other/other.go
+++ b/other/other.go
@@ -1,3 +1,3 @@
 package other
 
-func badOne() {}
+func goodOne() {}
--- a/srv/srv.go
+++ b/srv/srv.go
@@ -1,7 +1,7 @@
 package srv
 
-func badSeed() {}
+func goodSeed() {}
 
 func goodVerify() {}
 
-func badClose() {}
+func goodClose() {}
`
	if diff != wantDiff {
		t.Errorf("-diff output:\n%s\nwant:\n%s", diff, wantDiff)
	}
	for p, c := range files {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != c {
			t.Errorf("-diff changed %s", p)
		}
	}
	if _, err := exec.LookPath("patch"); err == nil {
		cmd := exec.Command("patch", "-p1", "--quiet")
		cmd.Dir, cmd.Stdin = root, strings.NewReader(diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch -p1: %v\n%s", err, out)
		}
		for p, c := range fixed {
			if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != c {
				t.Errorf("after patch, %s =\n%s", p, b)
			}
		}
	}
	// -fix -diff is -diff, as with go vet.
	root = writeTree(t, files)
	if d, _, code := run(t, "-fix", "-diff", "--quiet", root); d != wantDiff || code != ExitFindings {
		t.Errorf("-fix -diff: exit %d\n%s", code, d)
	}
	if _, errOut, code := run(t, "-diff", "--format", "json", root); code != ExitError || !strings.Contains(errOut, "cannot be combined") {
		t.Errorf("-diff --format json: exit %d, stderr %q", code, errOut)
	}

	// -fix writes the files, says so, checks again: nothing is left.
	out, errOut, code := run(t, "-fix", root)
	if code != ExitClean || out != "" {
		t.Errorf("-fix: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, w := range []string{
		"gymlint: fixed other/other.go: GL999 (1 edit)\n",
		"gymlint: fixed srv/srv.go: GL999 (2 edits)\n",
		"gymlint: applied 3 fixes to 2 files\n",
		"gymlint: 0 findings;",
	} {
		if !strings.Contains(errOut, w) {
			t.Errorf("-fix stderr lacks %q:\n%s", w, errOut)
		}
	}
	for p, c := range fixed {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != c {
			t.Errorf("after -fix, %s =\n%s", p, b)
		}
	}
	if st, _ := os.Stat(filepath.Join(root, "srv/srv.go")); st.Mode().Perm() != 0o644 {
		t.Errorf("-fix changed the mode to %v", st.Mode())
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "srv")); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
	// Nothing more to fix.
	if _, errOut, code := run(t, "-fix", root); code != ExitClean || !strings.Contains(errOut, "applied 0 fixes to 0 files") {
		t.Errorf("second -fix: exit %d, stderr %q", code, errOut)
	}
}

func edit(path string, start, end int, text string) diag.TextEdit {
	return diag.TextEdit{Path: path, Start: diag.Pos{Offset: start}, End: diag.Pos{Offset: end}, NewText: text}
}

func finding(code string, line int, fixes ...diag.Fix) diag.Diagnostic {
	return diag.Diagnostic{Path: "a.txt", Start: diag.Pos{Line: line, Col: 1}, Code: code, Fixes: fixes}
}

func TestPlanFixes(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := writeTree(t, map[string]string{
		"a.txt":     "0123456789\n",
		"b.txt":     "abcdef\n",
		"dir/c.txt": "c\n",
	})
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "b.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	fix := func(es ...diag.TextEdit) diag.Fix { return diag.Fix{Message: "m", Edits: es} }
	ds := []diag.Diagnostic{
		finding("A", 1, fix(edit("a.txt", 0, 2, "xy"))),                          // taken
		finding("B", 1, fix(edit("a.txt", 1, 3, "zz"))),                          // overlaps A
		finding("C", 1, fix(edit("a.txt", 2, 2, "!"), edit("b.txt", 0, 1, "A"))), // taken: touches A, two files
		finding("D", 1, fix(edit("a.txt", 2, 2, "?"))),                           // insertion where C inserts
		finding("E", 1, fix(edit("a.txt", 0, 2, "xy"))),                          // identical to A: taken, no-op
		finding("F", 1, fix(edit("b.txt", 3, 4, "D"), edit("a.txt", 5, 5, "+"))), // taken
		finding("G", 1, fix(edit("a.txt", 8, 9, "8"), edit("b.txt", 3, 5, "x"))), // b.txt overlaps F: none of it taken
		finding("H", 1, fix(edit("../x.txt", 0, 0, "x"))),
		finding("I", 1, fix(edit("/etc/passwd", 0, 0, "x"))),
		finding("J", 1, fix(edit("out/secret.txt", 0, 0, "x"))),
		finding("K", 1, fix(edit("link.txt", 0, 0, "x"))),
		finding("L", 1, fix(edit("a.txt", 5, 99, "x"))),
		finding("M", 1, fix(edit("a.txt", 7, 6, "x"))),
		finding("N", 1, fix(edit("dir/../a.txt", 9, 9, "x"))),
		finding("O", 1, fix(edit("missing.txt", 0, 0, "x"))),
		finding("P", 1, fix(edit("dir/c.txt", 0, 1, "x"), edit("dir/c.txt", 0, 1, "y"))),
		finding("Q", 1, diag.Fix{Message: "empty"}),
		finding("R", 1, fix(edit("a.txt", 10, 11, "\r\n")), fix(edit("a.txt", 0, 10, "second fix is ignored"))),
		finding("S", 1),
	}
	p := planFixes(root, ds)
	if p.taken != 5 {
		t.Errorf("taken = %d, want 5 (A C E F R)", p.taken)
	}
	if got := string(p.files["a.txt"].content()); got != "xy!234+56789\r\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := string(p.files["b.txt"].content()); got != "Abc"+"D"+"ef\n" {
		t.Errorf("b.txt = %q", got)
	}
	if f := p.files["dir/c.txt"]; f != nil && len(f.edits) != 0 {
		t.Errorf("dir/c.txt has edits: %+v", f.edits)
	}
	skipped := strings.Join(p.skipped, "\n")
	for _, code := range []string{"B", "D", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q"} {
		if !strings.Contains(skipped, ": "+code+": fix") {
			t.Errorf("fix %s not skipped:\n%s", code, skipped)
		}
	}
	if n := len(p.skipped); n != 13 {
		t.Errorf("%d skipped, want 13:\n%s", n, skipped)
	}
	for _, want := range []string{"overlaps the fix of another finding in a.txt", "not a path inside the root",
		"outside the root (through a symbolic link)", "link.txt is not a regular file", "own edits of dir/c.txt overlap", "it has no edits"} {
		if !strings.Contains(skipped, want) {
			t.Errorf("no reason %q in:\n%s", want, skipped)
		}
	}
}

func TestUnifiedDiffShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		old   string
		edits []diag.TextEdit
		want  string
	}{
		{"no change", "a\n", []diag.TextEdit{edit("f", 0, 1, "a")}, ""},
		{"insert at end", "a\n", []diag.TextEdit{edit("f", 2, 2, "b\n")}, "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"delete all", "a\n", []diag.TextEdit{edit("f", 0, 2, "")}, "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n"},
		{"empty file", "", []diag.TextEdit{edit("f", 0, 0, "x\n")}, "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n"},
		{"no final newline", "a\nb", []diag.TextEdit{edit("f", 2, 3, "c")},
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"add final newline", "a", []diag.TextEdit{edit("f", 1, 1, "\n")},
			"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"join lines", "a\nb\nc\n", []diag.TextEdit{edit("f", 1, 2, " ")},
			"--- a/f\n+++ b/f\n@@ -1,3 +1,2 @@\n-a\n-b\n+a b\n c\n"},
	} {
		if got := unifiedDiff("f", []byte(tc.old), tc.edits, 3); got != tc.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
	// Two changes far apart make two hunks.
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		b.WriteString("line\n")
	}
	old := b.String()
	got := unifiedDiff("f", []byte(old), []diag.TextEdit{edit("f", 0, 4, "LINE"), edit("f", 5*19, 5*19+4, "LAST")}, 3)
	if strings.Count(got, "@@ -") != 2 || !strings.Contains(got, "@@ -1,4 +1,4 @@") || !strings.Contains(got, "@@ -17,4 +17,4 @@") {
		t.Errorf("two hunks:\n%s", got)
	}
}

// TestUnifiedDiffPatch checks random edits of random files: `patch` given
// the diff makes exactly the edited file.
func TestUnifiedDiffPatch(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch command")
	}
	rng := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "\n", "\n", "xyz", "\n\n", "é"}
	randText := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[rng.Intn(len(words))])
		}
		return b.String()
	}
	dir := t.TempDir()
	for iter := 0; iter < 150; iter++ {
		old := randText(rng.Intn(60))
		var edits []diag.TextEdit
		pos := 0
		for pos <= len(old) && rng.Intn(4) != 0 {
			start := pos + rng.Intn(len(old)-pos+1)
			end := start + rng.Intn(min(4, len(old)-start)+1)
			edits = append(edits, edit("f", start, end, randText(rng.Intn(3))))
			pos = end + 1
		}
		want := string(applyEdits([]byte(old), edits))
		d := unifiedDiff("f", []byte(old), edits, rng.Intn(4))
		if (d == "") != (want == old) {
			t.Fatalf("old %q edits %v: diff %q", old, edits, d)
		}
		if d == "" {
			continue
		}
		file := filepath.Join(dir, "f")
		if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("patch", "-p1", "--quiet", "--force")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("old %q edits %v:\n%s\npatch: %v %s", old, edits, d, err, out)
		}
		if got, _ := os.ReadFile(file); string(got) != want {
			t.Fatalf("old %q edits %v:\n%s\npatched %q, want %q", old, edits, d, got, want)
		}
	}
}
