package lsp

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/lsp/protocol"
)

// markdownHover is the client capability of an editor that renders
// Markdown hovers (and says so first).
var markdownHover = map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}}}

// hover asks for the hover at a position of rel; nil when the answer is
// null.
func (c *client) hover(rel string, line, char uint32) *protocol.Hover {
	c.t.Helper()
	m := c.call(protocol.MethodHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Position: protocol.Position{Line: line, Character: char}}})
	if m.Error != nil {
		c.t.Fatalf("hover at %s:%d:%d: %v", rel, line, char, m.Error)
	}
	if string(m.Result) == "null" {
		return nil
	}
	var h protocol.Hover
	if err := json.Unmarshal(m.Result, &h); err != nil {
		c.t.Fatalf("hover at %s:%d:%d: %v in %s", rel, line, char, err, m.Result)
	}
	return &h
}

// unescaped is Markdown text with its backslash escapes and hard line
// breaks undone: what a reader sees.
func unescaped(s string) string {
	return strings.ReplaceAll(regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])").ReplaceAllString(s, "$1"), "  \n", "\n")
}

// messageAndHelp splits a published message (diag.WithHelp) back.
func messageAndHelp(d protocol.Diagnostic) (string, string) {
	msg, help, _ := strings.Cut(d.Message, "\nhelp: ")
	return msg, help
}

// TestHoverFinding hovers over GL101 in a Markdown client: the rule's code,
// name and summary, the finding's message and help, and the link of its
// codeDescription, over the finding's range; null elsewhere.
func TestHoverFinding(t *testing.T) {
	c := startServer(t, workspace(t, nil), Options{NoGo: true})
	res := c.initializeWith(markdownHover)
	if !res.Capabilities.HoverProvider {
		t.Fatalf("capabilities %s: want hoverProvider", dump(res.Capabilities))
	}
	const app = "resources_servers/echo/app.py"
	c.open(app, echoApp)
	pub := c.waitDiagnostics(app, "GL101", withCode("GL101"))
	for pub.Version == nil {
		pub = c.waitDiagnostics(app, "GL101 of version 1", withCode("GL101"))
	}
	d := find(pub.Diagnostics, "GL101")
	rule := lint.Lookup("GL101")
	msg, help := messageAndHelp(d)
	if help == "" || d.CodeDescription == nil {
		t.Fatalf("GL101 %s: want a help and a codeDescription", dump(d))
	}
	for _, ch := range []uint32{d.Range.Start.Character, d.Range.Start.Character + 4, d.Range.End.Character} {
		h := c.hover(app, d.Range.Start.Line, ch)
		if h == nil {
			t.Fatalf("no hover at character %d of GL101's range %+v", ch, d.Range)
		}
		if h.Contents.Kind != protocol.Markdown {
			t.Errorf("kind %q, want markdown (the client's first format)", h.Contents.Kind)
		}
		text := unescaped(h.Contents.Value)
		for _, want := range []string{"**GL101**", "`undeclared-workers`", rule.Summary, msg, "**Help:** " + help, "workers", "error"} {
			if !strings.Contains(text, want) {
				t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
			}
		}
		if !strings.Contains(h.Contents.Value, "]("+d.CodeDescription.Href+")") {
			t.Errorf("hover lacks the link to %s:\n%s", d.CodeDescription.Href, h.Contents.Value)
		}
		if h.Range == nil || *h.Range != d.Range {
			t.Errorf("hover range %+v, want the finding's %+v", h.Range, d.Range)
		}
	}
	for _, at := range []protocol.Position{{Line: 0, Character: 0}, {Line: 3, Character: 0}, {Line: d.Range.End.Line, Character: d.Range.End.Character + 1}, {Line: 99, Character: 0}} {
		if h := c.hover(app, at.Line, at.Character); h != nil {
			t.Errorf("hover at %+v: %s, want null", at, dump(h))
		}
	}
	// A file without findings that is not open, one outside the
	// workspace: null.
	if h := c.hover("resources_servers/echo/requirements.txt", 0, 0); h != nil {
		t.Errorf("hover in requirements.txt: %s", dump(h))
	}
	m := c.call(protocol.MethodHover, map[string]any{"textDocument": map[string]any{"uri": "file:///elsewhere/a.py"}, "position": map[string]any{"line": 0, "character": 0}})
	if m.Error != nil || string(m.Result) != "null" {
		t.Errorf("hover outside the workspace: %v %s, want null", m.Error, m.Result)
	}
	if m := c.call(protocol.MethodHover, []int{1}); m.Error == nil || m.Error.Code != protocol.InvalidParams {
		t.Errorf("hover with bad params: %+v, want InvalidParams", m.Error)
	}
}

