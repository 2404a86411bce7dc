// Package repofs gives read access to the files of one repository root and
// to nothing outside it.
//
// Every path it takes and returns is slash-separated and relative to the
// root (a backslash separates only on Windows). A path that climbs out of
// the root, or a symbolic link whose target lies outside the root, is
// refused with ErrOutsideRoot, decided from the link's text without
// looking outside the root (resolve.go); a symbolic link loop gives
// ErrSymlinkLoop. Errors name root-relative paths only. Reads are capped at a maximum size and refuse
// binary content, so no input can make a scan read without bound. An
// overlay can stand in for files on disk (an editor's unsaved buffers).
//
// The walk lists the files a scan needs (YAML configs and the app.py of
// server directories). It does not descend into symbolic links to
// directories, hidden directories (names starting with "."), or the usual
// dependency and cache directories (node_modules, __pycache__, venv,
// site-packages), so it can neither loop nor leave the root; and it can
// leave out what the configuration excludes and what .gitignore files
// ignore (Options).
package repofs

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/gymlint/gymlint/internal/pathmatch"
)

// DefaultMaxFileSize is the default cap on the size of a file gymlint reads.
const DefaultMaxFileSize = 4 << 20

// Errors returned by Read and Stat. They wrap into *PathError with the path.
var (
	ErrOutsideRoot = errors.New("the path leaves the repository root")
	ErrSymlinkLoop = errors.New("symbolic link loop")
	ErrTooLarge    = errors.New("file is larger than the size limit")
	ErrBinary      = errors.New("file is binary (it contains a NUL byte)")
	ErrNotUTF8     = errors.New("file is not valid UTF-8")
	ErrNotExist    = errors.New("no such file")
	ErrNotRegular  = errors.New("not a regular file")
	// ErrTooManyPatterns is the walk's Problem with a .gitignore that has
	// more patterns than pathmatch.MaxGitignorePatterns.
	ErrTooManyPatterns = fmt.Errorf("the file has more than %d patterns", pathmatch.MaxGitignorePatterns)
	// ErrGitignoreTooCostly is the walk's Problem when matching its
	// entries against .gitignore patterns took more than MaxGitignoreWork.
	ErrGitignoreTooCostly = errors.New("the .gitignore patterns cost more to apply than gymlint allows")
)

// PathError records an error and the path that caused it.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// FS is a repository root.
type FS struct {
	root        string // absolute, symlinks resolved
	given       string // absolute, as New was given it (resolve.go)
	maxFileSize int64
	exclude     []string // Options.Exclude
	gitignore   bool     // Options.Gitignore
	jobs        int      // Options.Jobs

	mu      sync.Mutex
	overlay map[string][]byte
	stats   map[string]error      // cached result of checking a path
	dirs    map[string]dirListing // cached directory listings
	isDirs  map[string]bool       // cached answers of IsDir
	mounts  map[string]*FS        // other roots served under a name (mount.go)
	// sums are, once KeepSums is called, the stat and content hash of
	// every file of the root's own directory read successfully.
	sums map[string]ReadSum
	// resolved are the answers of resolveDir: a directory's real path, or
	// why it has none.
	resolved map[string]resolution
}

// ReadSum is what Read saw of a file: its size, modification time and
// inode from a stat of the opened file taken before it was read, and the
// SHA-256 of the content it returned.
type ReadSum struct {
	Size  int64
	MTime int64 // Unix nanoseconds
	Ino   uint64
	Sum   [sha256.Size]byte
	// Varied: an earlier Read of the file since KeepSums returned another
	// content (the file changed during the scan), so that what was
	// computed from its reads is not of one content.
	Varied bool
}

// KeepSums makes every later Read of a file of the root's own directory
// (not an overlay, not an extra root) keep its ReadSum, for a disk cache
// that stamps the files a scan read without reading them again.
func (f *FS) KeepSums() {
	f.mu.Lock()
	if f.sums == nil {
		f.sums = map[string]ReadSum{}
	}
	f.mu.Unlock()
}

