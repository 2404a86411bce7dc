package lint

import (
	"flag"
	"os"
	"strings"
	"testing"
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
