package fixes

import (
	"fmt"

	"github.com/gymlint/gymlint/diag"
)

// A Buffer is the fixes of one file applied to the content the analysis
// read of it, held in memory: an editor's buffer that gymlint
// --stdin-filename read from standard input. No file is read or written.
type Buffer struct {
	// Fixed is the content with the fixes applied.
	Fixed []byte
	// Edits are the edits applied, sorted, as offsets into the content
	// given (for UnifiedDiff).
	Edits []diag.TextEdit
	// Taken is the number of fixes applied.
	Taken int
	// Skipped says why each other fix was left out: one that edits
	// another file too (it would be half applied), one that overlaps a fix
	// taken before it, one with an edit outside the content.
	Skipped []string
}

// FixBuffer chooses the fixes of ds as NewPlanFrom does (each diagnostic's
// first safe fix, or with unsafe its first unsafe one when it has none,
// taken whole or not at all, in the diagnostics' order) among those that
// edit only the root-relative file name, and applies them to data, the
// content of name that the analysis read.
func FixBuffer(name string, data []byte, ds []diag.Diagnostic, unsafe bool) *Buffer {
	b := &Buffer{}
	var set Set
	for _, d := range ds {
		fix, ok := Chosen(d, unsafe)
		if !ok {
			continue
		}
		if err := bufferFix(&set, name, len(data), fix); err != nil {
			b.Skipped = append(b.Skipped, fmt.Sprintf("%s:%d:%d: %s: fix %q not applied: %v", d.Path, d.Start.Line, d.Start.Col, d.Code, fix.Message, err))
			continue
		}
		b.Taken++
	}
	b.Edits = set.Edits()
	b.Fixed = applyEdits(data, b.Edits)
	return b
}

// bufferFix adds fix to set when each of its edits is inside the content
// (size bytes) of name, or says why it cannot.
func bufferFix(set *Set, name string, size int, fix diag.Fix) error {
	if len(fix.Edits) == 0 {
		return fmt.Errorf("it has no edits")
	}
	for _, e := range fix.Edits {
		if e.Path != name {
			return fmt.Errorf("it also edits %s, not only the buffer read from standard input (run gymlint --fix on the saved file)", e.Path)
		}
		if err := inside(e, size); err != nil {
			return err
		}
	}
	return set.Add(fix.Edits)
}
