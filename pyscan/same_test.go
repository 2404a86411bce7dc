package pyscan

import (
	"strings"
	"testing"
)

func TestSameCode(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	const old = "x = 1 + \\\n    2\ns = \"\"\"a\nb\"\"\"\nf = f\"{x}\"\n"
	for _, tc := range []struct {
		name string
		new  string
		mark string // the comment's text; its offset must lie in a comment
		same bool
	}{
		{"a trailing comment", "x = 1 + \\\n    2  # c\ns = \"\"\"a\nb\"\"\"\nf = f\"{x}\"\n", "# c", true},
		{"a comment line", "# c\nx = 1 + \\\n    2\ns = \"\"\"a\nb\"\"\"\nf = f\"{x}\"\n", "# c", true},
		{"after a backslash", "x = 1 + \\  # c\n    2\ns = \"\"\"a\nb\"\"\"\nf = f\"{x}\"\n", "# c", false},
		{"inside a string", "x = 1 + \\\n    2\ns = \"\"\"a  # c\nb\"\"\"\nf = f\"{x}\"\n", "# c", false},
		{"code changed", "x = 1 + \\\n    3\ns = \"\"\"a\nb\"\"\"\nf = f\"{x}\"\n", "", false},
	} {
		var marks []int
		if tc.mark != "" {
			marks = []int{strings.Index(tc.new, tc.mark)}
		}
		if got := p.SameCode("m.py", []byte(old), []byte(tc.new), marks); got != tc.same {
			t.Errorf("%s: SameCode = %v, want %v", tc.name, got, tc.same)
		}
	}
}
