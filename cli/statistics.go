package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"text/tabwriter"

	"github.com/gymlint/gymlint/diag"
)

// ruleCount is one line of --statistics. JSON field names are a stable
// interface.
type ruleCount struct {
	Code     string `json:"code"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Count    int    `json:"count"`
	// Fixable counts the findings with a safe fix (--fix applies it),
	// UnsafeFixable those with only unsafe ones (--unsafe-fixes).
	Fixable       int `json:"fixable"`
	UnsafeFixable int `json:"unsafe_fixable"`
}

// writeStatistics prints how many findings each rule has, most first, as
// an aligned table (text) or a JSON array.
func writeStatistics(w io.Writer, format string, ds []diag.Diagnostic) error {
	byCode := map[string]*ruleCount{}
	for _, d := range ds {
		c := byCode[d.Code]
		if c == nil {
			c = &ruleCount{Code: d.Code, Rule: d.Rule, Severity: string(d.Severity)}
			byCode[d.Code] = c
		}
		c.Count++
		if slices.ContainsFunc(d.Fixes, diag.Fix.IsSafe) {
			c.Fixable++
		} else if len(d.Fixes) > 0 {
			c.UnsafeFixable++
		}
	}
	counts := make([]ruleCount, 0, len(byCode))
	for _, c := range byCode {
		counts = append(counts, *c)
	}
	sort.Slice(counts, func(i, j int) bool {
		if counts[i].Count != counts[j].Count {
			return counts[i].Count > counts[j].Count
		}
		return counts[i].Code < counts[j].Code
	})
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(counts)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range counts {
		fix := ""
		switch {
		case c.Fixable > 0:
			fix = fmt.Sprintf("[*] %d fixable", c.Fixable)
		case c.UnsafeFixable > 0:
			fix = fmt.Sprintf("[-] %d unsafe fixes", c.UnsafeFixable)
		}
		fmt.Fprintf(tw, "%6d\t%s\t%s\t%s\t%s\n", c.Count, c.Code, c.Rule, c.Severity, fix)
	}
	return tw.Flush()
}
