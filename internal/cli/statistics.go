package cli

import (
	"encoding/json"
	"fmt"
	"io"
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
		fmt.Fprintf(tw, "%6d\t%s\t%s\t%s\n", c.Count, c.Code, c.Rule, c.Severity)
	}
	return tw.Flush()
}
