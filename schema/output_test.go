package schema_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/output"
	"github.com/gymlint/gymlint/schema"
)

// The outputs are validated as gymlint prints them: the goldens of the
// check (testdata/gymrepo.golden.json) and of gymlint servers
// (testdata/refusalrepo.servers.json), which cli's TestGolden and
// TestServersFormats keep equal to what gymlint prints, and what
// output.JSON makes of a finding with every field. Outside the suite,
// GYMLINT_OUTPUT_JSON and GYMLINT_SERVERS_JSON name more files to
// validate (a run on another repository):
//
//	gymlint --contract latest --format json /tmp/gym > /tmp/out.json
//	GYMLINT_OUTPUT_JSON=/tmp/out.json go test ./schema -run TestOutputValidates -v

// validateFiles validates the JSON files against the schema, and
// returns how many items they hold.
func validateFiles(t *testing.T, name string, data []byte, files ...string) {
	t.Helper()
	sch := compile(t, name, data, "")
	for _, f := range files {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := jsonDoc(t, f, b)
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s is not valid for %s: %v", f, name, err)
			continue
		}
		items, _ := doc.([]any)
		t.Logf("%s: %d items valid for %s", f, len(items), name)
		if len(items) == 0 {
			t.Errorf("%s has no items: the test checks nothing", f)
		}
	}
}

func TestOutputValidates(t *testing.T) {
	validateFiles(t, "output.schema.json", schema.Output,
		filepath.Join(repoRoot, "testdata", "gymrepo.golden.json"), os.Getenv("GYMLINT_OUTPUT_JSON"))
	validateFiles(t, "servers.schema.json", schema.Servers,
		filepath.Join(repoRoot, "testdata", "refusalrepo.servers.json"), os.Getenv("GYMLINT_SERVERS_JSON"))
}

// TestOutputSchemaEveryField validates what output.JSON prints for
// findings with every field (a URL, related places, safe and unsafe
// fixes), for none, and checks that a finding that lacks a field, has one
// more, or has a wrong value is not valid.
func TestOutputSchemaEveryField(t *testing.T) {
	sch := compile(t, "output.schema.json", schema.Output, "")
	rules := lint.Rules()
	r := rules[0]
	d := r.New("resources_servers/a/app.py", diag.Pos{Offset: 10, Line: 2, Col: 7}, diag.Pos{Offset: 14, Line: 2, Col: 11}, "a message")
	d.Help = "what to do"
	d.Related = []diag.Related{{Path: "resources_servers/a/configs/a.yaml", Start: diag.Pos{Line: 3, Col: 5}, End: diag.Pos{Line: 3, Col: 9}, Message: "names it"}}
	edit := diag.TextEdit{Path: d.Path, Start: diag.Pos{Offset: 0, Line: 1, Col: 1}, End: diag.Pos{Offset: 0, Line: 1, Col: 1}, NewText: "import x\n"}
	d.Fixes = []diag.Fix{
		{Message: "a safe fix", Edits: []diag.TextEdit{edit}},
		{Message: "an unsafe fix", Applicability: diag.Unsafe, Edits: []diag.TextEdit{edit}},
	}
	bare := rules[len(rules)-1].New("x.py", diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "no end")
	lookup := func(code string) *diag.Rule {
		for _, r := range rules {
			if r.Code == code {
				return r
			}
		}
		return nil
	}
	for _, ds := range [][]diag.Diagnostic{nil, {d, bare}} {
		var b bytes.Buffer
		if err := output.JSON(&b, ds, lookup); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(jsonDoc(t, "output", b.Bytes())); err != nil {
			t.Errorf("output.JSON of %d findings is not valid: %v\n%s", len(ds), err, b.String())
		}
	}

	var b bytes.Buffer
	if err := output.JSON(&b, []diag.Diagnostic{d}, lookup); err != nil {
		t.Fatal(err)
	}
	for what, change := range map[string]func(f map[string]any){
		"no code":                func(f map[string]any) { delete(f, "code") },
		"no fixes":               func(f map[string]any) { delete(f, "fixes") },
		"a field more":           func(f map[string]any) { f["col"] = 1 },
		"a severity of fatal":    func(f map[string]any) { f["severity"] = "fatal" },
		"a line of 0":            func(f map[string]any) { f["line"] = 0 },
		"a column as a string":   func(f map[string]any) { f["column"] = "7" },
		"an absolute path":       func(f map[string]any) { f["path"] = "/etc/passwd" },
		"a code GL1":             func(f map[string]any) { f["code"] = "GL1" },
		"an unknown analyzer":    func(f map[string]any) { f["analyzer"] = "gonative" },
		"a fix of applicability": func(f map[string]any) { f["fixes"].([]any)[0].(map[string]any)["applicability"] = "maybe" },
		"an edit without new_text": func(f map[string]any) {
			delete(f["fixes"].([]any)[0].(map[string]any)["edits"].([]any)[0].(map[string]any), "new_text")
		},
		"a related without message": func(f map[string]any) { delete(f["related"].([]any)[0].(map[string]any), "message") },
	} {
		doc := jsonDoc(t, "output", b.Bytes()).([]any)
		change(doc[0].(map[string]any))
		if err := sch.Validate(doc); err == nil {
			t.Errorf("a finding with %s is valid", what)
		}
	}
}
