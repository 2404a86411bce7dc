package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/lsp/protocol"
)

const echoApp = `from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    EchoServer.run_webserver()
`

const echoConfig = `echo:
  resources_servers:
    echo:
      entrypoint: app.py
      num_workers: 4
      domain: other
`

// workspace is a small Gym repository: one server without a module-level
// app or a refusal (GL101), named by a config.
func workspace(t *testing.T, extra map[string]string) string {
	files := map[string]string{
		"resources_servers/echo/app.py":            echoApp,
		"resources_servers/echo/configs/echo.yaml": echoConfig,
		"resources_servers/echo/requirements.txt":  "fastapi\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return writeTree(t, files)
}

// TestOpenFixClear is the whole loop an author goes through: initialize,
// open the broken server file, see the finding where it is, ask for the
// code actions, apply the refusal stub, and see the finding cleared.
func TestOpenFixClear(t *testing.T) {
	root := workspace(t, nil)
	c := startServer(t, root, Options{NoGo: true})
	res := c.initialize() // no encodings offered: UTF-16
	if res.Capabilities.PositionEncoding != protocol.UTF16 {
		t.Errorf("position encoding %q, want utf-16 by default", res.Capabilities.PositionEncoding)
	}
	if s := res.Capabilities.TextDocumentSync; s == nil || s.Change != protocol.SyncIncremental || !s.OpenClose {
		t.Errorf("text document sync %+v, want open/close and incremental changes", s)
	}
	const app = "resources_servers/echo/app.py"
	c.open(app, echoApp)
	// The workspace's first analysis may publish from the disk before it
	// takes the buffer; the buffer's own comes with its version.
	pub := c.waitDiagnostics(app, "GL101", withCode("GL101"))
	for pub.Version == nil {
		pub = c.waitDiagnostics(app, "GL101 of version 1", withCode("GL101"))
	}
	d := find(pub.Diagnostics, "GL101")
	// class EchoServer: line 4 (0-based 3), the name at character 6.
	want := protocol.Range{Start: protocol.Position{Line: 3, Character: 6}, End: protocol.Position{Line: 3, Character: 16}}
	if d.Range != want {
		t.Errorf("GL101 range %+v, want %+v (the class name)", d.Range, want)
	}
	if d.Source != "workers" || d.Severity != protocol.SeverityError {
		t.Errorf("source %q severity %d, want workers and error", d.Source, d.Severity)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "#gl101-undeclared-workers") {
		t.Errorf("codeDescription %+v, want the rule's documentation", d.CodeDescription)
	}
	if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != c.uri("resources_servers/echo/configs/echo.yaml") ||
		d.RelatedInformation[0].Location.Range.Start.Line != 3 {
		t.Errorf("related information %s, want the config line naming the entrypoint (line 4)", dump(d.RelatedInformation))
	}
	if pub.Version == nil || *pub.Version != 1 {
		t.Errorf("version %v, want the buffer's version 1", pub.Version)
	}

	m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)},
		Range:        d.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	})
	if m.Error != nil {
		t.Fatal(m.Error)
	}
	var actions []protocol.CodeAction
	if err := json.Unmarshal(m.Result, &actions); err != nil {
		t.Fatal(err)
	}
	var titles []string
	var override, appStub, suppression *protocol.CodeAction
	for i := range actions {
		a := &actions[i]
		titles = append(titles, a.Title)
		switch {
		case strings.Contains(a.Title, "multiple_workers_unsupported_reason"):
			override = a
		case strings.Contains(a.Title, "module-level app"):
			appStub = a
		case strings.Contains(a.Title, "gymlint: ignore"), strings.Contains(strings.ToLower(a.Title), "suppress"):
			suppression = a
		}
	}
	if override == nil || appStub == nil || suppression == nil {
		t.Fatalf("code actions %q: want the override stub, the app stub and a suppression", titles)
	}
	for _, a := range []*protocol.CodeAction{override, appStub, suppression} {
		if a.Kind != protocol.KindQuickFix || a.IsPreferred || a.Edit == nil || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "GL101" {
			t.Errorf("action %q: kind %q preferred %v diagnostics %d: want an unpreferred quickfix for GL101 with an edit", a.Title, a.Kind, a.IsPreferred, len(a.Diagnostics))
		}
	}
	// Apply the override stub, as the editor does, and send the change.
	text := c.applyAction(override, app, echoApp, protocol.UTF16)
	if !strings.Contains(text, "def multiple_workers_unsupported_reason(self)") {
		t.Fatalf("after the edit:\n%s", text)
	}
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
	pub = c.waitDiagnostics(app, "GL101 cleared", withoutCode("GL101"))
	if pub.Version == nil || *pub.Version != 2 {
		t.Errorf("cleared diagnostics carry version %v, want 2", pub.Version)
	}
	// GL104: the refusal now conflicts with num_workers: 4 in the config,
	// which the server reports on the YAML file without it being open.
	c.waitDiagnostics("resources_servers/echo/configs/echo.yaml", "GL104", withCode("GL104"))

	if m := c.call(protocol.MethodShutdown, nil); m.Error != nil || string(m.Result) != "null" {
		t.Fatalf("shutdown: %v %s", m.Error, m.Result)
	}
	c.notify(protocol.MethodExit, nil)
	if err := <-c.served; err != nil {
		t.Fatalf("Serve after shutdown and exit: %v, want nil", err)
	}
	c.served <- nil
}

