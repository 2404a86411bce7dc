// Package lsp is gymlint's language server: `gymlint lsp` speaks the
// Language Server Protocol over stdin and stdout and publishes gymlint's
// diagnostics for the Python, YAML and Go files of a workspace the way
// gopls publishes its analyzers' (source: the analyzer, code: the rule
// code, codeDescription: the rule's documentation, related information:
// the other places a message names), with code actions for the rules'
// fixes and for suppression comments, and hovers that explain a finding,
// or a rule that a suppression comment names (hover.go).
//
// The editor's settings (the "gymlint" section: contract, select, ignore;
// settings.go) go over the workspace's .gymlint.yaml as the command line's
// --contract, --select and --ignore do. They come in initializationOptions,
// in workspace/didChangeConfiguration, or, from a client that answers it,
// workspace/configuration (asked before the first analysis, and whenever
// the client says they changed without sending them); new settings
// re-check the workspace, and a bad value is shown and changes nothing.
//
// # How it works
//
// The server keeps one lint.Session for the workspace root. Open buffers
// are overlays of the session's cache, so unsaved text is what the rules
// read. A change to a file re-analyses only the groups of entrypoints that
// depend on it (see lint.Session), and the diagnostics of every file whose
// findings may have changed are published again; a file whose findings
// are gone gets an empty list. Go files are analysed by the Go analyzers
// (go/packages, with open Go buffers as an overlay) when the workspace
// opens and after a Go file or go.mod is opened, saved or changed on disk.
//
// One goroutine reads messages, one owns the server's state and answers
// them, one analyses (it owns the session), one runs the Go analysis. So a
// code action is answered while an analysis runs, and edits made during an
// analysis are taken together by the next one.
package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gymlint/gymlint/internal/diskcache"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/lsp/protocol"
)

// Options configure a server.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Log receives the server's log (gymlint lsp writes it to stderr,
	// which editors keep in their LSP log); nil discards it.
	Log io.Writer
	// Jobs is the number of parallel parsers; 0 means GOMAXPROCS, the CPUs
	// the process may use.
	Jobs int
	// GoEnv is added to the environment of `go list` (tests keep the go
	// command offline with it).
	GoEnv []string
	// NoGo turns the Go analysis off.
	NoGo bool
	// VirtualEnv is the editor's virtual environment ($VIRTUAL_ENV), where
	// the framework may be installed (engine.Options.VirtualEnv).
	VirtualEnv string
	// ExtraRoots are the plugin server roots of the editor's environment
	// (NEMO_GYM_EXTRA_ROOTS, engine.Options.ExtraRoots); findings in them
	// are not published.
	ExtraRoots []string
	// Cache is the disk cache (engine.Options.Cache): the Go dependencies'
	// type information and the framework's contract are read from it and
	// kept in it; nil: none.
	Cache *diskcache.Cache
}

// Serve runs a language server on r and w until the client sends exit or
// closes the stream. It returns nil after shutdown and exit, and an error
// when the stream ended or broke first, or exit came without shutdown (the
// process should then exit with status 1, as the protocol says).
func Serve(r io.Reader, w io.Writer, opts Options) error {
	s := newServer(protocol.NewConn(r, w), opts)
	return s.run()
}

type state int

const (
	stateNew state = iota
	stateRunning
	stateShutdown
)

// document is an open buffer.
type document struct {
	uri     protocol.DocumentURI
	version int32
	text    []byte
}

// published is what the client was last told of one file.
type published struct {
	uri   protocol.DocumentURI
	diags []diag.Diagnostic // as published, after configuration and suppressions
	lsp   []protocol.Diagnostic
	// contents are the files the diagnostics were placed in and that
	// their fixes edit, as the analysis read them.
	contents map[string][]byte
}

type server struct {
	conn *protocol.Conn
	opts Options
	log  io.Writer // gate
	gate *logGate

	state  state
	exited bool

	root     string // the workspace root as the client named it (absolute)
	realRoot string // with symbolic links resolved
	enc      protocol.Encoding
	caps     clientCaps

	docs      map[string]*document  // by root-relative path
	published map[string]*published // by root-relative path

	worker  *worker
	pending *job // changes waiting for the worker
	busy    bool // the worker is analysing
	results chan *result

	goRunner *goRunner

	progress    *progress // the report of the analysis in progress, if any
	progressSeq int

	settings clientSettings // the editor's gymlint settings (settings.go)
	// configWait, while the first analysis waits for the client's
	// settings, fires when it has waited long enough.
	configWait <-chan time.Time
	configReq  string // the id of our workspace/configuration request
}

