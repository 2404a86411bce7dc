// Package diag defines the one diagnostic type that every gymlint rule
// produces and every printer formats, and the metadata of a rule.
//
// Positions are 1-based lines and 1-based byte columns with a 0-based byte
// offset, as go/token and tree-sitter count them. Printers that need other
// units (UTF-16 for SARIF and LSP) convert at the edge.
package diag

import (
	"sort"
	"strings"
)

// Severity of a finding.
type Severity string

// Severities, from most to least severe.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Pos is a place in a file.
type Pos struct {
	Offset int `json:"-"`
	Line   int `json:"line"`
	Col    int `json:"column"`
}

// Related is a second place that a message names: a parent class in another
// file, the config line that names a module.
type Related struct {
	Path    string
	Start   Pos
	End     Pos
	Message string
}

// Diagnostic is one finding.
type Diagnostic struct {
	Path     string // slash-separated, relative to the scanned root
	Start    Pos
	End      Pos
	Code     string // stable rule code, e.g. GL101
	Rule     string // kebab-case rule name, e.g. undeclared-workers
	Analyzer string // workers, rayenabled, sessions, core
	Severity Severity
	// Message says what is wrong, naming the things involved, in one
	// clause short enough for an editor's hover line.
	Message string
	// Help says what to do about it ("" when the message says it all);
	// the rationale stays in the rule's doc (gymlint explain).
	Help    string
	Related []Related
	// Fixes are suggested fixes: mechanical edits that resolve the finding.
	Fixes []Fix
}

// WithHelp is the message followed by the help on a line of its own, for
// the outputs that have one text per finding (SARIF, GitHub annotations,
// the language server).
func (d Diagnostic) WithHelp() string {
	if d.Help == "" {
		return d.Message
	}
	return d.Message + "\nhelp: " + d.Help
}

// Fix is one suggested fix: a description and the edits that make it.
type Fix struct {
	Message string
	Edits   []TextEdit
	// Applicability says whether the fix may be applied without a person
	// looking at it: "" and Safe mean yes; Unsafe means it changes what the
	// code does or leaves a stub for the author to complete (an editor
	// offers it as a code action; gymlint --fix never applies it).
	Applicability Applicability
}

// Applicability of a fix, as ruff names it.
type Applicability string

const (
	Safe   Applicability = "safe"
	Unsafe Applicability = "unsafe"
)

// IsSafe reports whether the fix may be applied automatically.
func (f Fix) IsSafe() bool { return f.Applicability == "" || f.Applicability == Safe }

// TextEdit replaces the bytes [Start.Offset, End.Offset) of a file with
// NewText.
type TextEdit struct {
	Path    string
	Start   Pos
	End     Pos
	NewText string
}

// Same reports whether two edits make the same change: the same bytes
// replaced by the same text.
func (e TextEdit) Same(o TextEdit) bool {
	return e.Start.Offset == o.Start.Offset && e.End.Offset == o.End.Offset && e.NewText == o.NewText
}

// Conflicts reports whether two edits of one file cannot both be applied,
// as gymlint --fix decides: their ranges share a byte, an insertion falls
// strictly inside the other's range, or both insert at one place (their
// order would be a guess). The same edit twice does not conflict, nor do
// edits that only touch.
func (e TextEdit) Conflicts(o TextEdit) bool {
	if e.Same(o) {
		return false
	}
	as, ae, bs, be := e.Start.Offset, e.End.Offset, o.Start.Offset, o.End.Offset
	switch {
	case as == ae && bs == be:
		return as == bs
	case as == ae:
		return bs < as && as < be
	case bs == be:
		return as < bs && bs < ae
	}
	return as < be && bs < ae
}

// Rule is the metadata of one rule: the catalogue entry that the CLI, the
// docs and every output format read.
type Rule struct {
	Code     string
	Name     string
	Analyzer string
	Severity Severity
	// Summary is one line: what the rule reports.
	Summary string
	// Needs are the facts of the framework contract (package contract)
	// the rule judges code against: with --contract auto it is applied
	// only to a repository whose framework has them all. None: the rule
	// holds under every framework.
	Needs []string
	// Doc is the rule's page in Markdown: what it does, why it matters, an
	// example, and how to fix it. It is kept as docs/CODE.md beside the
	// rule, embedded, and read with ReadDoc.
	Doc string
}

// URL is where the rule's documentation lives.
func (r *Rule) URL() string {
	return "https://github.com/gymlint/gymlint/blob/main/docs/rules.md#" + strings.ToLower(r.Code) + "-" + r.Name
}

// New returns a diagnostic of this rule.
func (r *Rule) New(path string, start, end Pos, message string) Diagnostic {
	return Diagnostic{
		Path: path, Start: start, End: end,
		Code: r.Code, Rule: r.Name, Analyzer: r.Analyzer, Severity: r.Severity,
		Message: message,
	}
}

// Sort orders diagnostics by path, line, column and code, then message, so
// that output is byte-for-byte deterministic.
func Sort(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start.Line != b.Start.Line {
			return a.Start.Line < b.Start.Line
		}
		if a.Start.Col != b.Start.Col {
			return a.Start.Col < b.Start.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}