// TestIncrementalSyncAndParentModule edits a parent class's module with
// incremental changes: the subclass's entrypoint, a file that is not open,
// is re-analysed and cleared, and broken again when the edit is undone.
func TestIncrementalSyncAndParentModule(t *testing.T) {
	const base = `from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoBase(SimpleResourcesServer):
    pass
`
	root := workspace(t, map[string]string{
		"resources_servers/echo/base.py": base,
		"resources_servers/echo/app.py": `from base import EchoBase


class EchoServer(EchoBase):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
`,
	})
	c := startServer(t, root, Options{NoGo: true})
	c.initialize("utf-16")
	const app = "resources_servers/echo/app.py"
	c.waitDiagnostics(app, "GL101 at start", withCode("GL101"))
	c.open("resources_servers/echo/base.py", base)
	// Replace "    pass" (line 4) with an override, in two incremental steps.
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{URI: c.uri("resources_servers/echo/base.py"), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{
			{Range: &protocol.Range{Start: protocol.Position{Line: 4, Character: 4}, End: protocol.Position{Line: 4, Character: 8}},
				Text: "def multiple_workers_unsupported_reason(self):\n        return \"x\""},
			{Range: &protocol.Range{Start: protocol.Position{Line: 5, Character: 18}, End: protocol.Position{Line: 5, Character: 19}},
				Text: "the echo log lives in this process"},
		},
	})
	c.waitDiagnostics(app, "GL101 cleared by the parent's override", empty)
	c.notify(protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("resources_servers/echo/base.py")}})
	c.waitDiagnostics(app, "GL101 back when the buffer is closed unsaved", withCode("GL101"))
}

// TestEncodings checks ranges in a line with characters outside ASCII:
// UTF-8 columns when the client offers utf-8, UTF-16 otherwise.
func TestEncodings(t *testing.T) {
	// É is 2 bytes in UTF-8 and 1 unit in UTF-16; 𝔸 (a letter, so an
	// identifier character) is 4 bytes and 2 units.
	src := strings.Replace(echoApp, "class EchoServer(", "class Écho𝔸Server(", 1)
	src = strings.Replace(src, "EchoServer.run_webserver", "Écho𝔸Server.run_webserver", 1)
	for _, tc := range []struct {
		offer    []string
		enc      protocol.Encoding
		startCh  uint32
		endCh    uint32
		wantName string
	}{
		{nil, protocol.UTF16, 6, 6 + 1 + 3 + 2 + 6, "utf-16: É is 1 unit, 𝔸 is 2"},
		{[]string{"utf-32", "utf-8", "utf-16"}, protocol.UTF8, 6, 6 + 2 + 3 + 4 + 6, "utf-8: É is 2 bytes, 𝔸 is 4"},
	} {
		t.Run(string(tc.enc), func(t *testing.T) {
			root := workspace(t, map[string]string{"resources_servers/echo/app.py": src})
			c := startServer(t, root, Options{NoGo: true})
			res := c.initialize(tc.offer...)
			if res.Capabilities.PositionEncoding != tc.enc {
				t.Fatalf("negotiated %q, want %q", res.Capabilities.PositionEncoding, tc.enc)
			}
			pub := c.waitDiagnostics("resources_servers/echo/app.py", "GL101", withCode("GL101"))
			r := find(pub.Diagnostics, "GL101").Range
			if r.Start.Character != tc.startCh || r.End.Character != tc.endCh {
				t.Errorf("%s: range %+v, want characters %d..%d", tc.wantName, r, tc.startCh, tc.endCh)
			}
		})
	}
}

