package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/fixes"
)

// maxFixRounds bounds the checks of a fix plan: each round lints the
// repository as the plan would leave it once more.
const maxFixRounds = 4

// A Rescan lints the repository as it would be with overlay (root-relative
// path → content) instead of the disk, and returns its findings.
type Rescan func(overlay map[string][]byte) ([]diag.Diagnostic, error)

// PlanFixes chooses the fixes of ds to apply (fixes.NewPlanFrom) and checks
// them together, so that fixes compose: it lints the repository as it would
// be with every chosen fix applied (rescan, the fixed files as an overlay)
// and leaves out the fixes that would create a finding that is not there
// now, counted by rule and file (a finding whose line moves is the same
// finding). The fixes left out are those that edit the new finding's file,
// or a file it names as related (a subclass's app made unreachable by its
// parent's refusal is left out, the refusal kept); when no fix edits one,
// every fix is left out. Each is reported as skipped, naming the finding
// it would create, and the plan is checked again, at most maxFixRounds
// times; what still creates findings then is left out.
//
// A nil rescan, or a plan without fixes, is returned unchecked.
func PlanFixes(root string, ds []diag.Diagnostic, opts fixes.Options, rescan Rescan) (*fixes.Plan, error) {
	plan := fixes.NewPlanFrom(root, ds, opts)
	if rescan == nil {
		return plan, nil
	}
	before := countByFile(ds)
	leave := map[int]string{}
	for k, v := range opts.Leave {
		leave[k] = v
	}
	for round := 0; plan.Taken() > 0; round++ {
		after, err := rescan(plan.Contents())
		if err != nil {
			return nil, err
		}
		added := addedFindings(before, after)
		if len(added) == 0 {
			return plan, nil
		}
		idx, files := plan.Fixes()
		blamed := false
		for _, a := range added {
			touched := map[string]bool{a.Path: true}
			for _, r := range a.Related {
				touched[r.Path] = true
			}
			for i, fs := range files {
				if _, done := leave[idx[i]]; done {
					continue
				}
				for _, f := range fs {
					if touched[f] {
						leave[idx[i]] = "applied with the other fixes, it would add " + describe(a)
						blamed = true
						break
					}
				}
			}
		}
		if !blamed || round+1 >= maxFixRounds {
			for _, i := range idx {
				if _, done := leave[i]; !done {
					leave[i] = "the fixes together would add " + describe(added[0])
				}
			}
		}
		opts.Leave = leave
		plan = fixes.NewPlanFrom(root, ds, opts)
	}
	return plan, nil
}

type fileCode struct{ path, code string }

func countByFile(ds []diag.Diagnostic) map[fileCode]int {
	n := map[fileCode]int{}
	for _, d := range ds {
		n[fileCode{d.Path, d.Code}]++
	}
	return n
}

// addedFindings are the findings of after beyond the number of findings of
// their rule and file in before, in order.
func addedFindings(before map[fileCode]int, after []diag.Diagnostic) []diag.Diagnostic {
	by := map[fileCode][]diag.Diagnostic{}
	for _, d := range after {
		k := fileCode{d.Path, d.Code}
		by[k] = append(by[k], d)
	}
	var out []diag.Diagnostic
	for k, ds := range by {
		if extra := len(ds) - before[k]; extra > 0 {
			out = append(out, ds[len(ds)-extra:]...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Start.Line < out[j].Start.Line
	})
	return out
}

// describe names a finding for a skipped fix's reason.
func describe(d diag.Diagnostic) string {
	msg := d.Message
	if r := []rune(msg); len(r) > 100 {
		msg = strings.TrimSpace(string(r[:97])) + "..."
	}
	return fmt.Sprintf("%s at %s:%d (%s)", d.Code, d.Path, d.Start.Line, msg)
}
