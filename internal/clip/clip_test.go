package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTail(t *testing.T) {
	for _, tc := range []struct {
		p    string
		n    int
		want string
	}{
		{"a/b/c", 10, "a/b/c"},
		{"/home/someone/projects/gym/nemo_gym", 20, ".../gym/nemo_gym"},
		{strings.Repeat("é", 40), 20, "..." + strings.Repeat("é", 8)},
		{"x/" + strings.Repeat("ü", 30), 12, "..." + strings.Repeat("ü", 4)},
		{"abc/def", 6, "...def"},
	} {
		got := Tail(tc.p, tc.n)
		if got != tc.want || len(got) > tc.n || !utf8.ValidString(got) {
			t.Errorf("Tail(%q, %d) = %q, want %q (at most %d bytes, valid UTF-8)", tc.p, tc.n, got, tc.want, tc.n)
		}
	}
}
