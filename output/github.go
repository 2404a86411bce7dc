package output

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// GitHub writes one GitHub Actions workflow command per diagnostic:
//
//	::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CODE rule::message
//
// `::warning` for warnings and `::notice` for info. Columns are gymlint's
// byte columns. Paths are relative to the scanned root, which is the
// repository root when gymlint runs there.
//
// The message (with the help on a line of its own) is escaped as the
// text formats escape it (Visible), its line breaks kept: a control
// character of a repository's file name or config key does not reach the
// log, which GitHub shows with its ANSI colours. The file property is the
// path as it is, so that GitHub finds the file.
//
// After the annotations comes one summary command with the counts per
// severity and per rule (GitHub shows only the first annotations of each
// kind of a step, so the count says how many there were):
//
//	::notice title=gymlint summary::223 findings: 200 errors, 20 warnings, 3 info; GL101 undeclared-workers (error) 150, ...
//
// and when opts.StepSummary is set, a Markdown table of the same counts
// is written to it (the CLI appends it to $GITHUB_STEP_SUMMARY). An
// error writing the step summary is returned wrapped in ErrStepSummary,
// after the annotations were written.
func GitHub(w io.Writer, ds []diag.Diagnostic, opts Options) error {
	if err := githubAnnotations(w, ds); err != nil {
		return err
	}
	if opts.StepSummary != nil {
		if err := StepSummary(opts.StepSummary, ds); err != nil {
			return fmt.Errorf("%w: %v", ErrStepSummary, err)
		}
	}
	return nil
}

// ErrStepSummary wraps an error writing the GitHub step summary: the
// annotations were written, only the summary is missing.
var ErrStepSummary = errors.New("writing the GitHub step summary")

// GitHubAnnotationLimit is how many annotations of one kind (error,
// warning, notice) GitHub shows for a step; the summary line says when
// there are more.
const GitHubAnnotationLimit = 10

// ruleCount is one rule's number of findings.
type ruleCount struct {
	Code, Rule string
	Severity   diag.Severity
	N          int
}

// counts tallies ds per severity (error, warning, info) and per rule,
// the rules sorted by severity, then by count (most first), then by code.
func counts(ds []diag.Diagnostic) (bySev map[diag.Severity]int, rules []ruleCount) {
	bySev = map[diag.Severity]int{}
	index := map[string]int{}
	for _, d := range ds {
		sev := d.Severity
		if sev != diag.Error && sev != diag.Warning {
			sev = diag.Info
		}
		bySev[sev]++
		key := d.Code + "\x00" + string(sev)
		i, ok := index[key]
		if !ok {
			i = len(rules)
			index[key] = i
			rules = append(rules, ruleCount{Code: d.Code, Rule: d.Rule, Severity: sev})
		}
		rules[i].N++
	}
	rank := map[diag.Severity]int{diag.Error: 0, diag.Warning: 1, diag.Info: 2}
	sort.SliceStable(rules, func(i, j int) bool {
		a, b := rules[i], rules[j]
		if a.Severity != b.Severity {
			return rank[a.Severity] < rank[b.Severity]
		}
		if a.N != b.N {
			return a.N > b.N
		}
		return a.Code < b.Code
	})
	return bySev, rules
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summaryLine is the text of the summary notice.
func summaryLine(ds []diag.Diagnostic) string {
	if len(ds) == 0 {
		return "no findings"
	}
	bySev, rules := counts(ds)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, %s, %d info", plural(len(ds), "finding", "findings"),
		plural(bySev[diag.Error], "error", "errors"), plural(bySev[diag.Warning], "warning", "warnings"), bySev[diag.Info])
	for i, r := range rules {
		sep := ", "
		if i == 0 {
			sep = "; "
		}
		name := r.Code
		if r.Rule != "" {
			name += " " + r.Rule
		}
		fmt.Fprintf(&b, "%s%s (%s) %d", sep, name, r.Severity, r.N)
	}
	if bySev[diag.Error] > GitHubAnnotationLimit || bySev[diag.Warning] > GitHubAnnotationLimit || bySev[diag.Info] > GitHubAnnotationLimit {
		fmt.Fprintf(&b, "; GitHub shows at most %d annotations of each kind per step: every finding is in this step's log", GitHubAnnotationLimit)
	}
	return b.String()
}

// StepSummary writes the GitHub step summary: a heading, the counts per
// severity, and a Markdown table of the findings per rule.
func StepSummary(w io.Writer, ds []diag.Diagnostic) error {
	var b strings.Builder
	b.WriteString("### gymlint\n\n")
	if len(ds) == 0 {
		b.WriteString("No findings.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	bySev, rules := counts(ds)
	fmt.Fprintf(&b, "%s: %s, %s, %d info.\n\n", plural(len(ds), "finding", "findings"),
		plural(bySev[diag.Error], "error", "errors"), plural(bySev[diag.Warning], "warning", "warnings"), bySev[diag.Info])
	b.WriteString("| Rule | Name | Severity | Findings |\n|---|---|---|---:|\n")
	cell := strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "`", "'")
	for _, r := range rules {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d |\n", cell.Replace(r.Code), cell.Replace(r.Rule), r.Severity, r.N)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func githubAnnotations(w io.Writer, ds []diag.Diagnostic) error {
	var b strings.Builder
	for _, d := range ds {
		props := []string{"file=" + EscapeProperty(d.Path)}
		if d.Start.Line >= 1 {
			props = append(props, fmt.Sprintf("line=%d", d.Start.Line))
			if d.Start.Col >= 1 {
				props = append(props, fmt.Sprintf("col=%d", d.Start.Col))
			}
			if d.End.Line >= d.Start.Line {
				props = append(props, fmt.Sprintf("endLine=%d", d.End.Line))
				if d.End.Col >= 1 {
					props = append(props, fmt.Sprintf("endColumn=%d", d.End.Col))
				}
			}
		}
		title := d.Code
		if d.Rule != "" {
			title += " " + d.Rule
		}
		props = append(props, "title="+EscapeProperty(title))
		fmt.Fprintf(&b, "::%s %s::%s\n", githubCommand(d.Severity), strings.Join(props, ","), EscapeData(visibleLines(d.WithHelp())))
	}
	fmt.Fprintf(&b, "::notice title=%s::%s\n", EscapeProperty("gymlint summary"), EscapeData(summaryLine(ds)))
	_, err := io.WriteString(w, b.String())
	return err
}

// visibleLines is s with each of its lines escaped (Visible): the line
// breaks are kept, for GitHub shows a message on several lines.
func visibleLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Visible(l)
	}
	return strings.Join(lines, "\n")
}

func githubCommand(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "notice"
}

// EscapeData escapes a workflow command's message: % CR LF.
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a workflow command's property value: % CR LF : ,.
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
