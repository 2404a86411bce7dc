package engine

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"io"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
)

// The disk cache of the Python side (Options.Cache).
//
// A batch scan analyses the entrypoints in groups (lint.Session), and each
// group's analysis records every file it read or looked for. The cache
// keeps, per root and per context (gymlint's build, the configuration, the
// framework's contract, the rules run), one record: the session's state
// (each group's findings, dependencies and families), the content hash of
// every dependency, and a hash of what the entrypoint map was made from
// (the walk's listing, every config's content, the entrypoint files and
// server directory markers looked for).
//
// The next scan with the same context checks the stamps of every file
// and directory the record depends on (stamps.go); when the configs and
// the listing are unchanged it analyses again only the groups with a
// changed dependency (a group that the
// change moves into another family is regrouped, as the language server
// does). When the configs or the listing changed, everything is analysed
// again: which config composes which run, and which instances name which
// entrypoint, is not recorded per group. A record that does not decode,
// or is for another root or context, is not used.
//
// When nothing changed at all, the record's finished findings are the
// scan's, and the record is not written again.
const pyKind = "python"

// pyFormat is the version of pyRecord's encoding (7: stamps keep the
// change time).
const pyFormat = 7

// pyRecord is what the cache keeps of one scan's Python side. Paths are
// kept once, in Paths; the rest refer to them by index.
type pyRecord struct {
	Format int
	// Context is the key's text, checked on read (a hash collision, or an
	// entry written for another context, is not trusted).
	Context string
	// Written is when the scan that made the record started (Unix
	// nanoseconds): stamps of a modification close to it are racy.
	Written int64
	// Paths are every file path the record depends on, sorted, and Stamps
	// their stamps.
	Paths  pathList
	Stamps stampList
	// Dirs are the stamps of the directories walked and of the nearest
	// existing directories of files looked for and not found.
	Dirs []dirStamp
	// Listing is the walk's listing, nil when it had problems (then the
	// root is walked again).
	Listing *savedListing
	// Skeleton is the hash of what the entrypoint map was made from, and
	// Looked the paths it looked at besides the listing's configs.
	Skeleton string
	Looked   []int32
	// The session's state (lint.State), dependencies as indices.
	Infos   map[string]string
	Groups  []groupRecord
	Repo    []diag.Diagnostic
	Configs []string
	// Final are the Python side's findings with suppressions and the
	// configuration applied (Engine.Finish): a scan that finds every
	// stamp unchanged uses them as they are.
	Final []diag.Diagnostic
	// PreSums are, per path, the digest of the findings on it before
	// Finish: a file whose digest and content are unchanged keeps its
	// finished findings.
	PreSums map[string]string

	size int // of its encoding, when read (not kept)
}

type groupRecord struct {
	Entrypoints []string
	Deps        []int32
	Diags       []diag.Diagnostic
	Families    map[string][]string
}

type savedListing struct {
	YAML, AppPy, Dirs, Gitignores, GoMods []string
}

// state is the session state the record keeps.
func (r *pyRecord) state() *lint.State {
	st := &lint.State{Infos: r.Infos, Repo: r.Repo, Configs: r.Configs}
	for _, g := range r.Groups {
		gs := lint.GroupState{Entrypoints: g.Entrypoints, Diags: g.Diags, Families: g.Families}
		for _, i := range g.Deps {
			gs.Deps = append(gs.Deps, r.Paths[i])
		}
		st.Groups = append(st.Groups, gs)
	}
	return st
}

// files are the record's stamps by path.
func (r *pyRecord) files() map[string]stamp {
	m := make(map[string]stamp, len(r.Paths))
	for i, p := range r.Paths {
		m[p] = r.Stamps[i]
	}
	return m
}

// valid reports whether the record's indices are in range: a record is
// untrusted input too.
func (r *pyRecord) valid() bool {
	if len(r.Stamps) != len(r.Paths) {
		return false
	}
	in := func(is []int32) bool {
		for _, i := range is {
			if i < 0 || int(i) >= len(r.Paths) {
				return false
			}
		}
		return true
	}
	for _, g := range r.Groups {
		if !in(g.Deps) {
			return false
		}
	}
	for _, st := range r.Stamps {
		if st.Anchor < 0 || int(st.Anchor) > len(r.Dirs) {
			return false
		}
	}
	return in(r.Looked)
}

