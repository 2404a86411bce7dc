package pyscan

import (
	"strings"
	"testing"
)

// A line continuation onto the end of the file is a syntax error, as
// CPython says ("unexpected EOF while parsing"); the look-alikes CPython
// accepts stay valid.
func TestContinuationAtEndOfFile(t *testing.T) {
	for src, bad := range map[string]bool{
		"x = 1 \\\n":                  true,
		"x = 1 \\\r":                  true,
		"def f():\n    return 1 \\\n": true,
		"x = 1\n\\\n":                 true,
		"x = 1 \\\n\n":                false, // joined with an empty line
		"x = 1 \\\n ":                 false,
		"x = 1 \\\r\n":                false, // CPython 3.11 accepts it
		"x = 1 \\\n# c\n":             false,
		"# a comment ending in \\\n":  false,
		"x = 1  # see C:\\\n":         false,
		"s = '''a\\\nb'''\n":          false,
		"x = 1\n":                     false,
	} {
		m := parseSrc(t, src)
		got := m.SyntaxError != nil && strings.Contains(m.SyntaxError.Message, "line continuation")
		if got != bad {
			t.Errorf("%q: syntax error %+v, want a continuation error: %v", src, m.SyntaxError, bad)
		}
		if !bad && m.SyntaxError != nil {
			t.Errorf("%q: unexpected syntax error %+v", src, m.SyntaxError)
		}
	}
}
