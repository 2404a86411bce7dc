package cli

import (
	"encoding/json"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
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
	goAnalyzers = func() []*analysis.Analyzer { return append([]*analysis.Analyzer{}, as...) }
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
	t.Chdir(root)
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

// A Go analyzer that panics: the other findings are printed, with one GL011
// for the failure, and the exit status is 2 (the check is incomplete), even
// with --exit-zero.
func TestInternalErrorExit(t *testing.T) {
	panicky := &analysis.Analyzer{Name: "panicky", Doc: "panics", Run: func(*analysis.Pass) (any, error) { panic("boom") }}
	withGoAnalyzers(t, panicky, badName)
	root := writeTree(t, map[string]string{
		"resources_servers/plain/app.py": plainServer,
		"native/go.mod":                  "module example.com/native\n\ngo 1.26\n",
		"native/srv/srv.go":              goSrv,
	})
	for _, args := range [][]string{{root}, {"--exit-zero", root}} {
		out, errOut, code := run(t, args...)
		if code != ExitError || strings.Count(out, "GL011") != 1 || !strings.Contains(out, "analyzer panicky panicked: boom") ||
			strings.Count(out, "GL999") != 2 || !strings.Contains(out, "GL101") {
			t.Errorf("gymlint %v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}
