package goworkers_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gymlint/gymlint/analyzers/gohelp/gohelptest"
	"github.com/gymlint/gymlint/analyzers/goworkers"
)

// analyzer is goworkers with each diagnostic's help in its message, so
// that a `// want` pattern checks both ("MESSAGE help: HELP").
var analyzer = gohelptest.InMessage(goworkers.Analyzer)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzer,
		"clean", "bodykey", "funcserver", "funcdeclared", "factory", "emptyreason", "methodapi", "lookalike")
}

func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range goworkers.Rules {
		if r.Analyzer != "workers" || r.Severity == "" || r.Summary == "" {
			t.Errorf("%s: incomplete metadata %+v", r.Code, r)
		}
		if seen[r.Code] {
			t.Errorf("%s: duplicate code", r.Code)
		}
		seen[r.Code] = true
		for _, h := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix", "```go"} {
			if !strings.Contains(r.Doc, h) {
				t.Errorf("%s: doc lacks %q", r.Code, h)
			}
		}
		if !strings.HasPrefix(r.URL(), goworkers.Analyzer.URL+"#") {
			t.Errorf("%s: URL %s is not under the analyzer's %s", r.Code, r.URL(), goworkers.Analyzer.URL)
		}
	}
}

// TestDiagnosticDetails checks what // want cannot: the category, the URL,
// the end position and the related positions.
func TestDiagnosticDetails(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), analyzer, "bodykey", "emptyreason")
	type want struct {
		line    int
		code    string
		related []int // lines
	}
	wants := map[string][]want{
		"bodykey": {
			{47, "GL150", []int{36, 16}},
			{88, "GL150", []int{94, 71}},
			{102, "GL150", []int{111, 66}},
			{131, "GL150", []int{136, 117}},
		},
		"emptyreason": {{20, "GL151", nil}, {39, "GL151", nil}},
	}
	for _, r := range results {
		pkg := r.Pass.Pkg.Path()
		ws := wants[pkg]
		if len(r.Diagnostics) != len(ws) {
			t.Fatalf("%s: %d diagnostics, want %d", pkg, len(r.Diagnostics), len(ws))
		}
		for i, d := range r.Diagnostics {
			w := ws[i]
			pos := r.Pass.Fset.Position(d.Pos)
			if pos.Line != w.line || d.Category != w.code {
				t.Errorf("%s: diagnostic %d at line %d %s, want line %d %s", pkg, i, pos.Line, d.Category, w.line, w.code)
			}
			if !d.End.IsValid() || d.End <= d.Pos {
				t.Errorf("%s:%d: no end position", pkg, pos.Line)
			}
			var rule string
			for _, ru := range goworkers.Rules {
				if ru.Code == d.Category {
					rule = ru.URL()
				}
			}
			if d.URL != rule || rule == "" {
				t.Errorf("%s:%d: URL %q, want %q", pkg, pos.Line, d.URL, rule)
			}
			var lines []int
			for _, rel := range d.Related {
				lines = append(lines, r.Pass.Fset.Position(rel.Pos).Line)
			}
			if len(lines) != len(w.related) {
				t.Errorf("%s:%d: related lines %v, want %v", pkg, pos.Line, lines, w.related)
				continue
			}
			for j := range lines {
				if lines[j] != w.related[j] {
					t.Errorf("%s:%d: related lines %v, want %v", pkg, pos.Line, lines, w.related)
				}
			}
		}
	}
}
