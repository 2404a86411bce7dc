package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

var testRule = &diag.Rule{Code: "GL101", Name: "undeclared-workers", Analyzer: "workers", Severity: diag.Error,
	Summary: "A server has no app.", Doc: "## What it does\nReports servers.\n"}

func lookupTest(code string) *diag.Rule {
	if code == testRule.Code {
		return testRule
	}
	return nil
}

func TestUTF16Column(t *testing.T) {
	for _, tc := range []struct {
		text      string
		byteCol   int
		want      int
		whatsThis string
	}{
		{"abc", 1, 1, "start"},
		{"abc", 3, 3, "ascii"},
		{"abc", 4, 4, "end of line"},
		{"abc", 6, 6, "past the end keeps its distance"},
		{"é = x", 4, 3, "é is 2 bytes, 1 unit"},
		{"日本 = x", 8, 4, "each CJK character is 3 bytes, 1 unit"},
		{"😀 x", 6, 4, "an emoji is 4 bytes, 2 units (a surrogate pair)"},
		{"a\xffb", 3, 3, "invalid byte counts one unit"},
		{"é", 2, 2, "inside a character"},
	} {
		if got := UTF16Column(tc.text, tc.byteCol); got != tc.want {
			t.Errorf("%s: UTF16Column(%q, %d) = %d, want %d", tc.whatsThis, tc.text, tc.byteCol, got, tc.want)
		}
	}
}

func writeSARIF(t *testing.T, root string, ds []diag.Diagnostic) sarifLog {
	t.Helper()
	var b bytes.Buffer
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) }
	if root == "" {
		read = nil
	}
	if err := Write(&b, "sarif", ds, Options{Root: root, Source: read, Rules: lookupTest, Catalog: []*diag.Rule{testRule}, Version: "v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	return log
}

func diagAt(path string, line, col, endCol int) diag.Diagnostic {
	d := testRule.New(path, diag.Pos{Line: line, Col: col}, diag.Pos{Line: line, Col: endCol}, "msg")
	return d
}

func TestSARIFColumnsNonASCII(t *testing.T) {
	// Lines end at "\n", "\r\n" or a lone "\r" (CPython's line ends, which
	// the findings' lines count).
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		testSARIFColumnsNonASCII(t, nl)
	}
}

