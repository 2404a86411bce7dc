package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/repofs"
)

// Stamps: how a warm scan tells what changed since the cached record
// without reading every file again.
//
// A file's stamp is its content hash (SHA-256 of what the view reads:
// through repofs, so overlays, extra roots and the size limit count),
// with its size, modification time, inode and change time (ctime). A
// later scan that finds the four unchanged takes the hash without reading
// the file, as git's index does, unless the file was modified or changed
// within a second of the scan that recorded it (a racy stamp: a second
// edit within the clock's resolution would leave the stamp as it was); a
// file that is not a plain regular file of the root (a link, an overlay,
// a file of an extra root) is always read. The change time is what tells
// an edit that kept the size, the inode and (reset with `touch -d` or
// os.Chtimes) the modification time: no one can set it but the kernel,
// which sets it to now on every write, chmod and touch. Where the system
// has no change time (ctime_other.go), only the other three are compared.
//
// Most of what an analysis looks for is not there: the files an import
// could be (resources_servers/x/utils.py, .../utils/__init__.py, ...).
// The stamp of such a path names its nearest directory that exists; while
// that directory's modification time and inode are unchanged, no entry
// was added to it or removed, so the path is still absent. The
// directories the walk listed are stamped the same way: when none
// changed, and no .gitignore did, the record's listing is the root's.

// racy is how close to a record's making a modification may be for its
// stamp not to be trusted.
const racy = time.Second

// stamp is a file's content hash, with what tells a changed file from an
// unchanged one without reading it.
type stamp struct {
	// Hash is the hex SHA-256 of the content; for a directory dependency
	// (a path ending in "/"), "dir:" and the hash of its listing; for a
	// path that cannot be read, "!" and why (absent: "!n").
	Hash  string
	Size  int64
	MTime int64 // Unix nanoseconds; 0: no stat (always read)
	Ino   uint64
	CTime int64 // Unix nanoseconds; 0 where the system has none
	// Anchor is, for an absent path, 1 + the index in pyRecord.Dirs of
	// its nearest existing directory; 0: none.
	Anchor int32
	// anchor is that directory's path, when the stamp was taken from a
	// record (not kept: Anchor says it there).
	anchor string
}

// dirStamp is a directory's modification time, inode and change time.
type dirStamp struct {
	Path  string // root-relative, "." for the root
	MTime int64  // 0: unknown (changed during the scan): never matches
	Ino   uint64
	CTime int64
	// other: the path exists and is not a directory (a link, a file).
	other bool
}

// absent is the Hash of a path that does not exist.
const absent = "!n"

// hashes computes the stamps of a scan, against the record's (nil for
// none).
type hashes struct {
	fs   *repofs.FS
	root string
	rec  *pyRecord
	mu   sync.Mutex
	memo map[string]stamp
	dirs map[string]dirStamp // stamps of directories now, by path
	// restamped: a file had to be read again (its stat changed, or its
	// stamp was racy) although its content had not changed; the record
	// is then written again with the new stamps.
	restamped bool
}

func newHashes(fsys *repofs.FS, root string, rec *pyRecord) *hashes {
	files, dirs := 0, 0
	if rec != nil {
		// Every path of the record gets a stamp (changed).
		files, dirs = len(rec.Paths)+len(rec.Paths)/8, len(rec.Dirs)+len(rec.Dirs)/8
	}
	return &hashes{fs: fsys, root: root, rec: rec, memo: make(map[string]stamp, files), dirs: make(map[string]dirStamp, dirs)}
}

// written is when the record's scan started, 0 without a record.
func (h *hashes) written() int64 {
	if h.rec == nil {
		return 0
	}
	return h.rec.Written
}

// hashOf is the Hash of a path now, reading it.
func (h *hashes) hashOf(p string) string {
	if dir, ok := strings.CutSuffix(p, "/"); ok {
		dirs, files := h.fs.ListDir(dir)
		k := diskcache.NewHasher("dir")
		for _, d := range dirs {
			k.String(d + "/")
		}
		for _, f := range files {
			k.String(f)
		}
		return "dir:" + k.Key().String()
	}
	data, err := h.fs.Read(p)
	switch {
	case err == nil:
		sum := sha256.Sum256(data)
		return hex.EncodeToString(sum[:])
	case errors.Is(err, repofs.ErrNotExist):
		return absent
	case errors.Is(err, repofs.ErrOutsideRoot):
		return "!" + repofs.ErrOutsideRoot.Error()
	}
	return "!" + err.Error()
}

// own returns the clean form of a root-relative path that the
// repository's own directory holds, ok false for any other.
func (h *hashes) own(p string) (string, bool) {
	if strings.HasSuffix(p, "/") || h.fs.Overlaid(p) {
		return "", false
	}
	c, ok := repofs.Clean(p)
	if !ok {
		return "", false
	}
	if _, _, mounted := h.fs.Mounted(c); mounted {
		return "", false
	}
	return c, true
}

// fileStat is what a stamp keeps of a file's stat.
type fileStat struct {
	size, mtime, ctime int64
	ino                uint64
}

