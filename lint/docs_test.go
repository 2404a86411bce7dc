package lint

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

func TestRulesDoc(t *testing.T) {
	const path = "../docs/rules.md"
	got := RulesMarkdown()
	if *update {
		if err := os.MkdirAll("../docs", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("docs/rules.md is out of date with the rule catalogue: run go test ./lint -run TestRulesDoc -update")
	}
}

// TestCatalogue checks every rule's identity and that its doc has the four
// parts a rule page needs.
func TestCatalogue(t *testing.T) {
	codes, names := map[string]bool{}, map[string]bool{}
	for _, r := range Rules() {
		if codes[r.Code] || names[r.Name] {
			t.Errorf("duplicate rule code or name: %s %s", r.Code, r.Name)
		}
		codes[r.Code], names[r.Name] = true, true
		if len(r.Code) != 5 || !strings.HasPrefix(r.Code, "GL") {
			t.Errorf("%s: code must look like GL123", r.Code)
		}
		if r.Name != strings.ToLower(r.Name) || strings.ContainsAny(r.Name, " _") {
			t.Errorf("%s: name %q must be kebab-case", r.Code, r.Name)
		}
		for _, part := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
			if !strings.Contains(r.Doc, part) {
				t.Errorf("%s: doc lacks %q", r.Code, part)
			}
		}
		if r.Summary == "" || r.Severity == "" || r.Analyzer == "" {
			t.Errorf("%s: summary, severity and analyzer are required", r.Code)
		}
		if Lookup(r.Code) != r || Lookup(r.Name) != r {
			t.Errorf("%s: Lookup does not find the rule by code and name", r.Code)
		}
	}
}

// Every contract fact a rule needs is one that package contract reads, and
// the rules of native Go servers need none (they are judged by the
// protocol, not by a Python framework).
func TestRuleNeedsAreFacts(t *testing.T) {
	for _, r := range Rules() {
		for _, f := range r.Needs {
			if contract.InfoOf(f) == nil {
				t.Errorf("%s needs %q, which is not a contract fact", r.Code, f)
			}
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(r.Code, "GL"))
		if len(r.Needs) > 0 && (n < 101 || n%100 >= 50) { // core, and the Go rules (x50-x99)
			t.Errorf("%s (%s) needs %v", r.Code, r.Analyzer, r.Needs)
		}
	}
}

// TestRuleDocFiles checks that the rule docs kept as Markdown files beside
// the rules (docs/CODE.md in each rule's package, embedded) are exactly the
// catalogue's: every file is the doc of one rule (a file that no rule reads
// would be embedded and never shown), and no rule has two. A rule without
// its file does not get this far: diag.ReadDoc panics at init.
func TestRuleDocFiles(t *testing.T) {
	byCode := map[string]*diag.Rule{}
	for _, r := range Rules() {
		byCode[r.Code] = r
	}
	files, err := filepath.Glob("../*/docs/GL*.md")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../*/*/docs/GL*.md")
	files = append(files, more...)
	seen := map[string]string{}
	for _, f := range files {
		code := strings.TrimSuffix(filepath.Base(f), ".md")
		r := byCode[code]
		if r == nil {
			t.Errorf("%s documents no rule of the catalogue", f)
			continue
		}
		if prev, dup := seen[code]; dup {
			t.Errorf("%s is documented twice: %s and %s", code, prev, f)
		}
		seen[code] = f
	}
	for code := range byCode {
		if seen[code] == "" {
			t.Errorf("%s has no docs/%s.md beside it", code, code)
		}
	}
}
