package output

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

func TestEscape(t *testing.T) {
	if got, want := EscapeData("100% a:b,c\r\nd"), "100%25 a:b,c%0D%0Ad"; got != want {
		t.Errorf("EscapeData = %q, want %q", got, want)
	}
	if got, want := EscapeProperty("100% a:b,c\r\nd"), "100%25 a%3Ab%2Cc%0D%0Ad"; got != want {
		t.Errorf("EscapeProperty = %q, want %q", got, want)
	}
	if got := EscapeData("%0A"); got != "%250A" {
		t.Errorf("an escape in the input must not survive: %q", got)
	}
}

func TestGitHub(t *testing.T) {
	mk := func(sev diag.Severity, path, msg string) diag.Diagnostic {
		return diag.Diagnostic{Path: path, Start: diag.Pos{Line: 3, Col: 5}, End: diag.Pos{Line: 4, Col: 2},
			Code: "GL101", Rule: "undeclared-workers", Severity: sev, Message: msg}
	}
	var b bytes.Buffer
	err := Write(&b, "github", []diag.Diagnostic{
		mk(diag.Error, "a,b:c.py", "50% done\nnext: line"),
		mk(diag.Warning, "w.yaml", "w"),
		mk(diag.Info, "i.py", "i"),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "::error file=a%2Cb%3Ac.py,line=3,col=5,endLine=4,endColumn=2,title=GL101 undeclared-workers::50%25 done%0Anext: line\n" +
		"::warning file=w.yaml,line=3,col=5,endLine=4,endColumn=2,title=GL101 undeclared-workers::w\n" +
		"::notice file=i.py,line=3,col=5,endLine=4,endColumn=2,title=GL101 undeclared-workers::i\n" +
		"::notice title=gymlint summary::3 findings: 1 error, 1 warning, 1 info; GL101 undeclared-workers (error) 1, GL101 undeclared-workers (warning) 1, GL101 undeclared-workers (info) 1\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// many makes n diagnostics of the code, rule and severity.
func many(n int, code, rule string, sev diag.Severity) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for i := range n {
		ds = append(ds, diag.Diagnostic{Path: "a.py", Start: diag.Pos{Line: i + 1, Col: 1}, End: diag.Pos{Line: i + 1, Col: 2},
			Code: code, Rule: rule, Severity: sev, Message: "m"})
	}
	return ds
}

// TestGitHubSummary checks the summary notice after the annotations: the
// counts per severity and rule (rules by severity, then count), and the
// word that GitHub hides annotations past its limit.
func TestGitHubSummary(t *testing.T) {
	ds := append(many(12, "GL101", "undeclared-workers", diag.Error), many(2, "GL005", "missing-entrypoint", diag.Error)...)
	ds = append(ds, many(3, "GL007", "unused-exemption", diag.Warning)...)
	ds = append(ds, many(1, "GL402", "", diag.Info)...)
	var b bytes.Buffer
	if err := Write(&b, "github", ds, Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(ds)+1 {
		t.Fatalf("got %d lines for %d findings, want one more:\n%s", len(lines), len(ds), b.String())
	}
	want := "::notice title=gymlint summary::18 findings: 14 errors, 3 warnings, 1 info; GL101 undeclared-workers (error) 12, " +
		"GL005 missing-entrypoint (error) 2, GL007 unused-exemption (warning) 3, GL402 (info) 1; " +
		"GitHub shows at most 10 annotations of each kind per step: every finding is in this step's log"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}

	b.Reset()
	if err := Write(&b, "github", many(10, "GL101", "undeclared-workers", diag.Error), Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "at most") {
		t.Errorf("10 errors are all shown; the summary must not say some are hidden:\n%s", b.String())
	}

	b.Reset()
	if err := Write(&b, "github", nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "::notice title=gymlint summary::no findings\n" {
		t.Errorf("no findings: got %q", got)
	}
}

func TestStepSummary(t *testing.T) {
	ds := append(many(2, "GL101", "undeclared|workers", diag.Error), many(1, "GL007", "unused-exemption", diag.Warning)...)
	var out, sum bytes.Buffer
	if err := Write(&out, "github", ds, Options{StepSummary: &sum}); err != nil {
		t.Fatal(err)
	}
	want := "### gymlint\n\n3 findings: 2 errors, 1 warning, 0 info.\n\n" +
		"| Rule | Name | Severity | Findings |\n|---|---|---|---:|\n" +
		"| `GL101` | undeclared\\|workers | error | 2 |\n" +
		"| `GL007` | unused-exemption | warning | 1 |\n\n"
	if sum.String() != want {
		t.Errorf("step summary\n%s\nwant\n%s", sum.String(), want)
	}
	if strings.Contains(out.String(), "###") {
		t.Errorf("the step summary leaked into the annotations:\n%s", out.String())
	}
	sum.Reset()
	if err := Write(&out, "github", nil, Options{StepSummary: &sum}); err != nil || sum.String() != "### gymlint\n\nNo findings.\n" {
		t.Errorf("no findings: %v, %q", err, sum.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestStepSummaryError checks that a failing step summary is told apart
// from a failing output: the annotations are written, the error wraps
// ErrStepSummary.
func TestStepSummaryError(t *testing.T) {
	var out bytes.Buffer
	err := Write(&out, "github", many(1, "GL101", "undeclared-workers", diag.Error), Options{StepSummary: failWriter{}})
	if !errors.Is(err, ErrStepSummary) || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v, want it to wrap ErrStepSummary and say why", err)
	}
	if !strings.Contains(out.String(), "::error file=a.py") || !strings.Contains(out.String(), "gymlint summary") {
		t.Errorf("the annotations must be written before the summary fails:\n%s", out.String())
	}
	if err := Write(failWriter{}, "github", nil, Options{}); err == nil || errors.Is(err, ErrStepSummary) {
		t.Errorf("a failing output is not a step summary error: %v", err)
	}
}
