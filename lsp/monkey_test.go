package lsp

import (
	"encoding/json"
	"github.com/gymlint/gymlint/internal/testtree"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/lsp/protocol"
)

// TestMonkey sends a long seeded sequence of valid, odd and wrong messages
// (documents opened, changed with random ranges and text, closed twice,
// code actions at random ranges, watched-file events for any URI, params
// of the wrong shape) and checks that the server never hits an internal
// error, answers every request, and still works at the end.
func TestMonkey(t *testing.T) {
	root := workspace(t, map[string]string{"resources_servers/echo/base.py": "X = 1\n"})
	log := &testtree.SyncBuffer{}
	c := startServer(t, root, Options{NoGo: true, Log: log})
	c.initialize("utf-8", "utf-16")
	seed := int64(7)
	if s, err := strconv.ParseInt(os.Getenv("GYMLINT_MONKEY_SEED"), 10, 64); err == nil {
		seed = s // to explore other sequences by hand
	}
	rng := rand.New(rand.NewSource(seed))
	files := []string{"resources_servers/echo/app.py", "resources_servers/echo/base.py", "resources_servers/echo/configs/echo.yaml",
		"resources_servers/new/app.py", "../outside.py", "resources_servers/echo/app.go"}
	texts := []string{echoApp, echoConfig, "", "class (:\n", "\x00\x01binary", "é😀\r\n\rmixed\rends", strings.Repeat("x", 70000),
		"class A(SimpleResourcesServer):\n    ray_enabled = True\n", "a: &a [*a]\n", "\xff\xfe"}
	versions := map[string]int32{}
	steps := 400
	if testing.Short() {
		steps = 100
	}
	for i := 0; i < steps; i++ {
		rel := files[rng.Intn(len(files))]
		uri := c.uri(rel)
		versions[rel]++
		v := versions[rel]
		rp := func() protocol.Position {
			return protocol.Position{Line: uint32(rng.Intn(12)), Character: uint32(rng.Intn(90))}
		}
		switch rng.Intn(9) {
		case 0, 1:
			c.open(rel, texts[rng.Intn(len(texts))])
		case 2, 3:
			a, b := rp(), rp()
			var ch protocol.TextDocumentContentChangeEvent
			if rng.Intn(3) > 0 {
				ch.Range = &protocol.Range{Start: a, End: b}
			}
			tx := texts[rng.Intn(len(texts))]
			ch.Text = tx[:rng.Intn(min(len(tx), 40)+1)]
			c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
				TextDocument: protocol.VersionedTextDocumentIdentifier{URI: uri, Version: v}, ContentChanges: []protocol.TextDocumentContentChangeEvent{ch}})
		case 4:
			c.notify(protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
		case 5:
			m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
				Range: protocol.Range{Start: rp(), End: rp()}})
			if m.Error != nil {
				t.Fatalf("step %d: code action failed: %v", i, m.Error)
			}
		case 6:
			c.notify(protocol.MethodDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
				{URI: uri, Type: protocol.FileChangeType(rng.Intn(5))}}})
		case 7:
			c.notify(protocol.MethodDidSave, map[string]any{"textDocument": map[string]any{"uri": uri}, "text": texts[rng.Intn(len(texts))]})
		case 8:
			method := []string{protocol.MethodDidOpen, protocol.MethodDidChange, protocol.MethodCodeAction, "textDocument/hover"}[rng.Intn(4)]
			params := []any{nil, 1, "x", []any{}, map[string]any{"textDocument": map[string]any{"uri": 5}}, map[string]any{"contentChanges": "no"}}[rng.Intn(6)]
			raw, _ := json.Marshal(params)
			if rng.Intn(2) == 0 {
				m := c.call(method, json.RawMessage(raw))
				if m.Error == nil && method != protocol.MethodCodeAction {
					t.Fatalf("step %d: %s with params %s: no error", i, method, raw)
				}
			} else {
				c.notify(method, json.RawMessage(raw))
			}
		}
	}
	// Still working: the echo server's buffer set to the broken server
	// gives GL101 again.
	c.open("resources_servers/echo/app.py", echoApp)
	versions["resources_servers/echo/app.py"]++
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri("resources_servers/echo/app.py"), Version: versions["resources_servers/echo/app.py"] + 1},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: echoApp}}})
	c.waitDiagnostics("resources_servers/echo/app.py", "GL101 after the monkey", withCode("GL101"))
	if m := c.call(protocol.MethodShutdown, nil); m.Error != nil {
		t.Fatal(m.Error)
	}
	t.Logf("log: %d analyses, %d changes refused, %d bad messages", strings.Count(log.String(), "analysed "), strings.Count(log.String(), "cannot apply"), strings.Count(log.String(), "invalid params"))
	if strings.Contains(log.String(), "internal error") {
		t.Fatalf("the server hit an internal error:\n%s", log.String())
	}
}
