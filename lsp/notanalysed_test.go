package lsp

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/lsp/protocol"
)

// TestFixAllKeepsSuppressionsOfUnanalysedFile: while a half-typed line
// keeps a module from parsing (GL001), its suppressions are not reported
// unused, so fix-all on save has nothing to remove; once it parses, the
// suppression silences its finding again.
func TestFixAllKeepsSuppressionsOfUnanalysedFile(t *testing.T) {
	const app = "resources_servers/echo/app.py"
	suppressed := strings.Replace(echoApp, "class EchoServer(", "# gymlint: ignore[GL101] the app is built by a factory in deploy.py\nclass EchoServer(", 1)
	c := startServer(t, workspace(t, map[string]string{app: suppressed}), Options{NoGo: true})
	c.initialize()
	c.open(app, suppressed)
	c.waitDiagnostics(app, "nothing: GL101 suppressed", empty)
	typing := strings.Replace(suppressed, "        return body\n", "        return body\n\n    def half(self, x:\n", 1)
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: typing}},
	})
	pub := c.waitDiagnostics(app, "GL001", withCode("GL001"))
	if count(pub.Diagnostics, "GL010") != 0 {
		t.Errorf("GL010 in a module that does not parse: %s", dump(pub.Diagnostics))
	}
	m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.KindSourceFixAll}}})
	if m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("fix-all on a module that does not parse: %v %s, want nothing to do", m.Error, m.Result)
	}
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(app), Version: 3},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: suppressed}},
	})
	c.waitDiagnostics(app, "nothing again: GL101 suppressed", empty)
}
