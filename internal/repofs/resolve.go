package repofs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Symbolic links are followed by their text: resolve reads each link
// inside the root (os.Readlink) and works out where it points, relative
// to the directory it is in, the way the kernel would, but it looks
// (os.Lstat) only at paths inside the root. A target that is outside the
// root is ErrOutsideRoot from its text alone, whether or not anything is
// there: nothing outside the root is opened, listed or stat'ed, so the
// answers of an FS say nothing of what lies outside it (a missing target
// and an existing one give the same error).
//
// A target may climb out of the root and back in ("../repo/x" from the
// root's top, or the root's absolute path): the directories above the
// root are known without looking (the root's own path has no links in
// it, New resolved them), so such a path is followed only while it stays
// on the root's own path; a step into any other directory outside the
// root is ErrOutsideRoot. An absolute target under the root's path as it
// was given to New (before its links were resolved) counts as under the
// root.

// The file system calls that reads and resolutions make, as variables
// for the tests that watch which paths are looked at (or make them fail).
var (
	osLstat    = os.Lstat
	osStat     = os.Stat
	osReadlink = os.Readlink
	osReadDir  = os.ReadDir
	osOpen     = os.Open
)

// maxLinks bounds the links one resolution follows (as the kernel's
// MAXSYMLINKS does): past it, the path is a loop.
const maxLinks = 255

// resolve returns the real root-relative path of the clean root-relative
// path rel ("." for the root), its links followed by their text: a path
// without links, made only of real directories and its last element
// (which may be anything but a link). Errors are ErrOutsideRoot,
// ErrSymlinkLoop, ErrNotExist, or the bare error of an Lstat or Readlink
// inside the root (without the absolute path).
func (f *FS) resolve(rel string) (string, error) {
	var done []string // resolved elements below the root
	todo := splitRel(rel)
	links := 0
	// outside is, while the path is above the root (on its own path),
	// that absolute directory; "" while it is in the root.
	outside := ""
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if outside != "" {
			var err error
			if outside, done, err = f.stepOutside(outside, name); err != nil {
				return "", err
			}
			continue
		}
		switch name {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				outside = filepath.Dir(f.root)
				if outside == f.root { // the root is the file system's root
					return "", ErrOutsideRoot
				}
				continue
			}
			done = done[:len(done)-1]
			continue
		}
		done = append(done, name)
		abs := f.abs(done)
		fi, err := osLstat(abs)
		if err != nil {
			return "", lstatError(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if len(todo) > 0 && !fi.IsDir() {
				return "", ErrNotExist // a file used as a directory
			}
			continue
		}
		links++
		if links > maxLinks {
			return "", ErrSymlinkLoop
		}
		target, err := osReadlink(abs)
		if err != nil {
			return "", bare(err)
		}
		done = done[:len(done)-1]
		if target == "" {
			return "", ErrNotExist
		}
		if vol := filepath.VolumeName(target); filepath.IsAbs(target) || strings.HasPrefix(target[len(vol):], string(filepath.Separator)) {
			if vol == "" {
				vol = filepath.VolumeName(f.root)
			}
			elems := splitOS(target[len(vol):])
			if rest, ok := f.underGiven(vol, elems); ok {
				done = nil
				todo = append(rest, todo...)
				continue
			}
			outside, done = vol+string(filepath.Separator), nil
			todo = append(elems, todo...)
			continue
		}
		todo = append(splitOS(target), todo...)
	}
	if outside != "" {
		return "", ErrOutsideRoot // above the root
	}
	if len(done) == 0 {
		return ".", nil
	}
	return strings.Join(done, "/"), nil
}

// resolution is a remembered answer of resolve.
type resolution struct {
	real string
	err  error
}

// resolveDir is resolve of a directory, remembered until Forget: the
// stamps of a warm scan ask Lstat of thousands of files in a few hundred
// directories, and each resolve looks at every element of the path.
func (f *FS) resolveDir(dir string) (string, error) {
	f.mu.Lock()
	r, ok := f.resolved[dir]
	f.mu.Unlock()
	if ok {
		return r.real, r.err
	}
	real, err := f.resolveBelow(dir)
	f.mu.Lock()
	if f.resolved == nil {
		f.resolved = map[string]resolution{}
	}
	f.resolved[dir] = resolution{real, err}
	f.mu.Unlock()
	return real, err
}

