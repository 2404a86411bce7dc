package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/lsp/protocol"
)

// A second server of the echo workspace that refuses several workers, and
// a config that asks for four: GL104 on the config.
const (
	refuseApp = `from nemo_gym.base_resources_server import SimpleResourcesServer


class RefuseServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "the log lives in this process"

    async def verify(self, body):
        return body


if __name__ == "__main__":
    RefuseServer.run_webserver()
`
	refuseConfig = `refuse:
  resources_servers:
    refuse:
      entrypoint: app.py
      num_workers: 4
      domain: other
`
	refuseCfg   = "resources_servers/refuse/configs/refuse.yaml"
	echoAppPath = "resources_servers/echo/app.py"
	plainApp    = "resources_servers/plain/app.py" // of testdata/contracts: GL101 where the framework has the refusal
)

var refuseFiles = map[string]string{
	"resources_servers/refuse/app.py":           refuseApp,
	refuseCfg:                                   refuseConfig,
	"resources_servers/refuse/requirements.txt": "fastapi\n",
}

// settingsPush is the params of a didChangeConfiguration with a gymlint
// section.
func settingsPush(section any) map[string]any {
	return map[string]any{"settings": map[string]any{"gymlint": section}}
}

// waitNote reads notifications (and the server's requests) until one of
// method, and returns it; skip says which others may come first (nil: any).
func (c *client) waitNote(method string, skip func(*protocol.Message) bool) *protocol.Message {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m, open := <-c.notes:
			if !open {
				c.t.Fatalf("the server ended while waiting for %s", method)
			}
			if m.Method == method {
				return m
			}
			if skip != nil && !skip(m) {
				c.t.Fatalf("%s (%s) came before %s", m.Method, m.Params, method)
			}
		case <-deadline:
			c.t.Fatalf("no %s", method)
		}
	}
}

// TestSettingsSelectIgnore changes the rule selection from the editor:
// select only GL104 (GL101 goes, the open files are published again), a
// bad value (shown, the previous settings kept through the next edit),
// then ignore GL104 (select no longer given: GL101 is back).
func TestSettingsSelectIgnore(t *testing.T) {
	c := startServer(t, workspace(t, refuseFiles), Options{NoGo: true})
	c.initialize()
	c.open(echoAppPath, echoApp)
	c.open(refuseCfg, refuseConfig)
	c.waitAll(map[string]func([]protocol.Diagnostic) bool{echoAppPath: withCode("GL101"), refuseCfg: withCode("GL104")})

	c.notify(protocol.MethodDidChangeConfiguration, settingsPush(map[string]any{"select": []string{"GL104"}}))
	c.waitAll(map[string]func([]protocol.Diagnostic) bool{echoAppPath: empty, refuseCfg: withCode("GL104")})

	// Bad values: shown as errors; the settings stay.
	for _, bad := range []struct {
		section any
		want    string
	}{
		{map[string]any{"select": []string{"GL999"}, "contract": "latest"}, `unknown rule "GL999" in select`},
		{map[string]any{"contract": "newest"}, `contract must be auto or latest, not "newest"`},
		{map[string]any{"ignore": 104}, "ignore must be a list of rule codes"},
		{[]string{"GL104"}, "must be an object"},
	} {
		c.notify(protocol.MethodDidChangeConfiguration, settingsPush(bad.section))
		m := c.waitNote(protocol.MethodShowMessage, nil)
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Type != protocol.MessageError || !strings.Contains(p.Message, bad.want) ||
			!strings.Contains(p.Message, "the previous settings are kept (contract -, select GL104, ignore -)") {
			t.Errorf("message %+v: want an error saying %q and that the previous settings are kept", p, bad.want)
		}
	}
	// The next edit is checked with the settings of before: no GL101.
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: c.uri(echoAppPath), Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: echoApp + "# edited\n"}},
	})
	pub := c.waitDiagnostics(echoAppPath, "version 2", func([]protocol.Diagnostic) bool { return true })
	for pub.Version == nil || *pub.Version != 2 {
		pub = c.waitDiagnostics(echoAppPath, "version 2", func([]protocol.Diagnostic) bool { return true })
	}
	if len(pub.Diagnostics) != 0 {
		t.Errorf("after the bad settings, the edit got %s: want the selection of GL104 alone still in force", dump(pub.Diagnostics))
	}

	// ignore as one string, select left out: the configuration's
	// selection again, less GL104. An unknown key is logged.
	c.notify(protocol.MethodDidChangeConfiguration, settingsPush(map[string]any{"ignore": "GL104", "trace": "off"}))
	m := c.waitNote(protocol.MethodLogMessage, nil)
	if !strings.Contains(string(m.Params), "unknown settings trace ignored") {
		t.Errorf("log message %s: want the unknown key named", m.Params)
	}
	c.waitAll(map[string]func([]protocol.Diagnostic) bool{echoAppPath: withCode("GL101"), refuseCfg: withoutCode("GL104")})
}