// TestConfigBuffer edits a config in the editor: an entrypoint that does
// not exist is reported on the YAML line, and cleared when fixed.
func TestConfigBuffer(t *testing.T) {
	root := workspace(t, nil)
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	const cfg = "resources_servers/echo/configs/echo.yaml"
	c.open(cfg, echoConfig)
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(cfg), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: strings.Replace(echoConfig, "app.py", "ap.py", 1)}},
	})
	pub := c.waitDiagnostics(cfg, "GL005", withCode("GL005"))
	if r := find(pub.Diagnostics, "GL005").Range; r.Start.Line != 3 || r.Start.Character != 18 {
		t.Errorf("GL005 at %+v, want line 3 character 18 (the entrypoint value)", r.Start)
	}
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(cfg), Version: 3},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: echoConfig}},
	})
	c.waitDiagnostics(cfg, "GL005 cleared", withoutCode("GL005"))
}

// TestSafeFixPreferred checks the GL204 fix (safe: preferred) and the
// action that applies every safe fix of a file.
func TestSafeFixPreferred(t *testing.T) {
	src := `import ray
from nemo_gym.base_resources_server import SimpleResourcesServer


class RayServer(SimpleResourcesServer):
    ray_enabled = True

    def multiple_workers_unsupported_reason(self):
        return "one Ray actor per process"

    async def verify(self, body):
        return ray.get(body)


if __name__ == "__main__":
    RayServer.run_webserver()
`
	root := workspace(t, map[string]string{"resources_servers/echo/app.py": src})
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	const app = "resources_servers/echo/app.py"
	c.open(app, src)
	pub := c.waitDiagnostics(app, "GL204", withCode("GL204"))
	d := find(pub.Diagnostics, "GL204")
	m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)}, Range: d.Range})
	var actions []protocol.CodeAction
	if err := json.Unmarshal(m.Result, &actions); err != nil {
		t.Fatal(err)
	}
	var preferred, all *protocol.CodeAction
	for i := range actions {
		if actions[i].IsPreferred {
			preferred = &actions[i]
		}
		if actions[i].Kind == fixAllKind {
			all = &actions[i]
		}
	}
	if preferred == nil || all == nil {
		t.Fatalf("actions %s: want a preferred fix and a fix-all", dump(actions))
	}
	text := c.applyAction(preferred, app, src, protocol.UTF16)
	if !strings.Contains(text, "ray_enabled: ClassVar[bool] = True") || !strings.Contains(text, "from typing import ClassVar") {
		t.Fatalf("after the fix:\n%s", text)
	}
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
	c.waitDiagnostics(app, "GL204 cleared", withoutCode("GL204"))
	// Asked only for source.fixAll, with nothing left to fix: nothing.
	m = c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.KindSourceFixAll}}})
	if string(m.Result) != "[]" {
		t.Errorf("fix-all on a clean file: %s, want []", m.Result)
	}
}

