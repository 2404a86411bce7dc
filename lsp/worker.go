package lsp

import (
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"time"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/lsp/protocol"
	"github.com/gymlint/gymlint/settings"
)

// job is the changes one analysis takes: the server collects them while
// the worker is busy, so a burst of edits is analysed once.
type job struct {
	overlays  map[string]*overlay
	disk      map[string]protocol.FileChangeType
	versions  map[string]*int32 // buffers whose text changed, by path (nil: closed)
	reload    bool              // read the configuration and start a new session
	settings  clientSettings    // the editor's settings, for a reload
	republish bool              // publish every open file's diagnostics, new settings
	goDiags   []diag.Diagnostic // a new Go analysis result, when goSet
	goFiles   []string          // the Go files it analysed
	goParsed  parsedSums        // what it parsed of them
	goSet     bool
	started   time.Time
}

type overlay struct {
	text  []byte
	clear bool
}

func newJob() *job {
	return &job{overlays: map[string]*overlay{}, disk: map[string]protocol.FileChangeType{}, versions: map[string]*int32{}}
}

// result is what one analysis changed.
type result struct {
	files    map[string]*published // recomputed files, by path
	versions map[string]*int32     // the buffer versions the analysis read
	full     bool                  // a new session: files not in files have nothing
	stats    lint.UpdateStats
	took     time.Duration
	err      string // to show the user
	// republish: new settings; every open file is published again.
	republish bool
}

// worker owns the session and analyses one job at a time.
type worker struct {
	root    string
	opts    Options
	log     io.Writer
	jobs    chan *job
	results chan<- *result

	engine   *engine.Engine
	session  *lint.Session
	goDiags  map[string][]diag.Diagnostic // by path
	goFiles  map[string]bool              // the Go files analysed
	goParsed parsedSums                   // what the Go analysis parsed
	enc      protocol.Encoding
	caps     clientCaps
	settings clientSettings // the editor's, as of the last reload
	// clientRoot is the root as the client named it, for URIs.
	clientRoot string
}

func newWorker(s *server) *worker {
	w := &worker{root: s.realRoot, clientRoot: s.root, opts: s.opts, log: s.log, enc: s.enc, caps: s.caps,
		jobs: make(chan *job), results: s.results,
		goDiags: map[string][]diag.Diagnostic{}, goFiles: map[string]bool{}}
	go w.loop()
	return w
}

// stop ends the worker after the job in progress, without waiting for it:
// the server is exiting. (Its last result goes to the results channel's
// free slot: the server never has more than one job out.)
func (w *worker) stop() { close(w.jobs) }

func (w *worker) loop() {
	for j := range w.jobs {
		w.results <- w.runSafely(j)
	}
	if w.session != nil {
		w.session.Close()
	}
}

// runSafely analyses a job; a panic (a gymlint bug) is logged and shown,
// and the next job starts a new session.
func (w *worker) runSafely(j *job) (res *result) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(w.log, "gymlint lsp: internal error in the analysis: %v\n%s", r, debug.Stack())
			if w.session != nil {
				w.session.Close()
			}
			w.session = nil
			res = &result{files: map[string]*published{}, versions: j.versions,
				err: fmt.Sprintf("gymlint: internal error in the analysis (%v); the next change starts it again. Please report it.", r)}
		}
	}()
	return w.run(j)
}

func (w *worker) run(j *job) *result {
	res := &result{files: map[string]*published{}, versions: j.versions, republish: j.republish}
	if j.reload {
		w.settings = j.settings
	}
	if j.goSet {
		old, oldFiles := w.goDiags, w.goFiles
		w.goDiags, w.goFiles, w.goParsed = map[string][]diag.Diagnostic{}, map[string]bool{}, j.goParsed
		for _, d := range j.goDiags {
			w.goDiags[d.Path] = append(w.goDiags[d.Path], d)
		}
		for _, f := range j.goFiles {
			w.goFiles[f] = true
		}
		for _, m := range []map[string][]diag.Diagnostic{old, w.goDiags} {
			for p := range m {
				res.files[p] = nil
			}
		}
		for _, m := range []map[string]bool{oldFiles, w.goFiles} {
			for p := range m {
				res.files[p] = nil // their suppressions may be used or unused now
			}
		}
	}
	var touched []string
	if j.reload || w.session == nil {
		if err := w.open(); err != nil {
			res.err = err.Error()
		}
		res.full = true
		for p, o := range j.overlays {
			if !o.clear {
				w.session.Cache().SetOverlay(p, o.text)
			}
		}
		// Buffers opened before: the server sends them all again on a
		// reload, as overlays of this job.
		touched, res.stats = w.session.Update(nil)
		for _, p := range w.session.Paths() {
			res.files[p] = nil
		}
		for p := range w.goDiags {
			res.files[p] = nil
		}
	} else {
		c := w.session.Cache()
		var changed []string
		for p, o := range j.overlays {
			if o.clear {
				c.ClearOverlay(p)
			} else {
				c.SetOverlay(p, o.text)
			}
			changed = append(changed, p)
		}
		for p, t := range j.disk {
			switch t {
			case protocol.FileCreated:
				c.Created(p)
			case protocol.FileDeleted:
				c.Deleted(p)
			default:
				c.Changed(p)
			}
			changed = append(changed, p)
		}
		sort.Strings(changed)
		touched, res.stats = w.session.Update(changed)
	}
	for _, p := range touched {
		res.files[p] = nil
	}
	for p := range j.versions {
		res.files[p] = nil // a new version is published even when its list is the same
	}
	for p := range res.files {
		res.files[p] = w.file(p, w.session.Scanned(p) || w.goFiles[p])
	}
	res.took = time.Since(j.started)
	if res.full {
		// A whole-workspace analysis leaves about as much garbage as the
		// session keeps; give it back to the system now rather than hold
		// the peak for the life of the editor.
		debug.FreeOSMemory()
	}
	return res
}

