package lsp

import (
	"encoding/json"
	"fmt"
	"github.com/gymlint/gymlint/internal/testtree"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gymlint/gymlint/lsp/protocol"
)

// client drives a server through pipes, as an editor does.
type client struct {
	t    testing.TB
	conn *protocol.Conn
	root string

	mu      sync.Mutex
	waiting map[string]chan *protocol.Message
	answers map[string]func(params json.RawMessage) any // the server's requests we answer, by method
	// initOptions, when set, are sent as initializationOptions.
	initOptions any
	notes       chan *protocol.Message
	served      chan error // Serve's result

	toServer *io.PipeWriter
	nextID   int64
}

// startServer runs a server on a workspace and returns a client for it.
func startServer(t testing.TB, root string, opts Options) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	if opts.Log == nil {
		opts.Log = testLog{t}
	}
	c := &client{t: t, conn: protocol.NewConn(outR, inW), root: root, waiting: map[string]chan *protocol.Message{},
		notes: make(chan *protocol.Message, 10000), served: make(chan error, 1), toServer: inW}
	go func() {
		err := Serve(inR, outW, opts)
		outW.Close()
		c.served <- err
	}()
	go c.readLoop()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.served:
		case <-time.After(10 * time.Second):
			t.Error("the server did not end after its input closed")
		}
	})
	return c
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (c *client) readLoop() {
	for {
		m, err := c.conn.Read()
		if err != nil {
			if protocol.IsFatal(err) {
				close(c.notes)
				return
			}
			continue
		}
		switch {
		case m.IsResponse():
			c.mu.Lock()
			ch := c.waiting[m.ID.String()]
			delete(c.waiting, m.ID.String())
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.IsRequest():
			// client/registerCapability and the like: accept; what
			// answer sets: answer.
			c.mu.Lock()
			fn := c.answers[m.Method]
			c.mu.Unlock()
			var result any
			if fn != nil {
				result = fn(m.Params)
			}
			c.conn.Reply(m.ID, result, nil)
			c.notes <- m
		default:
			c.notes <- m
		}
	}
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any) *protocol.Message {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := protocol.IntID(c.nextID)
	ch := make(chan *protocol.Message, 1)
	c.waiting[id.String()] = ch
	c.mu.Unlock()
	raw, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.conn.Write(&protocol.Message{JSONRPC: "2.0", ID: id, Method: method, Params: raw}); err != nil {
		c.t.Fatal(err)
	}
	select {
	case m := <-ch:
		return m
	case <-time.After(60 * time.Second):
		c.t.Fatalf("no response to %s", method)
	}
	return nil
}

// answer makes the client answer the server's requests of a method with
// what fn returns (by default, null).
func (c *client) answer(method string, fn func(params json.RawMessage) any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answers == nil {
		c.answers = map[string]func(json.RawMessage) any{}
	}
	c.answers[method] = fn
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(method, params); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) uri(rel string) string {
	return protocol.PathToURI(filepath.Join(c.root, filepath.FromSlash(rel)))
}

// initialize sends initialize and initialized with the capabilities of a
// full client; encodings are the position encodings it offers.
func (c *client) initialize(encodings ...string) protocol.InitializeResult {
	c.t.Helper()
	return c.initializeWith(nil, encodings...)
}

// initializeWith is initialize with more client capabilities (merged
// into each group: "textDocument": {"hover": ...} keeps the others).
func (c *client) initializeWith(extra map[string]any, encodings ...string) protocol.InitializeResult {
	c.t.Helper()
	root := c.uri("")
	caps := map[string]any{
		"general": map[string]any{"positionEncodings": encodings},
		"textDocument": map[string]any{
			"publishDiagnostics": map[string]any{"relatedInformation": true, "codeDescriptionSupport": true, "versionSupport": true},
			"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{
				"valueSet": []string{"quickfix", "source.fixAll"}}}},
		},
	}
	for k, v := range extra {
		inner, ok1 := caps[k].(map[string]any)
		add, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			caps[k] = v
			continue
		}
		for kk, vv := range add {
			inner[kk] = vv
		}
	}
	params := map[string]any{"processId": os.Getpid(), "rootUri": root, "capabilities": caps}
	if c.initOptions != nil {
		params["initializationOptions"] = c.initOptions
	}
	m := c.call(protocol.MethodInitialize, params)
	if m.Error != nil {
		c.t.Fatalf("initialize: %v", m.Error)
	}
	var res protocol.InitializeResult
	if err := json.Unmarshal(m.Result, &res); err != nil {
		c.t.Fatal(err)
	}
	c.notify(protocol.MethodInitialized, map[string]any{})
	return res
}