// contextKey is the text of everything besides the files that the Python
// side's findings depend on: gymlint's build, the root, the options of
// the view (but the number of jobs), the contract in force and the rules
// run. ok is false when it cannot be made (the cache is then not used).
func (e *Engine) contextKey() (string, bool) { return e.contextKeyFor(e.opts.FixesCounted) }

// contextKeyFor is contextKey with Options.FixesCounted set to counted.
func (e *Engine) contextKeyFor(counted bool) (string, bool) {
	opts := e.opts
	opts.FixesCounted = counted
	opts.Jobs = 0
	opts.Overlay = nil
	opts.Preparsed = nil // the modules contract detection parsed, on a cold start only
	var codes []string
	for _, c := range e.checks {
		codes = append(codes, c.Rule.Code)
	}
	root, err := filepath.Abs(e.root)
	if err != nil {
		return "", false
	}
	b, err := json.Marshal(struct {
		Build    string
		Root     string
		Options  gym.Options
		Mode     string
		Checks   []string
		Settings *settings.Settings
		Own      []diag.Diagnostic
		Extra    bool
	}{diskcache.BuildID(), root, opts, string(e.mode), codes, e.conf, e.diags, e.includeExtra})
	if err != nil {
		return "", false
	}
	return string(b), true
}

// warmPython brings a fresh session s up to date from the disk cache,
// analysing only what changed since the cached record, fills out, and
// stores the new record.
func (e *Engine) warmPython(s *lint.Session, out *pySide, listed func(*repofs.Listing)) {
	start := time.Now()
	out.cache = CacheStats{Used: true}
	ctx, ok := e.contextKey()
	if !ok {
		l := s.Cache().Listing()
		listed(&l)
		stats := update(s, nil)
		out.cache.Groups, out.cache.Analysed, out.cache.AnalysedEntrypoints = stats.Groups, stats.Groups, stats.Analysed
		out.cache.Reason = "no cache key"
		e.finishPython(s, out)
		return
	}
	key := pyKey(ctx)
	c := s.Cache()
	// The record stamps every file the analysis read: with the hashes of
	// its reads, not by reading them again.
	c.FS().KeepSums()
	rec := e.loadRecord(key, ctx)
	if rec == nil && e.opts.FixesCounted {
		// The record of a check that shows the fixes (the JSON output,
		// the language server) holds all that one that counts them needs:
		// the update starts from it, and is kept under this check's key.
		if full, ok := e.contextKeyFor(false); ok {
			if rec = e.loadRecord(pyKey(full), full); rec != nil {
				rec.Context = ctx
			}
		}
	}
	h := newHashes(c.FS(), e.root, rec)
	out.stamps = h

	var changed []string
	var looked []string
	gc, raised := 0, false
	if rec != nil && rec.size <= maxPacedRecord {
		// With a record, the scan is most likely a small one: the
		// collector need not keep pace with a heap that stays small (the
		// default pace is back before a large re-analysis, below).
		gc, raised = e.raisePace(), true
		defer func() {
			if !e.exitAfter || !e.paced {
				debug.SetGCPercent(gc)
				e.paced = false
			}
		}()
	}
	if rec != nil {
		changed = h.changed()
		for _, i := range rec.Looked {
			looked = append(looked, rec.Paths[i])
		}
		if l, ok := h.listing(changed); ok {
			c.SetListing(l)
		}
		knownPaths(c.FS(), rec, h, changed)
	}
	listing := c.Listing()
	// The Go side reads its copy while this goes on (listing is made
	// again below).
	published := listing
	listed(&published)
	reuse := false
	switch {
	case rec == nil:
		out.cache.Reason = "no entry"
	case skeletonKey(h, listing, looked) != rec.Skeleton:
		out.cache.Reason = "configs or listing changed"
	default:
		reuse = true
	}
	if reuse && len(changed) == 0 && rec.Final != nil {
		// Nothing changed: the record's findings stand, and the record
		// stays as it is, unless a file had to be read again (a racy
		// stamp, a file touched): then only its stamps are made again.
		out.cache.Groups = len(rec.Groups)
		out.diags = slices.Clone(rec.Final)
		out.entrypoints = slices.Sorted(maps.Keys(rec.Infos))
		out.configs = rec.Configs
		if h.restamped {
			e.restamp(key, rec, h, listing, start)
		}
		return
	}
	if raised && (!reuse || !small(rec, changed)) {
		debug.SetGCPercent(gc)
		e.paced = false
	}
	if !reuse {
		stats := update(s, nil)
		out.cache.Groups, out.cache.Analysed, out.cache.AnalysedEntrypoints = stats.Groups, stats.Groups, stats.Analysed
	} else {
		if len(changed) > 0 {
			// The modules the analysis will parse, while the configs
			// are decoded and the state restored: only for a small
			// update (a large one parses group by group, so that it
			// never holds every module).
			if small(rec, changed) {
				defer c.Prefetch(reparsed(rec, h, changed))()
			}
			// The configs are as the record's skeleton read them.
			if files := e.loadConfigs(rec.Skeleton); files != nil {
				c.PreloadConfigs(files)
			}
		}
		s.Restore(rec.state())
		out.cache.Groups = len(rec.Groups)
		if len(changed) > 0 {
			stats := update(s, changed)
			out.cache.Analysed, out.cache.AnalysedEntrypoints = stats.Groups, stats.Analysed
		}
	}
	st := s.State()
	// Regrouping may change the count.
	out.cache.Groups = len(st.Groups)
	var sums map[string]string
	if reuse {
		sums = e.finishPythonFrom(s, st, out, rec, changed)
	} else {
		sums = e.finishPythonFrom(s, st, out, nil, nil)
	}
	if rec == nil || !reuse || !small(rec, changed) {
		// A large analysis leaves its garbage behind (the parsed modules,
		// the composed runs, the file system's answers are dropped): it
		// is collected before the record is made, whose tables are then
		// built in the memory it frees instead of new memory (genrepo,
		// 2,000 servers: a first run with the cache peaked at 369 MB,
		// 300 without it).
		runtime.GC()
	}
	if reuse && out.cache.Analysed == 0 {
		// The skeleton was not made again: its inputs are the record's.
		e.storeRecord(key, ctx, st, h, listing, looked, rec.Skeleton, start, out.diags, sums)
		return
	}
	listing, looked = c.SkeletonInputs()
	skel := skeletonKey(h, listing, looked)
	e.storeRecord(key, ctx, st, h, listing, looked, skel, start, out.diags, sums)
	if !reuse || skel != rec.Skeleton {
		e.storeConfigs(skel, c.Configs())
	}
}