// TestBadClientInput sends what a broken or hostile client might: every
// request gets an answer (a result or a JSON-RPC error), nothing crashes,
// and exit without shutdown ends the server with an error.
func TestBadClientInput(t *testing.T) {
	root := workspace(t, nil)
	c := startServer(t, root, Options{NoGo: true})
	if m := c.call("textDocument/codeAction", map[string]any{}); m.Error == nil || m.Error.Code != protocol.ServerNotInitialized {
		t.Errorf("a request before initialize: %+v, want ServerNotInitialized", m.Error)
	}
	c.initialize()
	if m := c.call(protocol.MethodInitialize, map[string]any{}); m.Error == nil || m.Error.Code != protocol.InvalidRequest {
		t.Errorf("a second initialize: %+v, want InvalidRequest", m.Error)
	}
	if m := c.call(protocol.MethodDidOpen, map[string]any{}); m.Error == nil || m.Error.Code != protocol.InvalidRequest {
		t.Errorf("a notification sent as a request: %+v, want InvalidRequest (a request is always answered)", m.Error)
	}
	if m := c.call("textDocument/definition", map[string]any{}); m.Error == nil || m.Error.Code != protocol.MethodNotFound {
		t.Errorf("an unknown request: %+v, want MethodNotFound", m.Error)
	}
	if m := c.call(protocol.MethodCodeAction, []int{1, 2}); m.Error == nil || m.Error.Code != protocol.InvalidParams {
		t.Errorf("code action with params of the wrong shape: %+v, want InvalidParams", m.Error)
	}
	// A well-framed body that is not JSON: a parse error, and the server
	// reads on.
	body := "{not json"
	if _, err := c.toServer.Write([]byte("Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body)); err != nil {
		t.Fatal(err)
	}
	// Notifications that are wrong in every way: ignored.
	c.notify(protocol.MethodDidChange, map[string]any{"textDocument": map[string]any{"uri": c.uri("resources_servers/echo/app.py"), "version": 9},
		"contentChanges": []map[string]any{{"text": "x"}}}) // not open
	c.notify(protocol.MethodDidOpen, map[string]any{"textDocument": map[string]any{"uri": "file:///etc/passwd", "text": "root"}})
	c.notify(protocol.MethodDidOpen, map[string]any{"textDocument": map[string]any{"uri": "https://example.com/a.py", "text": "x"}})
	c.notify(protocol.MethodDidOpen, map[string]any{"textDocument": 7})
	c.open("resources_servers/echo/app.py", "class Broken(:\n\x00\xff")
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{URI: c.uri("resources_servers/echo/app.py"), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Range: &protocol.Range{
			Start: protocol.Position{Line: 99, Character: 5}, End: protocol.Position{Line: 0, Character: 0}}, Text: "x"}},
	})
	c.notify("$/cancelRequest", map[string]any{"id": 1})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	// The server still answers.
	if m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///nowhere/x.py"}}); m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("code action for a file outside the workspace: %v %s, want []", m.Error, m.Result)
	}
	c.notify(protocol.MethodExit, nil)
	if err := <-c.served; err == nil {
		t.Error("exit without shutdown: Serve returned nil, want an error (exit status 1)")
	}
	c.served <- nil
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestGoFiles checks that a native Go server's findings are published too,
// from the Go analyzers, and follow an unsaved buffer when it is saved.
func TestGoFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a Go module with go list")
	}
	src, err := os.ReadFile(filepath.Join("..", "analyzers", "gosessions", "testdata", "src", "seedshapes", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	root := workspace(t, map[string]string{
		"native/go.mod":    "module example.com/native\n\ngo 1.22\n",
		"native/server.go": string(src),
	})
	c := startServer(t, root, Options{GoEnv: []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local"}})
	c.initialize()
	pub := c.waitDiagnostics("native/server.go", "GL350", withCode("GL350"))
	d := find(pub.Diagnostics, "GL350")
	if d.Source != "sessions" || d.CodeDescription == nil {
		t.Errorf("source %q, code description %v: want the sessions family's analyzer and the rule's page", d.Source, d.CodeDescription)
	}
	before := count(pub.Diagnostics, "GL350")
	// An unsaved edit of the Go buffer: the undecodable request now gets
	// 422. The Go analysis reads the buffer (an overlay for go list).
	const bad = "nethttp.Error(w, err.Error(), nethttp.StatusInternalServerError) // want"
	if !strings.Contains(string(src), bad) {
		t.Fatal("the fixture changed: the 500 for an undecodable seed request is gone")
	}
	edited := strings.Replace(string(src), bad, "nethttp.Error(w, err.Error(), nethttp.StatusUnprocessableEntity) // was", 1)
	c.open("native/server.go", string(src))
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri("native/server.go"), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: edited}},
	})
	c.waitDiagnostics("native/server.go", "one GL350 fewer", func(ds []protocol.Diagnostic) bool { return count(ds, "GL350") == before-1 })
}

func count(ds []protocol.Diagnostic, code string) int {
	n := 0
	for _, d := range ds {
		if d.Code == code {
			n++
		}
	}
	return n
}