// TestSettingsContract switches the contract on a repository whose
// framework predates the worker refusal (testdata/contracts/gen1): with
// auto, GL101 is not applied; with latest it is; back to auto, cleared.
func TestSettingsContract(t *testing.T) {
	c := startServer(t, contractsWorkspace(t, "gen1", nil), Options{NoGo: true})
	c.initialize()
	src := readFixture(t, "servers", plainApp)
	c.open(plainApp, src)
	pub := c.waitDiagnostics(plainApp, "the open buffer's publication", func([]protocol.Diagnostic) bool { return true })
	for pub.Version == nil {
		pub = c.waitDiagnostics(plainApp, "the open buffer's publication", func([]protocol.Diagnostic) bool { return true })
	}
	if len(pub.Diagnostics) != 0 {
		t.Fatalf("contract auto on gen1: %s, want nothing (the framework predates GL101)", dump(pub.Diagnostics))
	}
	c.notify(protocol.MethodDidChangeConfiguration, settingsPush(map[string]any{"contract": "latest"}))
	c.waitDiagnostics(plainApp, "GL101 with contract latest", withCode("GL101"))
	c.notify(protocol.MethodDidChangeConfiguration, settingsPush(map[string]any{"contract": "auto"}))
	c.waitDiagnostics(plainApp, "GL101 gone with contract auto", withoutCode("GL101"))
}

// TestSettingsInitializationOptions: settings given at initialize apply
// to the first analysis.
func TestSettingsInitializationOptions(t *testing.T) {
	for _, opts := range []any{
		map[string]any{"gymlint": map[string]any{"contract": "latest"}},
		map[string]any{"contract": "latest"}, // the section's keys at the top
	} {
		c := startServer(t, contractsWorkspace(t, "gen1", nil), Options{NoGo: true})
		c.initOptions = opts
		c.initialize()
		c.waitDiagnostics(plainApp, "GL101 with contract latest", withCode("GL101"))
	}
}