// progress is a work-done progress report of a whole-workspace analysis,
// shown by editors as "gymlint: analysing the workspace".
type progress struct {
	token   string
	create  string // the id of our window/workDoneProgress/create request
	created bool   // the client answered it
	done    bool   // the analysis ended
	summary string // what the end says
}

// clientCaps are the client capabilities the server uses.
type clientCaps struct {
	related          bool
	codeDescription  bool
	versionSupport   bool
	literalActions   bool
	documentChanges  bool
	watchRegistering bool
	workDoneProgress bool
	hoverMarkdown    bool // the client prefers Markdown hovers to plain text
	configuration    bool // the client answers workspace/configuration
	configRegister   bool // it takes a registration of didChangeConfiguration
}

func newServer(conn *protocol.Conn, opts Options) *server {
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	gate := &logGate{w: log}
	return &server{
		conn: conn, opts: opts, log: gate, gate: gate,
		enc:       protocol.UTF16,
		docs:      map[string]*document{},
		published: map[string]*published{},
		results:   make(chan *result, 1),
	}
}

func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "gymlint lsp: "+format+"\n", args...)
}

type readResult struct {
	msg *protocol.Message
	err error
}

func (s *server) run() error {
	// Last of all: nothing is logged once Serve has returned.
	defer s.gate.close()
	msgs := make(chan readResult)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			m, err := s.conn.Read()
			select {
			case msgs <- readResult{m, err}:
			case <-stop:
				return
			}
			if err != nil && protocol.IsFatal(err) {
				return
			}
		}
	}()
	defer func() {
		if s.worker != nil {
			s.worker.stop()
		}
		if s.goRunner != nil {
			s.goRunner.stop()
		}
	}()
	var goResults chan *goResult
	for {
		if s.goRunner != nil {
			goResults = s.goRunner.results
		}
		select {
		case rr := <-msgs:
			if rr.err != nil {
				if protocol.IsFatal(rr.err) {
					if errors.Is(rr.err, io.EOF) {
						return errors.New("the client closed the stream without exit")
					}
					return fmt.Errorf("reading from the client: %w", rr.err)
				}
				var re *protocol.ReadError
				if errors.As(rr.err, &re) {
					s.logf("bad message: %v", re)
					if id, ok := re.ReplyID(); ok {
						s.reply(id, nil, re.RPCError())
					}
				}
				continue
			}
			s.handleSafely(rr.msg)
			if s.exited {
				if s.state == stateShutdown {
					return nil
				}
				return errors.New("exit without shutdown")
			}
		case res := <-s.results:
			s.busy = false
			s.publish(res)
			s.kick()
		case gr := <-goResults:
			s.goDone(gr)
		case <-s.configWait:
			s.logf("no settings from the client within %s: starting with %s", configWaitLimit, s.settings)
			s.settingsSettled()
		}
	}
}

// handleSafely handles a message; a panic (a gymlint bug) becomes an
// internal error for a request and a log line for a notification, and the
// server goes on.
func (s *server) handleSafely(m *protocol.Message) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("internal error handling %s: %v\n%s", m.Method, r, debug.Stack())
			if m.IsRequest() {
				s.reply(m.ID, nil, protocol.Errorf(protocol.InternalError, "internal error in gymlint: %v", r))
			}
		}
	}()
	s.handle(m)
}

func (s *server) reply(id *protocol.ID, result any, err *protocol.Error) {
	if werr := s.conn.Reply(id, result, err); werr != nil {
		s.logf("writing a reply: %v", werr)
	}
}

func (s *server) notify(method string, params any) {
	if err := s.conn.Notify(method, params); err != nil {
		s.logf("writing %s: %v", method, err)
	}
}

