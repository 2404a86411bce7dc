package output

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/lineends"
)

// SARIF 2.1.0, in the subset that GitHub code scanning reads. The types
// below name only what gymlint writes.

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// InformationURI is gymlint's home page, written as the SARIF driver's
	// informationUri.
	InformationURI = "https://github.com/gymlint/gymlint"
	// FingerprintKey names gymlint's entry in partialFingerprints.
	FingerprintKey = "gymlintLineHash/v1"
	srcRoot        = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifHelp       `json:"help"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           map[string]any  `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifLevel maps a gymlint severity to a SARIF level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// SARIF writes the diagnostics as a SARIF 2.1.0 log with one run. Columns
// are UTF-16 code units (SARIF's default column kind), converted from
// gymlint's byte columns with the line text that opts.Source reads; when a
// file cannot be read the byte column is written unchanged.
func SARIF(w io.Writer, ds []diag.Diagnostic, opts Options) error {
	src := newSourceCache(opts.Source)
	driver := sarifDriver{Name: "gymlint", Version: toolVersion(opts.Version), InformationURI: InformationURI, Rules: []sarifRule{}}
	index := map[string]int{}
	addRule := func(r *diag.Rule) int {
		if i, ok := index[r.Code]; ok {
			return i
		}
		index[r.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, ruleToSARIF(r))
		return index[r.Code]
	}
	for _, r := range opts.Catalog {
		addRule(r)
	}
	seen := map[string]int{} // fingerprint base -> occurrences so far
	results := make([]sarifResult, 0, len(ds))
	for _, d := range ds {
		var r *diag.Rule
		if opts.Rules != nil {
			r = opts.Rules(d.Code)
		}
		if r == nil {
			r = &diag.Rule{Code: d.Code, Name: d.Rule, Analyzer: d.Analyzer, Severity: d.Severity, Summary: d.Rule}
		}
		res := sarifResult{
			RuleID:    d.Code,
			RuleIndex: addRule(r),
			Level:     sarifLevel(d.Severity),
			Message:   sarifText{Text: d.WithHelp()},
			Locations: []sarifLocation{{PhysicalLocation: src.physical(d.Path, d.Start, d.End)}},
		}
		for i, rel := range d.Related {
			id := i
			loc := sarifLocation{ID: &id, PhysicalLocation: src.physical(rel.Path, rel.Start, rel.End)}
			if rel.Message != "" {
				loc.Message = &sarifText{Text: rel.Message}
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		base := fingerprintBase(d.Code, d.Path, src.line(d.Path, d.Start.Line))
		res.PartialFingerprints = map[string]string{FingerprintKey: base + ":" + strconv.Itoa(seen[base])}
		seen[base]++
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, ColumnKind: "utf16CodeUnits", Results: results}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// toolVersion makes gymlint's version numeric, as SARIF validators prefer:
// v1.2.3 becomes 1.2.3, and a development build (devel, or none) 0.0.0-devel.
func toolVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		if v == "" {
			v = "devel"
		}
		return "0.0.0-" + v
	}
	return v
}

func ruleToSARIF(r *diag.Rule) sarifRule {
	full := r.Summary
	if full == "" {
		full = r.Name
	}
	// help.markdown is the rule's doc as written; help.text the same doc
	// made plain, for viewers that show text as it is.
	helpMarkdown := strings.TrimSpace(r.Doc)
	helpText := PlainText(helpMarkdown)
	if helpMarkdown == "" {
		helpMarkdown, helpText = full, PlainText(full)
	}
	sr := sarifRule{
		ID:                   r.Code,
		Name:                 r.Name,
		ShortDescription:     sarifText{Text: r.Name},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifHelp{Text: helpText + "\n\nRule documentation: " + r.URL(), Markdown: helpMarkdown + "\n\n[Rule documentation](" + r.URL() + ")"},
		HelpURI:              r.URL(),
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(r.Severity)},
	}
	if r.Analyzer != "" {
		sr.Properties = map[string]any{"tags": []string{"gymlint", r.Analyzer}}
	}
	if r.Summary != "" {
		sr.ShortDescription = sarifText{Text: r.Summary}
	}
	return sr
}

// fingerprintBase hashes what identifies a finding independently of where
// its line is: the rule, the file and the trimmed text of the reported line.
// Moving unrelated lines keeps it; editing the reported line changes it.
func fingerprintBase(code, path, line string) string {
	h := sha256.New()
	for _, s := range []string{code, path, strings.TrimSpace(line)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// uriFor makes a root-relative slash path into a relative URI reference.
func uriFor(path string) string {
	return (&url.URL{Path: path}).String()
}

// sourceCache reads files once, split into lines, to convert columns and
// to fingerprint findings.
type sourceCache struct {
	read  func(path string) ([]byte, error)
	files map[string][]string
}

func newSourceCache(read func(path string) ([]byte, error)) *sourceCache {
	return &sourceCache{read: read, files: map[string][]string{}}
}

// lines returns the file's lines without their terminators, or nil.
func (c *sourceCache) lines(path string) []string {
	if ls, ok := c.files[path]; ok {
		return ls
	}
	var ls []string
	if c.read != nil && path != "" && !strings.HasPrefix(path, "../") && !filepath.IsAbs(path) {
		if b, err := c.read(path); err == nil {
			ls = splitLines(string(b), !strings.HasSuffix(path, ".go"))
		}
	}
	c.files[path] = ls
	return ls
}

// splitLines returns the lines of s as the findings count them (see
// lineends): lone CRs end lines except in Go files.
func splitLines(s string, loneCR bool) []string {
	var ls []string
	for _, l := range lineends.Split(s, loneCR) {
		ls = append(ls, l.Text)
	}
	return ls
}

// line returns the text of the 1-based line, or "".
func (c *sourceCache) line(path string, n int) string {
	ls := c.lines(path)
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

// col converts a 1-based byte column on the 1-based line to a 1-based
// UTF-16 column. Without the line text it returns the byte column.
func (c *sourceCache) col(path string, line, byteCol int) int {
	ls := c.lines(path)
	if line < 1 || line > len(ls) || byteCol < 1 {
		return byteCol
	}
	return UTF16Column(ls[line-1], byteCol)
}

// UTF16Column converts a 1-based byte column of text to a 1-based column in
// UTF-16 code units. Columns past the end of the line keep their distance
// from it; invalid UTF-8 counts one unit per byte.
func UTF16Column(text string, byteCol int) int {
	n := byteCol - 1
	extra := 0
	if n > len(text) {
		extra = n - len(text)
		n = len(text)
	}
	units := 0
	for i := 0; i < n; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if i+size > n { // the column falls inside a character
			units++
			break
		}
		if r == utf8.RuneError && size == 1 {
			units++
		} else {
			units += utf16.RuneLen(r)
		}
		i += size
	}
	return units + extra + 1
}

func (c *sourceCache) physical(path string, start, end diag.Pos) sarifPhysicalLocation {
	pl := sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uriFor(path), URIBaseID: srcRoot}}
	if start.Line < 1 {
		return pl
	}
	r := &sarifRegion{StartLine: start.Line}
	if start.Col >= 1 {
		r.StartColumn = c.col(path, start.Line, start.Col)
	}
	if end.Line >= start.Line {
		r.EndLine = end.Line
		if end.Col >= 1 {
			r.EndColumn = c.col(path, end.Line, end.Col)
			if r.EndLine == r.StartLine && r.EndColumn < r.StartColumn {
				r.EndColumn = r.StartColumn
			}
		}
	}
	pl.Region = r
	return pl
}
