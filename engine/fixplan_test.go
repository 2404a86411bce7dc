package engine

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/fixes"
	"github.com/gymlint/gymlint/internal/testtree"
)

// TestPlanFixesLeavesOutFixesThatCreateFindings plans three fixes over a
// fake linter in which a parent's refusal makes its subclass's app a new
// finding: the app's fix (in the new finding's file) is left out and
// reported, the others applied; and a finding that names no fixed file
// leaves every fix out.
func TestPlanFixesLeavesOutFixesThatCreateFindings(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"parent.py": "class P: pass\n",
		"child.py":  "class C(P): pass\n",
		"other.py":  "x = 1\n",
	})
	insert := func(path, text string) diag.Fix {
		p := diag.Pos{Offset: 0, Line: 1, Col: 1}
		return diag.Fix{Message: "fix " + path, Edits: []diag.TextEdit{{Path: path, Start: p, End: p, NewText: text}}, Applicability: diag.Unsafe}
	}
	ds := []diag.Diagnostic{
		{Path: "child.py", Code: "GL101", Start: diag.Pos{Line: 1, Col: 1}, Fixes: []diag.Fix{insert("child.py", "app = 1\n")}},
		{Path: "other.py", Code: "GL204", Start: diag.Pos{Line: 1, Col: 1}, Fixes: []diag.Fix{insert("other.py", "y = 2\n")}},
		{Path: "parent.py", Code: "GL101", Start: diag.Pos{Line: 1, Col: 1}, Fixes: []diag.Fix{insert("parent.py", "refuse = 1\n")}},
	}
	// The fake linter: the fixed findings are gone; an app beside a
	// refusing parent is GL106 in child.py, related to parent.py.
	rounds := 0
	lint := func(unrelated bool) Rescan {
		return func(overlay map[string][]byte) ([]diag.Diagnostic, error) {
			rounds++
			var out []diag.Diagnostic
			if strings.Contains(string(overlay["parent.py"]), "refuse") && strings.Contains(string(overlay["child.py"]), "app") {
				d := diag.Diagnostic{Path: "child.py", Code: "GL106", Message: "module-level app is never served", Start: diag.Pos{Line: 1}}
				if unrelated {
					d.Path = "configs/c.yaml"
				} else {
					d.Related = []diag.Related{{Path: "parent.py"}}
				}
				out = append(out, d)
			}
			return out, nil
		}
	}
	plan, err := PlanFixes(root, ds, fixes.Options{Unsafe: true}, lint(false))
	if err != nil {
		t.Fatal(err)
	}
	// Both fixes of the hierarchy touch the new finding's files: both
	// are left out; the unrelated one is applied.
	got := plan.Contents()
	if len(got) != 1 || string(got["other.py"]) != "y = 2\nx = 1\n" {
		t.Errorf("plan changes %v", fileNames(got))
	}
	if s := strings.Join(plan.Skipped(), "\n"); !strings.Contains(s, "child.py:1:1: GL101") || !strings.Contains(s, "would add GL106 at child.py:1") {
		t.Errorf("skipped:\n%s", s)
	}
	if rounds != 2 {
		t.Errorf("%d rounds, want 2 (the plan, then the plan without the fixes left out)", rounds)
	}

	// A new finding in a file no fix edits: every fix is left out.
	plan, err = PlanFixes(root, ds, fixes.Options{Unsafe: true}, lint(true))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Taken() != 0 || len(plan.Skipped()) != 3 || !strings.Contains(plan.Skipped()[0], "the fixes together would add GL106 at configs/c.yaml:1") {
		t.Errorf("taken %d, skipped:\n%s", plan.Taken(), strings.Join(plan.Skipped(), "\n"))
	}
}

func fileNames(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