func (s *server) handle(m *protocol.Message) {
	if m.IsResponse() {
		// Answers to our client/registerCapability,
		// workspace/configuration and window/workDoneProgress/create.
		if s.configReq != "" && m.ID.String() == s.configReq {
			s.configurationAnswer(m)
			return
		}
		if pr := s.progress; pr != nil && m.ID.String() == pr.create {
			if m.Error != nil {
				s.progress = nil
				return
			}
			pr.created = true
			s.notify(protocol.MethodProgress, protocol.ProgressParams{Token: pr.token, Value: protocol.WorkDoneProgressBegin{
				Kind: "begin", Title: "gymlint", Message: "analysing the workspace"}})
			if pr.done {
				// The analysis ended before the client answered.
				s.sendProgressEnd(pr)
			}
		}
		return
	}
	if m.IsRequest() && notifications[m.Method] {
		// A notification sent with an id: JSON-RPC still owes it an answer.
		s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidRequest, "%s is a notification: send it without an id", m.Method))
		return
	}
	if m.Method == protocol.MethodExit {
		s.exited = true
		return
	}
	switch s.state {
	case stateNew:
		if m.Method == protocol.MethodInitialize {
			s.initialize(m)
			return
		}
		if m.IsRequest() {
			s.reply(m.ID, nil, protocol.Errorf(protocol.ServerNotInitialized, "the server is not initialized: send initialize first"))
		}
		return
	case stateShutdown:
		if m.IsRequest() {
			s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidRequest, "the server is shut down: only exit is accepted"))
		}
		return
	}
	switch m.Method {
	case protocol.MethodInitialize:
		s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidRequest, "initialize was already received"))
	case protocol.MethodInitialized:
		s.initialized()
	case protocol.MethodShutdown:
		s.state = stateShutdown
		s.reply(m.ID, nil, nil)
	case protocol.MethodDidOpen:
		handleWith(s, m, s.didOpen)
	case protocol.MethodDidChange:
		handleWith(s, m, s.didChange)
	case protocol.MethodDidSave:
		handleWith(s, m, s.didSave)
	case protocol.MethodDidClose:
		handleWith(s, m, s.didClose)
	case protocol.MethodDidChangeWatchedFiles:
		handleWith(s, m, s.didChangeWatchedFiles)
	case protocol.MethodDidChangeConfiguration:
		handleWith(s, m, s.didChangeConfiguration)
	case protocol.MethodCodeAction:
		handleWith(s, m, func(p protocol.CodeActionParams) { s.reply(m.ID, s.codeActions(p), nil) })
	case protocol.MethodHover:
		handleWith(s, m, func(p protocol.HoverParams) {
			if h := s.hover(p); h != nil {
				s.reply(m.ID, h, nil)
			} else {
				s.reply(m.ID, nil, nil)
			}
		})
	default:
		if m.IsRequest() {
			s.reply(m.ID, nil, protocol.Errorf(protocol.MethodNotFound, "gymlint does not serve %s", m.Method))
		}
		// Other notifications ($/cancelRequest, $/setTrace, ...) need
		// nothing.
	}
}

// notifications are the methods the protocol defines as notifications.
var notifications = map[string]bool{
	protocol.MethodExit: true, protocol.MethodInitialized: true,
	protocol.MethodDidOpen: true, protocol.MethodDidChange: true, protocol.MethodDidSave: true, protocol.MethodDidClose: true,
	protocol.MethodDidChangeWatchedFiles: true, protocol.MethodDidChangeConfiguration: true, protocol.MethodDidChangeWorkspaceFolders: true,
	protocol.MethodCancelRequest: true, protocol.MethodSetTrace: true, protocol.MethodProgress: true,
}

// handleWith decodes a message's params and hands them to fn.
func handleWith[P any](s *server, m *protocol.Message, fn func(P)) {
	var p P
	if s.decode(m, &p) {
		fn(p)
	}
}

// decode reads a message's params; a request with invalid params gets an
// InvalidParams error, a notification's are logged.
func (s *server) decode(m *protocol.Message, v any) bool {
	if len(m.Params) == 0 {
		if m.IsRequest() {
			s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "%s needs params", m.Method))
		} else {
			s.logf("%s without params", m.Method)
		}
		return false
	}
	if err := json.Unmarshal(m.Params, v); err != nil {
		if m.IsRequest() {
			s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "invalid params of %s: %v", m.Method, err))
		} else {
			s.logf("invalid params of %s: %v", m.Method, err)
		}
		return false
	}
	return true
}

// ServerName is the name in serverInfo.
const ServerName = "gymlint"