// maxPacedRecord bounds the record of a scan whose pace is raised: a
// small update holds the record's tables and every config, and with the
// pace raised fourfold its heap may grow to five times that (on the
// generated 2,000-server repository, a 12 MB record: 283 MB for one
// file edited). NeMo Gym's record is 0.65 MB.
const maxPacedRecord = 4 << 20

// raisePace sets the collector's pace for a small scan and returns the
// pace to restore: the one before this engine's scans raised it.
func (e *Engine) raisePace() int {
	before := debug.SetGCPercent(400)
	if !e.paced {
		e.paced, e.gcBefore = true, before
	}
	return e.gcBefore
}

// configsKind is the cache's kind of the configs' parses of one skeleton:
// every config of the repository, kept under the key of what the
// entrypoint map was made from (skeletonKey), so that a scan that finds
// that key unchanged reads one entry instead of every config.
const configsKind = "configs"

func (e *Engine) configsKey(skel string) diskcache.Key {
	return diskcache.NewHasher(configsKind).String(diskcache.BuildID()).String(skel).
		String(strings.Join(e.opts.ServerTypes, "\x00")).Int(int64(len(e.opts.ServerTypes))).Key()
}

// storeConfigs keeps the configs' parses of the skeleton skel.
func (e *Engine) storeConfigs(skel string, files []*configscan.File) {
	// Streamed to the entry's file: one config's encoding at a time.
	_ = e.cache.PutWith(configsKind, e.configsKey(skel), func(w io.Writer) error {
		if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(files)))); err != nil {
			return err
		}
		for _, f := range files {
			enc, err := configscan.Encode(f)
			if err != nil {
				return err
			}
			if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(enc)))); err != nil {
				return err
			}
			if _, err := w.Write(enc); err != nil {
				return err
			}
		}
		return nil
	})
}

