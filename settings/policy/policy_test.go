package policy

import (
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/settings"
)

func TestApply(t *testing.T) {
	s, err := settings.Parse(".gymlint.yaml", []byte(`
disable: [GL205]
severity: {GL106: info, workers: warning}
per_path_ignores:
  - paths: ["benchmarks/**"]
    rules: [undeclared-workers]
    reason: never run with several workers
`))
	if err != nil {
		t.Fatal(err)
	}
	ds := []diag.Diagnostic{
		{Path: "a/app.py", Code: "GL205", Severity: diag.Error},
		{Path: "benchmarks/x/app.py", Code: "GL101", Severity: diag.Error},
		{Path: "a/app.py", Code: "GL101", Severity: diag.Error},
		{Path: "a/app.py", Code: "GL106", Severity: diag.Error},
		{Path: "a/app.py", Code: "GL001", Severity: diag.Error},
	}
	got := Apply(s, ds)
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
	want := map[string]diag.Severity{"GL101": diag.Warning, "GL106": diag.Info, "GL001": diag.Error}
	for _, d := range got {
		if d.Path != "a/app.py" || d.Severity != want[d.Code] {
			t.Errorf("%+v", d)
		}
	}
	if ds[0].Severity != diag.Error || ds[3].Severity != diag.Error {
		t.Error("Apply changed its input")
	}
}

func TestEnable(t *testing.T) {
	s, err := settings.Parse("x", []byte("enable: [rayenabled, GL101]\ndisable: [GL205]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !Enabled(s, "GL101") || Enabled(s, "GL102") || Enabled(s, "GL205") {
		t.Errorf("enable/disable: %v", EnabledCodes(s))
	}
	if len(EnabledCodes(s)) < 2 || !Enabled(nil, "GL102") {
		t.Errorf("%v", EnabledCodes(s))
	}
}

func TestApplyExclude(t *testing.T) {
	s, err := settings.Parse("x", []byte("exclude: [output, \"**/scratch/*.py\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	ds := []diag.Diagnostic{
		{Path: "output/run/conf.yaml", Code: "GL005"},
		{Path: "a/scratch/app.py", Code: "GL101"},
		{Path: "a/scratch/sub/app.py", Code: "GL101"},
		{Path: "outputs/conf.yaml", Code: "GL005"},
	}
	got := Apply(s, ds)
	if len(got) != 2 || got[0].Path != "a/scratch/sub/app.py" || got[1].Path != "outputs/conf.yaml" {
		t.Errorf("got %+v", got)
	}
}