func (s *server) initialize(m *protocol.Message) {
	var p protocol.InitializeParams
	if len(m.Params) > 0 {
		if err := json.Unmarshal(m.Params, &p); err != nil {
			s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "invalid initialize params: %v", err))
			return
		}
	}
	root := ""
	if uris := p.RootURIs(); len(uris) > 0 {
		path, err := protocol.URIToPath(uris[0])
		if err != nil {
			s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "workspace root %q: %v", uris[0], err))
			return
		}
		root = path
		if len(uris) > 1 {
			s.logf("%d workspace folders: gymlint checks the first, %s", len(uris), path)
		}
	} else {
		wd, err := os.Getwd()
		if err != nil {
			s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "no workspace root given and no working directory: %v", err))
			return
		}
		root = wd
		s.logf("no workspace root given: checking the working directory %s", wd)
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		root = abs
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "workspace root %s: %v", root, err))
		return
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		s.reply(m.ID, nil, protocol.Errorf(protocol.InvalidParams, "workspace root %s is not a directory", root))
		return
	}
	if r, err := engine.FindRoot(real); err == nil && r.Dir != real {
		s.logf("%s is inside the Gym repository %s (%s): checking the repository", root, r.Dir, r.Marker)
		rel, _ := filepath.Rel(real, r.Dir)
		root, real = filepath.Clean(filepath.Join(root, rel)), r.Dir
	}
	s.root, s.realRoot = root, real
	s.enc = protocol.ChooseEncoding(p.Capabilities.General.PositionEncodings)
	tc := p.Capabilities.TextDocument
	s.caps = clientCaps{
		related:          tc.PublishDiagnostics.RelatedInformation,
		codeDescription:  tc.PublishDiagnostics.CodeDescriptionSupport,
		versionSupport:   tc.PublishDiagnostics.VersionSupport,
		literalActions:   tc.CodeAction.CodeActionLiteralSupport != nil,
		documentChanges:  p.Capabilities.Workspace.WorkspaceEdit.DocumentChanges,
		watchRegistering: p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration,
		workDoneProgress: p.Capabilities.Window.WorkDoneProgress,
		hoverMarkdown:    prefersMarkdown(tc.Hover.ContentFormat),
		configuration:    p.Capabilities.Workspace.Configuration,
		configRegister:   p.Capabilities.Workspace.DidChangeConfiguration.DynamicRegistration,
	}
	var actions any = true
	if s.caps.literalActions {
		actions = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.KindQuickFix, fixAllKind}}
	}
	s.reply(m.ID, protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: s.enc,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.SyncIncremental,
				Save:      &protocol.SaveOptions{IncludeText: true},
			},
			CodeActionProvider: actions,
			HoverProvider:      true,
		},
		ServerInfo: &protocol.ServerInfo{Name: ServerName, Version: s.opts.Version},
	}, nil)
	if v, ok := initializationSettings(p.InitializationOptions); ok {
		s.applySettings(v, "initializationOptions")
	}
	s.state = stateRunning
	s.logf("workspace %s (position encoding %s)", s.root, s.enc)
	s.worker = newWorker(s)
	if !s.opts.NoGo {
		s.goRunner = newGoRunner(s.realRoot, s.opts)
	}
	if s.caps.configuration {
		// The client's settings may change what the first analysis
		// does: it waits for them (asked for at initialized), a while.
		s.configWait = time.After(configWaitLimit)
		return
	}
	s.startAnalysis()
}

// startAnalysis starts the workspace's first analysis, and the Go one.
func (s *server) startAnalysis() {
	s.requestGo()
	s.queue().reload = true
	s.kick()
}

// prefersMarkdown says whether a client's hover content formats, in its
// order of preference, put Markdown before plain text. A client that
// names neither gets plain text, which every client shows.
func prefersMarkdown(formats []protocol.MarkupKind) bool {
	for _, f := range formats {
		switch f {
		case protocol.Markdown:
			return true
		case protocol.PlainText:
			return false
		}
	}
	return false
}

// fixAllKind is the kind of the action that applies every safe fix of a file.
const fixAllKind = protocol.KindSourceFixAll + ".gymlint"

func (s *server) initialized() {
	var regs []protocol.Registration
	if s.caps.watchRegistering {
		// Files changed outside the editor (a git checkout, a formatter):
		// the client tells us of those it watches for us.
		regs = append(regs, protocol.Registration{
			ID:     "gymlint-watched-files",
			Method: protocol.MethodDidChangeWatchedFiles,
			RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{
				{GlobPattern: "**/*.{py,yaml,yml,go}"},
				{GlobPattern: "**/{go.mod,go.sum,pyproject.toml,.gymlint.yaml,requirements.txt}"},
			}},
		})
	}
	if s.caps.configRegister {
		// Clients built on vscode-languageclient send the settings'
		// changes only to a server that registers for them.
		regs = append(regs, protocol.Registration{
			ID:              "gymlint-settings",
			Method:          protocol.MethodDidChangeConfiguration,
			RegisterOptions: protocol.DidChangeConfigurationRegistrationOptions{Section: []string{settingsSection}},
		})
	}
	if len(regs) > 0 {
		if _, err := s.conn.Call(protocol.MethodRegisterCapability, protocol.RegistrationParams{Registrations: regs}); err != nil {
			s.logf("registering capabilities: %v", err)
		}
	}
	if s.caps.configuration {
		s.pullSettings()
	}
}

