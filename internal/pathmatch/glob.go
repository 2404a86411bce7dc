// Package pathmatch matches root-relative, slash-separated paths: against
// the globs of gymlint's configuration (per_path_ignores, exclude) and
// against the patterns of .gitignore files.
//
// It reads nothing: the caller gives it the patterns and the paths.
package pathmatch

import (
	"path"
	"strings"
)

// Glob reports whether the slash-separated path p matches the glob g. The
// glob is anchored at the scanned root; "**" as a whole segment matches any
// number of segments (none included); within a segment "*", "?" and
// "[...]" are those of path.Match and do not cross a "/".
func Glob(g, p string) bool {
	g = strings.TrimPrefix(g, "./")
	p = strings.TrimPrefix(p, "./")
	var gs []seg
	for _, s := range strings.Split(g, "/") {
		gs = append(gs, compile(s))
	}
	return matchSegs(gs, strings.Split(p, "/"), false)
}

// Excluded reports whether p, or a directory it lies in, matches one of
// the globs: excluding a directory excludes what is in it.
func Excluded(globs []string, p string) bool {
	if len(globs) == 0 {
		return false
	}
	p = strings.TrimPrefix(p, "./")
	for {
		for _, g := range globs {
			if Glob(g, p) {
				return true
			}
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// ValidGlob returns why g is not a usable root-relative glob, or "".
func ValidGlob(g string) string {
	switch {
	case g == "":
		return "is empty"
	case strings.HasPrefix(g, "/"):
		return "must be relative to the scanned root"
	case strings.Contains(g, `\`):
		return "must use / between directories"
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == "" {
			return "has an empty path segment"
		}
		if _, err := path.Match(seg, ""); err != nil {
			return "is not a valid glob"
		}
	}
	return ""
}
