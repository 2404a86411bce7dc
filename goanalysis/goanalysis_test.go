package goanalysis

import (
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

// testEnv keeps go list offline and on the installed toolchain.
var testEnv = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local"}

// testRule is the catalogue entry of testAnalyzer's code.
var testRule = &diag.Rule{Code: "GL999", Name: "bad-name", Analyzer: "testing", Severity: diag.Error}

func testLookup(code string) *diag.Rule {
	if code == testRule.Code {
		return testRule
	}
	return nil
}

// testAnalyzer reports every function whose name starts with "bad", from the
// start of the name to the end of the function, with a related place at the
// function's body and a fix that renames it to "good...".
var testAnalyzer = &analysis.Analyzer{
	Name:     "badname",
	Doc:      "reports functions named bad*",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	// Its help comes through its result, as the Go rules' does.
	ResultType: gohelp.HelpsType,
	Run: func(pass *analysis.Pass) (any, error) {
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		helps := new(gohelp.Helps)
		ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(n ast.Node) {
			fd := n.(*ast.FuncDecl)
			if !strings.HasPrefix(fd.Name.Name, "bad") {
				return
			}
			helps.Report(pass, analysis.Diagnostic{
				Pos: fd.Name.Pos(), End: fd.End(), Category: "GL999",
				Message: "function " + fd.Name.Name + " is badly named",
				Related: []analysis.RelatedInformation{{Pos: fd.Body.Lbrace, End: fd.Body.Lbrace + 1, Message: "its body"}},
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "rename to good" + fd.Name.Name[3:],
					TextEdits: []analysis.TextEdit{{Pos: fd.Name.Pos(), End: fd.Name.Pos() + 3, NewText: []byte("good")}},
				}},
			}, "name it good"+fd.Name.Name[3:])
		})
		return helps, nil
	},
}

// plainAnalyzer reports without a category, at the package clause.
var plainAnalyzer = &analysis.Analyzer{
	Name: "plain",
	Doc:  "reports each file's package clause",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			pass.Reportf(f.Package, "package clause")
		}
		return nil, nil
	},
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		if err := writeFile(root, p, c); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(root, p, c string) error {
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return os.WriteFile(full, []byte(c), 0o644)
}

func TestModules(t *testing.T) {
	root := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.26\n"
	writeFiles(t, root, map[string]string{
		"go.mod":                  gomod,
		"sub/go.mod":              gomod,
		"a/b/c/go.mod":            gomod,
		"a/b/c/d/go.mod":          gomod, // nested in a nested module
		".hidden/go.mod":          gomod,
		"vendor/x/go.mod":         gomod,
		"testdata/go.mod":         gomod,
		"node_modules/y/go.mod":   gomod,
		"sub/__pycache__/go.mod":  gomod,
		"notamodule/go.mod.txt":   gomod,
		"dirnamed/go.mod/keep.go": "package keep\n", // a directory named go.mod
	})
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"go.mod": gomod})
	if err := os.Symlink(outside, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	got, err := Modules(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".", "a/b/c", "a/b/c/d", "sub"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Modules = %q, want %q", got, want)
	}
	if _, err := Modules(filepath.Join(root, "missing")); err == nil {
		t.Error("Modules of a missing root: no error")
	}
}

func TestOffset(t *testing.T) {
	data := []byte("ab\ncdé\n\nx")
	for _, tc := range []struct{ line, col, want int }{
		{1, 1, 0}, {1, 3, 2}, {2, 1, 3}, {2, 3, 5}, {2, 5, 7}, {2, 9, 7}, {3, 1, 8}, {4, 1, 9}, {4, 2, 10}, {9, 1, 10},
	} {
		if got := Offset(data, tc.line, tc.col); got != tc.want {
			t.Errorf("Offset(%d:%d) = %d, want %d", tc.line, tc.col, got, tc.want)
		}
	}
}