// rel returns the root-relative path of a file URI, and false for a URI
// that is not a file inside the workspace root.
func (s *server) rel(uri protocol.DocumentURI) (string, bool) {
	p, err := protocol.URIToPath(uri)
	if err != nil {
		return "", false
	}
	for _, base := range []string{s.root, s.realRoot} {
		r, err := filepath.Rel(base, p)
		if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			continue
		}
		if c, ok := repofs.Clean(filepath.ToSlash(r)); ok {
			return c, true
		}
	}
	return "", false
}

// uriOf returns the URI to publish a root-relative path's diagnostics
// under: the open buffer's own URI, or one made from the root.
func (s *server) uriOf(rel string) protocol.DocumentURI {
	if d := s.docs[rel]; d != nil {
		return d.uri
	}
	return protocol.PathToURI(filepath.Join(s.root, filepath.FromSlash(rel)))
}

func (s *server) didOpen(p protocol.DidOpenTextDocumentParams) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		s.logf("%s is outside the workspace %s: not checked", p.TextDocument.URI, s.root)
		return
	}
	text := []byte(p.TextDocument.Text)
	s.docs[rel] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: text}
	s.setOverlay(rel, text)
}

func (s *server) didChange(p protocol.DidChangeTextDocumentParams) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return
	}
	d := s.docs[rel]
	if d == nil {
		s.logf("didChange of %s, which is not open: ignored", rel)
		return
	}
	text, err := protocol.ApplyChanges(d.text, p.ContentChanges, s.enc)
	if err != nil {
		// The buffer and ours no longer agree: read the disk until the
		// client sends the whole text again.
		s.logf("cannot apply the changes to %s: %v; it is read from the disk until it is opened again", rel, err)
		delete(s.docs, rel)
		s.clearOverlay(rel)
		return
	}
	d.text, d.version = text, p.TextDocument.Version
	s.setOverlay(rel, text)
}

func (s *server) didSave(p protocol.DidSaveTextDocumentParams) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return
	}
	if d := s.docs[rel]; d != nil && p.Text != nil {
		d.text = []byte(*p.Text)
		s.setOverlay(rel, d.text)
	}
	if isSettings(rel) {
		s.queue().reload = true
	}
	if isGo(rel) {
		s.requestGo()
	}
	s.kick()
}

func (s *server) didClose(p protocol.DidCloseTextDocumentParams) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return
	}
	if s.docs[rel] == nil {
		return
	}
	delete(s.docs, rel)
	s.clearOverlay(rel)
}

// manyChanges is how many changed files make the server read the whole
// workspace again rather than file by file (a branch switch).
const manyChanges = 500

func (s *server) didChangeWatchedFiles(p protocol.DidChangeWatchedFilesParams) {
	if len(p.Changes) > manyChanges {
		s.logf("%d files changed on disk: reading the workspace again", len(p.Changes))
		s.queue().reload = true
		s.requestGo()
		s.kick()
		return
	}
	for _, ev := range p.Changes {
		rel, ok := s.rel(ev.URI)
		if !ok {
			continue
		}
		if isSettings(rel) {
			s.queue().reload = true
		}
		if isGo(rel) {
			s.requestGo()
		}
		if s.docs[rel] != nil && ev.Type != protocol.FileDeleted {
			continue // the open buffer is what counts
		}
		s.queue().disk[rel] = ev.Type
	}
	s.kick()
}

func isSettings(rel string) bool { return rel == ".gymlint.yaml" || rel == "pyproject.toml" }

func isGo(rel string) bool {
	base := filepath.Base(rel)
	return strings.HasSuffix(rel, ".go") || base == "go.mod" || base == "go.sum"
}

func (s *server) setOverlay(rel string, text []byte) {
	j := s.queue()
	j.overlays[rel] = &overlay{text: text}
	if d := s.docs[rel]; d != nil {
		v := d.version
		j.versions[rel] = &v
	}
	if isGo(rel) {
		s.requestGo()
	}
	s.kick()
}

