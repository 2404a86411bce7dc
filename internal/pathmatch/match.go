package pathmatch

import (
	"path"
	"strings"
)

// seg is one segment of a pattern, compiled so that the common ones (a
// name, "*.ext", "prefix*") match without path.Match.
type seg struct {
	kind segKind
	text string // the literal, suffix or prefix; the glob for kindGlob
}

type segKind uint8

const (
	kindLiteral    segKind = iota
	kindSuffix             // "*" then text
	kindPrefix             // text then "*"
	kindGlob               // anything else: path.Match
	kindDoubleStar         // "**"
)

func compile(s string) seg {
	const meta = `*?[\`
	switch {
	case s == "**":
		return seg{kind: kindDoubleStar}
	case !strings.ContainsAny(s, meta):
		return seg{kind: kindLiteral, text: s}
	case len(s) > 1 && s[0] == '*' && !strings.ContainsAny(s[1:], meta):
		return seg{kind: kindSuffix, text: s[1:]}
	case len(s) > 1 && s[len(s)-1] == '*' && !strings.ContainsAny(s[:len(s)-1], meta):
		return seg{kind: kindPrefix, text: s[:len(s)-1]}
	}
	return seg{kind: kindGlob, text: s}
}

func (g seg) match(p string) bool {
	switch g.kind {
	case kindLiteral:
		return g.text == p
	case kindSuffix:
		return strings.HasSuffix(p, g.text)
	case kindPrefix:
		return strings.HasPrefix(p, g.text)
	case kindDoubleStar: // a whole pattern "**": any name
		return true
	}
	return matchSeg(g.text, p)
}

// matchSegs reports whether the path segments ps match the pattern
// segments gs, where "**" is any number of segments; with trailingMore a
// "**" that ends the pattern needs at least one (gitignore's "dir/**"
// matches what is in dir, not dir).
//
// It works by dynamic programming over (pattern segment, path segment),
// so its cost is at most (len(gs)+1)·(len(ps)+1) segment matches whatever
// the pattern: a hostile "**/a/**/a/**/a/..." cannot make it backtrack
// exponentially. A pattern with more segments other than "**" than the
// path has is rejected first.
func matchSegs(gs []seg, ps []string, trailingMore bool) bool {
	fixed := 0
	for _, g := range gs {
		if g.kind != kindDoubleStar {
			fixed++
		}
	}
	n := len(ps)
	if fixed > n {
		return false
	}
	// next[j]: gs[i+1:] matches ps[j:]; cur[j]: gs[i:] matches ps[j:].
	next, cur := make([]bool, n+1), make([]bool, n+1)
	next[n] = true
	for i := len(gs) - 1; i >= 0; i-- {
		g := gs[i]
		if g.kind == kindDoubleStar {
			if i == len(gs)-1 {
				for j := 0; j <= n; j++ {
					cur[j] = !trailingMore || j < n
				}
			} else {
				cur[n] = next[n]
				for j := n - 1; j >= 0; j-- {
					cur[j] = next[j] || cur[j+1]
				}
			}
		} else {
			cur[n] = false
			for j := n - 1; j >= 0; j-- {
				cur[j] = next[j+1] && g.match(ps[j])
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// matchSeg is path.Match of one segment; a bad pattern matches nothing.
func matchSeg(g, p string) bool {
	ok, err := path.Match(g, p)
	return err == nil && ok
}