// TestConfigurationAndSuppression checks that the workspace's
// .gymlint.yaml applies (a severity override, then the rule disabled, read
// again when the file changes), and that the suppression code action's
// comment silences the finding without leaving an unused suppression.
func TestConfigurationAndSuppression(t *testing.T) {
	root := workspace(t, map[string]string{".gymlint.yaml": "severity: {GL101: warning}\n"})
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	const app = "resources_servers/echo/app.py"
	c.open(app, echoApp)
	pub := c.waitDiagnostics(app, "GL101", withCode("GL101"))
	for pub.Version == nil {
		pub = c.waitDiagnostics(app, "GL101 of version 1", withCode("GL101"))
	}
	d := find(pub.Diagnostics, "GL101")
	if d.Severity != protocol.SeverityWarning {
		t.Errorf("severity %d, want 2 (warning) from .gymlint.yaml", d.Severity)
	}
	m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)}, Range: d.Range})
	var actions []protocol.CodeAction
	if err := json.Unmarshal(m.Result, &actions); err != nil {
		t.Fatal(err)
	}
	var sup *protocol.CodeAction
	for i := range actions {
		if strings.Contains(strings.ToLower(actions[i].Title), "suppress") {
			sup = &actions[i]
		}
	}
	if sup == nil {
		t.Fatalf("no suppression among %s", dump(actions))
	}
	text := c.applyAction(sup, app, echoApp, protocol.UTF16)
	if !strings.Contains(text, "# gymlint: ignore[GL101] <why this is fine>") {
		t.Fatalf("after the suppression:\n%s", text)
	}
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
	c.waitDiagnostics(app, "nothing: GL101 suppressed, the suppression used", empty)
	// Back to the original text; then GL101 disabled in the configuration.
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 3},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: echoApp}},
	})
	c.waitDiagnostics(app, "GL101 again", withCode("GL101"))
	if err := os.WriteFile(filepath.Join(root, ".gymlint.yaml"), []byte("disable: [GL101]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri(".gymlint.yaml"), Type: protocol.FileChanged}}})
	c.waitDiagnostics(app, "GL101 disabled", withoutCode("GL101"))
}

// TestWatchedFiles changes files on disk behind the editor's back, as git
// or a formatter does, and tells the server through
// workspace/didChangeWatchedFiles: one change, then a burst large enough
// that the server reads the workspace again.
func TestWatchedFiles(t *testing.T) {
	root := workspace(t, nil)
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	const app = "resources_servers/echo/app.py"
	c.waitDiagnostics(app, "GL101", withCode("GL101"))
	fixed := strings.Replace(echoApp, "    async def verify", "    def multiple_workers_unsupported_reason(self):\n        return \"state in memory\"\n\n    async def verify", 1)
	if err := os.WriteFile(filepath.Join(root, app), []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri(app), Type: protocol.FileChanged}}})
	c.waitDiagnostics(app, "GL101 cleared by the change on disk", withoutCode("GL101"))

	if err := os.WriteFile(filepath.Join(root, app), []byte(echoApp), 0o644); err != nil {
		t.Fatal(err)
	}
	var burst []protocol.FileEvent
	for i := 0; i <= manyChanges; i++ {
		burst = append(burst, protocol.FileEvent{URI: c.uri("resources_servers/echo/gen" + itoa(i) + ".py"), Type: protocol.FileCreated})
	}
	burst = append(burst, protocol.FileEvent{URI: c.uri(app), Type: protocol.FileChanged})
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: burst})
	c.waitDiagnostics(app, "GL101 back after the workspace is read again", withCode("GL101"))
}