func (s *server) clearOverlay(rel string) {
	j := s.queue()
	j.overlays[rel] = &overlay{clear: true}
	j.versions[rel] = nil
	if isGo(rel) {
		s.requestGo()
	}
	s.kick()
}

// queue returns the job that collects changes for the next analysis.
func (s *server) queue() *job {
	if s.pending == nil {
		s.pending = newJob()
	}
	return s.pending
}

// kick hands the pending changes to the worker when it is idle.
func (s *server) kick() {
	if s.busy || s.pending == nil || s.worker == nil || s.configWait != nil {
		return
	}
	j := s.pending
	s.pending = nil
	if j.reload {
		j.settings = s.settings
		s.startProgress()
		// A new session reads every open buffer again.
		for rel, d := range s.docs {
			if _, ok := j.overlays[rel]; !ok {
				j.overlays[rel] = &overlay{text: d.text}
			}
		}
	}
	j.started = time.Now()
	s.busy = true
	s.worker.jobs <- j
}

// publish sends the diagnostics of every file the analysis recomputed
// whose list changed, or whose buffer has a new version.
func (s *server) publish(res *result) {
	if res.full {
		defer s.endProgress(res)
	}
	if res.full {
		// A new session: files it has nothing for are cleared.
		for rel, pub := range s.published {
			if _, ok := res.files[rel]; !ok && len(pub.lsp) > 0 {
				res.files[rel] = &published{}
			}
		}
	}
	if res.republish {
		// New settings: every open file is told its diagnostics again,
		// changed or not.
		for rel := range s.docs {
			if _, ok := res.files[rel]; !ok {
				res.files[rel] = &published{}
			}
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(res.files)) {
		f := res.files[rel]
		f.uri = s.uriOf(rel)
		old := s.published[rel]
		_, newVersion := res.versions[rel]
		again := res.republish && s.docs[rel] != nil
		if old != nil && !newVersion && !again && sameLSP(old.lsp, f.lsp) {
			s.published[rel] = f
			continue
		}
		if len(f.lsp) == 0 && old == nil && !newVersion && !again {
			continue // never had any: nothing to clear
		}
		params := protocol.PublishDiagnosticsParams{URI: f.uri, Diagnostics: f.lsp}
		if d := s.docs[rel]; d != nil && s.caps.versionSupport {
			if v := res.versions[rel]; v != nil {
				params.Version = v
			}
		}
		s.notify(protocol.MethodPublishDiagnostics, params)
		if len(f.lsp) == 0 {
			delete(s.published, rel)
		} else {
			s.published[rel] = f
		}
	}
	if res.err != "" {
		s.notify(protocol.MethodShowMessage, protocol.ShowMessageParams{Type: protocol.MessageError, Message: res.err})
	}
	s.logf("analysed %d groups (%d entrypoints) in %s; %d files updated", res.stats.Groups, res.stats.Analysed, res.took.Round(time.Microsecond), len(res.files))
}

// startProgress asks the client for a progress token for a whole-workspace
// analysis; the report begins when the client answers.
func (s *server) startProgress() {
	if !s.caps.workDoneProgress {
		return
	}
	s.progressSeq++
	token := fmt.Sprintf("gymlint-analysis-%d", s.progressSeq)
	id, err := s.conn.Call(protocol.MethodWorkDoneProgressCreate, protocol.WorkDoneProgressCreateParams{Token: token})
	if err != nil {
		s.logf("asking for a progress token: %v", err)
		return
	}
	s.progress = &progress{token: token, create: id.String()}
}

func (s *server) endProgress(res *result) {
	pr := s.progress
	if pr == nil {
		return
	}
	n, files := 0, 0
	for _, f := range res.files {
		if len(f.lsp) > 0 {
			n += len(f.lsp)
			files++
		}
	}
	pr.done = true
	pr.summary = fmt.Sprintf("%s in %s (%s analysed)", plural(n, "finding"), plural(files, "file"), plural(res.stats.Analysed, "entrypoint"))
	if pr.created {
		s.sendProgressEnd(pr)
	}
}

func (s *server) sendProgressEnd(pr *progress) {
	s.notify(protocol.MethodProgress, protocol.ProgressParams{Token: pr.token, Value: protocol.WorkDoneProgressEnd{Kind: "end", Message: pr.summary}})
	if s.progress == pr {
		s.progress = nil
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func sameLSP(a, b []protocol.Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
