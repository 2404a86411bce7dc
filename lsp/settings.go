package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/lsp/protocol"
	"github.com/gymlint/gymlint/settings"
)

// settingsSection is the section of the editor's settings that gymlint
// reads: {"gymlint": {"contract": "latest", "select": [...], "ignore": [...]}}.
const settingsSection = "gymlint"

// clientSettings are the editor's gymlint settings. They apply over the
// workspace's .gymlint.yaml as the command line's flags do: contract as
// --contract, select as --select (the configuration's enable and disable
// no longer apply), ignore as --ignore. The zero value changes nothing.
type clientSettings struct {
	contract contract.Mode // "": the configuration's (auto by default)
	sel      settings.Selection
}

func (cs clientSettings) equal(o clientSettings) bool {
	return cs.contract == o.contract && slices.Equal(cs.sel.Select, o.sel.Select) && (cs.sel.Select == nil) == (o.sel.Select == nil) &&
		slices.Equal(cs.sel.Ignore, o.sel.Ignore) && slices.Equal(cs.sel.Named, o.sel.Named)
}

func (cs clientSettings) String() string {
	list := func(xs []string) string {
		if xs == nil {
			return "-"
		}
		return strings.Join(xs, ",")
	}
	c := string(cs.contract)
	if c == "" {
		c = "-"
	}
	return fmt.Sprintf("contract %s, select %s, ignore %s", c, list(cs.sel.Select), list(cs.sel.Ignore))
}

// settingsKeys are the keys of the gymlint section.
var settingsKeys = []string{"contract", "select", "ignore"}

// parseSettings reads the value of the gymlint section. It returns false
// when there is none (null: the client has no gymlint settings), and the
// settings in force stay. The section is read whole: a key left out has
// its default ({} is all defaults). unknown are the keys gymlint does not
// read (for the log).
func parseSettings(raw json.RawMessage) (cs clientSettings, ok bool, unknown []string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return cs, false, nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return cs, false, nil, fmt.Errorf("the %s settings must be an object with %s, not %s", settingsSection, strings.Join(settingsKeys, ", "), shorten(raw))
	}
	for k := range obj {
		if !slices.Contains(settingsKeys, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if v, given := obj["contract"]; given && string(v) != "null" {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return cs, false, unknown, fmt.Errorf("contract must be auto or latest, not %s", shorten(v))
		}
		if s != "" {
			m, ok := contract.ParseMode(s)
			if !ok {
				return cs, false, unknown, fmt.Errorf("contract must be auto or latest, not %q", s)
			}
			cs.contract = m
		}
	}
	selects, err := ruleList(obj, "select")
	if err != nil {
		return cs, false, unknown, err
	}
	if len(selects) > 0 {
		if cs.sel.Select, err = settings.ResolveSelectors("select", selects); err != nil {
			return cs, false, unknown, err
		}
		cs.sel.Named = settings.NamedRules(selects)
	}
	ignores, err := ruleList(obj, "ignore")
	if err != nil {
		return cs, false, unknown, err
	}
	if len(ignores) > 0 {
		if cs.sel.Ignore, err = settings.ResolveSelectors("ignore", ignores); err != nil {
			return cs, false, unknown, err
		}
	}
	return cs, true, unknown, nil
}