const srvGo = `package srv

// é: a comment with a multi-byte letter before the code.
var s = "é"; func badSeed() int {
	return 1
}

func goodClose() {}
`

// TestRun loads a module with a clean package, a package with a type error
// and a package that imports it, plus a nested module and a module whose
// go.mod does not parse, and checks every diagnostic's fields.
func TestRun(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"env/go.mod":               "module example.com/env\n\ngo 1.26\n",
		"env/srv/srv.go":           srvGo,
		"env/broken/broken.go":     "package broken\n\nfunc F() int { return undefinedName }\n",
		"env/usesbroken/uses.go":   "package usesbroken\n\nimport \"example.com/env/broken\"\n\nvar X = broken.F()\n",
		"env/nested/go.mod":        "module example.com/nested\n\ngo 1.26\n",
		"env/nested/n.go":          "package nested\n\nfunc badNested() {}\n",
		"bad/go.mod":               "module example.com/bad\n\ngo 1.26\nrequire (\n",
		"bad/b.go":                 "package b\n",
		"python/app.py":            "print('not Go')\n",
		"env/.hidden/go.mod":       "this is not parsed\n",
		"env/srv/testdata/data.go": "package data\n\nfunc badData() {}\n",
	})
	start := time.Now()
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Run took %s for %d modules, %d packages", time.Since(start), len(res.Modules), res.Packages)
	if want := []string{"bad", "env", "env/nested"}; !reflect.DeepEqual(res.Modules, want) {
		t.Errorf("Modules = %q, want %q", res.Modules, want)
	}
	if res.Packages != 4 {
		t.Errorf("Packages = %d, want 4 (srv, broken, usesbroken, nested)", res.Packages)
	}
	byPathCode := map[string]diag.Diagnostic{}
	for _, d := range res.Diagnostics {
		t.Logf("%s:%d:%d: %s %s", d.Path, d.Start.Line, d.Start.Col, d.Code, d.Message)
		byPathCode[d.Path+" "+d.Code] = d
	}
	if len(res.Diagnostics) != 5 {
		t.Errorf("got %d diagnostics, want 5", len(res.Diagnostics))
	}

	// The analyzer's diagnostic: byte columns, end, catalogue fields, related, fix.
	d, ok := byPathCode["env/srv/srv.go GL999"]
	if !ok {
		t.Fatal("no GL999 in env/srv/srv.go")
	}
	nameOff := strings.Index(srvGo, "badSeed")
	endOff := strings.Index(srvGo, "}\n\nfunc goodClose") + 1
	lbrace := strings.Index(srvGo, "{\n\treturn")
	want := diag.Diagnostic{
		Path: "env/srv/srv.go", Code: "GL999", Rule: "bad-name", Analyzer: "testing", Severity: diag.Error,
		Start:   diag.Pos{Offset: nameOff, Line: 4, Col: nameOff - strings.Index(srvGo, "var s") + 1},
		End:     diag.Pos{Offset: endOff, Line: 6, Col: 2},
		Message: "function badSeed is badly named",
		Help:    "name it goodSeed",
		Related: []diag.Related{{Path: "env/srv/srv.go", Start: diag.Pos{Offset: lbrace, Line: 4, Col: lbrace - strings.Index(srvGo, "var s") + 1},
			End: diag.Pos{Offset: lbrace + 1, Line: 4, Col: lbrace - strings.Index(srvGo, "var s") + 2}, Message: "its body"}},
		Fixes: []diag.Fix{{Message: "rename to goodSeed", Edits: []diag.TextEdit{{Path: "env/srv/srv.go",
			Start: diag.Pos{Offset: nameOff, Line: 4, Col: nameOff - strings.Index(srvGo, "var s") + 1},
			End:   diag.Pos{Offset: nameOff + 3, Line: 4, Col: nameOff - strings.Index(srvGo, "var s") + 4}, NewText: "good"}}}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("GL999 =\n%+v\nwant\n%+v", d, want)
	}
	if d.Start.Col != 20 { // "var s = \"é\"; func " is 19 bytes (é is 2)
		t.Errorf("byte column = %d, want 20", d.Start.Col)
	}

	// The type error, at its place, with its offset.
	te := byPathCode["env/broken/broken.go GL008"]
	off := strings.Index("package broken\n\nfunc F() int { return undefinedName }\n", "undefinedName")
	if te.Start != (diag.Pos{Offset: off, Line: 3, Col: 23}) || te.Rule != "go-load-error" || te.Severity != diag.Error || te.Analyzer != "core" ||
		!strings.Contains(te.Message, "example.com/env/broken does not type-check: undefined: undefinedName") {
		t.Errorf("type error = %+v", te)
	}
	// The package that imports it: not analyzed, said once at its file.
	dep := byPathCode["env/usesbroken/uses.go GL008"]
	if dep.Start.Line != 1 || !strings.Contains(dep.Message, "is not analyzed: it imports example.com/env/broken") {
		t.Errorf("dependency error = %+v", dep)
	}
	// The nested module is loaded on its own, with paths from the scanned root.
	if n, ok := byPathCode["env/nested/n.go GL999"]; !ok || n.Start.Line != 3 || n.Start.Col != 6 {
		t.Errorf("nested module diagnostic = %+v (found %v)", n, ok)
	}
	// The module whose go.mod does not parse: one diagnostic at go.mod.
	if b, ok := byPathCode["bad/go.mod GL008"]; !ok || b.Start.Line != 1 || !strings.Contains(b.Message, "Go module bad does not load: go: errors parsing go.mod: go.mod:5: syntax error (unterminated block started at bad/go.mod:4:1)") {
		t.Errorf("go.mod error = %+v (found %v)", b, ok)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Path, "testdata") || strings.Contains(d.Path, ".hidden") {
			t.Errorf("diagnostic in a skipped directory: %+v", d)
		}
	}
}