// loadConfigs reads the configs' parses of the skeleton skel, nil when
// there are none that decode.
func (e *Engine) loadConfigs(skel string) []*configscan.File {
	b, ok := e.cache.Get(configsKind, e.configsKey(skel))
	if !ok {
		return nil
	}
	r := reader{b: b}
	n := r.uint()
	if r.bad || n > uint64(len(b)) {
		return nil
	}
	var parts [][]byte
	for range n {
		k := r.uint()
		if r.bad || k > uint64(len(r.b)) {
			return nil
		}
		parts = append(parts, r.b[:k])
		r.b = r.b[k:]
	}
	if len(r.b) != 0 {
		return nil
	}
	files := make([]*configscan.File, len(parts))
	var bad atomic.Bool
	eachParallel(len(parts), func(i int) {
		f, err := configscan.Decode(parts[i])
		if err != nil {
			bad.Store(true)
		}
		files[i] = f
	})
	if bad.Load() {
		return nil
	}
	return files
}

// small reports whether the changed paths reach at most a tenth of the
// record's groups: a run of a few tens of milliseconds on a heap that
// stays small.
func small(rec *pyRecord, changed []string) bool {
	return len(hitGroups(rec, changed))*10 <= len(rec.Groups)
}

// hitGroups are the record's groups that depend on a changed path.
func hitGroups(rec *pyRecord, changed []string) []groupRecord {
	set := make(map[string]bool, len(changed))
	for _, p := range changed {
		set[p] = true
	}
	var hit []groupRecord
	for _, g := range rec.Groups {
		for _, i := range g.Deps {
			if set[rec.Paths[i]] {
				hit = append(hit, g)
				break
			}
		}
	}
	return hit
}

// knownPaths tells the file system what the stamps just taken say of the
// paths that the entrypoint map looked at and that the groups the changed
// paths hit depend on: which are files and which are not there. The map
// and those groups' analysis ask about them again (NeMo Gym: a few
// hundred paths, each a listing of its directory, a resolution of links
// and a stat).
func knownPaths(fsys *repofs.FS, rec *pyRecord, h *hashes, changed []string) {
	tell := func(i int32) {
		p := rec.Paths[i]
		switch sp := h.memo[p]; {
		case sp.Hash == absent:
			fsys.Known(p, false)
		case len(sp.Hash) == sha256.Size*2 && !strings.HasSuffix(p, "/"):
			fsys.Known(p, true) // a content hash: the file was read
		}
	}
	for _, i := range rec.Looked {
		tell(i)
	}
	if len(changed) == 0 || !small(rec, changed) {
		return
	}
	for _, g := range hitGroups(rec, changed) {
		for _, i := range g.Deps {
			tell(i)
		}
	}
}

