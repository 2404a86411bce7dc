package lsp

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
)

// goRunner runs the Go analyzers over the workspace's Go modules, one run
// at a time, in its own goroutine: go/packages takes about a second per
// module, which must not hold up the Python analysis.
type goRunner struct {
	root    string
	opts    Options
	reqs    chan goRequest
	results chan *goResult

	running  bool
	wanted   bool
	disabled bool
}

type goResult struct {
	diags   []diag.Diagnostic
	files   []string
	modules int
	err     error
	// parsed are the sums of the Go files as the run parsed them: its
	// fixes are offered only for the files that still hold them.
	parsed parsedSums
}

// parsedSums is goanalysis.Result.ParsedSum; nil knows no file.
type parsedSums func(path string) (sum [sha256.Size]byte, parsed, varied bool)

func newGoRunner(root string, opts Options) *goRunner {
	g := &goRunner{root: root, opts: opts, reqs: make(chan goRequest, 1), results: make(chan *goResult, 1)}
	go g.loop()
	return g
}

// stop ends the runner after the run in progress, without waiting for it.
func (g *goRunner) stop() { close(g.reqs) }

// goRequest is one run's input: the open Go buffers, by path, and the
// editor's settings (with the configuration, they choose the analyzers).
type goRequest struct {
	overlay  map[string][]byte
	settings clientSettings
}

func (g *goRunner) loop() {
	for req := range g.reqs {
		g.results <- g.runSafely(req)
	}
}

func (g *goRunner) runSafely(req goRequest) (res *goResult) {
	defer func() {
		if r := recover(); r != nil {
			res = &goResult{err: fmt.Errorf("internal error in the Go analysis: %v\n%s", r, debug.Stack())}
		}
	}()
	// The configuration as it is now: it chooses the analyzers.
	e, _ := openEngine(g.root, g.opts, req.settings)
	r, err := e.RunGo(req.overlay)
	res = &goResult{err: err}
	if r != nil {
		res.diags, res.files, res.modules, res.parsed = r.Diagnostics, r.Files, len(r.Modules), r.ParsedSum
	}
	return res
}

// request asks for a run with the given open Go buffers and settings:
// now when idle, or after the run in progress (which asks again, with the
// buffers and settings of then).
func (g *goRunner) request(req goRequest) {
	if g.disabled {
		return
	}
	if g.running {
		g.wanted = true
		return
	}
	g.running = true
	g.wanted = false
	g.reqs <- req
}

// requestGo asks for a Go analysis with the open Go buffers.
func (s *server) requestGo() {
	if s.goRunner == nil || s.configWait != nil {
		return
	}
	s.goRunner.request(goRequest{overlay: s.goOverlay(), settings: s.settings})
}

func (s *server) goOverlay() map[string][]byte {
	var ov map[string][]byte
	for rel, d := range s.docs {
		if strings.HasSuffix(rel, ".go") {
			if ov == nil {
				ov = map[string][]byte{}
			}
			ov[rel] = d.text
		}
	}
	return ov
}

// goDone takes a Go analysis result to the worker, and starts the run
// that was asked for meanwhile.
func (s *server) goDone(gr *goResult) {
	g := s.goRunner
	g.running = false
	if errors.Is(gr.err, engine.ErrNoGoCommand) {
		s.logf("no go command on PATH: Go files are not checked")
		g.disabled = true
		return
	}
	if gr.err != nil {
		s.logf("Go analysis: %v", gr.err)
	}
	if gr.modules > 0 {
		s.logf("Go analysis of %d modules: %d diagnostics", gr.modules, len(gr.diags))
	}
	j := s.queue()
	j.goDiags, j.goFiles, j.goParsed, j.goSet = gr.diags, gr.files, gr.parsed, true
	s.kick()
	if g.wanted {
		g.wanted = false
		s.requestGo()
	}
}

// freshGoFixes returns ds with the fixes left out that edit a file whose
// content (content: as the diagnostics are placed and published) is not
// what the Go run parsed: a buffer edited while the run went on. The
// diagnostics stay; their fixes come with the next run.
func freshGoFixes(ds []diag.Diagnostic, parsed parsedSums, content func(path string) []byte) []diag.Diagnostic {
	out := make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if len(d.Fixes) > 0 {
			var keep []diag.Fix
			for _, f := range d.Fixes {
				if goFixFresh(f, parsed, content) {
					keep = append(keep, f)
				}
			}
			d.Fixes = keep
		}
		out = append(out, d)
	}
	return out
}

func goFixFresh(f diag.Fix, parsed parsedSums, content func(path string) []byte) bool {
	if parsed == nil {
		return false
	}
	for _, e := range f.Edits {
		sum, ok, varied := parsed(e.Path)
		if !ok || varied || sha256.Sum256(content(e.Path)) != sum {
			return false
		}
	}
	return true
}