// TestFixAllLostSessionMerge opens a server with two lost-session keyword
// spreads (GL308, testdata/sessionsrepo_b) and applies the action that
// makes every safe fix of the file: both become `|` merges, and saving the
// buffer leaves no GL308.
func TestFixAllLostSessionMerge(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", "sessionsrepo_b"))); err != nil {
		t.Fatal(err)
	}
	const app = "resources_servers/quiz_spread/app.py"
	src, err := os.ReadFile(filepath.Join(root, app))
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t, root, Options{NoGo: true})
	c.initialize("utf-8")
	c.open(app, string(src))
	pub := c.waitDiagnostics(app, "two GL308", func(ds []protocol.Diagnostic) bool { return count(ds, "GL308") == 2 })
	for pub.Version == nil {
		pub = c.waitDiagnostics(app, "two GL308 of version 1", func(ds []protocol.Diagnostic) bool { return count(ds, "GL308") == 2 })
	}
	m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.KindSourceFixAll}}})
	var actions []protocol.CodeAction
	if err := json.Unmarshal(m.Result, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Kind != fixAllKind {
		t.Fatalf("fix-all actions: %s", dump(actions))
	}
	text := c.applyAction(&actions[0], app, string(src), protocol.UTF8)
	merges := func(s string) int { return strings.Count(s, "**(body.model_dump() | ") }
	if n := merges(text) - merges(string(src)); n != 2 {
		t.Fatalf("fix-all made %d merges, want 2:\n%s", n, text)
	}
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
	c.waitDiagnostics(app, "GL308 gone", withoutCode("GL308"))
	if err := os.WriteFile(filepath.Join(root, app), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodDidSave, protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)}, Text: &text})
	c.notify(protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)}})
	if m := c.call(protocol.MethodShutdown, nil); m.Error != nil {
		t.Fatal(m.Error)
	}
	for _, ds := range c.drainDiagnostics(app) {
		if count(ds, "GL308") > 0 {
			t.Errorf("GL308 published again after save and close: %s", dump(ds))
		}
	}
}

// drainDiagnostics returns the diagnostics published for rel among the
// notifications already received.
func (c *client) drainDiagnostics(rel string) [][]protocol.Diagnostic {
	var out [][]protocol.Diagnostic
	for {
		select {
		case m, ok := <-c.notes:
			if !ok {
				return out
			}
			if m.Method != protocol.MethodPublishDiagnostics {
				continue
			}
			var p protocol.PublishDiagnosticsParams
			if json.Unmarshal(m.Params, &p) == nil && p.URI == c.uri(rel) {
				out = append(out, p.Diagnostics)
			}
		default:
			return out
		}
	}
}

// TestRootInsideRepository opens the editor on one server's folder: the
// server checks the repository it belongs to, and publishes under the
// client's own paths.
func TestRootInsideRepository(t *testing.T) {
	root := workspace(t, nil)
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, filepath.Join(root, "resources_servers", "echo"), Options{NoGo: true})
	c.initialize()
	c.root = root // URIs of the repository's files
	pub := c.waitDiagnostics("resources_servers/echo/app.py", "GL101", withCode("GL101"))
	if d := find(pub.Diagnostics, "GL101"); len(d.RelatedInformation) != 1 {
		t.Errorf("related %s: want the config, which is outside the opened folder's own files", dump(d.RelatedInformation))
	}
	// The root is the engine's (engine.FindRoot, tested there): the CLI
	// finds the same one.
	nested := filepath.Join(root, "resources_servers", "echo", "configs")
	if got, err := engine.FindRoot(nested); err != nil || got.Dir != root {
		t.Errorf("FindRoot(%s) = %v, %v, want %s", nested, got, err, root)
	}
}

