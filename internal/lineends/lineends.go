// Package lineends splits text into lines as the findings count them:
// CPython's tokenizer (and so pyscan's positions) and YAML end a line at
// "\n", "\r\n" or a lone "\r"; Go's go/token only at "\n".
package lineends

import "strings"

// Line is one line of a text: where it starts, and its text without the
// line end.
type Line struct {
	Start int
	Text  string
}

// Split returns the lines of s, split at "\n" and "\r\n", and, when
// loneCR, at a lone "\r" too. It reads s once: the next "\r" is looked for
// again only once the lines have passed it.
func Split(s string, loneCR bool) []Line {
	var ls []Line
	off := 0
	cr := -1 // the next "\r" at or after off; len(s) when there is none
	for {
		i := strings.IndexByte(s[off:], '\n')
		if loneCR {
			if cr < off {
				cr = len(s)
				if j := strings.IndexByte(s[off:], '\r'); j >= 0 {
					cr = off + j
				}
			}
			if j := cr - off; cr < len(s) && (i < 0 || j < i-1) {
				ls = append(ls, Line{off, s[off:cr]}) // a lone "\r"
				off = cr + 1
				continue
			}
		}
		if i < 0 {
			return append(ls, Line{off, strings.TrimSuffix(s[off:], "\r")})
		}
		ls = append(ls, Line{off, strings.TrimSuffix(s[off:off+i], "\r")})
		off += i + 1
	}
}
