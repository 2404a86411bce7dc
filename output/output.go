// Package output formats diagnostics. Printers only format: they never
// decide what is a finding.
//
// Formats:
//   - text: `path:line:col: CODE message`, one per line.
//
// The formats people read on a terminal (text, full) escape what a
// terminal would act on in every path and message (Visible), so that a
// file name with a line feed cannot forge a finding and an escape
// sequence in a name or a config key cannot reach the terminal; JSON and
// SARIF escape with encoding/json; github escapes its workflow commands'
// own syntax and, in the message, what Visible escapes but line breaks
// (GitHub shows the message on several lines).
//   - full: each finding with its source line and a caret under the span,
//     its related positions and its fixes (full.go).
//   - json: an array of objects (see JSONDiagnostic); `[]` when there is nothing.
//   - sarif: a SARIF 2.1.0 log for GitHub code scanning (sarif.go).
//   - github: GitHub Actions workflow commands, one per line, then a summary
//     notice, and a Markdown step summary when asked for (github.go).
//
// Lines and columns are 1-based; columns count bytes, as go vet's do,
// except in SARIF, whose columns count UTF-16 code units.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// Formats lists the names accepted by Write.
var Formats = []string{"text", "full", "json", "sarif", "github"}

// Options is what printers other than text need besides the diagnostics.
type Options struct {
	// Root is the repository root the paths are relative to.
	Root string
	// Source reads a root-relative file as the scan read it (the engine's
	// reader: root-confined, an editor's buffers included): SARIF reads
	// line text with it to convert columns and to fingerprint findings.
	// nil reads nothing, and columns stay byte columns.
	Source func(path string) ([]byte, error)
	// Rules finds a rule of the catalogue by code; nil finds none.
	Rules func(code string) *diag.Rule
	// Catalog is every rule, listed in SARIF's tool.driver.rules.
	Catalog []*diag.Rule
	// Version is gymlint's version, for SARIF's tool.driver.version.
	Version string
	// StepSummary, for the github format, receives a Markdown summary of
	// the counts per rule (the CLI appends it to $GITHUB_STEP_SUMMARY);
	// nil writes none.
	StepSummary io.Writer
	// Color marks the full format with ANSI colours (the CLI decides from
	// the terminal, NO_COLOR and FORCE_COLOR).
	Color bool
	// Display shows a root-relative path in the text and full formats
	// (the CLI makes it relative to the current directory, as go vet and
	// ruff print paths); nil shows it as it is. JSON, SARIF and GitHub
	// keep root-relative paths.
	Display func(path string) string
}

// display is path as the text formats show it, escaped (Visible).
func (o Options) display(path string) string {
	if o.Display != nil {
		path = o.Display(path)
	}
	return Visible(path)
}

// Write prints diagnostics in the named format.
func Write(w io.Writer, format string, ds []diag.Diagnostic, opts Options) error {
	switch format {
	case "text":
		return TextWith(w, ds, opts)
	case "full":
		return Full(w, ds, opts)
	case "json":
		return JSON(w, ds, opts.Rules)
	case "sarif":
		return SARIF(w, ds, opts)
	case "github":
		return GitHub(w, ds, opts)
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

// Text writes one line per diagnostic, with root-relative paths.
func Text(w io.Writer, ds []diag.Diagnostic) error { return TextWith(w, ds, Options{}) }

// TextWith writes one line per diagnostic, paths shown by opts.Display.
// Paths and messages are escaped (Visible): one finding is one line.
func TextWith(w io.Writer, ds []diag.Diagnostic, opts Options) error {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s\n", opts.display(d.Path), d.Start.Line, d.Start.Col, Visible(d.Code), Visible(d.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSONDiagnostic is the JSON form of a diagnostic. Field names are a stable
// interface: they are never renamed, only added to.
type JSONDiagnostic struct {
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"end_line"`
	EndColumn int           `json:"end_column"`
	Code      string        `json:"code"`
	Rule      string        `json:"rule"`
	Analyzer  string        `json:"analyzer"`
	Severity  string        `json:"severity"`
	Message   string        `json:"message"`
	Help      string        `json:"help"`
	URL       string        `json:"url,omitempty"`
	Related   []JSONRelated `json:"related"`
	Fixes     []JSONFix     `json:"fixes"`
}

// JSONFix is a suggested fix.
type JSONFix struct {
	Message string `json:"message"`
	// Applicability is "safe" (gymlint --fix applies it) or "unsafe" (a
	// change of behaviour or a stub to complete: offered, never applied).
	Applicability string     `json:"applicability"`
	Edits         []JSONEdit `json:"edits"`
}

// JSONEdit replaces a range of a file (byte offsets, and 1-based lines and
// byte columns) with new_text.
type JSONEdit struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Offset    int    `json:"offset"`
	EndOffset int    `json:"end_offset"`
	NewText   string `json:"new_text"`
}

// JSONRelated is a second place a diagnostic names.
type JSONRelated struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Message   string `json:"message"`
}

// JSON writes the diagnostics as an indented JSON array.
func JSON(w io.Writer, ds []diag.Diagnostic, rules func(code string) *diag.Rule) error {
	out := make([]JSONDiagnostic, 0, len(ds))
	for _, d := range ds {
		j := JSONDiagnostic{
			Path: d.Path, Line: d.Start.Line, Column: d.Start.Col, EndLine: d.End.Line, EndColumn: d.End.Col,
			Code: d.Code, Rule: d.Rule, Analyzer: d.Analyzer, Severity: string(d.Severity), Message: d.Message, Help: d.Help,
			Related: []JSONRelated{}, Fixes: []JSONFix{},
		}
		if rules != nil {
			if r := rules(d.Code); r != nil {
				j.URL = r.URL()
			}
		}
		for _, r := range d.Related {
			j.Related = append(j.Related, JSONRelated{Path: r.Path, Line: r.Start.Line, Column: r.Start.Col,
				EndLine: r.End.Line, EndColumn: r.End.Col, Message: r.Message})
		}
		for _, f := range d.Fixes {
			app := diag.Safe
			if !f.IsSafe() {
				app = diag.Unsafe
			}
			jf := JSONFix{Message: f.Message, Applicability: string(app), Edits: []JSONEdit{}}
			for _, e := range f.Edits {
				jf.Edits = append(jf.Edits, JSONEdit{Path: e.Path, Line: e.Start.Line, Column: e.Start.Col,
					EndLine: e.End.Line, EndColumn: e.End.Col, Offset: e.Start.Offset, EndOffset: e.End.Offset, NewText: e.NewText})
			}
			j.Fixes = append(j.Fixes, jf)
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
