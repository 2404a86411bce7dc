package engine

import (
	"crypto/sha256"
	"fmt"
	"path"
	"path/filepath"
	"sort"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
	"github.com/gymlint/gymlint/suppress"
)

// NoqaPlan is what gymlint --add-noqa writes: an inline suppression for
// every finding of a check that can have one (see PlanNoqa).
type NoqaPlan struct {
	// Files are the files that get suppressions, by path.
	Files []NoqaFile
	// Skipped are the findings left out before any placing, each with
	// why: those in a file gymlint did not analyse, in an extra root or
	// outside the root, and GL009, GL010 and GL013.
	Skipped []suppress.Miss
	// Missed are the findings that no suppression could be placed for,
	// each with why (see suppress.Adopt).
	Missed []suppress.Miss
}

// NoqaFile is the suppressions of one file.
type NoqaFile struct {
	Path  string
	Edits []diag.TextEdit
	// Added counts the codes the edits write (one for each line and code);
	// Suppressed are the findings they suppress.
	Added      int
	Suppressed []diag.Diagnostic
}

// The reasons a finding is skipped, as suppress's reasons read.
const (
	WhyNotAnalysed = "in a file gymlint did not analyse (GL001, GL002, GL003, GL008 or GL011 is at it)"
	WhyExtraRoot   = "in an extra root outside the root, which gymlint does not write to"
	WhyOutside     = "outside the root"
)

// PlanNoqa plans a suppression, with reason (suppress.CheckReason), for
// each finding of res that can have one, in the content of its file that
// the check read (Result.Source, which must be the content Result.Analysed
// knows: a file changed since, or one whose content the check cannot tell,
// is left out). The findings in a file that gymlint did not analyse (see
// suppress.NotAnalysed), in an extra root or outside the root, and GL009,
// GL010 and GL013 (which report suppressions, and cannot be suppressed)
// are skipped. Each suppression is placed as suppress.Adopt places it,
// checked with the language's own parser: pyscan for Python,
// configscan.SameValues for YAML, go/scanner for Go.
func PlanNoqa(res *Result, reason string) *NoqaPlan {
	plan := &NoqaPlan{}
	notAnalysed := map[string]bool{}
	for _, d := range res.Diagnostics {
		if suppress.NotAnalysed(d) {
			notAnalysed[d.Path] = true
		}
	}
	byPath := map[string][]diag.Diagnostic{}
	for _, d := range res.Diagnostics {
		switch {
		case gym.InExtraRoot(d.Path):
			plan.skip(d, WhyExtraRoot)
		case d.Path == "" || path.IsAbs(d.Path) || path.Clean(d.Path) != d.Path || !filepath.IsLocal(filepath.FromSlash(d.Path)):
			plan.skip(d, WhyOutside)
		case notAnalysed[d.Path]:
			plan.skip(d, WhyNotAnalysed)
		case suppress.Unsuppressible(d.Code):
			plan.skip(d, suppress.WhySelf)
		default:
			byPath[d.Path] = append(byPath[d.Path], d)
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var parser *pyscan.Parser
	defer func() {
		if parser != nil {
			parser.Close()
		}
	}()
	for _, p := range paths {
		ds := byPath[p]
		content, why := analysedContent(res, p)
		if why != "" {
			for _, d := range ds {
				plan.Missed = append(plan.Missed, suppress.Miss{Diagnostic: d, Why: why})
			}
			continue
		}
		opts := suppress.AdoptOptions{Reason: reason}
		switch suppress.Language(p) {
		case "python":
			if parser == nil {
				parser = pyscan.NewParser(pyscan.Options{})
			}
			opts.SameCode = func(old, new []byte, comments []int) bool { return parser.SameCode(p, old, new, comments) }
		case "yaml":
			opts.SameCode = func(old, new []byte, _ []int) bool { return configscan.SameValues(old, new) }
		}
		a := suppress.Adopt(p, content, ds, opts)
		plan.Missed = append(plan.Missed, a.Missed...)
		if len(a.Edits) > 0 {
			plan.Files = append(plan.Files, NoqaFile{Path: p, Edits: a.Edits, Added: a.Added, Suppressed: a.Suppressed})
		}
	}
	sortMisses(plan.Missed)
	return plan
}

// Unwritten moves the findings that the suppressions of the file p
// suppress to Missed, with why: the file was left as it was.
func (plan *NoqaPlan) Unwritten(p, why string) {
	for i, f := range plan.Files {
		if f.Path != p {
			continue
		}
		for _, d := range f.Suppressed {
			plan.Missed = append(plan.Missed, suppress.Miss{Diagnostic: d, Why: why})
		}
		plan.Files = append(plan.Files[:i:i], plan.Files[i+1:]...)
		sortMisses(plan.Missed)
		return
	}
}

func (plan *NoqaPlan) skip(d diag.Diagnostic, why string) {
	plan.Skipped = append(plan.Skipped, suppress.Miss{Diagnostic: d, Why: why})
}

// analysedContent is the content of p that the check read, or why there
// is none to place suppressions in.
func analysedContent(res *Result, p string) ([]byte, string) {
	content, err := res.Source(p)
	if err != nil {
		return nil, fmt.Sprintf("in a file gymlint could not read again: %v", err)
	}
	sum, ok := res.Analysed(p)
	switch {
	case !ok:
		return nil, "in a file whose content as the check read it gymlint cannot tell"
	case sum != sha256.Sum256(content):
		return nil, "in a file changed since gymlint analysed it"
	}
	return content, ""
}

// sortMisses orders misses by their findings' path, line, column and code.
func sortMisses(ms []suppress.Miss) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i].Diagnostic, ms[j].Diagnostic
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start.Line != b.Start.Line {
			return a.Start.Line < b.Start.Line
		}
		if a.Start.Col != b.Start.Col {
			return a.Start.Col < b.Start.Col
		}
		return a.Code < b.Code
	})
}
