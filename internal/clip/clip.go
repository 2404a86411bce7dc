// Package clip shortens text for one-line messages.
package clip

import (
	"strings"
	"unicode/utf8"
)

// Tail returns p when it is at most n bytes long, else "..." and the end of
// p, at most n bytes in all: cut at a UTF-8 character's start, then at
// the first "/" of what is kept when there is one (".../gym/nemo_gym": a
// path keeps whole components).
func Tail(p string, n int) string {
	if len(p) <= n {
		return p
	}
	i := len(p) - n + 3
	if i < 0 {
		i = 0
	}
	for i < len(p) && !utf8.RuneStart(p[i]) {
		i++
	}
	tail := p[i:]
	if j := strings.IndexByte(tail, '/'); j >= 0 && j < len(tail)-1 {
		tail = tail[j:]
	}
	return "..." + tail
}
