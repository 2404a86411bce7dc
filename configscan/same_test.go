package configscan

import "testing"

func TestSameValues(t *testing.T) {
	const base = "a: 1\nb: |\n  text\nc: \"x\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n"
	for _, tc := range []struct {
		name string
		b    string
		same bool
	}{
		{"a comment after a value", "a: 1  # note\nb: |\n  text\nc: \"x\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n", true},
		{"a comment line", "# note\na: 1\nb: |\n  text\nc: \"x\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n", true},
		{"a comment after a block scalar's header", "a: 1\nb: |  # note\n  text\nc: \"x\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n", true},
		{"inside a block scalar", "a: 1\nb: |\n  text  # note\nc: \"x\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n", false},
		{"inside a quoted scalar", "a: 1\nb: |\n  text\nc: \"x  # note\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n", false},
		{"splitting a plain scalar", "a: 1\nb: |\n  text\nc: \"x\n  y\"\nd: plain  # note\n  more\ne: &k [1, 2]\nf: *k\n", false},
		{"another value", "a: 2\nb: |\n  text\nc: \"x\n  y\"\nd: plain\n  more\ne: &k [1, 2]\nf: *k\n", false},
		{"another anchor", "a: 1\nb: |\n  text\nc: \"x\n  y\"\nd: plain\n  more\ne: &j [1, 2]\nf: *j\n", false},
		{"a syntax error", "a: 1\nb: [\n", false},
	} {
		if got := SameValues([]byte(base), []byte(tc.b)); got != tc.same {
			t.Errorf("%s: SameValues = %v, want %v", tc.name, got, tc.same)
		}
	}
}