// Sum returns the ReadSum of the last Read of rel, ok false when it was
// not read (or KeepSums was not called).
func (f *FS) Sum(rel string) (ReadSum, bool) {
	c, ok := Clean(rel)
	if !ok {
		return ReadSum{}, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	rs, ok := f.sums[c]
	return rs, ok
}

// Options tune an FS.
type Options struct {
	MaxFileSize int64             // 0 means DefaultMaxFileSize
	Overlay     map[string][]byte // content by root-relative path, read instead of the disk
	// Exclude are root-relative globs (pathmatch.Excluded) whose files and
	// directories the walk leaves out. Reads are not affected.
	Exclude []string
	// Gitignore makes the walk leave out what the .gitignore files of the
	// root and of the directories it walks ignore. Reads are not affected.
	Gitignore bool
	// Jobs is how many processors the walk may keep busy (it lists
	// directories on walkersPerProc goroutines each); 0: GOMAXPROCS.
	Jobs int
}

// New opens the repository at dir.
func New(dir string, opts Options) (*FS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	max := opts.MaxFileSize
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	ov := map[string][]byte{}
	for k, v := range opts.Overlay {
		if c, ok := Clean(k); ok {
			ov[c] = v
		}
	}
	return &FS{root: real, given: abs, maxFileSize: max, exclude: opts.Exclude, gitignore: opts.Gitignore, jobs: opts.Jobs, overlay: ov, stats: map[string]error{}, dirs: map[string]dirListing{}, isDirs: map[string]bool{}}, nil
}

func (f *FS) overlaid(c string) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	data, ok := f.overlay[c]
	return data, ok
}

// SetOverlay makes rel read as data (an editor's unsaved buffer) until
// ClearOverlay. It reports false when rel is not a path inside the root.
// The FS keeps data; the caller must not modify it afterwards.
func (f *FS) SetOverlay(rel string, data []byte) bool {
	c, ok := Clean(rel)
	if !ok {
		return false
	}
	if _, _, mounted := f.Mounted(c); mounted {
		return false // an extra root is read from the disk only
	}
	f.mu.Lock()
	f.overlay[c] = data
	f.mu.Unlock()
	return true
}

// ClearOverlay makes rel read from the disk again.
func (f *FS) ClearOverlay(rel string) {
	if c, ok := Clean(rel); ok {
		f.mu.Lock()
		delete(f.overlay, c)
		f.mu.Unlock()
	}
}

// Overlaid reports whether rel reads from the overlay.
func (f *FS) Overlaid(rel string) bool {
	c, ok := Clean(rel)
	if !ok {
		return false
	}
	_, ok = f.overlaid(c)
	return ok
}