// reparsed are the Python modules that the groups the changed paths hit
// depend on and that still exist, smallest first: the modules their
// analysis parsed, which the analysis that follows most likely parses
// again (a view parses smallest first too).
func reparsed(rec *pyRecord, h *hashes, changed []string) []string {
	seen := map[int32]bool{}
	var out []string
	for _, g := range hitGroups(rec, changed) {
		for _, i := range g.Deps {
			p := rec.Paths[i]
			if seen[i] || !strings.HasSuffix(p, ".py") {
				continue
			}
			seen[i] = true
			if sp, ok := h.memo[p]; ok && sp.Hash != "" && !strings.HasPrefix(sp.Hash, "!") {
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(h.memo[a].Size, h.memo[b].Size) })
	return out
}

// pyKey is the disk cache's key of the Python side's record for a
// context (contextKey).
func pyKey(ctx string) diskcache.Key { return diskcache.NewHasher(pyKind).String(ctx).Key() }

// loadRecord reads the record of key, nil when there is none that can be
// trusted.
func (e *Engine) loadRecord(key diskcache.Key, ctx string) *pyRecord {
	data, ok := e.cache.Get(pyKind, key)
	if !ok {
		return nil
	}
	rec, err := readRecord(data)
	if err != nil || rec.Context != ctx || !rec.valid() {
		return nil
	}
	rec.size = len(data)
	return rec
}

// storeRecord writes the record of the session's state and the scan's
// finished findings.
func (e *Engine) storeRecord(key diskcache.Key, ctx string, st *lint.State, h *hashes, listing repofs.Listing, looked []string, skel string, start time.Time, final []diag.Diagnostic, sums map[string]string) {
	if st == nil {
		return
	}
	rec := pyRecord{Format: pyFormat, Context: ctx, Written: start.UnixNano(), Skeleton: skel,
		Infos: st.Infos, Repo: st.Repo, Configs: st.Configs, Final: final, PreSums: sums}
	// Every group's dependencies, and the skeleton's inputs, each once (the
	// groups share most: a set, not a list of them all to sort).
	index := make(map[string]int32, len(h.memo)+len(listing.YAML)+len(looked))
	for _, ps := range [][]string{listing.YAML, looked, listing.Gitignores} {
		for _, p := range ps {
			index[p] = 0
		}
	}
	for _, g := range st.Groups {
		for _, p := range g.Deps {
			index[p] = 0
		}
	}
	rec.Paths = slices.Sorted(maps.Keys(index))
	for i, p := range rec.Paths {
		index[p] = int32(i)
	}
	for _, p := range looked {
		rec.Looked = append(rec.Looked, index[p])
	}
	rec.Groups = make([]groupRecord, 0, len(st.Groups))
	for _, g := range st.Groups {
		gr := groupRecord{Entrypoints: g.Entrypoints, Diags: g.Diags, Families: g.Families, Deps: make([]int32, len(g.Deps))}
		for i, p := range g.Deps {
			gr.Deps[i] = index[p]
		}
		rec.Groups = append(rec.Groups, gr)
	}
	rec.Stamps, rec.Dirs = h.record(rec.Paths, listing.Dirs, start)
	if len(listing.Problems) == 0 {
		rec.Listing = &savedListing{YAML: listing.YAML, AppPy: listing.AppPy, Dirs: listing.Dirs, Gitignores: listing.Gitignores, GoMods: listing.GoMods}
	}
	// A cache that cannot be written is no error.
	_ = e.cache.PutWith(pyKind, key, func(w io.Writer) error { return writeRecord(w, &rec) })
}

// restamp writes rec again with the stamps of now: what it says of the
// findings still holds.
func (e *Engine) restamp(key diskcache.Key, rec *pyRecord, h *hashes, listing repofs.Listing, start time.Time) {
	nr := *rec
	nr.Written = start.UnixNano()
	nr.Stamps, nr.Dirs = h.record(rec.Paths, listing.Dirs, start)
	_ = e.cache.PutWith(pyKind, key, func(w io.Writer) error { return writeRecord(w, &nr) })
}

// skeletonKey hashes what the entrypoint map is made from: the listing,
// the content of every config it lists, and the state of the paths
// looked at.
func skeletonKey(h *hashes, l repofs.Listing, looked []string) string {
	k := diskcache.NewHasher("skeleton")
	k.Int(int64(len(l.YAML)))
	sums := h.all(l.YAML)
	for i, p := range l.YAML {
		k.String(p).String(sums[i])
	}
	k.Int(int64(len(l.AppPy)))
	for _, p := range l.AppPy {
		k.String(p)
	}
	// The directories walked: a server directory that configs name is
	// looked for in them (GL402, GL005).
	k.Int(int64(len(l.Dirs)))
	for _, d := range l.Dirs {
		k.String(d)
	}
	k.Int(int64(len(l.Problems)))
	for _, pe := range l.Problems {
		k.String(pe.Path).String(pe.Err.Error())
	}
	// Of the paths looked at, only whether each is there counts: the
	// entrypoint map reads none of them.
	k.Int(int64(len(looked)))
	for i, st := range h.all(looked) {
		if !strings.HasPrefix(st, "!") {
			st = "found"
		}
		k.String(looked[i]).String(st)
	}
	return k.Key().String()
}
