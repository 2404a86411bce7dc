package gymtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

type record struct{ errors []string }

func (r *record) Helper() {}
func (r *record) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *record) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// edit replaces [start, end) of a one-line file.
func edit(start, end int, text string) diag.TextEdit {
	return diag.TextEdit{Path: "a.py", Start: diag.Pos{Offset: start, Line: 1, Col: start + 1},
		End: diag.Pos{Offset: end, Line: 1, Col: end + 1}, NewText: text}
}

func fixOf(code string, edits ...diag.TextEdit) fixRef {
	return fixRef{diag.Diagnostic{Path: "a.py", Code: code}, diag.Fix{Message: "fix " + code, Edits: edits}}
}

func TestApply(t *testing.T) {
	old := []byte("abcdef")
	for _, tc := range []struct {
		name  string
		fixes []fixRef
		want  string // "" when the edits conflict
	}{
		{"replace and insert", []fixRef{fixOf("GL1", edit(1, 2, "B")), fixOf("GL2", edit(4, 4, "+"))}, "aBcd+ef"},
		{"the same edit twice is made once", []fixRef{fixOf("GL1", edit(0, 0, "x")), fixOf("GL2", edit(0, 0, "x"))}, "xabcdef"},
		{"an insertion where a replacement starts", []fixRef{fixOf("GL1", edit(2, 4, "")), fixOf("GL2", edit(2, 2, "x"))}, "abxef"},
		{"ranges that share a byte", []fixRef{fixOf("GL1", edit(1, 3, "")), fixOf("GL2", edit(2, 4, ""))}, ""},
		{"two insertions at one place", []fixRef{fixOf("GL1", edit(3, 3, "x")), fixOf("GL2", edit(3, 3, "y"))}, ""},
		{"an insertion inside a range", []fixRef{fixOf("GL1", edit(1, 4, "")), fixOf("GL2", edit(2, 2, "y"))}, ""},
	} {
		got, err := apply("a.py", old, tc.fixes)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%s: got %q, want a conflict", tc.name, got)
		case tc.want == "" && !strings.Contains(fmt.Sprint(err), "overlap"):
			t.Errorf("%s: error %v", tc.name, err)
		case tc.want != "" && string(got) != tc.want:
			t.Errorf("%s: got %q (%v), want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestCheckEdit(t *testing.T) {
	k := &kase{dir: "case", files: map[string][]byte{"a.py": []byte("ab\ncd\n")}}
	good := diag.TextEdit{Path: "a.py", Start: diag.Pos{Offset: 4, Line: 2, Col: 2}, End: diag.Pos{Offset: 5, Line: 2, Col: 3}}
	if err := k.checkEdit(good); err != nil {
		t.Error(err)
	}
	for _, e := range []diag.TextEdit{
		{Path: "a.py", Start: diag.Pos{Offset: 4, Line: 1, Col: 5}, End: diag.Pos{Offset: 4, Line: 1, Col: 5}},
		{Path: "a.py", Start: diag.Pos{Offset: 4, Line: 2, Col: 2}, End: diag.Pos{Offset: 9, Line: 3, Col: 4}},
		{Path: "b.py"},
	} {
		if err := k.checkEdit(e); err == nil {
			t.Errorf("edit %+v accepted", e)
		}
	}
}

// A fix that leaves its finding, or a file that does not parse, fails.
func TestCheckResolved(t *testing.T) {
	k := &kase{dir: "case"}
	d := diag.Diagnostic{Path: "a.py", Code: "GL204", Message: "bare"}
	fixes := []fixRef{{d, diag.Fix{Message: "annotate"}}}
	files := map[string][]byte{"a.py": nil}

	r := &record{}
	k.checkResolved(r, "the fixes", []diag.Diagnostic{d}, nil, fixes, files)
	if len(r.errors) != 0 {
		t.Errorf("a resolved finding failed: %v", r.errors)
	}
	r = &record{}
	k.checkResolved(r, "the fixes", []diag.Diagnostic{d, d}, []diag.Diagnostic{d}, fixes, files)
	if len(r.errors) != 0 {
		t.Errorf("one of two findings fixed failed: %v", r.errors)
	}
	r = &record{}
	syntax := diag.Diagnostic{Path: "a.py", Code: "GL001", Message: "syntax error"}
	k.checkResolved(r, "the fixes", []diag.Diagnostic{d}, []diag.Diagnostic{syntax, d}, fixes, files)
	if len(r.errors) != 2 || !strings.Contains(r.errors[0], "does not parse") || !strings.Contains(r.errors[1], "still has 1 GL204 findings (1 before, 1 fixed)") {
		t.Errorf("failures %q", r.errors)
	}
}