// Forget drops what the FS remembers of rel from the disk: whether it is a
// readable file, and the listing of its directory (so that a file created
// or deleted there is seen). Call it when the file changed on disk.
func (f *FS) Forget(rel string) {
	c, ok := Clean(rel)
	if !ok {
		return
	}
	if sub, rest, ok := f.Mounted(c); ok {
		sub.Forget(rest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// A link may point at c: answers for other paths can change too when
	// c appears or goes, so the whole stat cache goes (it refills cheaply
	// from the directory listings that stay).
	clear(f.stats)
	clear(f.isDirs)
	clear(f.resolved)
	delete(f.dirs, path.Dir(c))
}

// Root returns the absolute path of the root.
func (f *FS) Root() string { return f.root }

// MaxFileSize returns the size cap.
func (f *FS) MaxFileSize() int64 { return f.maxFileSize }

// Clean normalises a root-relative slash path. It reports false when the
// path is absolute or climbs above the root.
//
// A backslash is a separator only where the OS's separator is one
// (Windows): elsewhere it is an ordinary character of a file name, and
// configs\victim.yaml is a file of the root's top directory, not
// configs/victim.yaml.
func Clean(rel string) (string, bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) || strings.ContainsRune(rel, 0) {
		return "", false
	}
	c := cleanPath(filepath.ToSlash(rel))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// cleanPath is path.Clean, without its byte-by-byte copy for a path that
// is already clean: one that does not start with a dot, has no element
// that does, and no empty element (a scan looks up hundreds of thousands
// of such paths, every import tried in every folder it could be in, and
// path.Clean was a third of each lookup of an absent one).
func cleanPath(p string) string {
	if p != "" && p[0] != '.' && p[len(p)-1] != '/' && !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
		return p
	}
	return path.Clean(p)
}

// check resolves a root-relative path on disk and returns nil when it is a
// regular file inside the root (after following symbolic links).
func (f *FS) check(rel string) error {
	f.mu.Lock()
	err, ok := f.stats[rel]
	f.mu.Unlock()
	if ok {
		return err
	}
	keep, err := f.checkUncached(rel)
	if keep {
		f.mu.Lock()
		f.stats[rel] = err
		f.mu.Unlock()
	}
	return err
}

// checkUncached is check's answer, and whether to keep it (keep): not when the
// directory's listing gave it, which it gives again at the cost of a map
// lookup. Import resolution asks about many paths that do not exist
// (every standard-library import is tried in the importing module's
// folder, as a module and as a package): on a repository of 2,000
// servers, keeping those answers held 17 MB of the live heap.
func (f *FS) checkUncached(rel string) (keep bool, err error) {
	// One listing per directory answers absent paths without resolving
	// links.
	if err := f.listed(path.Dir(rel), path.Base(rel)); err != nil {
		return false, err
	}
	// Links are followed by their text, and nothing outside the root is
	// looked at (resolve.go): the directory's links once (resolveDir, as
	// the listing above did), then the file's own.
	st, err := f.lstatIn(rel)
	if err != nil {
		return true, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		real, err := f.resolve(rel)
		if err != nil {
			return true, err
		}
		if st, err = osStat(filepath.Join(f.root, filepath.FromSlash(real))); err != nil {
			return true, lstatError(err)
		}
	}
	if !st.Mode().IsRegular() {
		return true, ErrNotRegular
	}
	return true, nil
}

// lstatIn is Lstat of the clean root-relative path rel (not the root)
// with its directory resolved by resolveDir: the information of rel
// itself, a link not followed, or the error of resolve's.
func (f *FS) lstatIn(rel string) (fs.FileInfo, error) {
	dir, err := f.resolveDir(path.Dir(rel))
	if err != nil {
		return nil, err
	}
	fi, err := osLstat(filepath.Join(f.root, filepath.FromSlash(dir), path.Base(rel)))
	if err != nil {
		return nil, lstatError(err)
	}
	return fi, nil
}

// within reports whether the absolute path p is root or inside it.
func within(root, p string) bool {
	if p == root {
		return true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

// dirListing is the cached listing of a directory: the names in it, or
// why it could not be listed.
type dirListing struct {
	names  map[string]bool
	sorted []string // names, sorted, at most MaxListing
	err    error
}

// keepListing keeps the walk's listing of the directory dir as the one
// listing would make, unless it has one, and dir as its own resolution
// (resolveDir): the walk descends into real directories only, so dir is a
// path without links, and what the walk read need not be read again when
// a file in it is read or looked for (the .gitignore files the walk
// reads, the modules a scan looks up).
func (f *FS) keepListing(dir string, entries []fs.DirEntry) {
	l := dirListing{names: make(map[string]bool, len(entries))}
	for _, e := range entries {
		l.names[e.Name()] = true
	}
	l.sorted = sortedNames(l.names)
	f.mu.Lock()
	if _, ok := f.dirs[dir]; !ok {
		f.dirs[dir] = l
	}
	if f.resolved == nil {
		f.resolved = map[string]resolution{}
	}
	if _, ok := f.resolved[dir]; !ok {
		f.resolved[dir] = resolution{real: dir}
	}
	f.mu.Unlock()
}

// noNames is the names of a directory that is not there.
var noNames = []string{}

// listed returns nil when the directory dir (root-relative) has an entry
// called name, ErrNotExist when it has none or cannot be read, and the
// error of resolving dir when that fails: ErrOutsideRoot for a directory
// whose links lead out of the root, which is never listed.
func (f *FS) listed(dir, name string) error {
	l := f.listing(dir)
	if l.err != nil {
		return l.err
	}
	if !l.names[name] {
		return ErrNotExist
	}
	return nil
}

// listing returns the cached listing of the clean directory path dir of
// the root's own directory, reading it the first time.
func (f *FS) listing(dir string) dirListing {
	f.mu.Lock()
	l, ok := f.dirs[dir]
	f.mu.Unlock()
	if ok {
		return l
	}
	if dir != "." {
		// A directory its parent's listing lacks is not there: no need
		// to resolve its path (an import is looked for as a package in
		// every folder it could be in, and most are not). Nor to keep
		// the answer, which the parent's listing gives again: on a
		// repository of 2,000 servers, those kept were 7.5 MB of the
		// live heap.
		if p := f.listing(path.Dir(dir)); p.err != nil || !p.names[path.Base(dir)] {
			return dirListing{err: p.err, sorted: noNames}
		}
	}
	l.names = map[string]bool{}
	real, err := f.resolveDir(dir)
	switch {
	case errors.Is(err, ErrOutsideRoot), errors.Is(err, ErrSymlinkLoop):
		l.err = err
	case err == nil:
		if entries, err := osReadDir(filepath.Join(f.root, filepath.FromSlash(real))); err == nil {
			for _, e := range entries {
				l.names[e.Name()] = true
			}
		}
	}
	l.sorted = sortedNames(l.names)
	f.mu.Lock()
	f.dirs[dir] = l
	f.mu.Unlock()
	return l
}

// Names returns the names in the directory rel ("." for the root):
// files, directories and links alike, and the overlay's files and the
// directories that hold them, sorted, at most MaxListing from the disk.
// Unlike ListDir it tells them not apart and remembers the disk's answer
// (the listing that Stat answers absent paths from, until Forget), so that
// a search that lists the same directories again and again reads each
// once. The slice must not be modified.
func (f *FS) Names(rel string) []string {
	c := "."
	if rel != "." && rel != "" {
		var ok bool
		if c, ok = Clean(rel); !ok {
			return nil
		}
		if sub, rest, ok := f.Mounted(c); ok {
			return sub.Names(rest)
		}
	}
	l := f.listing(c)
	var extra []string
	f.overlayIn(c, func(name string, _ bool) {
		if !l.names[name] && !slices.Contains(extra, name) {
			extra = append(extra, name)
		}
	})
	if len(extra) == 0 {
		return l.sorted
	}
	return slices.Sorted(slices.Values(append(slices.Clone(l.sorted), extra...)))
}

// Known tells the FS what Stat of rel, a path of the root's own directory
// (not an extra root's, not the overlay's), answers without looking: that
// it is a readable regular file (exists) or that nothing is there. A
// caller that has checked the path by other means (a disk cache's stamps
// of it, unchanged) saves the system calls; an answer the FS already has
// stays. Forget drops it like any other.
func (f *FS) Known(rel string, exists bool) {
	c, ok := Clean(rel)
	if !ok {
		return
	}
	if _, _, mounted := f.Mounted(c); mounted {
		return
	}
	var err error
	if !exists {
		err = ErrNotExist
	}
	f.mu.Lock()
	if _, had := f.stats[c]; !had {
		f.stats[c] = err
	}
	f.mu.Unlock()
}

// Stat reports whether rel names a readable regular file inside the root:
// nil, or an error wrapping one of the Err values above.
func (f *FS) Stat(rel string) error {
	c, ok := Clean(rel)
	if !ok {
		return &PathError{Path: rel, Err: ErrOutsideRoot}
	}
	if sub, rest, ok := f.Mounted(c); ok {
		return reprefix(sub.Stat(rest), mountName(c))
	}
	if _, ok := f.overlaid(c); ok {
		return nil
	}
	if err := f.check(c); err != nil {
		return &PathError{Path: c, Err: err}
	}
	return nil
}

// IsFile reports whether rel names a regular file inside the root.
func (f *FS) IsFile(rel string) bool { return f.Stat(rel) == nil }

// Read returns the content of a file inside the root, refusing files over
// the size cap, binary files (a NUL byte) and invalid UTF-8. Nobody
// modifies the returned bytes: a file's are a new buffer, an overlay's
// are the bytes SetOverlay was given, which its caller may not modify.
// A caller that does not modify them either may keep them as they are.
func (f *FS) Read(rel string) ([]byte, error) {
	c, ok := Clean(rel)
	if !ok {
		return nil, &PathError{Path: rel, Err: ErrOutsideRoot}
	}
	if sub, rest, ok := f.Mounted(c); ok {
		data, err := sub.Read(rest)
		return data, reprefix(err, mountName(c))
	}
	data, inOverlay := f.overlaid(c)
	var readStat fs.FileInfo // the opened file's stat, before the read
	if !inOverlay {
		if err := f.check(c); err != nil {
			return nil, &PathError{Path: c, Err: err}
		}
		fh, err := osOpen(filepath.Join(f.root, filepath.FromSlash(c)))
		if err != nil {
			return nil, &PathError{Path: c, Err: bare(err)}
		}
		defer fh.Close()
		// Read into a buffer of the file's size (capped) and one byte, so
		// that a file no larger than its stat is read in one allocation;
		// one that grew since is read on, up to the limit.
		size := int64(512)
		st, serr := fh.Stat()
		if serr == nil && st.Size() > 0 {
			size = min(st.Size(), f.maxFileSize) + 1
		}
		if serr == nil && st.Mode().IsRegular() {
			readStat = st
		}
		limit := min(f.maxFileSize, math.MaxInt64-1) + 1
		buf := make([]byte, size)
		n, err := io.ReadFull(fh, buf)
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			data = buf[:n:n]
		case err != nil:
			return nil, &PathError{Path: c, Err: bare(err)}
		default:
			more := bytes.NewBuffer(buf)
			if _, err := more.ReadFrom(io.LimitReader(fh, limit-size)); err != nil {
				return nil, &PathError{Path: c, Err: bare(err)}
			}
			data = more.Bytes()[:more.Len():more.Len()]
		}
	}
	if int64(len(data)) > f.maxFileSize {
		return nil, &PathError{Path: c, Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, f.maxFileSize)}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, &PathError{Path: c, Err: ErrBinary}
	}
	if !utf8.Valid(data) {
		return nil, &PathError{Path: c, Err: ErrNotUTF8}
	}
	if readStat != nil {
		f.keepSum(c, readStat, data)
	}
	return data, nil
}

// keepSum keeps the ReadSum of a file read, when KeepSums was called.
func (f *FS) keepSum(c string, st fs.FileInfo, data []byte) {
	f.mu.Lock()
	keep := f.sums != nil
	f.mu.Unlock()
	if !keep {
		return
	}
	rs := ReadSum{Size: st.Size(), MTime: st.ModTime().UnixNano(), Sum: sha256.Sum256(data)}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		rs.Ino = uint64(sys.Ino)
	}
	f.mu.Lock()
	if prev, ok := f.sums[c]; ok && (prev.Varied || prev.Sum != rs.Sum) {
		rs.Varied = true
	}
	f.sums[c] = rs
	f.mu.Unlock()
}

