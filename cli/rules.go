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

const rulesUsage = `usage: gymlint rules [--format text|json]

Lists every rule of the catalogue: code, name, analyzer, default severity
and summary. "gymlint explain CODE" prints one rule's documentation.

Flags:
`

const explainUsage = `usage: gymlint explain CODE|NAME

Prints the documentation of one rule, by code (GL101) or name
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

// rules lists the catalogue. Exit status: 0, or 2 for usage errors.
func rules(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gymlint rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: "+strings.Join(ruleFormats, ", "))
	fs.Usage = func() {
		fmt.Fprint(stderr, rulesUsage)
		fs.PrintDefaults()
	}
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
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
		fmt.Fprintf(stderr, "gymlint: unknown --format %q (known: %s)\n", *format, strings.Join(ruleFormats, ", "))
		return ExitError
	}
	return ExitClean
}

// explain prints one rule's page. Exit status: 0, or 2 for an unknown rule
// or a usage error.
func explain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gymlint explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, explainUsage) }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitClean
		}
		return ExitError
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "gymlint: explain takes one rule code or name, got %d arguments\n", fs.NArg())
		fs.Usage()
		return ExitError
	}
	key := fs.Arg(0)
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

// parseNoArgs parses flags and refuses positional arguments.
func parseNoArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitClean, false
		}
		return ExitError, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gymlint: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		fs.Usage()
		return ExitError, false
	}
	return 0, true
}
