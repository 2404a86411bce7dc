package gohelp_test

import (
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
)

// TestReportAndOf: the help reported with a diagnostic is found for that
// diagnostic only (same position, end, code and message); a result that
// is not a *Helps, or a diagnostic reported without help, has none; and
// Report passes every diagnostic on.
func TestReportAndOf(t *testing.T) {
	var reported []analysis.Diagnostic
	pass := &analysis.Pass{Report: func(d analysis.Diagnostic) { reported = append(reported, d) }}
	h := new(gohelp.Helps)
	a := analysis.Diagnostic{Pos: 10, End: 20, Category: "GL350", Message: "the seed handler answers 500"}
	b := analysis.Diagnostic{Pos: 10, End: 20, Category: "GL351", Message: "the close handler deletes"}
	c := analysis.Diagnostic{Pos: 30, End: 40, Category: "GL350", Message: "no help here"}
	h.Report(pass, a, "answer 422")
	h.Report(pass, b, "record the closed id")
	h.Report(pass, c, "")
	if len(reported) != 3 {
		t.Fatalf("reported %d diagnostics, want 3", len(reported))
	}
	for _, tc := range []struct {
		result any
		d      analysis.Diagnostic
		want   string
	}{
		{h, a, "answer 422"},
		{h, b, "record the closed id"},
		{h, c, ""},
		{h, analysis.Diagnostic{Pos: 10, End: 21, Category: "GL350", Message: a.Message}, ""},
		{h, analysis.Diagnostic{Pos: token.Pos(10), End: 20, Category: "GL350", Message: "another message"}, ""},
		{nil, a, ""},
		{(*gohelp.Helps)(nil), a, ""},
		{"not helps", a, ""},
	} {
		if got := gohelp.Of(tc.result, tc.d); got != tc.want {
			t.Errorf("Of(%T, %s %q) = %q, want %q", tc.result, tc.d.Category, tc.d.Message, got, tc.want)
		}
	}
}
