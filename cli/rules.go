package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/lint"
)

const rulesAbout = `Lists every rule of the catalogue: code, name, analyzer, default severity
and summary. "gymlint explain CODE" prints one rule's documentation.
`

const explainAbout = `Prints the documentation of one rule, by code (GL101) or name
(undeclared-workers). Exit status 2 when there is no such rule.
`

// ruleFormats are the formats of `gymlint rules`.
var ruleFormats = []string{"text", "json"}

// JSONRule is the JSON form of a rule in `gymlint rules --format json`. Field
// names are a stable interface.
type JSONRule struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Analyzer string `json:"analyzer"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	URL      string `json:"url"`
	// Needs are the contract facts the rule is applied under (see
	// gymlint config); empty for a rule that holds under every framework.
	Needs []string `json:"needs"`
}

// rulesCmd is `gymlint rules`: it lists the catalogue. Exit status: 0, or
// 2 for usage errors.
func rulesCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	format := fs.String("format", "text", "output format: "+strings.Join(ruleFormats, ", "))
	return func(args []string) int {
		if len(args) > 0 {
			return usageError(stderr, fs, "unexpected arguments: %s", strings.Join(args, " "))
		}
		rs := lint.Rules()
		switch *format {
		case "text":
			tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "CODE\tNAME\tANALYZER\tSEVERITY\tSUMMARY")
			for _, r := range rs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Analyzer, r.Severity, r.Summary)
			}
			if err := tw.Flush(); err != nil {
				fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
				return ExitError
			}
		case "json":
			out := make([]JSONRule, 0, len(rs))
			for _, r := range rs {
				out = append(out, JSONRule{Code: r.Code, Name: r.Name, Analyzer: r.Analyzer,
					Severity: string(r.Severity), Summary: r.Summary, URL: r.URL(), Needs: append([]string{}, r.Needs...)})
			}
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(out); err != nil {
				fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
				return ExitError
			}
		default:
			return usageError(stderr, fs, "unknown --format %q (known: %s)", *format, strings.Join(ruleFormats, ", "))
		}
		return ExitClean
	}
}

// explainCmd is `gymlint explain`: it prints one rule's page. Exit
// status: 0, or 2 for an unknown rule or a usage error.
func explainCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	return func(args []string) int {
		if len(args) != 1 {
			return usageError(stderr, fs, "explain takes one rule code or name, got %d arguments", len(args))
		}
		return explain(args[0], stdout, stderr)
	}
}

// explain prints the page of the rule key names (a code, in any case, or
// a name). Exit status: 0, or 2 when there is no such rule.
func explain(key string, stdout, stderr io.Writer) int {
	r := ruleLookup(key)
	if r == nil {
		r = ruleLookup(strings.ToUpper(key)) // gl101 works too
	}
	if r == nil {
		fmt.Fprintf(stderr, "gymlint: no rule %q; \"gymlint rules\" lists them\n", key)
		return ExitError
	}
	_, err := io.WriteString(stdout, RulePage(r))
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
		return ExitError
	}
	return ExitClean
}

// RulePage is the text `gymlint explain` prints: a heading, the rule's
// metadata, its Markdown doc and its URL.
func RulePage(r *diag.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", r.Code, r.Name)
	fmt.Fprintf(&b, "Analyzer: %s. Default severity: %s.\n\n", r.Analyzer, r.Severity)
	if req := contract.Requirement(r.Needs); req != "" {
		fmt.Fprintf(&b, "%s\n\n", req)
	}
	if r.Summary != "" {
		fmt.Fprintf(&b, "%s\n\n", r.Summary)
	}
	if doc := strings.TrimSpace(r.Doc); doc != "" {
		b.WriteString(doc)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "Documentation: %s\n", r.URL())
	return b.String()
}
