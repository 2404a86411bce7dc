package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPublishDiagnosticsEmptyArray(t *testing.T) {
	for _, p := range []any{
		PublishDiagnosticsParams{URI: "file:///a.py"},
		&PublishDiagnosticsParams{URI: "file:///a.py"},
		PublishDiagnosticsParams{URI: "file:///a.py", Diagnostics: []Diagnostic{}},
	} {
		if got, want := mustMarshal(t, p), `{"uri":"file:///a.py","diagnostics":[]}`; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	// Also through Conn.Notify, which is how it is sent.
	var out strings.Builder
	if err := NewConn(nil, &out).Notify(MethodPublishDiagnostics, PublishDiagnosticsParams{URI: "file:///a.py"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"diagnostics":[]`) {
		t.Errorf("notification %q lacks an empty diagnostics array", out.String())
	}

	v := int32(3)
	d := Diagnostic{
		Range:           Range{Start: Position{1, 2}, End: Position{1, 5}},
		Severity:        SeverityWarning,
		Code:            "GYM001",
		CodeDescription: &CodeDescription{Href: "https://example.com/GYM001"},
		Source:          "gymlint",
		Message:         "x < y & z",
		RelatedInformation: []DiagnosticRelatedInformation{{
			Location: Location{URI: "file:///b.py", Range: Range{}},
			Message:  "here",
		}},
		Data: json.RawMessage(`{"fix":1}`),
		Tags: []DiagnosticTag{TagUnnecessary},
	}
	got := mustMarshal(t, PublishDiagnosticsParams{URI: "file:///a.py", Version: &v, Diagnostics: []Diagnostic{d}})
	want := `{"uri":"file:///a.py","version":3,"diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},` +
		`"severity":2,"code":"GYM001","codeDescription":{"href":"https://example.com/GYM001"},"source":"gymlint","message":"x \u003c y \u0026 z",` +
		`"tags":[1],"relatedInformation":[{"location":{"uri":"file:///b.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}},"message":"here"}],"data":{"fix":1}}]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back PublishDiagnosticsParams
	if err := json.Unmarshal([]byte(got), &back); err != nil || back.Diagnostics[0].Code != "GYM001" || *back.Version != 3 {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

func TestDiagnosticCodeFromOtherServers(t *testing.T) {
	raw := `{"textDocument":{"uri":"file:///a.py"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},
	 "context":{"diagnostics":[
	   {"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"a","code":"GYM001","source":"gymlint","data":{"k":1}},
	   {"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"b","code":2304,"source":"other"},
	   {"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"c","code":null},
	   {"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"d"}
	 ],"only":["quickfix"],"triggerKind":1}}`
	var p CodeActionParams
	if err := DecodeParams(json.RawMessage(raw), &p); err != nil {
		t.Fatal(err)
	}
	ds := p.Context.Diagnostics
	if len(ds) != 4 || ds[0].Code != "GYM001" || ds[1].Code != "2304" || ds[2].Code != "" || ds[3].Code != "" {
		t.Errorf("codes: %+v", ds)
	}
	if ds[0].Source != "gymlint" || string(ds[0].Data) != `{"k":1}` || ds[1].Message != "b" {
		t.Errorf("other fields lost: %+v", ds)
	}
	if len(p.Context.Only) != 1 || p.Context.Only[0] != KindQuickFix || p.Context.TriggerKind != TriggerInvoked {
		t.Errorf("context: %+v", p.Context)
	}
	var d Diagnostic
	if err := json.Unmarshal([]byte(`{"message":"x","code":{"bad":1}}`), &d); err == nil {
		t.Error("object code accepted")
	}
}

func TestInitializeParams(t *testing.T) {
	raw := `{"processId":1234,"clientInfo":{"name":"Visual Studio Code","version":"1.99"},
	 "rootPath":"/home/u/proj","rootUri":"file:///home/u/proj",
	 "initializationOptions":{"config":"gymlint.toml"},
	 "capabilities":{
	   "general":{"positionEncodings":["utf-16","utf-8"]},
	   "textDocument":{
	     "synchronization":{"didSave":true},
	     "publishDiagnostics":{"relatedInformation":true,"codeDescriptionSupport":true,"tagSupport":{"valueSet":[1,2]},"versionSupport":true,"dataSupport":true},
	     "codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["","quickfix","source.fixAll"]}},"isPreferredSupport":true}
	   },
	   "workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true},"workspaceEdit":{"documentChanges":true},"applyEdit":true,"workspaceFolders":true}
	 },
	 "workspaceFolders":[{"uri":"file:///home/u/proj","name":"proj"},{"uri":"file:///home/u/lib","name":"lib"}],
	 "unknownFutureField":{"x":1}}`
	var p InitializeParams
	if err := DecodeParams(json.RawMessage(raw), &p); err != nil {
		t.Fatal(err)
	}
	c := p.Capabilities
	switch {
	case p.ProcessID == nil || *p.ProcessID != 1234,
		*p.RootURI != "file:///home/u/proj", *p.RootPath != "/home/u/proj",
		string(p.InitializationOptions) != `{"config":"gymlint.toml"}`,
		ChooseEncoding(c.General.PositionEncodings) != UTF8,
		!c.TextDocument.PublishDiagnostics.RelatedInformation,
		!c.TextDocument.PublishDiagnostics.CodeDescriptionSupport,
		c.TextDocument.CodeAction.CodeActionLiteralSupport == nil,
		len(c.TextDocument.CodeAction.CodeActionLiteralSupport.CodeActionKind.ValueSet) != 3,
		!c.Workspace.DidChangeWatchedFiles.DynamicRegistration,
		!c.Workspace.WorkspaceEdit.DocumentChanges,
		!c.TextDocument.Synchronization.DidSave:
		t.Errorf("decoded %+v", p)
	}
	if roots := p.RootURIs(); len(roots) != 2 || roots[1] != "file:///home/u/lib" {
		t.Errorf("RootURIs = %v", roots)
	}

	// A minimal client: nulls everywhere, no capabilities.
	var minimal InitializeParams
	if err := DecodeParams(json.RawMessage(`{"processId":null,"rootUri":null,"capabilities":{},"workspaceFolders":null}`), &minimal); err != nil {
		t.Fatal(err)
	}
	if minimal.ProcessID != nil || minimal.RootURI != nil || minimal.RootURIs() != nil ||
		minimal.Capabilities.TextDocument.CodeAction.CodeActionLiteralSupport != nil ||
		ChooseEncoding(minimal.Capabilities.General.PositionEncodings) != UTF16 {
		t.Errorf("minimal params decoded to %+v", minimal)
	}
	root := "/home/u/old style"
	if roots := (&InitializeParams{RootPath: &root}).RootURIs(); len(roots) != 1 || roots[0] != "file:///home/u/old%20style" {
		t.Errorf("rootPath fallback = %v", roots)
	}
	// Marshalling (as a test client would) leaves out the empty capability
	// groups but keeps the required nullable members.
	if got, want := mustMarshal(t, InitializeParams{}), `{"processId":null,"rootUri":null,"capabilities":{}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if err := DecodeParams(json.RawMessage(`{"processId":"x"}`), &minimal); err == nil || err.Code != InvalidParams {
		t.Errorf("bad params: %v", err)
	}
}

func TestInitializeResult(t *testing.T) {
	r := InitializeResult{
		Capabilities: ServerCapabilities{
			PositionEncoding: UTF8,
			TextDocumentSync: &TextDocumentSyncOptions{OpenClose: true, Change: SyncIncremental, Save: &SaveOptions{IncludeText: false}},
			CodeActionProvider: &CodeActionOptions{
				CodeActionKinds: []CodeActionKind{KindQuickFix, KindSourceFixAll},
			},
			ExecuteCommandProvider: &ExecuteCommandOptions{Commands: []string{"gymlint.fixAll"}},
		},
		ServerInfo: &ServerInfo{Name: "gymlint", Version: "0.1.0"},
	}
	want := `{"capabilities":{"positionEncoding":"utf-8","textDocumentSync":{"openClose":true,"change":2,"save":{}},` +
		`"codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll"]},"executeCommandProvider":{"commands":["gymlint.fixAll"]}},` +
		`"serverInfo":{"name":"gymlint","version":"0.1.0"}}`
	if got := mustMarshal(t, r); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	r.Capabilities.CodeActionProvider = true
	if got := mustMarshal(t, r.Capabilities); !strings.Contains(got, `"codeActionProvider":true`) {
		t.Errorf("boolean provider: %s", got)
	}
}

func TestDocumentSyncParams(t *testing.T) {
	var ch DidChangeTextDocumentParams
	raw := `{"textDocument":{"uri":"file:///a.py","version":7},"contentChanges":[
	  {"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"rangeLength":1,"text":"x"},
	  {"text":"full"}]}`
	if err := DecodeParams(json.RawMessage(raw), &ch); err != nil {
		t.Fatal(err)
	}
	if ch.TextDocument.Version != 7 || len(ch.ContentChanges) != 2 || ch.ContentChanges[0].Range == nil || ch.ContentChanges[1].Range != nil {
		t.Errorf("decoded %+v", ch)
	}
	got, err := ApplyChanges([]byte("abc"), ch.ContentChanges[:1], UTF16)
	if err != nil || string(got) != "axc" {
		t.Errorf("ApplyChanges = %q, %v", got, err)
	}

	var save DidSaveTextDocumentParams
	if err := DecodeParams(json.RawMessage(`{"textDocument":{"uri":"file:///a.py"}}`), &save); err != nil || save.Text != nil {
		t.Errorf("save without text: %+v, %v", save, err)
	}
	if err := DecodeParams(json.RawMessage(`{"textDocument":{"uri":"file:///a.py"},"text":""}`), &save); err != nil || save.Text == nil || *save.Text != "" {
		t.Errorf("save with empty text: %+v, %v", save, err)
	}

	var files DidChangeWatchedFilesParams
	if err := DecodeParams(json.RawMessage(`{"changes":[{"uri":"file:///gymlint.toml","type":2},{"uri":"file:///x.py","type":3}]}`), &files); err != nil {
		t.Fatal(err)
	}
	if len(files.Changes) != 2 || files.Changes[0].Type != FileChanged || files.Changes[1].Type != FileDeleted {
		t.Errorf("decoded %+v", files)
	}

	var cancel CancelParams
	if err := DecodeParams(json.RawMessage(`{"id":9007199254740993}`), &cancel); err != nil || cancel.ID.String() != "9007199254740993" {
		t.Errorf("cancel %+v, %v", cancel, err)
	}
}

func TestCodeActionAndEdits(t *testing.T) {
	v := int32(4)
	edit := TextEdit{Range: Range{Start: Position{0, 0}, End: Position{0, 3}}, NewText: ""}
	a := CodeAction{
		Title:       "Remove unused import",
		Kind:        KindQuickFix,
		IsPreferred: true,
		Edit: &WorkspaceEdit{
			DocumentChanges: []TextDocumentEdit{{
				TextDocument: OptionalVersionedTextDocumentIdentifier{URI: "file:///a.py", Version: &v},
				Edits:        []TextEdit{edit},
			}},
		},
	}
	want := `{"title":"Remove unused import","kind":"quickfix","isPreferred":true,"edit":{"documentChanges":[{"textDocument":{"uri":"file:///a.py","version":4},` +
		`"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"newText":""}]}]}}`
	if got := mustMarshal(t, a); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	a.Edit = &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{"file:///a.py": {edit}}}
	if got := mustMarshal(t, a.Edit); got != `{"changes":{"file:///a.py":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"newText":""}]}}` {
		t.Errorf("changes form: %s", got)
	}
	unversioned := OptionalVersionedTextDocumentIdentifier{URI: "file:///a.py"}
	if got := mustMarshal(t, unversioned); got != `{"uri":"file:///a.py","version":null}` {
		t.Errorf("unversioned: %s", got)
	}
}

func TestRegistrationAndWindow(t *testing.T) {
	reg := RegistrationParams{Registrations: []Registration{{
		ID:     "gymlint-watch",
		Method: MethodDidChangeWatchedFiles,
		RegisterOptions: DidChangeWatchedFilesRegistrationOptions{Watchers: []FileSystemWatcher{
			{GlobPattern: "**/*.py"},
			{GlobPattern: "**/gymlint.toml", Kind: WatchCreate | WatchChange | WatchDelete},
		}},
	}}}
	want := `{"registrations":[{"id":"gymlint-watch","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.py"},{"globPattern":"**/gymlint.toml","kind":7}]}}]}`
	if got := mustMarshal(t, reg); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := mustMarshal(t, LogMessageParams{Type: MessageWarning, Message: "m"}); got != `{"type":2,"message":"m"}` {
		t.Errorf("log: %s", got)
	}
	if got := mustMarshal(t, ShowMessageParams{Type: MessageError, Message: "m"}); got != `{"type":1,"message":"m"}` {
		t.Errorf("show: %s", got)
	}
	if got := mustMarshal(t, UnregistrationParams{Unregisterations: []Unregistration{{ID: "a", Method: "m"}}}); got != `{"unregisterations":[{"id":"a","method":"m"}]}` {
		t.Errorf("unregister: %s", got)
	}
}

func TestHoverAndConfiguration(t *testing.T) {
	var p HoverParams
	if err := DecodeParams(json.RawMessage(`{"textDocument":{"uri":"file:///a.py"},"position":{"line":3,"character":7},"workDoneToken":"t"}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.TextDocument.URI != "file:///a.py" || p.Position != (Position{3, 7}) {
		t.Errorf("hover params %+v", p)
	}
	var caps ClientCapabilities
	if err := json.Unmarshal([]byte(`{"textDocument":{"hover":{"dynamicRegistration":true,"contentFormat":["markdown","plaintext"]}},"workspace":{"configuration":true,"didChangeConfiguration":{"dynamicRegistration":true}}}`), &caps); err != nil {
		t.Fatal(err)
	}
	if f := caps.TextDocument.Hover.ContentFormat; len(f) != 2 || f[0] != Markdown || !caps.Workspace.Configuration || !caps.Workspace.DidChangeConfiguration.DynamicRegistration {
		t.Errorf("capabilities %+v", caps)
	}
	h := Hover{Contents: MarkupContent{Kind: Markdown, Value: "**GL101**"}, Range: &Range{Start: Position{1, 2}, End: Position{1, 5}}}
	want := `{"contents":{"kind":"markdown","value":"**GL101**"},"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}}}`
	if got := mustMarshal(t, h); got != want {
		t.Errorf("hover:\n%s\nwant\n%s", got, want)
	}
	if got := mustMarshal(t, Hover{Contents: MarkupContent{Kind: PlainText, Value: "x"}}); got != `{"contents":{"kind":"plaintext","value":"x"}}` {
		t.Errorf("hover without a range: %s", got)
	}
	if got := mustMarshal(t, ServerCapabilities{HoverProvider: true}); got != `{"hoverProvider":true}` {
		t.Errorf("capabilities: %s", got)
	}
	cp := ConfigurationParams{Items: []ConfigurationItem{{ScopeURI: "file:///w", Section: "gymlint"}}}
	if got := mustMarshal(t, cp); got != `{"items":[{"scopeUri":"file:///w","section":"gymlint"}]}` {
		t.Errorf("configuration params: %s", got)
	}
	var dc DidChangeConfigurationParams
	if err := json.Unmarshal([]byte(`{"settings":{"gymlint":{"contract":"latest"}}}`), &dc); err != nil || string(dc.Settings) != `{"gymlint":{"contract":"latest"}}` {
		t.Errorf("didChangeConfiguration: %s %v", dc.Settings, err)
	}
}
