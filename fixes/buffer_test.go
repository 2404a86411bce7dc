package fixes

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

// TestFixBuffer: the fixes that edit only the buffer's file are applied to
// it in memory; one that also edits another file, one that overlaps a fix
// taken before it and one outside the content are left out, each said; an
// unsafe fix only with unsafe.
func TestFixBuffer(t *testing.T) {
	const name = "srv/app.py"
	data := []byte("aaa bbb ccc\n")
	edit := func(path string, start, end int, text string) diag.TextEdit {
		return diag.TextEdit{Path: path, Start: diag.Pos{Offset: start}, End: diag.Pos{Offset: end}, NewText: text}
	}
	fix := func(app diag.Applicability, es ...diag.TextEdit) diag.Diagnostic {
		return diag.Diagnostic{Path: name, Code: "GL999", Fixes: []diag.Fix{{Message: "m", Applicability: app, Edits: es}}}
	}
	ds := []diag.Diagnostic{
		fix(diag.Safe, edit(name, 0, 3, "AAA")),
		fix(diag.Safe, edit(name, 4, 7, "BBB"), edit("srv/configs/srv.yaml", 0, 0, "x")),
		fix(diag.Safe, edit(name, 1, 2, "z")),
		fix(diag.Safe, edit(name, 8, 99, "")),
		fix(diag.Unsafe, edit(name, 8, 11, "CCC")),
	}
	b := FixBuffer(name, data, ds, false)
	if string(b.Fixed) != "AAA bbb ccc\n" || b.Taken != 1 || len(b.Skipped) != 3 {
		t.Errorf("safe fixes: %q, taken %d, skipped %q", b.Fixed, b.Taken, b.Skipped)
	}
	for i, want := range []string{"it also edits srv/configs/srv.yaml", "overlaps", "outside " + name} {
		if i >= len(b.Skipped) || !strings.Contains(b.Skipped[i], want) {
			t.Errorf("skipped %d: %q, want %q", i, b.Skipped, want)
		}
	}
	if b := FixBuffer(name, data, ds, true); string(b.Fixed) != "AAA bbb CCC\n" || b.Taken != 2 || !strings.Contains(UnifiedDiff(name, data, b.Edits, 3), "+AAA bbb CCC") {
		t.Errorf("with unsafe: %q, taken %d", b.Fixed, b.Taken)
	}
}