func (c *client) open(rel, text string) {
	c.t.Helper()
	c.notify(protocol.MethodDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: c.uri(rel), LanguageID: language(rel), Version: 1, Text: text}})
}

func language(rel string) string {
	switch filepath.Ext(rel) {
	case ".py":
		return "python"
	case ".go":
		return "go"
	}
	return "yaml"
}

// waitDiagnostics reads notifications until a publishDiagnostics for rel
// satisfies ok, and returns it.
func (c *client) waitDiagnostics(rel string, what string, ok func([]protocol.Diagnostic) bool) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	uri := c.uri(rel)
	deadline := time.After(60 * time.Second)
	var last *protocol.PublishDiagnosticsParams
	for {
		select {
		case m, open := <-c.notes:
			if !open {
				c.t.Fatalf("the server ended while waiting for %s of %s", what, rel)
			}
			if m.Method != protocol.MethodPublishDiagnostics {
				continue
			}
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			if p.URI != uri {
				continue
			}
			last = &p
			if ok(p.Diagnostics) {
				return p
			}
		case <-deadline:
			c.t.Fatalf("no diagnostics with %s for %s; last: %s", what, rel, dump(last))
		}
	}
}

// waitAll reads publications until the latest one of every file in want
// satisfies its predicate.
func (c *client) waitAll(want map[string]func([]protocol.Diagnostic) bool) {
	c.t.Helper()
	latest := map[string][]protocol.Diagnostic{}
	ok := func() bool {
		for rel, pred := range want {
			ds, seen := latest[c.uri(rel)]
			if !seen || !pred(ds) {
				return false
			}
		}
		return true
	}
	deadline := time.After(60 * time.Second)
	for !ok() {
		select {
		case m, open := <-c.notes:
			if !open {
				c.t.Fatal("the server ended")
			}
			if m.Method != protocol.MethodPublishDiagnostics {
				continue
			}
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			latest[p.URI] = p.Diagnostics
		case <-deadline:
			var missing []string
			for rel, pred := range want {
				if ds, seen := latest[c.uri(rel)]; !seen || !pred(ds) {
					missing = append(missing, rel+": "+dump(ds))
				}
			}
			c.t.Fatalf("not every file got the expected diagnostics:\n%s", strings.Join(missing, "\n"))
		}
	}
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// withCode is a predicate: some diagnostic has the code.
func withCode(code string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if d.Code == code {
				return true
			}
		}
		return false
	}
}

func withoutCode(code string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool { return !withCode(code)(ds) }
}

func empty(ds []protocol.Diagnostic) bool { return len(ds) == 0 }

func find(ds []protocol.Diagnostic, code string) protocol.Diagnostic {
	for _, d := range ds {
		if d.Code == code {
			return d
		}
	}
	return protocol.Diagnostic{}
}

// writeTree writes files under a new temporary root.
func writeTree(t testing.TB, files map[string]string) string { return testtree.New(t, files) }

// applyEdits applies LSP text edits to a text, as an editor applies a
// workspace edit to a buffer.
func applyEdits(t testing.TB, text string, edits []protocol.TextEdit, enc protocol.Encoding) string {
	t.Helper()
	var changes []protocol.TextDocumentContentChangeEvent
	// Back to front, so earlier ranges stay valid.
	sorted := append([]protocol.TextEdit(nil), edits...)
	for i := 0; i < len(sorted); i++ {
		for j := i + 1; j < len(sorted); j++ {
			if less(sorted[i].Range.Start, sorted[j].Range.Start) {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	for _, e := range sorted {
		r := e.Range
		changes = append(changes, protocol.TextDocumentContentChangeEvent{Range: &r, Text: e.NewText})
	}
	out, err := protocol.ApplyChanges([]byte(text), changes, enc)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func (c *client) String() string { return fmt.Sprintf("client(%s)", c.root) }

// applyAction applies a code action's workspace edit (documentChanges or
// changes) to the text of rel, as an editor does; an edit of another file
// fails the test.
func (c *client) applyAction(a *protocol.CodeAction, rel, text string, enc protocol.Encoding) string {
	c.t.Helper()
	want := c.uri(rel)
	for _, dc := range a.Edit.DocumentChanges {
		if dc.TextDocument.URI != want {
			c.t.Fatalf("%q edits %s, want %s", a.Title, dc.TextDocument.URI, want)
		}
		text = applyEdits(c.t, text, dc.Edits, enc)
	}
	for uri, edits := range a.Edit.Changes {
		if uri != want {
			c.t.Fatalf("%q edits %s, want %s", a.Title, uri, want)
		}
		text = applyEdits(c.t, text, edits, enc)
	}
	return text
}