// skipDir reports whether the walk leaves a directory out.
func skipDir(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	switch name {
	case "node_modules", "__pycache__", "venv", "site-packages":
		return true
	}
	return false
}

// inSkippedDir reports whether a root-relative path lies in a directory
// that the walk leaves out.
func inSkippedDir(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, d := range parts[:len(parts)-1] {
		if skipDir(d) {
			return true
		}
	}
	return false
}

// Listing is what one walk of the root finds.
type Listing struct {
	YAML []string // every .yaml and .yml file (symbolic links to files included)
	// AppPy holds every file named app.py, with its path.
	AppPy []string
	// Problems are entries that could not be read during the walk.
	Problems []*PathError
	// Dirs are the directories walked ("." first), and Gitignores the
	// .gitignore files read, in walk order: what the listing was made
	// from besides the names in those directories.
	Dirs, Gitignores []string
	// GoMods are the directories walked that hold a go.mod that is not a
	// directory (a regular file, a symbolic link, a special file: the Go
	// side checks it before loading the module), sorted.
	GoMods []string
}

func isYAMLName(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// IgnoredDir reports whether the walk leaves out the root-relative
// directory rel, or a directory it lies in: excluded (Options.Exclude), or,
// with Options.Gitignore, ignored by the .gitignore files of the root and
// of the directories on the way (read now; one that cannot be read counts
// as empty). For walks of their own, such as the one for go.mod files.
func (f *FS) IgnoredDir(rel string) bool {
	c, ok := Clean(rel)
	if !ok || c == "." {
		return false
	}
	if pathmatch.Excluded(f.exclude, c) {
		return true
	}
	if !f.gitignore {
		return false
	}
	var files []*pathmatch.Gitignore
	dir := "."
	for _, part := range strings.Split(c, "/") {
		p := ".gitignore"
		if dir != "." {
			p = dir + "/.gitignore"
		}
		if data, err := f.Read(p); err == nil {
			g, _ := pathmatch.ParseGitignore(dir, string(data))
			files = append(files, g)
		}
		if dir == "." {
			dir = part
		} else {
			dir += "/" + part
		}
	}
	return pathmatch.IgnoredDir(files, c)
}

// leftOut reports whether the walk leaves the root-relative file p out:
// it, or a directory it lies in, is excluded or ignored by ignores (the
// .gitignore files the walk read).
func (f *FS) leftOut(p string, ignores []*pathmatch.Gitignore) bool {
	return pathmatch.Excluded(f.exclude, p) || f.gitignore && pathmatch.IgnoredPath(ignores, p)
}

// MaxListing bounds how many entries ListDir returns.
const MaxListing = 10000

// IsDir reports whether rel is a subdirectory that ListDir lists in its
// parent directory: a real directory (not a symbolic link to one) in a
// directory inside the root once its links are resolved, or a directory
// that holds files of the overlay. The answer is kept until Forget.
func (f *FS) IsDir(rel string) bool {
	c, ok := Clean(rel)
	if !ok || c == "." {
		return false
	}
	if sub, rest, ok := f.Mounted(c); ok {
		return rest != "" && sub.IsDir(rest)
	}
	f.mu.Lock()
	is, known := f.isDirs[c]
	if !known {
		for k := range f.overlay {
			if strings.HasPrefix(k, c+"/") {
				is, known = true, true
				break
			}
		}
	}
	f.mu.Unlock()
	if known {
		return is
	}
	if real, err := f.resolve(path.Dir(c)); err == nil {
		if fi, err := osLstat(filepath.Join(f.root, filepath.FromSlash(real), path.Base(c))); err == nil && fi.IsDir() {
			is = true
		}
	}
	f.mu.Lock()
	f.isDirs[c] = is
	f.mu.Unlock()
	return is
}

// ListDir lists the directory rel ("." for the root): the names of its
// subdirectories (real directories, not symbolic links to them) and of its
// other entries (files, and links that Read checks when they are read),
// each sorted, at most MaxListing of each; the overlay's files and the
// directories that hold them are included. A directory that is not inside
// the root once its links are resolved, or that cannot be read, lists only
// what the overlay has there.
func (f *FS) ListDir(rel string) (dirs, files []string) {
	c := "."
	if rel != "." && rel != "" {
		var ok bool
		if c, ok = Clean(rel); !ok {
			return nil, nil
		}
		if sub, rest, ok := f.Mounted(c); ok {
			return sub.ListDir(rest)
		}
	}
	isDir, isFile := map[string]bool{}, map[string]bool{}
	if real, err := f.resolve(c); err == nil {
		if entries, err := osReadDir(filepath.Join(f.root, filepath.FromSlash(real))); err == nil {
			for _, e := range entries {
				if e.IsDir() {
					isDir[e.Name()] = true
				} else {
					isFile[e.Name()] = true
				}
			}
		}
	}
	f.overlayIn(c, func(name string, dir bool) {
		if dir {
			isDir[name] = true
		} else {
			isFile[name] = true
		}
	})
	return sortedNames(isDir), sortedNames(isFile)
}

// overlayIn calls each for every overlay entry directly in the clean
// directory c ("." for the root): a file of the overlay there, or a
// directory that holds one (dir), once per overlay file under it.
func (f *FS) overlayIn(c string, each func(name string, dir bool)) {
	prefix := c + "/"
	if c == "." {
		prefix = ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range f.overlay {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok || rest == "" {
			continue
		}
		name, _, deeper := strings.Cut(rest, "/")
		each(name, deeper)
	}
}

// sortedNames returns the keys of set, sorted, at most MaxListing.
func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) > MaxListing {
		out = out[:MaxListing]
	}
	return out
}