// TestProgress checks the work-done progress report of a whole-workspace
// analysis, for a client that supports it: a token is created, and a begin
// and an end with a summary follow, at start-up and after a configuration
// change.
func TestProgress(t *testing.T) {
	root := workspace(t, nil)
	c := startServer(t, root, Options{NoGo: true})
	c.initializeWith(map[string]any{"window": map[string]any{"workDoneProgress": true}})
	expect := func(when string) {
		t.Helper()
		token := ""
		begun := false
		for {
			var m *protocol.Message
			select {
			case m = <-c.notes:
			case <-time.After(60 * time.Second):
				t.Fatalf("%s: no complete progress report (token %q, begun %v)", when, token, begun)
			}
			switch m.Method {
			case protocol.MethodWorkDoneProgressCreate:
				var p protocol.WorkDoneProgressCreateParams
				if err := json.Unmarshal(m.Params, &p); err != nil || p.Token == "" {
					t.Fatalf("%s: create params %s", when, m.Params)
				}
				token = p.Token
			case protocol.MethodProgress:
				var p struct {
					Token string
					Value struct{ Kind, Title, Message string }
				}
				if err := json.Unmarshal(m.Params, &p); err != nil {
					t.Fatal(err)
				}
				if p.Token != token {
					t.Fatalf("%s: progress for token %q, created %q", when, p.Token, token)
				}
				switch p.Value.Kind {
				case "begin":
					begun = p.Value.Title == "gymlint"
				case "end":
					if !begun || !strings.Contains(p.Value.Message, "1 finding in 1 file (1 entrypoint analysed)") {
						t.Fatalf("%s: end %+v after begin %v", when, p.Value, begun)
					}
					return
				}
			}
		}
	}
	expect("start-up")
	if err := os.WriteFile(filepath.Join(root, ".gymlint.yaml"), []byte("severity: {GL101: warning}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri(".gymlint.yaml"), Type: protocol.FileCreated}}})
	expect("configuration change")
}

// TestHostileWorkspace runs the server on a workspace with what a
// repository should not hold: a symbolic link loop, a link out of the
// repository, a named pipe and a binary file as server entrypoints, and a
// config that is an alias bomb. Each is reported on its file and the rest
// is checked.
func TestHostileWorkspace(t *testing.T) {
	root := workspace(t, map[string]string{
		"resources_servers/bin/app.py":             "class A:\x00\n",
		"resources_servers/bomb/configs/bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
		"resources_servers/loop/configs/loop.yaml": "loop:\n  resources_servers:\n    loop:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/loop/requirements.txt":  "fastapi\n",
		"resources_servers/fifo/configs/fifo.yaml": "fifo:\n  resources_servers:\n    fifo:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/fifo/requirements.txt":  "fastapi\n",
		"resources_servers/out/configs/out.yaml":   "out:\n  resources_servers:\n    out:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/out/requirements.txt":   "fastapi\n",
	})
	if err := os.Symlink("app.py", filepath.Join(root, "resources_servers/loop/app.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(root, "resources_servers/out/app.py")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "resources_servers/fifo/app.py"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	c.waitAll(map[string]func([]protocol.Diagnostic) bool{
		"resources_servers/echo/app.py":            withCode("GL101"),
		"resources_servers/bin/app.py":             withCode("GL002"),
		"resources_servers/bomb/configs/bomb.yaml": withCode("GL003"),
		"resources_servers/loop/configs/loop.yaml": withCode("GL002"), // a link loop
		"resources_servers/fifo/configs/fifo.yaml": withCode("GL002"), // not a regular file
		"resources_servers/out/configs/out.yaml":   withCode("GL006"), // leaves the repository
	})
	if m := c.call(protocol.MethodShutdown, nil); m.Error != nil {
		t.Fatal(m.Error)
	}
}

// TestBadConfiguration starts on a workspace whose .gymlint.yaml is
// invalid: the user is told where, and the defaults are used meanwhile.
func TestBadConfiguration(t *testing.T) {
	root := workspace(t, map[string]string{".gymlint.yaml": "severity: {GL101: warning}\nno_such_key: 1\n"})
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	deadline := time.After(60 * time.Second)
	var shown *protocol.ShowMessageParams
	var gl101 *protocol.Diagnostic
	for shown == nil || gl101 == nil {
		select {
		case m := <-c.notes:
			switch m.Method {
			case protocol.MethodShowMessage:
				shown = &protocol.ShowMessageParams{}
				if err := json.Unmarshal(m.Params, shown); err != nil {
					t.Fatal(err)
				}
			case protocol.MethodPublishDiagnostics:
				var p protocol.PublishDiagnosticsParams
				if err := json.Unmarshal(m.Params, &p); err != nil {
					t.Fatal(err)
				}
				if p.URI == c.uri("resources_servers/echo/app.py") && withCode("GL101")(p.Diagnostics) {
					d := find(p.Diagnostics, "GL101")
					gl101 = &d
				}
			}
		case <-deadline:
			t.Fatalf("want a window/showMessage and GL101; got %v and %v", shown, gl101)
		}
	}
	if shown.Type != protocol.MessageError || !strings.Contains(shown.Message, ".gymlint.yaml:2") || !strings.Contains(shown.Message, "no_such_key") {
		t.Errorf("message %+v: want an error naming .gymlint.yaml:2 and the key", shown)
	}
	if gl101.Severity != protocol.SeverityError {
		t.Errorf("severity %d: the broken configuration's override must not apply", gl101.Severity)
	}
}
