package gym

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/pyscan"
)

// Extra roots: the server supervisor looks for a server directory that a
// config names (resources_servers/<name>) under the roots of
// NEMO_GYM_EXTRA_ROOTS first, in order, then the working directory (the
// scanned root), then the framework's install root, and takes the first
// where the directory ships an install marker (requirements.txt or
// pyproject.toml). A view does the same with Options.ExtraRoots and
// Options.InstallRoot.
//
// An extra root inside the scanned root is searched as the root-relative
// directory it is. One outside it, and the install root wherever it is, is
// mounted (repofs.FS.Mount) under the
// name "<base>" (the base name of its directory, "<base~2>" and so on for
// a second of the same name): its files read through a file system of
// their own, confined to it, and every path in it, in diagnostics too, is
// "<base>/<path inside it>". Only what a config names is read there: the
// server directory's markers, its entrypoint and the modules they import.

// searchBase is one root of the search, as a prefix of the view's file
// system: "." for the scanned root, a root-relative directory, or a
// mount's name.
type searchBase struct {
	prefix  string
	dir     string // absolute, links resolved
	mounted bool   // outside the scanned root: findings there are the extra roots'
}

// setupBases mounts the extra roots and the install root and fills
// c.before (the extra roots), c.after (the install root). A root that
// does not exist or is not a directory is left out, as the supervisor
// skips it; one that is the scanned root, or already searched, too.
func (c *Cache) setupBases(extra []string, install string) {
	seen := map[string]bool{c.root: true}
	names := map[string]bool{}
	add := func(dir string, alwaysMount bool) (searchBase, bool) {
		if dir == "" {
			return searchBase{}, false
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(c.root, dir)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return searchBase{}, false
		}
		if st, err := os.Stat(real); err != nil || !st.IsDir() || seen[real] {
			return searchBase{}, false
		}
		seen[real] = true
		if rel, err := filepath.Rel(c.root, real); err == nil && filepath.IsLocal(rel) && !alwaysMount {
			if p, ok := repofs.Clean(filepath.ToSlash(rel)); ok && !inMount(p) {
				return searchBase{prefix: p, dir: real}, true
			}
		}
		sub, err := repofs.New(real, repofs.Options{MaxFileSize: c.fs.MaxFileSize()})
		if err != nil {
			return searchBase{}, false
		}
		base := strings.Map(func(r rune) rune {
			if r == '<' || r == '>' || r == '/' || r == '\\' || r == 0 {
				return '_'
			}
			return r
		}, filepath.Base(real))
		name := "<" + base + ">"
		for i := 2; names[name]; i++ {
			name = fmt.Sprintf("<%s~%d>", base, i)
		}
		if c.fs.Mount(name, sub) != nil {
			return searchBase{}, false
		}
		names[name] = true
		return searchBase{prefix: name, dir: real, mounted: true}, true
	}
	for _, d := range extra {
		if b, ok := add(d, false); ok {
			c.before = append(c.before, b)
		}
	}
	// The install root is always mounted, even in the root (a .venv): its
	// servers are the framework's built-ins, not the repository's.
	if b, ok := add(install, true); ok {
		c.after = append(c.after, b)
	}
}

// inMount reports whether a clean path is written as a mount's ("<...>/").
func inMount(p string) bool {
	name, _, _ := strings.Cut(p, "/")
	return repofs.IsMountName(name)
}

// searchOrder is the supervisor's order of roots for a server directory.
func (c *Cache) searchOrder() []searchBase {
	out := make([]searchBase, 0, len(c.before)+1+len(c.after))
	out = append(out, c.before...)
	out = append(out, searchBase{prefix: ".", dir: c.root})
	return append(out, c.after...)
}

// under joins a base's prefix and a root-relative path.
func (b searchBase) under(p string) string {
	if b.prefix == "." {
		return p
	}
	return path.Join(b.prefix, p)
}

