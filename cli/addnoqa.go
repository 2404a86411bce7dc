package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/fixes"
	"github.com/gymlint/gymlint/output"
	"github.com/gymlint/gymlint/suppress"
)

// addNoqaFlags are --add-noqa and its --reason.
type addNoqaFlags struct {
	on     *bool
	reason *string
}

func addAddNoqaFlags(fs *flag.FlagSet) addNoqaFlags {
	return addNoqaFlags{
		on:     fs.Bool("add-noqa", false, "write an inline suppression, with --reason, for every finding (at the end of its line; in Go alone on the line above), instead of printing the findings"),
		reason: fs.String("reason", "", "the reason `TEXT` that the suppressions --add-noqa writes give: why the findings are accepted (one line)"),
	}
}

// check says what is wrong with the combination of --add-noqa and --reason
// with the other flags, or "".
func (a addNoqaFlags) check(fix, diff, statistics bool, otherFormat string) string {
	switch {
	case !*a.on && *a.reason != "":
		return "--reason goes with --add-noqa"
	case !*a.on:
		return ""
	case strings.TrimSpace(*a.reason) == "":
		return "--add-noqa needs --reason TEXT: why the findings it suppresses are accepted"
	case fix || diff:
		return "--add-noqa cannot be combined with --fix or --diff: fix first, then add suppressions for what remains"
	case statistics:
		return "--add-noqa cannot be combined with --statistics"
	case otherFormat != "":
		return fmt.Sprintf("--add-noqa prints no findings; it cannot be combined with --format %s", otherFormat)
	}
	if err := suppress.CheckReason(*a.reason); err != nil {
		return "--reason: " + err.Error()
	}
	return ""
}

// addNoqa writes a suppression for every finding of res that can have one
// (engine.PlanNoqa) through fixes.WriteFiles, and says what it did on
// stderr: how many it added in how many files, then the findings skipped
// and those it could not suppress, counted by why (each listed with
// verbose). Exit status: 0 when every finding is suppressed now, 1 when
// some are not (0 with exitZero), 2 when a file could not be written or
// the check is incomplete (GL011).
func addNoqa(stderr io.Writer, t *target, res *engine.Result, reason string, quiet, verbose, exitZero bool) int {
	plan := engine.PlanNoqa(res, strings.TrimSpace(reason))
	edits := map[string][]diag.TextEdit{}
	for _, f := range plan.Files {
		edits[f.Path] = f.Edits
	}
	w, err := fixes.WriteFiles(t.root, edits, fixes.Options{Analysed: res.Analysed})
	for _, l := range w.Left {
		plan.Unwritten(l.Path, "in a file left as it was: "+l.Why)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
	}
	written := map[string]bool{}
	for _, p := range w.Files {
		written[p] = true
	}
	added, files := 0, 0
	for _, f := range plan.Files {
		if written[f.Path] {
			added += f.Added
			files++
		} else if err == nil {
			plan.Unwritten(f.Path, "in a file gymlint did not write")
		}
	}
	if !quiet {
		fmt.Fprintf(stderr, "gymlint: added %d %s in %d %s\n", added, plural(added, "suppression", "suppressions"), files, plural(files, "file", "files"))
	}
	display := cwdRelative(t.root)
	if display == nil {
		display = func(p string) string { return p }
	}
	say := func(head string, ms []suppress.Miss) {
		if len(ms) == 0 {
			return
		}
		fmt.Fprintf(stderr, "gymlint: %s %d %s: %s", head, len(ms), plural(len(ms), "finding", "findings"), countWhys(ms))
		if !verbose {
			fmt.Fprint(stderr, " (--verbose lists them)")
		}
		fmt.Fprintln(stderr)
		if verbose {
			for _, m := range ms {
				d := m.Diagnostic
				fmt.Fprintf(stderr, "gymlint:   %s:%d:%d: %s %s\n", output.Visible(display(d.Path)), d.Start.Line, d.Start.Col, d.Code, m.Why)
			}
		}
	}
	say("skipped", plan.Skipped)
	say("could not suppress", plan.Missed)
	switch {
	case err != nil || engine.InternalErrors(res.Diagnostics) > 0:
		return ExitError
	case len(plan.Skipped)+len(plan.Missed) > 0 && !exitZero:
		return ExitFindings
	}
	return ExitClean
}

// countWhys counts the misses by why, most first: "2 inside ..., 1 on ...".
func countWhys(ms []suppress.Miss) string {
	n := map[string]int{}
	var whys []string
	for _, m := range ms {
		if n[m.Why] == 0 {
			whys = append(whys, m.Why)
		}
		n[m.Why]++
	}
	sort.SliceStable(whys, func(i, j int) bool { return n[whys[i]] > n[whys[j]] })
	parts := make([]string, len(whys))
	for i, w := range whys {
		parts[i] = fmt.Sprintf("%d %s", n[w], output.Visible(w))
	}
	return strings.Join(parts, "; ")
}