// open reads the configuration and starts a new session. A configuration
// error is reported and the defaults are used, so the editor still works.
func (w *worker) open() error {
	if w.session != nil {
		w.session.Close()
		w.session = nil
	}
	e, cerr := openEngine(w.root, w.opts, w.settings)
	w.engine = e
	for _, n := range e.ContractNotes() {
		fmt.Fprintf(w.log, "gymlint lsp: %s\n", n)
	}
	s, err := e.NewSession()
	if err != nil {
		return fmt.Errorf("gymlint: cannot open the workspace: %v", err)
	}
	w.session = s
	return cerr
}

// openEngine makes the engine of the workspace root: its configuration
// with the editor's settings over it (cs: as the command line's flags go
// over it). A configuration error is returned beside an engine with the
// defaults and the editor's settings, so the editor still works.
func openEngine(root string, opts Options, cs clientSettings) (*engine.Engine, error) {
	eo := engine.Options{Root: root, Jobs: opts.Jobs, GoEnv: opts.GoEnv, NoGo: opts.NoGo, VirtualEnv: opts.VirtualEnv, ExtraRoots: opts.ExtraRoots, Cache: opts.Cache,
		Contract: cs.contract}
	conf, err := settings.Load(root)
	if err == nil {
		eo.Settings = conf.With(cs.sel)
		var e *engine.Engine
		if e, err = engine.New(eo); err == nil {
			return e, nil
		}
	} else {
		err = fmt.Errorf("configuration error: %w", err)
	}
	// The defaults, but for what gymlint reads from other tools' files:
	// where the repository's isort settings put its own imports.
	eo.Settings = (&settings.Settings{KnownFirstParty: settings.ReadKnownFirstParty(root)}).With(cs.sel)
	e, derr := engine.New(eo)
	if derr != nil {
		panic(derr) // the defaults are always a configuration
	}
	return e, fmt.Errorf("gymlint: %v (the defaults are used until it is fixed)", err)
}

// file computes what to publish for one file: its diagnostics from the
// session and the Go analysis, with suppressions and the configuration
// applied, placed in the file's current text.
func (w *worker) file(p string, scanned bool) *published {
	cache := w.session.Cache()
	pub := &published{contents: map[string][]byte{}}
	pl := w.placer(pub.contents)
	// The Go diagnostics were computed in the Go run's own read of the
	// files: their fixes are kept only where that is the text published.
	ds := append(w.session.DiagnosticsOf(p), freshGoFixes(w.goDiags[p], w.goParsed, pl.content)...)
	read := cache.Source
	var scan []string
	if scanned || len(w.goDiags[p]) > 0 {
		scan = []string{p}
	}
	ds = w.engine.Finish(ds, scan, read)
	pub.diags = ds
	pl.content(p)
	for _, d := range ds {
		pub.lsp = append(pub.lsp, toLSP(d, pl, w.caps))
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				pl.content(e.Path)
			}
		}
	}
	return pub
}

// placer places positions in the files as the session reads them now,
// keeping each file's content in contents.
func (w *worker) placer(contents map[string][]byte) *placer {
	cache := w.session.Cache()
	return &placer{root: w.clientRoot, enc: w.enc, mappers: map[string]*protocol.Mapper{}, content: func(path string) []byte {
		if c, ok := contents[path]; ok {
			return c
		}
		c, _ := cache.Source(path) // shared with the parsed module: no copy
		contents[path] = c
		return c
	}}
}