func TestRunWithoutCategoryOrRule(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.26\n",
		"p.go":   "package p\n",
	})
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{plainAnalyzer}, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	want := []diag.Diagnostic{{Path: "p.go", Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 1},
		Code: "plain", Rule: "plain", Analyzer: "plain", Severity: diag.Warning, Message: "package clause"}}
	if !reflect.DeepEqual(res.Diagnostics, want) {
		t.Errorf("got %+v\nwant %+v", res.Diagnostics, want)
	}
}

// A root reached through a symbolic link still gives root-relative paths.
func TestRunThroughSymlink(t *testing.T) {
	real := t.TempDir()
	writeFiles(t, real, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.26\n",
		"p.go":   "package p\n\nfunc badP() {}\n",
	})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	res, err := Run(link, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "p.go" || res.Diagnostics[0].Fixes[0].Edits[0].Path != "p.go" {
		t.Errorf("diagnostics = %+v", res.Diagnostics)
	}
}

// An analyzer that panics or fails gives a GL011 at the package's first
// file, and the other analyzers' findings stand.
func TestRunAnalyzerFailures(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.26\n",
		"p.go":   "package p\n\nfunc badP() {}\n",
	})
	internal := func(res *Result) []string {
		var out []string
		for _, d := range res.Diagnostics {
			if d.Code == core.InternalError.Code {
				out = append(out, d.Path+": "+d.Message)
			}
		}
		return out
	}
	panicking := &analysis.Analyzer{Name: "panicky", Doc: "panics", Run: func(*analysis.Pass) (any, error) { panic("boom") }}
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{panicking, testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := internal(res); len(got) != 1 || !strings.Contains(got[0], "p.go: internal error: analyzer panicky failed while checking package example.com/p: analyzer panicky panicked: boom") {
		t.Errorf("panicking analyzer: GL011 = %q", got)
	}
	if len(res.Diagnostics) != 2 {
		t.Errorf("the other analyzer's finding is kept: %+v", res.Diagnostics)
	}
	failing := &analysis.Analyzer{Name: "failing", Doc: "fails", Run: func(*analysis.Pass) (any, error) { return nil, os.ErrInvalid }}
	res, err = Run(root, Config{Analyzers: []*analysis.Analyzer{failing, testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := internal(res); len(got) != 1 || !strings.Contains(got[0], "analyzer failing failed while checking package example.com/p: invalid argument") {
		t.Errorf("failing analyzer: GL011 = %q", got)
	}
	if len(res.Diagnostics) != 2 {
		t.Errorf("the other analyzer's finding is kept: %+v", res.Diagnostics)
	}
	// An analyzer that requires a failing one: the cause is reported, once.
	dependent := &analysis.Analyzer{Name: "dependent", Doc: "needs failing", Requires: []*analysis.Analyzer{failing},
		Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	res, err = Run(root, Config{Analyzers: []*analysis.Analyzer{dependent}, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := internal(res); len(got) != 1 || !strings.Contains(got[0], "analyzer failing failed") {
		t.Errorf("dependent analyzer: GL011 = %q", got)
	}
	// A required analyzer that panics ends the module's analysis: one GL011 at go.mod.
	required := &analysis.Analyzer{Name: "required", Doc: "panics", ResultType: reflect.TypeOf(0), Run: func(*analysis.Pass) (any, error) { panic("deep") }}
	user := &analysis.Analyzer{Name: "user", Doc: "needs required", Requires: []*analysis.Analyzer{required},
		Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	res, err = Run(root, Config{Analyzers: []*analysis.Analyzer{user}, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got := internal(res); len(got) != 1 || !strings.Contains(got[0], "go.mod: internal error: the Go analysis of module . failed: it panicked: deep") {
		t.Errorf("panicking requirement: GL011 = %q", got)
	}
	if !slices.Equal(res.Files, []string{"p.go"}) {
		t.Errorf("Files = %q", res.Files)
	}
}

func TestRunNoModules(t *testing.T) {
	res, err := Run(t.TempDir(), Config{Analyzers: []*analysis.Analyzer{testAnalyzer}})
	if err != nil || len(res.Modules) != 0 || len(res.Diagnostics) != 0 {
		t.Errorf("Run on a tree without go.mod = %+v, %v", res, err)
	}
}

func TestRulesCatalogue(t *testing.T) {
	for _, r := range Rules {
		for _, part := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
			if !strings.Contains(r.Doc, part) {
				t.Errorf("%s: doc lacks %q", r.Code, part)
			}
		}
		if lookupOwn(r.Code) != r || lookupOwn(r.Name) != r {
			t.Errorf("%s: lookupOwn does not find it", r.Code)
		}
	}
}

func TestVetInvocation(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "vet.cfg")
	if err := os.WriteFile(cfg, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgDir := filepath.Join(dir, "repo.cfg")
	if err := os.Mkdir(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{cfg}, true},
		{[]string{"-json", cfg}, true},
		{[]string{"-fix", "-diff", cfg}, true},
		{[]string{"-badname.flag", "value", cfg}, true},
		{nil, false},
		{[]string{"-V=full", "x"}, false},
		{[]string{"-V"}, false},
		{[]string{"-flags", "."}, false},
		{[]string{cfgDir}, false},                                   // a directory: gymlint checks it
		{[]string{filepath.Join(dir, "missing.cfg")}, false},        // no such file: gymlint reports it
		{[]string{"servers", cfg}, false},                           // a subcommand
		{[]string{"-format", "json", "."}, false},                   // an ordinary check
		{[]string{"-exempt=" + cfg}, false},                         // a flag value, not the last argument
		{[]string{cfg, "."}, false},                                 // the cfg file must be last
		{[]string{"--format=text", filepath.Join(dir, "x")}, false}, // not .cfg
	} {
		if got := VetInvocation(tc.args); got != tc.want {
			t.Errorf("VetInvocation(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
