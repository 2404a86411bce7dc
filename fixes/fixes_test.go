package fixes

import (
	"github.com/gymlint/gymlint/internal/testtree"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

func writeTree(t *testing.T, files map[string]string) string { return testtree.New(t, files) }

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
	p := NewPlan(root, ds)
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
		if got := UnifiedDiff("f", []byte(tc.old), tc.edits, 3); got != tc.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
	// Two changes far apart make two hunks.
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		b.WriteString("line\n")
	}
	old := b.String()
	got := UnifiedDiff("f", []byte(old), []diag.TextEdit{edit("f", 0, 4, "LINE"), edit("f", 5*19, 5*19+4, "LAST")}, 3)
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
		d := UnifiedDiff("f", []byte(old), edits, rng.Intn(4))
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

// TestSet: whole fixes in order, an identical edit kept once, a fix with
// one conflicting edit refused whole; the editor's fix-all takes the same.
func TestSet(t *testing.T) {
	var s Set
	imp := edit("a.py", 0, 0, "import x\n")
	if err := s.Add([]diag.TextEdit{imp, edit("a.py", 10, 12, "A")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Add([]diag.TextEdit{imp, edit("a.py", 20, 22, "B")}); err != nil {
		t.Errorf("a second fix adding the same import: %v", err)
	}
	if err := s.Add([]diag.TextEdit{edit("b.py", 0, 1, "C"), edit("a.py", 11, 13, "D")}); err == nil || !strings.Contains(err.Error(), "overlaps the fix of another finding in a.py") {
		t.Errorf("a conflicting fix: err %v", err)
	}
	if err := s.Add([]diag.TextEdit{edit("c.py", 0, 0, "x"), edit("c.py", 0, 0, "y")}); err == nil {
		t.Error("a fix inserting twice at one place: no error")
	}
	var got []string
	for _, e := range s.Edits() {
		got = append(got, e.Path+":"+e.NewText)
	}
	if strings.Join(got, " ") != "a.py:import x\n a.py:A a.py:B" {
		t.Errorf("edits = %q", got)
	}
}

// Unsafe fixes are left out unless asked for, and then taken only where a
// finding has no safe fix; Fixable and Hint count them.
func TestUnsafeFixes(t *testing.T) {
	root := writeTree(t, map[string]string{"a.txt": "0123456789\n"})
	safe := diag.Fix{Message: "safe", Edits: []diag.TextEdit{edit("a.txt", 0, 1, "S")}}
	unsafe := func(at int) diag.Fix {
		return diag.Fix{Message: "stub", Applicability: diag.Unsafe, Edits: []diag.TextEdit{edit("a.txt", at, at+1, "U")}}
	}
	ds := []diag.Diagnostic{
		finding("A", 1, safe),
		finding("B", 1, unsafe(3)),
		finding("C", 1, unsafe(5), diag.Fix{Message: "second, safe", Edits: []diag.TextEdit{edit("a.txt", 7, 8, "s")}}),
		finding("D", 1),
	}
	if got := string(NewPlan(root, ds).files["a.txt"].content()); got != "S123456s89\n" {
		t.Errorf("safe only: %q", got)
	}
	if got := string(NewPlanWith(root, ds, true).files["a.txt"].content()); got != "S12U456s89\n" {
		t.Errorf("with unsafe: %q (C keeps its safe fix)", got)
	}
	if s, u := Fixable(ds); s != 2 || u != 1 {
		t.Errorf("Fixable = %d, %d", s, u)
	}
	if h := Hint(ds, false); !strings.HasPrefix(h, "2 fixable with --fix") || !strings.Contains(h, "1 more with unsafe fixes") || !strings.Contains(h, "--diff --unsafe-fixes") {
		t.Errorf("Hint: %q", h)
	}
	if h := Hint(ds[3:], false); h != "" {
		t.Errorf("Hint without fixes: %q", h)
	}
}

// TestSetComposesLineInsertions checks that whole lines inserted at one
// line start by two fixes are both kept, in the fixes' order, once each,
// and that other insertions at one place still conflict.
func TestSetComposesLineInsertions(t *testing.T) {
	line := func(off int, text string) diag.TextEdit {
		return diag.TextEdit{Path: "a.py", Start: diag.Pos{Offset: off, Line: 2, Col: 1}, End: diag.Pos{Offset: off, Line: 2, Col: 1}, NewText: text}
	}
	var s Set
	for _, es := range [][]diag.TextEdit{
		{line(10, "import a\n")},
		{line(10, "import b\n"), edit("a.py", 20, 21, "x")},
		{line(10, "import a\n")},                  // already there: kept once
		{line(10, "import b\n"), line(30, "c\n")}, // b once, c added
	} {
		if err := s.Add(es); err != nil {
			t.Fatalf("Add(%v): %v", es, err)
		}
	}
	got := s.Edits()
	if len(got) != 3 || got[0].NewText != "import a\nimport b\n" || got[1].NewText != "x" || got[2].NewText != "c\n" {
		t.Fatalf("edits = %+v", got)
	}
	// Not whole lines: an insertion in the middle of a line.
	if err := s.Add([]diag.TextEdit{{Path: "a.py", Start: diag.Pos{Offset: 10, Col: 5}, End: diag.Pos{Offset: 10, Col: 5}, NewText: ", c"}}); err == nil {
		t.Error("an insertion inside a line composed with a line insertion")
	}
	// A fix whose second edit conflicts adds nothing, its line insertion
	// included.
	if err := s.Add([]diag.TextEdit{line(10, "import d\n"), edit("a.py", 20, 21, "y")}); err == nil {
		t.Fatal("a conflicting fix was added")
	}
	if got := s.Edits(); got[0].NewText != "import a\nimport b\n" {
		t.Errorf("a refused fix changed the set: %q", got[0].NewText)
	}
}
