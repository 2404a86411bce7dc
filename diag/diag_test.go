package diag

import "testing"

func edit(start, end int, text string) TextEdit {
	return TextEdit{Path: "f", Start: Pos{Offset: start}, End: Pos{Offset: end}, NewText: text}
}

func TestConflicts(t *testing.T) {
	for _, tc := range []struct {
		a, b TextEdit
		want bool
	}{
		{edit(0, 2, "x"), edit(2, 4, "y"), false}, // touching ranges
		{edit(0, 3, "x"), edit(2, 4, "y"), true},  // a shared byte
		{edit(0, 3, "x"), edit(0, 3, "x"), false}, // the same edit twice
		{edit(0, 3, "x"), edit(0, 3, "y"), true},
		{edit(2, 2, "x"), edit(0, 4, "y"), true},  // an insertion inside a replacement
		{edit(0, 4, "y"), edit(4, 4, "x"), false}, // an insertion at its end
		{edit(0, 4, "y"), edit(0, 0, "x"), false}, // or at its start
		{edit(3, 3, "x"), edit(3, 3, "y"), true},  // two insertions at one place
		{edit(3, 3, "x"), edit(3, 3, "x"), false},
		{edit(1, 5, "x"), edit(2, 3, "y"), true},
	} {
		if got := tc.a.Conflicts(tc.b); got != tc.want {
			t.Errorf("%v.Conflicts(%v) = %v", tc.a, tc.b, got)
		}
		if got := tc.b.Conflicts(tc.a); got != tc.want {
			t.Errorf("%v.Conflicts(%v) = %v", tc.b, tc.a, got)
		}
	}
}
