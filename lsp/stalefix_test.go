package lsp

import (
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/lsp/protocol"
)

// rayApp has a GL204 (ray_enabled without ClassVar) with a safe fix.
const rayApp = `import ray
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

// TestNoFixForChangedFile: the fixes of a file that is not open are
// offered while the file on disk is the one analysed (the editor applies
// them to the disk's text), and not once it changed on disk (five lines
// prepended by another program, not yet announced to the server): their
// offsets are into the old text, where a fix-all on save would corrupt
// it. The next analysis offers fixes for the new text.
func TestNoFixForChangedFile(t *testing.T) {
	root := workspace(t, map[string]string{"resources_servers/echo/app.py": rayApp})
	c := startServer(t, root, Options{NoGo: true})
	c.initialize("utf-8")
	const app = "resources_servers/echo/app.py"
	c.waitDiagnostics(app, "GL204", withCode("GL204"))
	fixAll := func() []protocol.CodeAction {
		t.Helper()
		m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)},
			Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.KindSourceFixAll}}})
		if m.Error != nil {
			t.Fatal(m.Error)
		}
		var actions []protocol.CodeAction
		if err := json.Unmarshal(m.Result, &actions); err != nil {
			t.Fatal(err)
		}
		return actions
	}
	actions := fixAll()
	if len(actions) != 1 {
		t.Fatalf("fix-all of the file as analysed: %s", dump(actions))
	}
	if text := c.applyAction(&actions[0], app, rayApp, protocol.UTF8); !strings.Contains(text, "ray_enabled: ClassVar[bool] = True") {
		t.Fatalf("after the fix:\n%s", text)
	}

	edited := "# 1\n# 2\n# 3\n# 4\n# 5\n" + rayApp
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(app)), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if actions := fixAll(); len(actions) != 0 {
		t.Errorf("fix-all of a file changed on disk since the analysis: %s, want none", dump(actions))
	}
	// Nor a quick fix or a suppression at the finding's old place.
	m := c.call(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(app)},
		Range: protocol.Range{End: protocol.Position{Line: 20}}})
	if string(m.Result) != "[]" {
		t.Errorf("quick fixes of a changed file: %s, want []", m.Result)
	}
}

// TestFreshGoFixes: a Go diagnostic's fixes are published only when every
// file they edit is, as published, what the Go run parsed: a buffer
// edited while the run went on keeps its diagnostic, not its fix.
func TestFreshGoFixes(t *testing.T) {
	const parsedText, now = "package p\n\nfunc badP() {}\n", "package p\n\n// edited\nfunc badP() {}\n"
	fix := func(path string) diag.Fix {
		return diag.Fix{Message: "rename", Edits: []diag.TextEdit{{Path: path, Start: diag.Pos{Offset: 16}, End: diag.Pos{Offset: 19}, NewText: "good"}}}
	}
	ds := []diag.Diagnostic{
		{Path: "p.go", Code: "GL999", Fixes: []diag.Fix{fix("p.go")}},
		{Path: "q.go", Code: "GL999", Fixes: []diag.Fix{fix("q.go")}},
		{Path: "r.go", Code: "GL999", Fixes: []diag.Fix{fix("r.go")}},
		{Path: "p.go", Code: "GL998", Fixes: []diag.Fix{fix("p.go"), fix("q.go")}},
	}
	parsed := func(path string) ([sha256.Size]byte, bool, bool) {
		switch path {
		case "p.go", "q.go":
			return sha256.Sum256([]byte(parsedText)), true, false
		}
		return [sha256.Size]byte{}, false, false
	}
	content := map[string][]byte{"p.go": []byte(parsedText), "q.go": []byte(now), "r.go": []byte(parsedText)}
	got := freshGoFixes(ds, parsed, func(p string) []byte { return content[p] })
	var fixes []int
	for _, d := range got {
		fixes = append(fixes, len(d.Fixes))
	}
	if len(got) != 4 || fixes[0] != 1 || fixes[1] != 0 || fixes[2] != 0 || fixes[3] != 1 || got[3].Fixes[0].Edits[0].Path != "p.go" {
		t.Errorf("fixes kept per diagnostic: %v, want [1 0 0 1] (p.go's only)", fixes)
	}
	if len(ds[1].Fixes) != 1 {
		t.Error("the run's own diagnostics were changed")
	}
	if got := freshGoFixes(ds[:1], nil, func(p string) []byte { return content[p] }); len(got[0].Fixes) != 0 {
		t.Error("a fix kept without knowing what the run parsed")
	}
}
