package pathmatch

import (
	"strings"
)

// MaxGitignorePatterns bounds the patterns one .gitignore file gives: the
// walk matches every entry against the patterns of the files above it, so
// a file of a million patterns would make the walk quadratic. Real ones
// have a few hundred at most.
const MaxGitignorePatterns = 2000

// Gitignore is the patterns of one .gitignore file, for the paths below
// the directory that holds it.
type Gitignore struct {
	dir      string // root-relative directory of the file, "." for the root
	patterns []pattern
}

type pattern struct {
	// name is set for a pattern without a "/" (but a trailing one): it
	// matches the last segment of a path, at any depth.
	name *seg
	// segs are the segments of the other patterns, from dir.
	segs    []seg
	negate  bool // "!": re-includes
	dirOnly bool // trailing "/": only directories
}

// ParseGitignore reads the content of the .gitignore file in dir
// (root-relative, "." for the root) with git's rules: "#" comments and
// blank lines are nothing, trailing spaces are dropped unless escaped with
// "\", "!" negates, a trailing "/" matches directories only, a pattern
// with a "/" before its end is anchored at dir (otherwise it matches a name
// at any depth), "**" as a segment matches any number of directories
// ("dir/**" matches what is in dir), and "*", "?" and "[...]" ("[!...]"
// included) match within a segment. It keeps at most
// MaxGitignorePatterns patterns; more reports whether there were more.
func ParseGitignore(dir, content string) (g *Gitignore, more bool) {
	g = &Gitignore{dir: strings.TrimPrefix(dir, "./")}
	if g.dir == "" {
		g.dir = "."
	}
	content = strings.TrimPrefix(content, "\ufeff") // as git, skip a UTF-8 byte order mark
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSuffix(line, "\r")
		p, ok := parseLine(line)
		if !ok {
			continue
		}
		if len(g.patterns) == MaxGitignorePatterns {
			return g, true
		}
		g.patterns = append(g.patterns, p)
	}
	return g, false
}

func parseLine(line string) (pattern, bool) {
	var p pattern
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return p, false
	}
	if line[0] == '!' {
		p.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return p, false
	}
	return finish(p, strings.Split(line, "/"), anchored), true
}

// finish sets the pattern's segments, empty ones dropped ("a//b" is
// "a/b" for git), or its name when it is not anchored.
func finish(p pattern, segs []string, anchored bool) pattern {
	var kept []seg
	for _, s := range segs {
		if s != "" {
			kept = append(kept, compile(bracketNot(s)))
		}
	}
	if !anchored && len(kept) == 1 {
		p.name = &kept[0]
		return p
	}
	p.segs = kept
	return p
}

// trimTrailingSpaces drops trailing spaces that are not escaped with "\".
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		rest := strings.TrimSuffix(s, " ")
		n := 0
		for i := len(rest) - 1; i >= 0 && rest[i] == '\\'; i-- {
			n++
		}
		if n%2 == 1 { // an escaped space stays, without its backslash
			return rest[:len(rest)-1] + " "
		}
		s = rest
	}
	return s
}

// bracketNot turns git's "[!...]" into path.Match's "[^...]".
func bracketNot(s string) string {
	if !strings.Contains(s, "[!") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '[':
			if i+1 < len(s) && s[i+1] == '!' {
				b.WriteByte('^')
				i++
			}
		}
	}
	return b.String()
}

// Match reports whether this file decides the root-relative path p (a
// directory when isDir): decided is false when no pattern matches or p
// is not below the file's directory; ignored is the last matching
// pattern's verdict.
func (g *Gitignore) Match(p string, isDir bool) (ignored, decided bool) {
	return g.match(p, isDir, new(int64))
}

// match is Match, adding the segment matches it made to *work.
func (g *Gitignore) match(p string, isDir bool, work *int64) (ignored, decided bool) {
	rel, ok := g.relative(p)
	if !ok {
		return false, false
	}
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	var ps []string // split when a pattern needs it
	for i := len(g.patterns) - 1; i >= 0; i-- {
		pt := &g.patterns[i]
		if pt.dirOnly && !isDir {
			continue
		}
		if pt.name != nil {
			*work++
			if pt.name.match(name) {
				return !pt.negate, true
			}
			continue
		}
		if ps == nil {
			ps = strings.Split(rel, "/")
		}
		*work += int64((len(pt.segs) + 1) * (len(ps) + 1))
		if matchSegs(pt.segs, ps, true) {
			return !pt.negate, true
		}
	}
	return false, false
}

// File is the root-relative path of the .gitignore file.
func (g *Gitignore) File() string {
	if g.dir == "." {
		return ".gitignore"
	}
	return g.dir + "/.gitignore"
}

// Len is the number of patterns kept.
func (g *Gitignore) Len() int { return len(g.patterns) }

func (g *Gitignore) relative(p string) (string, bool) {
	p = strings.TrimPrefix(p, "./")
	if g.dir == "." {
		return p, p != "" && p != "."
	}
	rest, ok := strings.CutPrefix(p, g.dir+"/")
	return rest, ok && rest != ""
}

// Ignored reports whether the stack of .gitignore files (the root's first,
// then those of deeper directories) ignores the path p itself (a
// directory when isDir): a deeper file's match wins over a higher one's,
// and within a file the last matching pattern wins. It does not look at
// p's directories: a walk that skips ignored directories never asks about
// what is in them (see IgnoredPath).
func Ignored(stack []*Gitignore, p string, isDir bool) bool {
	return IgnoredCounting(stack, p, isDir, new(int64))
}

// IgnoredCounting is Ignored, adding to *work a bound on the segment
// matches it made: a walk can stop applying .gitignore files whose
// patterns cost too much (a hostile repository's).
func IgnoredCounting(stack []*Gitignore, p string, isDir bool, work *int64) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if ign, ok := stack[i].match(p, isDir, work); ok {
			return ign
		}
	}
	return false
}

// IgnoredPath reports whether the file p, or one of the directories it
// lies in, is ignored by the files (in any order of depth): as git, a file
// in an ignored directory cannot be re-included.
func IgnoredPath(files []*Gitignore, p string) bool { return ignoredPath(files, p, false) }

// IgnoredDir is IgnoredPath for a directory p.
func IgnoredDir(files []*Gitignore, p string) bool { return ignoredPath(files, p, true) }

func ignoredPath(files []*Gitignore, p string, isDir bool) bool {
	p = strings.TrimPrefix(p, "./")
	parts := strings.Split(p, "/")
	for i := 1; i <= len(parts); i++ {
		sub := strings.Join(parts[:i], "/")
		var stack []*Gitignore
		for _, g := range files {
			if _, ok := g.relative(sub); ok {
				stack = append(stack, g)
			}
		}
		sortByDepth(stack)
		if Ignored(stack, sub, i < len(parts) || isDir) {
			return true
		}
	}
	return false
}

func sortByDepth(gs []*Gitignore) {
	depth := func(g *Gitignore) int {
		if g.dir == "." {
			return 0
		}
		return strings.Count(g.dir, "/") + 1
	}
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && depth(gs[j]) < depth(gs[j-1]); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}
