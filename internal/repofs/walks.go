package repofs

import (
	"path"
	"strings"

	"github.com/gymlint/gymlint/internal/pathmatch"
)

// Unwalked returns those of paths (root-relative files, as the walk names
// them) that Walk does not list: a name that is not a YAML file's or
// app.py, a path that is not clean or lies in a mount, a directory on the
// way that the walk skips (hidden, dependencies), a path that
// Options.Exclude excludes or, with Options.Gitignore, that the
// .gitignore files of the root and of the directories on its way ignore
// (read now, each once per call; one that cannot be read counts as
// empty). Whether a path exists is not looked at.
//
// A caller given a listing made by an earlier walk plus other files (a
// cache's record of the configs a scan read) tells the two apart with it.
func (f *FS) Unwalked(paths []string) map[string]bool {
	out := map[string]bool{}
	ignores := map[string]*pathmatch.Gitignore{} // by directory; nil: none
	gitignoreOf := func(dir string) *pathmatch.Gitignore {
		g, ok := ignores[dir]
		if !ok {
			p := ".gitignore"
			if dir != "." {
				p = dir + "/.gitignore"
			}
			if data, err := f.Read(p); err == nil {
				g, _ = pathmatch.ParseGitignore(dir, string(data))
			}
			ignores[dir] = g
		}
		return g
	}
	for _, p := range paths {
		if !f.walks(p, gitignoreOf) {
			out[p] = true
		}
	}
	return out
}

// walks reports whether Walk lists the file p (see Unwalked).
func (f *FS) walks(p string, gitignoreOf func(dir string) *pathmatch.Gitignore) bool {
	c, ok := Clean(p)
	if !ok || c != p || c == "." {
		return false
	}
	if _, _, mounted := f.Mounted(c); mounted {
		return false
	}
	if name := path.Base(c); !isYAMLName(name) && name != "app.py" || inSkippedDir(c) || pathmatch.Excluded(f.exclude, c) {
		return false
	}
	if !f.gitignore {
		return true
	}
	dirs := []string{"."}
	if d := path.Dir(c); d != "." {
		parts := strings.Split(d, "/")
		for i := range parts {
			dirs = append(dirs, strings.Join(parts[:i+1], "/"))
		}
	}
	var files []*pathmatch.Gitignore
	for _, d := range dirs {
		if g := gitignoreOf(d); g != nil {
			files = append(files, g)
		}
	}
	return !pathmatch.IgnoredPath(files, c)
}
