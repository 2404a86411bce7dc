package rayenabled

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// applyEdits applies edits (of one file) to src, checking that each
// edit's line and column agree with its offset. Identical edits (the same
// import added by the fixes of two findings) are applied once, as
// gymlint --fix does.
func applyEdits(t *testing.T, src string, edits []diag.TextEdit) string {
	t.Helper()
	es := append([]diag.TextEdit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start.Offset > es[j].Start.Offset })
	for i, e := range es {
		for _, p := range []diag.Pos{e.Start, e.End} {
			if p.Offset < 0 || p.Offset > len(src) {
				t.Fatalf("edit position %+v outside the file (%d bytes)", p, len(src))
			}
			line := strings.Count(src[:p.Offset], "\n") + 1
			col := p.Offset - (strings.LastIndexByte(src[:p.Offset], '\n') + 1) + 1
			if p.Line != line || p.Col != col {
				t.Errorf("edit position %+v: offset %d is %d:%d", p, p.Offset, line, col)
			}
		}
		if i > 0 && e == es[i-1] {
			continue
		}
		if i > 0 && e.End.Offset > es[i-1].Start.Offset {
			t.Fatalf("edits overlap: %+v, %+v", e, es[i-1])
		}
	}
	out := src
	for i, e := range es {
		if i > 0 && e == es[i-1] {
			continue
		}
		out = out[:e.Start.Offset] + e.NewText + out[e.End.Offset:]
	}
	return out
}

// The fix of the fixture repository's GL204 applies, parses, and removes
// the finding, and nothing else changes for the server.
func TestUnannotatedRayEnabledFixOnRayrepo(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "rayrepo")
	gl204 := func(overlay map[string][]byte) []diag.Diagnostic {
		v, err := gym.Build(root, gym.Options{Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		return runUnannotatedRayEnabled(v)
	}
	ds := gl204(nil)
	if len(ds) == 0 {
		t.Fatal("no GL204 in the fixture repository")
	}
	for _, d := range ds {
		if len(d.Fixes) != 1 {
			t.Fatalf("%s:%d: %d fixes, want 1", d.Path, d.Start.Line, len(d.Fixes))
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatal(err)
		}
		got := applyEdits(t, string(b), d.Fixes[0].Edits)
		if !strings.Contains(got, "\nfrom typing import ClassVar\n") || !strings.Contains(got, "    ray_enabled: ClassVar[bool] = True\n") {
			t.Errorf("%s after the fix:\n%s", d.Path, got)
		}
		p := pyscan.NewParser(pyscan.Options{})
		if m := p.Parse(d.Path, []byte(got)); m.SyntaxError != nil {
			t.Errorf("%s does not parse after the fix: %s", d.Path, m.SyntaxError.Message)
		}
		p.Close()
		for _, d2 := range gl204(map[string][]byte{d.Path: []byte(got)}) {
			if d2.Path == d.Path {
				t.Errorf("GL204 still reported: %s", d2.Message)
			}
		}
	}
}

// The fixes of GL201 and GL205 on the fixture repository apply, parse, and
// remove their findings, and the declarations GL201's fixes write make no
// GL204 (pydantic would reject them).
func TestDeclarationFixesOnRayrepo(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "rayrepo")
	lint := func(overlay map[string][]byte) map[string][]diag.Diagnostic {
		v, err := gym.Build(root, gym.Options{Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		out := map[string][]diag.Diagnostic{}
		for _, d := range append(append(runUndeclaredRay(v), runUnannotatedRayEnabled(v)...), runUnneededRayEnabled(v)...) {
			out[d.Code] = append(out[d.Code], d)
		}
		return out
	}
	before := lint(nil)
	edits := map[string][]diag.TextEdit{}
	fixed := map[string]bool{} // path and code of each fixed finding
	for _, code := range []string{"GL201", "GL205"} {
		for _, d := range before[code] {
			if len(d.Fixes) != 1 {
				continue
			}
			if d.Fixes[0].Applicability != diag.Unsafe {
				t.Errorf("%s:%d: %s fix is %q, want unsafe", d.Path, d.Start.Line, code, d.Fixes[0].Applicability)
			}
			edits[d.Path] = append(edits[d.Path], d.Fixes[0].Edits...)
			fixed[d.Path+" "+code] = true
		}
	}
	if len(fixed) < 6 {
		t.Fatalf("only %d fixed findings in the fixture repository: %v", len(fixed), fixed)
	}
	overlay := map[string][]byte{}
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	for path, es := range edits {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if err != nil {
			t.Fatal(err)
		}
		got := applyEdits(t, string(b), es)
		if m := p.Parse(path, []byte(got)); m.SyntaxError != nil {
			t.Errorf("%s does not parse after the fixes: %s\n%s", path, m.SyntaxError.Message, got)
		}
		overlay[path] = []byte(got)
	}
	after := lint(overlay)
	for code, ds := range after {
		for _, d := range ds {
			if _, edited := overlay[d.Path]; !edited {
				continue
			}
			if fixed[d.Path+" "+code] || code == "GL204" {
				t.Errorf("%s:%d: %s after the fixes: %s", d.Path, d.Start.Line, code, d.Message)
			}
		}
	}
}
