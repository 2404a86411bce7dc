package lint

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"
)

// RulesMarkdown renders the catalogue as the Markdown page docs/rules.md.
// The rules' Doc fields are the one source of truth; the page is generated
// from them and a test keeps it in step.
func RulesMarkdown() string {
	var b strings.Builder
	b.WriteString("# gymlint rules\n\n")
	b.WriteString("<!-- Generated from the rule catalogue by `go test ./lint -run TestRulesDoc -update`; do not edit. -->\n\n")
	b.WriteString("| code | name | analyzer | default severity | summary |\n|---|---|---|---|---|\n")
	for _, r := range Rules() {
		fmt.Fprintf(&b, "| [%s](#%s-%s) | `%s` | %s | %s | %s |\n", r.Code, strings.ToLower(r.Code), r.Name, r.Name, r.Analyzer, r.Severity, r.Summary)
	}
	for _, r := range Rules() {
		fmt.Fprintf(&b, "\n<a id=\"%s-%s\"></a>\n## %s %s\n\n", strings.ToLower(r.Code), r.Name, r.Code, r.Name)
		fmt.Fprintf(&b, "Analyzer: `%s`. Default severity: %s.\n\n", r.Analyzer, r.Severity)
		if req := contract.Requirement(r.Needs); req != "" {
			b.WriteString(req + "\n\n")
		}
		doc := strings.ReplaceAll(r.Doc, "\n## ", "\n### ")
		doc = strings.Replace(doc, "## ", "### ", 1)
		b.WriteString(strings.TrimSpace(doc))
		b.WriteString("\n")
	}
	return b.String()
}