// baseOf returns the search base that the view path p lies in: the
// longest extra or install root holding it, else the scanned root.
func (c *Cache) baseOf(p string) searchBase {
	best := searchBase{prefix: ".", dir: c.root}
	for _, bs := range [][]searchBase{c.before, c.after} {
		for _, b := range bs {
			if (p == b.prefix || strings.HasPrefix(p, b.prefix+"/")) && (best.prefix == "." || len(b.prefix) > len(best.prefix)) {
				best = b
			}
		}
	}
	return best
}

// hasMarker reports whether the server directory dir (a view path) ships
// an install marker, as the supervisor requires of a server directory.
func (c *Cache) hasMarker(dir string) bool {
	return c.skelIsFile(dir+"/requirements.txt") || c.skelIsFile(dir+"/pyproject.toml")
}

// serverDir returns where the server directory typeDir (a root-relative
// <type>/<dir>) is found: the first search base, in the supervisor's
// order, where it has an install marker. When none has one, the scanned
// root's (what gymlint always read), or, when the entrypoint ep exists in
// the root of no marker but in an extra root, that one's: a finding is
// then about the file that exists.
func (c *Cache) serverDir(typeDir, ep string) searchBase {
	order := c.searchOrder()
	if len(order) == 1 {
		return order[0]
	}
	for _, b := range order {
		if c.hasMarker(b.under(typeDir)) {
			return b
		}
	}
	root := order[len(c.before)]
	if ep == "" || c.skelStat(root.under(path.Join(typeDir, ep))) == nil {
		return root
	}
	for _, b := range order {
		if c.skelStat(b.under(path.Join(typeDir, ep))) == nil {
			return b
		}
	}
	return root
}

// ExtraRoot returns, for a path of the view's (a diagnostic's), the
// absolute directory of the extra root outside the scanned root that it
// lies in, and true; or false for a path of the scanned root.
func (c *Cache) ExtraRoot(p string) (string, bool) {
	if !inMount(p) {
		return "", false
	}
	name, _, _ := strings.Cut(p, "/")
	if dir := c.fs.MountRoot(name); dir != "" {
		return dir, true
	}
	return "", false
}

// ExtraRoots returns the extra roots and install root searched, in the
// supervisor's order, as "<prefix>=<absolute dir>" (the scanned root is
// ".").
func (c *Cache) ExtraRoots() []string {
	var out []string
	for _, b := range c.searchOrder() {
		out = append(out, b.prefix+"="+b.dir)
	}
	return out
}

// ExtraRoot is Cache.ExtraRoot for the view's cache.
func (v *View) ExtraRoot(p string) (string, bool) { return v.cache.ExtraRoot(p) }

// importBases are the roots an absolute import is looked up in after the
// importing module's folder: the extra roots, then the scanned root, as
// the supervisor puts them on sys.path. (The install root is left out: the
// framework's own modules are not read as the repository's.)
func (c *Cache) importBases() []string {
	out := make([]string, 0, len(c.before)+1)
	for _, b := range c.before {
		out = append(out, b.prefix)
	}
	return append(out, ".")
}

// nameModule gives a module read in an extra or install root the dotted
// name it has there (its path inside that root), as Python imports it.
func (c *Cache) nameModule(m *pyscan.Module) {
	if m == nil || len(c.before)+len(c.after) == 0 {
		return
	}
	b := c.baseOf(m.Path)
	if b.prefix == "." {
		return
	}
	m.Name, m.IsPackage = pyscan.ModuleName(strings.TrimPrefix(m.Path, b.prefix+"/"))
}

// isFrameworkFile reports whether the root-relative file p is a module of
// the framework package (named as nameModule names it).
func (c *Cache) isFrameworkFile(p string) bool {
	if b := c.baseOf(p); b.prefix != "." {
		p = strings.TrimPrefix(p, b.prefix+"/")
	}
	name, _ := pyscan.ModuleName(p)
	return c.isFrameworkModule(name)
}

// InExtraRoot reports whether a diagnostic's path is written as one in an
// extra root outside the scanned root ("<name>/...").
func InExtraRoot(p string) bool { return inMount(p) }
