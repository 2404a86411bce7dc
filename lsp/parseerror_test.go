package lsp

import (
	"testing"

	"github.com/gymlint/gymlint/lsp/protocol"
)

// TestParseErrorReply: a well-framed body that is not JSON gets JSON-RPC's
// parse error (-32700) with id null, and the server reads on: the request
// after it is answered. The server answers in the order it reads, so the
// parse error has arrived once the next answer has.
func TestParseErrorReply(t *testing.T) {
	c := startServer(t, workspace(t, nil), Options{NoGo: true})
	c.initialize()
	null := make(chan *protocol.Message, 1)
	c.mu.Lock()
	c.waiting[protocol.ID{}.String()] = null
	c.mu.Unlock()
	body := `{"jsonrpc":"2.0","id":99,"method":"shutdown"` // cut short
	if _, err := c.toServer.Write([]byte("Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body)); err != nil {
		t.Fatal(err)
	}
	if m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///nowhere/x.py"}}); m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("the request after the bad body: %v %s, want []", m.Error, m.Result)
	}
	select {
	case m := <-null:
		if m.Error == nil || m.Error.Code != protocol.ParseError || !m.ID.IsNull() {
			t.Errorf("answer to a body that is not JSON: %+v, want error -32700 with id null", m)
		}
	default:
		t.Error("no answer to a body that is not JSON (want error -32700 with id null) before the answer to the next request")
	}
}