// TestHoverPlainText: a client that does not ask for Markdown gets plain
// text, with the message and help as they are.
func TestHoverPlainText(t *testing.T) {
	c := startServer(t, workspace(t, nil), Options{NoGo: true})
	c.initializeWith(map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"plaintext", "markdown"}}}})
	const app = "resources_servers/echo/app.py"
	c.open(app, echoApp)
	d := find(c.waitDiagnostics(app, "GL101", withCode("GL101")).Diagnostics, "GL101")
	h := c.hover(app, d.Range.Start.Line, d.Range.Start.Character+1)
	if h == nil || h.Contents.Kind != protocol.PlainText {
		t.Fatalf("hover %s: want plain text", dump(h))
	}
	msg, help := messageAndHelp(d)
	rule := lint.Lookup("GL101")
	for _, want := range []string{"GL101 undeclared-workers (workers, error)\n" + rule.Summary, msg, "help: " + help, "documentation: " + rule.URL()} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	if strings.Contains(h.Contents.Value, "**") || strings.Contains(h.Contents.Value, `\_`) {
		t.Errorf("Markdown in a plain-text hover:\n%s", h.Contents.Value)
	}
}

// TestHoverSuppressionComments hovers over the codes and names that
// suppression comments list, in Python, YAML and Go buffers.
func TestHoverSuppressionComments(t *testing.T) {
	const app = "resources_servers/echo/app.py"
	const cfg = "resources_servers/echo/configs/echo.yaml"
	const goFile = "native/server.go"
	pySrc := strings.Replace(echoApp, "class EchoServer(", "# gymlint: ignore[GL101, refused-num-workers,GL999] built by a factory\nclass EchoServer(", 1)
	yamlSrc := "# gymlint: ignore-file[GL104] the pool is sized by the deployment\n" + echoConfig
	goSrc := "package main\n\n//gymlint:file-ignore GL150 one process serves it\n\nvar x = 1 //gymlint:ignore go-unrouted-state,gl151 the map is read-only\n"
	c := startServer(t, workspace(t, map[string]string{app: pySrc, cfg: yamlSrc, goFile: goSrc, "native/go.mod": "module example.com/native\n\ngo 1.22\n"}), Options{NoGo: true})
	c.initializeWith(markdownHover)
	c.open(app, pySrc)
	c.open(cfg, yamlSrc)
	c.open(goFile, goSrc)
	// The unused and unknown codes are GL010 on the comment; the hover
	// shows it beside the rule.
	c.waitDiagnostics(app, "GL010", withCode("GL010"))

	rule := func(code string) string {
		r := lint.Lookup(code)
		return "**" + r.Code + "** `" + r.Name + "`\n" + r.Summary
	}
	lineOf := func(src, prefix string) uint32 {
		for i, l := range strings.Split(src, "\n") {
			if strings.HasPrefix(l, prefix) {
				return uint32(i)
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	col := func(src, prefix, code string) uint32 {
		l := strings.Split(src, "\n")[lineOf(src, prefix)]
		return uint32(strings.Index(l, code))
	}
	for _, tc := range []struct {
		rel, src, line, at string
		want               []string // in the hover, unescaped
		wantLen            int      // the range's length
	}{
		{app, pySrc, "# gymlint", "GL101", []string{rule("GL101"), lint.Lookup("GL101").URL()}, 5},
		{app, pySrc, "# gymlint", "num-workers", []string{rule("GL104")}, len("refused-num-workers")},
		{app, pySrc, "# gymlint", "GL999", []string{"`GL999`: unknown rule", "GL010"}, 5},
		{cfg, yamlSrc, "# gymlint", "GL104", []string{rule("GL104")}, 5},
		{goFile, goSrc, "//gymlint:file-ignore", "GL150", []string{rule("GL150")}, 5},
		{goFile, goSrc, "var x", "unrouted", []string{rule("GL150")}, len("go-unrouted-state")},
		{goFile, goSrc, "var x", "gl151", []string{"`gl151`: unknown rule", "did you mean GL151 (go-empty-worker-refusal)?"}, 5},
	} {
		l := lineOf(tc.src, tc.line)
		ch := col(tc.src, tc.line, tc.at)
		h := c.hover(tc.rel, l, ch+1)
		if h == nil {
			t.Errorf("%s: no hover on %s", tc.rel, tc.at)
			continue
		}
		text := unescaped(h.Contents.Value)
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s, hover on %s lacks %q:\n%s", tc.rel, tc.at, w, text)
			}
		}
		if h.Range == nil || h.Range.Start.Line != l || h.Range.End.Line != l || int(h.Range.End.Character-h.Range.Start.Character) != tc.wantLen {
			t.Errorf("%s, hover on %s: range %+v, want the code's (%d characters on line %d)", tc.rel, tc.at, h.Range, tc.wantLen, l)
		}
	}
	// The directive's other words, and the reason: nothing (the Go
	// analysis is off, so no finding is there either).
	for _, at := range []string{"gymlint", "file-ignore", "process"} {
		l := lineOf(goSrc, "//gymlint:file-ignore")
		if h := c.hover(goFile, l, col(goSrc, "//gymlint:file-ignore", at)+1); h != nil {
			t.Errorf("hover on %q of the Go suppression: %s, want null", at, dump(h))
		}
	}
}

// TestHoverUTF16 hovers after characters outside ASCII, in the default
// UTF-16 positions and in negotiated UTF-8 ones: É is 1 UTF-16 unit and 2
// bytes, 𝔸 2 units and 4 bytes.
func TestHoverUTF16(t *testing.T) {
	src := strings.Replace(echoApp, "class EchoServer(", "x = \"É𝔸\"  # gymlint: ignore[GL104] why\nclass Écho𝔸Server(", 1)
	src = strings.Replace(src, "EchoServer.run_webserver", "Écho𝔸Server.run_webserver", 1)
	const app = "resources_servers/echo/app.py"
	for _, tc := range []struct {
		offer []string
		enc   protocol.Encoding
		code  uint32 // where GL104 starts on line 3
		name  uint32 // where "Server" starts on line 4
	}{
		{nil, protocol.UTF16, 5 + 1 + 2 + 3 + 18, 6 + 1 + 3 + 2},
		{[]string{"utf-8"}, protocol.UTF8, 5 + 2 + 4 + 3 + 18, 6 + 2 + 3 + 4},
	} {
		t.Run(string(tc.enc), func(t *testing.T) {
			c := startServer(t, workspace(t, map[string]string{app: src}), Options{NoGo: true})
			c.initializeWith(markdownHover, tc.offer...)
			c.open(app, src)
			pub := c.waitDiagnostics(app, "GL101", withCode("GL101"))
			for pub.Version == nil {
				pub = c.waitDiagnostics(app, "GL101 of version 1", withCode("GL101"))
			}
			h := c.hover(app, 3, tc.code)
			if h == nil || !strings.Contains(h.Contents.Value, "**GL104**") {
				t.Fatalf("hover at 3:%d: %s, want GL104", tc.code, dump(h))
			}
			if want := (protocol.Range{Start: protocol.Position{Line: 3, Character: tc.code}, End: protocol.Position{Line: 3, Character: tc.code + 5}}); *h.Range != want {
				t.Errorf("range %+v, want %+v", *h.Range, want)
			}
			// One unit before, on the [: the unused suppression (GL010,
			// over the whole comment), but not the rule GL104.
			if h := c.hover(app, 3, tc.code-1); h != nil && strings.Contains(h.Contents.Value, "**GL104** `") {
				t.Errorf("hover at 3:%d, before the code: %s", tc.code-1, h.Contents.Value)
			}
			h = c.hover(app, 4, tc.name+2)
			if h == nil || !strings.Contains(h.Contents.Value, "**GL101**") {
				t.Fatalf("hover at 4:%d, in the class name: %s, want GL101", tc.name+2, dump(h))
			}
			if d := find(pub.Diagnostics, "GL101"); *h.Range != d.Range {
				t.Errorf("range %+v, want GL101's %+v", *h.Range, d.Range)
			}
		})
	}
}

// TestHoverSeveralFindings: two findings at one place (GL302 and GL317 on
// a server class of testdata/contracts with the current framework): one
// section each.
func TestHoverSeveralFindings(t *testing.T) {
	root := contractsWorkspace(t, "gen3", nil)
	c := startServer(t, root, Options{NoGo: true})
	c.initializeWith(markdownHover)
	const app = "resources_servers/counter/app.py"
	pub := c.waitDiagnostics(app, "GL302 and GL317", func(ds []protocol.Diagnostic) bool { return withCode("GL302")(ds) && withCode("GL317")(ds) })
	a, b := find(pub.Diagnostics, "GL302"), find(pub.Diagnostics, "GL317")
	if a.Range != b.Range {
		t.Fatalf("GL302 at %+v, GL317 at %+v: the fixture changed", a.Range, b.Range)
	}
	h := c.hover(app, a.Range.Start.Line, a.Range.Start.Character)
	if h == nil {
		t.Fatal("no hover")
	}
	sections := strings.Split(h.Contents.Value, "\n\n---\n\n")
	if len(sections) != 2 || !strings.HasPrefix(sections[0], "**GL302**") || !strings.HasPrefix(sections[1], "**GL317**") {
		t.Errorf("hover sections:\n%s\nwant GL302's, then GL317's", h.Contents.Value)
	}
	for i, d := range []protocol.Diagnostic{a, b} {
		msg, _ := messageAndHelp(d)
		if i < len(sections) && !strings.Contains(unescaped(sections[i]), msg) {
			t.Errorf("section %d lacks %q:\n%s", i, msg, sections[i])
		}
	}
}

// TestHoverStaleLines: a finding whose lines the buffer changed since the
// analysis is not shown; one whose lines did not change still is (the
// state the server is in between an edit and the next publication).
func TestHoverStaleLines(t *testing.T) {
	s := newServer(nil, Options{})
	s.root, s.realRoot = "/w", "/w"
	const rel = "a.py"
	then := "class A(Base):\n    pass\n\nclass B(Base):\n    pass\n"
	now := "class A(Base):\n    pass\n\nclass Bee(Base):\n    pass\n"
	r := lint.Lookup("GL101")
	at := func(line int) (diag.Diagnostic, protocol.Diagnostic) {
		d := r.New(rel, diag.Pos{Line: line, Col: 7}, diag.Pos{Line: line, Col: 8}, "message")
		return d, protocol.Diagnostic{Range: protocol.Range{Start: protocol.Position{Line: uint32(line - 1), Character: 6}, End: protocol.Position{Line: uint32(line - 1), Character: 7}}, Code: "GL101"}
	}
	d1, l1 := at(1)
	d4, l4 := at(4)
	s.published[rel] = &published{uri: "file:///w/a.py", diags: []diag.Diagnostic{d1, d4}, lsp: []protocol.Diagnostic{l1, l4}, contents: map[string][]byte{rel: []byte(then)}}
	s.docs[rel] = &document{uri: "file:///w/a.py", version: 2, text: []byte(now)}
	hover := func(line uint32) *protocol.Hover {
		return s.hover(protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: "file:///w/a.py"}, Position: protocol.Position{Line: line, Character: 6}}})
	}
	if h := hover(0); h == nil || !strings.Contains(h.Contents.Value, "GL101") {
		t.Errorf("line 1, unchanged: %s, want GL101", dump(h))
	}
	if h := hover(3); h != nil {
		t.Errorf("line 4, changed since the analysis: %s, want null", dump(h))
	}
	s.docs[rel].text = []byte(then)
	if h := hover(3); h == nil {
		t.Error("line 4, the buffer as analysed: no hover")
	}
}

// contractsWorkspace writes the servers of testdata/contracts with the
// framework of generation gen (gen1, gen2, gen3) at the root, plus extra.
func contractsWorkspace(t *testing.T, gen string, extra map[string]string) string {
	t.Helper()
	files := map[string]string{}
	for _, dir := range []string{"servers", gen} {
		base := filepath.Join("..", "testdata", "contracts", dir)
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == "README.md" {
				return err
			}
			rel, _ := filepath.Rel(base, p)
			data, err := os.ReadFile(p)
			files[path.Clean(filepath.ToSlash(rel))] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range extra {
		files[k] = v
	}
	return writeTree(t, files)
}