// resolveBelow is resolve of the clean root-relative directory dir, from
// its parent's resolution (resolveDir, remembered): one Lstat, of dir's
// last element, unless that is a link, which resolve follows from the
// parent's real path. The answer is resolve's; only the bound on links
// (maxLinks) counts those of the parent's path and of the last element
// apart.
func (f *FS) resolveBelow(dir string) (string, error) {
	if dir == "." || dir == "" || strings.Contains(dir, "..") {
		return f.resolve(dir)
	}
	parent, err := f.resolveDir(path.Dir(dir))
	if err != nil {
		return "", err
	}
	rel := path.Base(dir)
	if parent != "." {
		rel = parent + "/" + rel
	}
	fi, err := osLstat(filepath.Join(f.root, filepath.FromSlash(rel)))
	if err != nil {
		return "", lstatError(err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return f.resolve(rel)
	}
	return rel, nil
}

// stepOutside takes one element of a path that is at the absolute
// directory dir above the root: it stays above (dir'), comes back into
// the root (done), or leaves the root's own path (ErrOutsideRoot).
// Nothing is looked at: every directory above the root on its path is a
// real directory.
func (f *FS) stepOutside(dir, name string) (string, []string, error) {
	switch name {
	case "", ".":
		return dir, nil, nil
	case "..":
		return filepath.Dir(dir), nil, nil
	}
	next := filepath.Join(dir, name)
	if next == f.root {
		return "", nil, nil
	}
	if within(next, f.root) {
		return next, nil, nil // still above the root, on its path
	}
	return "", nil, ErrOutsideRoot
}

// underGiven reports whether the absolute path of volume vol and elements
// elems starts with the root's path as New was given it, when that is not
// the real root (a root given through a link: /tmp/repo for
// /private/tmp/repo), and returns the elements after it. Its elements are
// compared as written: the rest, ".." included, is resolved in the root.
// (A path to the real root needs no such shortcut: the path above the
// root is followed element by element.)
func (f *FS) underGiven(vol string, elems []string) ([]string, bool) {
	if f.given == "" || f.given == f.root || filepath.VolumeName(f.given) != vol {
		return nil, false
	}
	var want, got []string
	for _, e := range splitOS(f.given[len(vol):]) {
		if e != "" && e != "." {
			want = append(want, e)
		}
	}
	i := 0
	for ; i < len(elems) && len(got) < len(want); i++ {
		if e := elems[i]; e != "" && e != "." {
			if e != want[len(got)] {
				return nil, false
			}
			got = append(got, e)
		}
	}
	if len(got) < len(want) {
		return nil, false
	}
	return elems[i:], true
}

// abs is the absolute path of resolved elements below the root.
func (f *FS) abs(elems []string) string {
	return filepath.Join(append([]string{f.root}, elems...)...)
}

// splitRel splits a clean slash path into its elements.
func splitRel(rel string) []string {
	if rel == "." || rel == "" {
		return nil
	}
	return strings.Split(rel, "/")
}

// splitOS splits a link's target into its elements: at the OS's
// separators only (a backslash is a separator on Windows alone).
func splitOS(target string) []string {
	return strings.Split(filepath.ToSlash(target), "/")
}

// lstatError is the error of an Lstat inside the root, for resolve.
func lstatError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return ErrNotExist
	case errors.Is(err, syscall.ELOOP):
		return ErrSymlinkLoop
	}
	return bare(err)
}

// bare is err without the absolute path that the os package's errors
// carry (*fs.PathError, *os.LinkError, *os.SyscallError keep theirs in
// Err): a PathError names the root-relative path, and messages must not
// show where the checkout lies. errors.Is still sees the cause
// (fs.ErrPermission, syscall.ENOENT...).
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Lstat returns the file information of the root-relative path rel of
// the root's own directory (not an overlay's, not a mount's), without
// following rel itself if it is a link: the directories on its way are
// resolved by their links' text, and ErrOutsideRoot is the answer when
// they lead out of the root, which is not looked at. A path with nothing
// there gives an error that wraps fs.ErrNotExist. For the stamps of a
// disk cache, which must not look outside the root either.
func (f *FS) Lstat(rel string) (fs.FileInfo, error) {
	c, ok := Clean(rel)
	if !ok {
		return nil, &PathError{Path: rel, Err: ErrOutsideRoot}
	}
	if c == "." {
		return osLstat(f.root)
	}
	dir, err := f.resolveDir(path.Dir(c))
	if err == nil {
		var fi fs.FileInfo
		if fi, err = osLstat(filepath.Join(f.root, filepath.FromSlash(dir), path.Base(c))); err == nil {
			return fi, nil
		}
		err = lstatError(err)
	}
	if errors.Is(err, ErrNotExist) {
		err = fs.ErrNotExist
	}
	return nil, &PathError{Path: c, Err: err}
}