// statOf returns the stat of the plain regular file at p, ok false for
// anything else.
func (h *hashes) statOf(p string) (fileStat, bool) {
	c, ok := h.own(p)
	if !ok {
		return fileStat{}, false
	}
	fi, err := h.fs.Lstat(c) // nothing outside the root is looked at
	if err != nil || !fi.Mode().IsRegular() {
		return fileStat{}, false
	}
	ino, ctime := inodeAndCTime(fi)
	return fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime, ino: ino}, true
}

// same reports whether the stamp records the stat st.
func (sp stamp) same(st fileStat) bool {
	return sp.Size == st.size && sp.MTime == st.mtime && sp.Ino == st.ino && sp.CTime == st.ctime
}

// racyAt reports whether a modification time or a change time is too
// close to the making of a record written at written for a stamp that
// carries it to be trusted.
func racyAt(mtime, ctime, written int64) bool {
	return max(mtime, ctime) >= written-int64(racy)
}

// dirNow is the stamp of the directory dir (root-relative) now; MTime 0
// when it is not a directory of the root's own.
func (h *hashes) dirNow(dir string) dirStamp {
	h.mu.Lock()
	d, ok := h.dirs[dir]
	h.mu.Unlock()
	if ok {
		return d
	}
	d = h.dirStat(dir)
	h.mu.Lock()
	h.dirs[dir] = d
	h.mu.Unlock()
	return d
}

// dirStat is dirNow without the memo.
func (h *hashes) dirStat(dir string) dirStamp {
	d := dirStamp{Path: dir}
	if c, ok := h.own(dir); ok || dir == "." {
		if dir == "." {
			c = "."
		}
		if fi, err := h.fs.Lstat(c); err == nil && fi.IsDir() {
			d.MTime = fi.ModTime().UnixNano()
			d.Ino, d.CTime = inodeAndCTime(fi)
		} else if err == nil || !errors.Is(err, fs.ErrNotExist) {
			d.other = true
		}
	}
	return d
}

// holds reports whether a recorded directory stamp, now as now, still
// holds and was not racy.
func (h *hashes) holds(old, now dirStamp) bool {
	return old.MTime != 0 && now.MTime == old.MTime && now.Ino == old.Ino && now.CTime == old.CTime && !now.other && !racyAt(old.MTime, old.CTime, h.written())
}

// sameDir reports whether a recorded directory stamp still holds and was
// not racy.
func (h *hashes) sameDir(old dirStamp) bool { return h.holds(old, h.dirNow(old.Path)) }

// get returns the Hash of p, reading it at most once per scan.
func (h *hashes) get(p string) string {
	h.mu.Lock()
	sp, ok := h.memo[p]
	h.mu.Unlock()
	if ok {
		return sp.Hash
	}
	return h.compute(p, stamp{}).Hash
}

// compute returns the stamp of p now, taking old's hash when what old
// records still holds and is not racy.
func (h *hashes) compute(p string, old stamp) stamp {
	sp := h.stampNow(p, old, func(i int32) bool { return h.sameDir(h.rec.Dirs[i]) })
	h.mu.Lock()
	h.memo[p] = sp
	h.mu.Unlock()
	return sp
}

// stampNow is compute without the memo; anchorHolds says whether the
// record's directory i still holds.
func (h *hashes) stampNow(p string, old stamp, anchorHolds func(i int32) bool) stamp {
	var sp stamp
	if old.Hash == absent && old.Anchor > 0 && anchorHolds(old.Anchor-1) {
		sp = old
		sp.anchor = h.rec.Dirs[old.Anchor-1].Path
	} else if st, ok := h.statOf(p); ok && old.MTime != 0 && old.same(st) && !racyAt(st.mtime, st.ctime, h.written()) {
		sp = old
	} else if rs, read := h.fs.Sum(p); ok && read && rs.Size == st.size && rs.MTime == st.mtime && rs.Ino == st.ino {
		// The analysis read it (repofs.FS.KeepSums), and it is still the
		// file it read: its content hash is the read's. (A write since
		// the read that kept the size and the modification time changed
		// the change time, to after the scan's start: record does not
		// keep such a stamp.)
		sp = stamp{Hash: hex.EncodeToString(rs.Sum[:]), Size: st.size, MTime: st.mtime, Ino: st.ino, CTime: st.ctime}
	} else {
		// The stat before the read: a write during the read leaves a newer
		// change time, so the stamp will not match next time.
		sp = stamp{Hash: h.hashOf(p)}
		if ok {
			sp.Size, sp.MTime, sp.Ino, sp.CTime = st.size, st.mtime, st.ino, st.ctime
		}
	}
	return sp
}

// all returns the Hashes of ps, computed in parallel.
func (h *hashes) all(ps []string) []string {
	out := make([]string, len(ps))
	eachParallel(len(ps), func(i int) { out[i] = h.get(ps[i]) })
	return out
}

