package engine

import (
	"bytes"
	"encoding/gob"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/repofs"
)

// The disk cache of the framework's contract. Reading the contract parses
// the framework's modules (contract.Detect), which costs a warm scan more
// than the rest of it; a framework inside the repository (its package at
// the root, as in NeMo Gym) is kept with the stamps of its directories and
// Python files (stamps.go), and used while they hold. A framework found
// elsewhere (framework_path, a virtual environment) is read every time.

const contractKind = "contract"

// contractFormat is the version of contractRecord's encoding (2: stamps
// keep the change time).
const contractFormat = 2

type contractRecord struct {
	Format    int
	Context   string
	Written   int64
	Framework *contract.Framework
	Paths     []string
	Stamps    []stamp
	Dirs      []dirStamp
}

// maxFrameworkEntries bounds the directories and files a contract record
// stamps; a larger framework is read every time.
const maxFrameworkEntries = 20000

// cachedContract returns the contract of the framework package pkg at the
// root from the cache, nil when there is none that still holds.
func (e *Engine) cachedContract(fsys *repofs.FS, pkg string) (fw *contract.Framework, store func(*contract.Framework)) {
	ctx := diskcache.BuildID() + "\x00" + e.root + "\x00" + pkg
	key := diskcache.NewHasher(contractKind).String(ctx).Int(fsys.MaxFileSize()).Key()
	start := time.Now()
	// storeWith writes the record of fw, with the stamps h has taken.
	storeWith := func(fw *contract.Framework, h *hashes) {
		if fw == nil || !fw.Found || fw.Where != contract.InRepository || fw.Dir != pkg {
			return
		}
		dirs, files, ok := frameworkTree(fsys, pkg)
		if !ok {
			return
		}
		rec := contractRecord{Format: contractFormat, Context: ctx, Written: start.UnixNano(), Framework: fw, Paths: files}
		rec.Stamps, rec.Dirs = h.record(files, dirs, start)
		var buf bytes.Buffer
		if gob.NewEncoder(&buf).Encode(&rec) == nil {
			_ = e.cache.Put(contractKind, key, buf.Bytes())
		}
	}
	store = func(fw *contract.Framework) { storeWith(fw, newHashes(fsys, e.root, nil)) }
	e.contractFrom = "detected"
	data, ok := e.cache.Get(contractKind, key)
	if !ok {
		return nil, store
	}
	var rec contractRecord
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&rec) != nil || rec.Format != contractFormat || rec.Context != ctx ||
		rec.Framework == nil || len(rec.Paths) != len(rec.Stamps) {
		return nil, store
	}
	for _, st := range rec.Stamps {
		if st.Anchor < 0 || int(st.Anchor) > len(rec.Dirs) {
			return nil, store
		}
	}
	h := newHashes(fsys, e.root, &pyRecord{Written: rec.Written, Paths: rec.Paths, Stamps: rec.Stamps, Dirs: rec.Dirs})
	if len(h.changed()) > 0 {
		return nil, store
	}
	// Every file's content is the recorded one. A directory whose stamp
	// changed (or was racy) may have gained or lost a module: the
	// framework's tree is listed again, and must be the recorded one.
	restamp := h.restamped
	for _, d := range rec.Dirs {
		if !h.sameDir(d) {
			restamp = true
		}
	}
	if restamp {
		dirs, files, ok := frameworkTree(fsys, pkg)
		if !ok || !slices.Equal(files, rec.Paths) || !slices.Equal(dirs, dirPaths(rec.Dirs)) {
			return nil, store
		}
		// What the record says of the framework holds; its stamps are
		// made again (those of the files not read again are the
		// record's), so that the next scan need not read them.
		storeWith(rec.Framework, h)
		e.contractFrom = "restamped"
	} else {
		e.contractFrom = "cache"
	}
	return rec.Framework, func(*contract.Framework) {}
}

// dirPaths are the paths of directory stamps.
func dirPaths(ds []dirStamp) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Path
	}
	return out
}

// frameworkTree lists the directories under the package directory pkg and
// its Python files (__init__.py first), ok false past
// maxFrameworkEntries.
func frameworkTree(fsys *repofs.FS, pkg string) (dirs, files []string, ok bool) {
	files = append(files, pkg+"/__init__.py")
	level := []string{pkg}
	for len(level) > 0 {
		var next []string
		for _, d := range level {
			dirs = append(dirs, d)
			subs, fs := fsys.ListDir(d)
			for _, f := range fs {
				if strings.HasSuffix(f, ".py") && path.Join(d, f) != pkg+"/__init__.py" {
					files = append(files, path.Join(d, f))
				}
			}
			for _, s := range subs {
				next = append(next, path.Join(d, s))
			}
			if len(dirs)+len(files) > maxFrameworkEntries {
				return nil, nil, false
			}
		}
		level = next
	}
	return dirs, files, true
}