// TestSettingsPull: a client that answers workspace/configuration is
// asked for the gymlint section before the first analysis, and again
// when it says the settings changed without sending them (VS Code sends
// null); the server registers for the changes when the client lets it.
func TestSettingsPull(t *testing.T) {
	c := startServer(t, contractsWorkspace(t, "gen1", nil), Options{NoGo: true})
	var mu sync.Mutex
	section := any(map[string]any{"contract": "latest"})
	var asked []protocol.ConfigurationParams
	c.answer(protocol.MethodWorkspaceConfiguration, func(raw json.RawMessage) any {
		mu.Lock()
		defer mu.Unlock()
		var p protocol.ConfigurationParams
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Error(err)
		}
		asked = append(asked, p)
		return []any{section}
	})
	c.initializeWith(map[string]any{"workspace": map[string]any{"configuration": true, "didChangeConfiguration": map[string]any{"dynamicRegistration": true}}})
	notPublished := func(m *protocol.Message) bool { return m.Method != protocol.MethodPublishDiagnostics }
	reg := c.waitNote(protocol.MethodRegisterCapability, notPublished)
	if !strings.Contains(string(reg.Params), `"method":"workspace/didChangeConfiguration","registerOptions":{"section":["gymlint"]}`) {
		t.Errorf("registration %s: want workspace/didChangeConfiguration for the gymlint section", reg.Params)
	}
	// Nothing is published before the settings are asked for.
	c.waitNote(protocol.MethodWorkspaceConfiguration, notPublished)
	c.waitDiagnostics(plainApp, "GL101 with contract latest", withCode("GL101"))
	mu.Lock()
	if len(asked) != 1 || len(asked[0].Items) != 1 || asked[0].Items[0].Section != "gymlint" || asked[0].Items[0].ScopeURI != c.uri("") {
		t.Errorf("asked %+v: want the gymlint section of the workspace", asked)
	}
	section = map[string]any{"contract": string(contract.Auto)}
	mu.Unlock()
	c.notify(protocol.MethodDidChangeConfiguration, map[string]any{"settings": nil})
	c.waitDiagnostics(plainApp, "GL101 gone with contract auto", withoutCode("GL101"))

	// A bad answer is shown; the settings stay.
	mu.Lock()
	section = map[string]any{"contract": "sometimes"}
	mu.Unlock()
	c.notify(protocol.MethodDidChangeConfiguration, map[string]any{"settings": map[string]any{"python": map[string]any{}}})
	m := c.waitNote(protocol.MethodShowMessage, nil)
	if !strings.Contains(string(m.Params), `contract must be auto or latest, not \"sometimes\"`) || !strings.Contains(string(m.Params), "workspace/configuration") {
		t.Errorf("message %s: want the bad contract, from workspace/configuration", m.Params)
	}
}

// TestSettingsPullUnanswered: a client that says it answers
// workspace/configuration and then answers null, or not at all, still
// gets its workspace analysed.
func TestSettingsPullUnanswered(t *testing.T) {
	c := startServer(t, workspace(t, nil), Options{NoGo: true})
	c.initializeWith(map[string]any{"workspace": map[string]any{"configuration": true}}) // null answers
	c.waitDiagnostics(echoAppPath, "GL101", withCode("GL101"))

	c = startServer(t, workspace(t, nil), Options{NoGo: true})
	c.call(protocol.MethodInitialize, map[string]any{"processId": nil, "rootUri": c.uri(""), "capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}})
	// No initialized, so no request: the analysis starts after a while.
	start := time.Now()
	c.waitDiagnostics(echoAppPath, "GL101", withCode("GL101"))
	if d := time.Since(start); d < configWaitLimit/2 {
		t.Errorf("published after %v: want the wait for the settings (%v) first", d, configWaitLimit)
	}
}

func TestParseSettings(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		ok   bool
		want string // clientSettings.String, or the error
	}{
		{`null`, false, "contract -, select -, ignore -"},
		{`{}`, true, "contract -, select -, ignore -"},
		{`{"contract": "latest"}`, true, "contract latest, select -, ignore -"},
		{`{"contract": "", "select": [], "ignore": null}`, true, "contract -, select -, ignore -"},
		{`{"select": ["GL104", "sessions"], "ignore": "GL3,GL201"}`, true, "contract -, select GL104,"},
		{`{"select": "undeclared-workers"}`, true, "contract -, select GL101, ignore -"},
		{`{"contract": 1}`, false, "contract must be auto or latest, not 1"},
		{`{"select": ["nope"]}`, false, `unknown rule "nope" in select`},
		{`"latest"`, false, "must be an object"},
	} {
		cs, ok, _, err := parseSettings(json.RawMessage(tc.raw))
		got := cs.String()
		if err != nil {
			got = err.Error()
		}
		if ok != tc.ok || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %v %q, want %v %q", tc.raw, ok, got, tc.ok, tc.want)
		}
	}
}

// readFixture reads a file of testdata/contracts/<dir>.
func readFixture(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "contracts", dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