// changed returns the record's paths whose content or existence is not
// the recorded one, sorted.
func (h *hashes) changed() []string {
	r := h.rec
	// The record's directories first, each once: most paths are absent
	// ones, answered by their anchor.
	dirs := make([]dirStamp, len(r.Dirs))
	eachParallel(len(r.Dirs), func(i int) { dirs[i] = h.dirStat(r.Dirs[i].Path) })
	holds := make([]bool, len(r.Dirs))
	for i, d := range dirs {
		h.dirs[d.Path] = d
		holds[i] = h.holds(r.Dirs[i], d)
	}
	now := make([]stamp, len(r.Paths))
	var restamped atomic.Bool
	eachParallel(len(r.Paths), func(i int) {
		old := r.Stamps[i]
		sp := h.stampNow(r.Paths[i], old, func(j int32) bool { return holds[j] })
		now[i] = sp
		// The content is the same, but the stamp was racy or the stat
		// changed (a file touched, or rewritten as it was).
		if sp.Hash == old.Hash && old.MTime != 0 && (sp.Size != old.Size || sp.MTime != old.MTime || sp.Ino != old.Ino || sp.CTime != old.CTime || racyAt(sp.MTime, sp.CTime, h.written())) {
			restamped.Store(true)
		}
	})
	var out []string
	for i, p := range r.Paths {
		h.memo[p] = now[i]
		if now[i].Hash != r.Stamps[i].Hash {
			out = append(out, p)
		}
	}
	if restamped.Load() {
		h.restamped = true
	}
	return out
}

// listing returns the record's listing when it is still the root's: no
// directory walked and no .gitignore read changed.
func (h *hashes) listing(changed []string) (repofs.Listing, bool) {
	r := h.rec
	if r.Listing == nil {
		return repofs.Listing{}, false
	}
	ignores := map[string]bool{}
	for _, g := range r.Listing.Gitignores {
		ignores[g] = true
	}
	for _, p := range changed {
		if ignores[p] {
			return repofs.Listing{}, false
		}
	}
	walked := map[string]bool{}
	for _, d := range r.Listing.Dirs {
		walked[d] = true
	}
	same := true
	var mu sync.Mutex
	eachParallel(len(r.Dirs), func(i int) {
		if walked[r.Dirs[i].Path] && !h.sameDir(r.Dirs[i]) {
			mu.Lock()
			same = false
			mu.Unlock()
		}
	})
	if !same {
		return repofs.Listing{}, false
	}
	l := r.Listing
	return repofs.Listing{YAML: l.YAML, AppPy: l.AppPy, Dirs: l.Dirs, Gitignores: l.Gitignores, GoMods: l.GoMods}, true
}

// record returns the stamps of paths and the directory stamps to keep:
// the walked directories and the anchors of absent paths. A file or
// directory modified or changed after the scan started (while it was
// analysed) gets a stamp that never matches, so that the next scan sees it
// as changed.
func (h *hashes) record(paths, walked []string, start time.Time) ([]stamp, []dirStamp) {
	stamps := make([]stamp, len(paths))
	// The stamps the scan took already, then the others in parallel.
	var missing []int
	h.mu.Lock()
	for i, p := range paths {
		if sp, ok := h.memo[p]; ok {
			stamps[i] = sp
		} else {
			missing = append(missing, i)
		}
	}
	h.mu.Unlock()
	eachParallel(len(missing), func(j int) {
		i := missing[j]
		stamps[i] = h.compute(paths[i], stamp{})
	})
	for i, sp := range stamps {
		if sp.MTime >= start.UnixNano() || sp.CTime >= start.UnixNano() {
			stamps[i] = stamp{Hash: "?modified during the scan"}
		}
	}
	var dirs []dirStamp
	index := map[string]int32{}
	add := func(dir string) int32 {
		if i, ok := index[dir]; ok {
			return i
		}
		d := h.dirNow(dir)
		if d.MTime >= start.UnixNano() || d.CTime >= start.UnixNano() {
			d.MTime = 0
		}
		index[dir] = int32(len(dirs))
		dirs = append(dirs, d)
		return index[dir]
	}
	for _, d := range walked {
		add(d)
	}
	for i, p := range paths {
		if stamps[i].Hash != absent {
			continue
		}
		if a := stamps[i].anchor; a != "" {
			// Taken from the record, whose anchors are of the root's own
			// paths: still its nearest, unchanged.
			stamps[i].Anchor = add(a) + 1
			continue
		}
		if _, ok := h.own(p); !ok {
			continue
		}
		// The nearest directory on the way that exists. A link (or
		// anything but a directory) on the way leaves the path without an
		// anchor: it is read every time.
		for dir := path.Dir(p); ; dir = path.Dir(dir) {
			d := h.dirNow(dir)
			if d.other {
				break
			}
			if d.MTime != 0 {
				stamps[i].Anchor = add(dir) + 1
				break
			}
			if dir == "." {
				break
			}
		}
	}
	return stamps, dirs
}

// eachParallel runs fn(0..n-1) on a few goroutines.
func eachParallel(n int, fn func(i int)) {
	const workers = 4
	if n < 64 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