func testSARIFColumnsNonASCII(t *testing.T, nl string) {
	root := t.TempDir()
	// "class Café😀Server(Base):" — the name starts at byte 7 and ends at byte 22.
	src := strings.ReplaceAll("# ünïcödé\nclass Café😀Server(Base):\n    pass\n", "\n", nl)
	if err := os.WriteFile(filepath.Join(root, "app.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := diagAt("app.py", 2, 7, 7+len("Café😀Server"))
	d.Related = []diag.Related{{Path: "app.py", Start: diag.Pos{Line: 1, Col: 3}, End: diag.Pos{Line: 1, Col: 14}, Message: "here"}}
	log := writeSARIF(t, root, []diag.Diagnostic{d})
	res := log.Runs[0].Results[0]
	r := res.Locations[0].PhysicalLocation.Region
	if r.StartColumn != 7 || r.EndColumn != 7+len([]rune("Café"))+2+len("Server") {
		t.Errorf("%q: region %+v, want columns 7..%d in UTF-16 units", nl, *r, 7+4+2+6)
	}
	rr := res.RelatedLocations[0].PhysicalLocation.Region
	if rr.StartColumn != 3 || rr.EndColumn != 10 {
		t.Errorf("%q: related region %+v, want columns 3..10", nl, *rr)
	}
	if log.Runs[0].ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", log.Runs[0].ColumnKind)
	}
}

func TestSARIFStructure(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a b", "app.py"), []byte("class S:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := diag.Diagnostic{Path: "x.yaml", Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2},
		Code: "GL999", Rule: "mystery", Severity: diag.Info, Message: "m"}
	log := writeSARIF(t, root, []diag.Diagnostic{diagAt("a b/app.py", 1, 7, 8), unknown})
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 {
		t.Fatalf("log header %q %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	drv := log.Runs[0].Tool.Driver
	if drv.Name != "gymlint" || drv.Version != "1.2.3" || drv.InformationURI == "" {
		t.Errorf("driver %+v", drv)
	}
	if len(drv.Rules) != 2 {
		t.Fatalf("rules %d, want the catalogue's one and the unknown one", len(drv.Rules))
	}
	r := drv.Rules[0]
	if r.ID != "GL101" || r.Name != "undeclared-workers" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" ||
		!strings.Contains(r.Help.Text, "Reports servers.") || !strings.Contains(r.Help.Markdown, "## What it does") ||
		r.HelpURI != testRule.URL() || r.DefaultConfiguration.Level != "error" {
		t.Errorf("rule %+v", r)
	}
	res := log.Runs[0].Results
	if len(res) != 2 {
		t.Fatalf("results %d", len(res))
	}
	for i, x := range res {
		if drv.Rules[x.RuleIndex].ID != x.RuleID {
			t.Errorf("result %d: ruleIndex %d names %s, not %s", i, x.RuleIndex, drv.Rules[x.RuleIndex].ID, x.RuleID)
		}
		if x.Message.Text == "" || len(x.Locations) != 1 || x.PartialFingerprints[FingerprintKey] == "" {
			t.Errorf("result %d incomplete: %+v", i, x)
		}
		al := x.Locations[0].PhysicalLocation.ArtifactLocation
		if al.URIBaseID != "%SRCROOT%" {
			t.Errorf("uriBaseId %q", al.URIBaseID)
		}
	}
	if u := res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; u != "a%20b/app.py" {
		t.Errorf("uri %q, want a%%20b/app.py", u)
	}
	if res[0].Level != "error" || res[1].Level != "note" {
		t.Errorf("levels %q %q", res[0].Level, res[1].Level)
	}
}

func fingerprints(t *testing.T, src string, ds []diag.Diagnostic) []string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "app.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var fps []string
	for _, r := range writeSARIF(t, root, ds).Runs[0].Results {
		fps = append(fps, r.PartialFingerprints[FingerprintKey])
	}
	return fps
}

func TestFingerprintStability(t *testing.T) {
	before := fingerprints(t, "import os\nclass A(B):\n    pass\nclass A(B):\n    pass\n",
		[]diag.Diagnostic{diagAt("app.py", 2, 7, 8), diagAt("app.py", 4, 7, 8)})
	if before[0] == before[1] {
		t.Errorf("two findings on identical lines share a fingerprint %q", before[0])
	}
	// An unrelated line above moves both findings down; indentation changes too.
	moved := fingerprints(t, "import os\nimport sys\n\nclass A(B):\n    pass\n  class A(B):\n    pass\n",
		[]diag.Diagnostic{diagAt("app.py", 4, 7, 8), diagAt("app.py", 6, 9, 10)})
	if before[0] != moved[0] || before[1] != moved[1] {
		t.Errorf("fingerprints changed when unrelated lines moved: %v -> %v", before, moved)
	}
	edited := fingerprints(t, "import os\nclass A(C):\n    pass\nclass A(B):\n    pass\n",
		[]diag.Diagnostic{diagAt("app.py", 2, 7, 8), diagAt("app.py", 4, 7, 8)})
	if edited[0] == before[0] {
		t.Errorf("editing the reported line kept its fingerprint %q", edited[0])
	}
}

// TestSARIFRuleHelp checks that help.markdown is the rule's doc as written
// and help.text the same doc made plain, each with the rule's page.
func TestSARIFRuleHelp(t *testing.T) {
	r := &diag.Rule{Code: "GL101", Name: "undeclared-workers", Analyzer: "workers", Severity: diag.Error,
		Summary: "A server has no app.",
		Doc:     "## What it does\nReports a **server class** without `app`.\n\n## Example\n```python\nclass A(B): pass\n```\n"}
	got := ruleToSARIF(r)
	wantText := "What it does\nReports a server class without app.\n\nExample\n    class A(B): pass\n\nRule documentation: " + r.URL()
	if got.Help.Text != wantText {
		t.Errorf("help.text\n%q\nwant\n%q", got.Help.Text, wantText)
	}
	wantMD := strings.TrimSpace(r.Doc) + "\n\n[Rule documentation](" + r.URL() + ")"
	if got.Help.Markdown != wantMD {
		t.Errorf("help.markdown\n%q\nwant\n%q", got.Help.Markdown, wantMD)
	}
	// Without a doc, both are the summary.
	got = ruleToSARIF(&diag.Rule{Code: "GL999", Name: "x", Summary: "Use `y`."})
	if !strings.HasPrefix(got.Help.Text, "Use y.\n\n") || !strings.HasPrefix(got.Help.Markdown, "Use `y`.\n\n") {
		t.Errorf("no doc: help %+v", got.Help)
	}
}
