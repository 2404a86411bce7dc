package repofs

import (
	"errors"
	"fmt"
	"strings"
)

// Mounts: an FS can serve, under a name of its own, the files of another
// root (an extra root of plugin servers outside the repository). A path
// whose first element is a mount's name is read from that root, through
// its own FS, so the rules that keep reads inside a root hold for it too:
// nothing outside the mounted root is read, and a symbolic link out of it
// is refused with ErrOutsideRoot as a link out of the root is.
//
// A mount's name is written in angle brackets ("<plugins>"), which no
// file name of a repository is expected to have (Windows forbids it), so
// a mounted path cannot be taken for one of the root's. The walk does not
// enter mounts: their files are read only when asked for by path.

// ErrBadMount is Mount's error for a name that is not "<...>" or is taken.
var ErrBadMount = errors.New("a mount's name must be one path element in angle brackets, not yet mounted")

// IsMountName reports whether name has the form of a mount's name.
func IsMountName(name string) bool {
	return len(name) > 2 && strings.HasPrefix(name, "<") && strings.HasSuffix(name, ">") &&
		!strings.ContainsAny(name, "/\\\x00")
}

// Mount makes the files of sub readable as name/<path>. Mount before the
// FS is used: mounts are not safe to add while it is read.
func (f *FS) Mount(name string, sub *FS) error {
	if !IsMountName(name) || sub == nil {
		return fmt.Errorf("%q: %w", name, ErrBadMount)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.mounts[name]; ok {
		return fmt.Errorf("%q: %w", name, ErrBadMount)
	}
	if f.mounts == nil {
		f.mounts = map[string]*FS{}
	}
	f.mounts[name] = sub
	return nil
}

// Mounted returns the FS mounted at the first element of the clean path c
// and the rest of c, or ok false when c is not in a mount.
func (f *FS) Mounted(c string) (sub *FS, rest string, ok bool) {
	if len(c) == 0 || c[0] != '<' {
		return nil, "", false
	}
	name, rest, _ := strings.Cut(c, "/")
	f.mu.Lock()
	sub, ok = f.mounts[name]
	f.mu.Unlock()
	if !ok {
		return nil, "", false
	}
	if rest == "" {
		rest = "."
	}
	return sub, rest, true
}

// MountRoot returns the absolute directory mounted as name, or "".
func (f *FS) MountRoot(name string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if sub, ok := f.mounts[name]; ok {
		return sub.root
	}
	return ""
}

// reprefix gives a sub FS's error the path as the mounting FS names it.
func reprefix(err error, name string) error {
	var pe *PathError
	if errors.As(err, &pe) {
		return &PathError{Path: name + "/" + pe.Path, Err: pe.Err}
	}
	return err
}

// mountName is the first element of the mounted path c.
func mountName(c string) string {
	name, _, _ := strings.Cut(c, "/")
	return name
}