// ruleList reads a list of rule selectors: an array of strings or one
// string, each comma-separated as on the command line; null, "" and []
// give none.
func ruleList(obj map[string]json.RawMessage, key string) ([]string, error) {
	v, given := obj[key]
	if !given || string(v) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(v, &one) == nil {
		if strings.TrimSpace(one) == "" {
			return nil, nil
		}
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(v, &many); err != nil {
		return nil, fmt.Errorf("%s must be a list of rule codes, code prefixes, rule names or analyzer names (such as [\"GL104\", \"sessions\"]), not %s", key, shorten(v))
	}
	var out []string
	for _, s := range many {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func shorten(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// sectionOf returns the gymlint section of a settings object
// ({"gymlint": ...}), and false when it has none.
func sectionOf(raw json.RawMessage) (json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil, false
	}
	v, ok := obj[settingsSection]
	return v, ok
}

// initializationSettings returns the settings of initializationOptions:
// {"gymlint": {...}}, or the section's keys at the top level.
func initializationSettings(raw json.RawMessage) (json.RawMessage, bool) {
	if v, ok := sectionOf(raw); ok {
		return v, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil, false
	}
	for _, k := range settingsKeys {
		if _, ok := obj[k]; ok {
			return raw, true
		}
	}
	return nil, false
}

// applySettings reads a gymlint section from the editor (from: where it
// came from, for messages). A bad value is shown to the user and the
// settings in force stay; new settings re-check the workspace and publish
// the open files' diagnostics again.
func (s *server) applySettings(raw json.RawMessage, from string) {
	cs, ok, unknown, err := parseSettings(raw)
	if len(unknown) > 0 {
		msg := fmt.Sprintf("gymlint: %s: unknown settings %s ignored (gymlint reads %s)", from, strings.Join(unknown, ", "), strings.Join(settingsKeys, ", "))
		s.logf("%s", msg)
		s.notify(protocol.MethodLogMessage, protocol.LogMessageParams{Type: protocol.MessageWarning, Message: msg})
	}
	if err != nil {
		msg := fmt.Sprintf("gymlint: bad settings from %s: %v; the previous settings are kept (%s)", from, err, s.settings)
		s.logf("%s", msg)
		s.notify(protocol.MethodShowMessage, protocol.ShowMessageParams{Type: protocol.MessageError, Message: msg})
		return
	}
	if !ok || cs.equal(s.settings) {
		return
	}
	s.logf("settings from %s: %s", from, cs)
	s.settings = cs
	if s.state != stateRunning || s.configWait != nil {
		return // the first analysis takes them
	}
	j := s.queue()
	j.reload = true
	j.republish = true
	s.requestGo()
	s.kick()
}

// didChangeConfiguration takes the gymlint section the client sends, or,
// when it sends none (VS Code sends null) and can answer
// workspace/configuration, asks for it.
func (s *server) didChangeConfiguration(p protocol.DidChangeConfigurationParams) {
	if v, ok := sectionOf(p.Settings); ok {
		s.applySettings(v, protocol.MethodDidChangeConfiguration)
		return
	}
	if s.caps.configuration {
		s.pullSettings()
		return
	}
	s.logf("%s without a %q section: the settings stay (%s)", protocol.MethodDidChangeConfiguration, settingsSection, s.settings)
}

// pullSettings asks the client for the gymlint section.
func (s *server) pullSettings() {
	id, err := s.conn.Call(protocol.MethodWorkspaceConfiguration, protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{
		{ScopeURI: protocol.PathToURI(s.root), Section: settingsSection},
	}})
	if err != nil {
		s.logf("asking for the settings: %v", err)
		s.settingsSettled()
		return
	}
	s.configReq = id.String()
}

// configurationAnswer takes the client's answer to workspace/configuration.
func (s *server) configurationAnswer(m *protocol.Message) {
	s.configReq = ""
	defer s.settingsSettled()
	if m.Error != nil {
		s.logf("%s: %v", protocol.MethodWorkspaceConfiguration, m.Error)
		return
	}
	var items []json.RawMessage
	if err := json.Unmarshal(m.Result, &items); err != nil {
		s.logf("%s answered %s, not an array: ignored", protocol.MethodWorkspaceConfiguration, shorten(m.Result))
		return
	}
	if len(items) == 0 {
		return // Neovim leaves out a section it does not have
	}
	s.applySettings(items[0], protocol.MethodWorkspaceConfiguration)
}

// configWaitLimit is how long the first analysis waits for the client's
// settings (a client that says it answers workspace/configuration and does
// not).
const configWaitLimit = 3 * time.Second

// settingsSettled starts the first analysis if it was waiting for the
// client's settings.
func (s *server) settingsSettled() {
	if s.configWait == nil {
		return
	}
	s.configWait = nil
	s.startAnalysis()
}
