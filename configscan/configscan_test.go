package configscan

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// wantInst describes an expected instance. Positions are "line:col" (byte
// column); an empty position is not checked.
type wantInst struct {
	name, typ, dir, ep              string
	namePos, typePos, dirPos, epPos string
	viaMerge                        bool
}

// wantProb describes an expected problem; pos "" is not checked, msg is a
// substring of the message.
type wantProb struct {
	kind, pos, msg string
	help           string // the whole help, when not ""
}

type parseCase struct {
	name      string
	src       string
	opts      Options
	servers   []wantInst
	overrides []wantInst
	problems  []wantProb
	docs      int // expected len(File.Docs)
	check     func(t *testing.T, f *File)
}

const typical = `math_with_judge:
  resources_servers:
    math_with_judge:
      entrypoint: app.py
      domain: math
      verified: false
math_with_judge_simple_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server:
        type: resources_servers
        name: math_with_judge
      model_server:
        type: responses_api_models
        name: policy_model
`

var typicalServers = []wantInst{
	{name: "math_with_judge", typ: "resources_servers", dir: "math_with_judge", ep: "app.py",
		namePos: "1:1", typePos: "2:3", dirPos: "3:5", epPos: "4:19"},
	{name: "math_with_judge_simple_agent", typ: "responses_api_agents", dir: "simple_agent", ep: "app.py",
		namePos: "7:1", typePos: "8:3", dirPos: "9:5", epPos: "10:19"},
}

// billionLaughs builds levels anchors of width aliases each: 9 levels of 9
// expand to 9^9 (387 million) leaves.
func billionLaughs(levels, width int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [" + strings.TrimSuffix(strings.Repeat("lol,", width), ",") + "]\n")
	for i := 1; i < levels; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), width), ",")
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, refs)
	}
	fmt.Fprintf(&b, "bomb:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      data: *l%d\n", levels-1)
	return b.String()
}

var parseCases = []parseCase{
	{
		name:    "typical resources server and simple agent",
		src:     typical,
		servers: typicalServers,
		docs:    1,
		check: func(t *testing.T, f *File) {
			s := f.Servers[0].Settings
			if got := s.Get("domain"); got == nil || got.Value != "math" || got.Tag != "!!str" {
				t.Errorf("domain = %+v, want the string math", got)
			}
			if got := s.Get("verified"); got == nil || got.Tag != "!!bool" || got.Value != "false" {
				t.Errorf("verified = %+v, want the boolean false", got)
			}
			rs := f.Servers[1].Settings.Get("resources_server")
			if got := rs.Get("name"); got == nil || got.Value != "math_with_judge" {
				t.Errorf("resources_server.name = %+v", got)
			}
			if rs.Get("nope") != nil || (*Node)(nil).Get("x") != nil || (*Node)(nil).GetPair("x") != nil {
				t.Errorf("Get of a missing key or on nil must be nil")
			}
		},
	},
	{
		name: "dir key with a slash",
		src: `conversational_tool_use_simulation:
  responses_api_agents:
    conversational_tool_use/simulation:
      entrypoint: simulation_agent.py
`,
		servers: []wantInst{{name: "conversational_tool_use_simulation", typ: "responses_api_agents",
			dir: "conversational_tool_use/simulation", ep: "simulation_agent.py", dirPos: "3:5", epPos: "4:19"}},
		docs: 1,
	},
	{
		name: "directives are skipped at every level",
		src: `_inherit_from: base.yaml
inst:
  _copy: other_inst
  resources_servers:
    _delete_key: [x]
    _inherit_from:
      entrypoint: not_a_server.py
    srv:
      _inherit_from: {entrypoint: nope.py}
      entrypoint: app.py
_hidden:
  resources_servers:
    srv: {entrypoint: hidden.py}
`,
		servers: []wantInst{{name: "inst", typ: "resources_servers", dir: "srv", ep: "app.py", epPos: "10:19"}},
		docs:    1,
	},
	{
		name: "override-only instances, scalar and list roots, non-server level 2",
		src: `policy_model:
  responses_api_models:
    vllm_model:
      num_workers: 4
policy_model_name: Qwen/Qwen3-8B
config_paths: [a.yaml, b.yaml]
osworld_sandbox:
  docker: {image: x, entrypoint: run.py}
`,
		overrides: []wantInst{{name: "policy_model", typ: "responses_api_models", dir: "vllm_model",
			namePos: "1:1", typePos: "2:3", dirPos: "3:5"}},
		docs: 1,
		check: func(t *testing.T, f *File) {
			o := f.Overrides[0]
			if o.Entrypoint != "" || o.ViaMerge || o.EntrypointPos != (Pos{}) {
				t.Errorf("override has entrypoint data: %+v", o)
			}
			if got := o.Settings.Get("num_workers"); got == nil || got.Value != "4" || got.Tag != "!!int" {
				t.Errorf("num_workers = %+v, want int 4", got)
			}
		},
	},
	{
		name: "nested list-valued entrypoint at depth 5 is ignored",
		src: `osworld_agent:
  responses_api_agents:
    osworld_agent:
      entrypoint: app.py
      sandbox_spec:
        entrypoint: [/usr/bin/tini, -s]
x:
  responses_api_agents:
    osworld_agent:
      sandbox_spec:
        entrypoint: [/usr/bin/tini, -s]
`,
		servers:   []wantInst{{name: "osworld_agent", typ: "responses_api_agents", dir: "osworld_agent", ep: "app.py", epPos: "4:19"}},
		overrides: []wantInst{{name: "x", typ: "responses_api_agents", dir: "osworld_agent"}},
		docs:      1,
	},
	{
		name: "merge key with a single alias, local override wins",
		src: `swe_agents_train:
  responses_api_agents:
    swe_agents: &cfg
      entrypoint: app.py
      num_workers: 2
swe_agents_val:
  responses_api_agents:
    swe_agents:
      <<: *cfg
      num_workers: 8
`,
		servers: []wantInst{
			{name: "swe_agents_train", typ: "responses_api_agents", dir: "swe_agents", ep: "app.py", epPos: "4:19"},
			{name: "swe_agents_val", typ: "responses_api_agents", dir: "swe_agents", ep: "app.py",
				namePos: "6:1", typePos: "7:3", dirPos: "8:5", epPos: "9:7", viaMerge: true},
		},
		docs: 1,
		check: func(t *testing.T, f *File) {
			s := f.Servers[1].Settings
			if got := s.Get("num_workers"); got == nil || got.Value != "8" {
				t.Errorf("num_workers = %+v, want the local 8", got)
			}
			if p := s.GetPair("num_workers"); p.Merged {
				t.Errorf("local num_workers marked merged")
			}
			p := s.GetPair("entrypoint")
			if !p.Merged || p.MergePos.String() != "9:7" || p.KeyPos.String() != "4:7" || p.Value.Pos.String() != "4:19" {
				t.Errorf("merged entrypoint pair = %+v", p)
			}
			if len(s.Pairs) != 2 {
				t.Errorf("pairs = %+v, want entrypoint and num_workers once each", s.Pairs)
			}
		},
	},
	{
		name: "merge key with a list: earlier map wins, local wins over all",
		src: `a: &a {entrypoint: first.py, x: 1}
b: &b {entrypoint: second.py, y: 2, x: 9}
inst:
  resources_servers:
    srv:
      <<: [*a, *b]
      y: 3
inst2:
  resources_servers:
    srv:
      <<: *a
      entrypoint: local.py
`,
		servers: []wantInst{
			{name: "inst", typ: "resources_servers", dir: "srv", ep: "first.py", epPos: "6:7", viaMerge: true},
			{name: "inst2", typ: "resources_servers", dir: "srv", ep: "local.py", epPos: "12:19"},
		},
		docs: 1,
		check: func(t *testing.T, f *File) {
			s := f.Servers[0].Settings
			var keys []string
			for _, p := range s.Pairs {
				keys = append(keys, fmt.Sprintf("%s=%s/%v", p.Key, p.Value.Value, p.Merged))
			}
			// PyYAML order: b's keys, then a's new keys, then local keys.
			want := "entrypoint=first.py/true y=3/false x=1/true"
			if got := strings.Join(keys, " "); got != want {
				t.Errorf("pairs = %s, want %s", got, want)
			}
		},
	},
	{
		name: "alias for a whole instance, a type value and a dir value",
		src: `base: &inst
  resources_servers:
    srv:
      entrypoint: app.py
copy: *inst
t: &types {srv2: {entrypoint: t.py}}
i1:
  responses_api_agents: *types
d: &dir {entrypoint: d.py}
i2:
  responses_api_models:
    srv3: *dir
`,
		servers: []wantInst{
			{name: "base", typ: "resources_servers", dir: "srv", ep: "app.py", namePos: "1:1", epPos: "4:19"},
			{name: "copy", typ: "resources_servers", dir: "srv", ep: "app.py", namePos: "5:1", typePos: "2:3", dirPos: "3:5", epPos: "4:19"},
			{name: "i1", typ: "responses_api_agents", dir: "srv2", ep: "t.py", typePos: "8:3", dirPos: "6:12", epPos: "6:31"},
			{name: "i2", typ: "responses_api_models", dir: "srv3", ep: "d.py", dirPos: "12:5", epPos: "9:22"},
		},
		docs: 1,
	},
	{
		name: "duplicate keys are reported; merge overrides are not duplicates",
		src: `inst:
  resources_servers:
    srv:
      entrypoint: app.py
      datasets:
      - name: first
      domain: math
      datasets:
      - name: second
base: &b {x: 1, y: 2}
merged:
  <<: *b
  x: 3
ints: {1: a, 1: b}
`,
		servers: []wantInst{{name: "inst", typ: "resources_servers", dir: "srv", ep: "app.py"}},
		problems: []wantProb{
			{kind: "duplicate-key", pos: "8:7", msg: `duplicate key "datasets" (first at line 5): OmegaConf.load rejects duplicate keys`},
			{kind: "duplicate-key", pos: "14:14", msg: `duplicate key "1" (first at line 14): the later value silently replaces`},
		},
		docs: 1,
		check: func(t *testing.T, f *File) {
			ds := f.Servers[0].Settings.Get("datasets")
			if ds == nil || len(ds.Items) != 1 || ds.Items[0].Get("name").Value != "second" {
				t.Errorf("datasets should be the last occurrence, got %+v", ds)
			}
			if got := f.Docs[0].Get("merged").Get("x"); got == nil || got.Value != "3" {
				t.Errorf("merged.x = %+v, want 3", got)
			}
		},
	},
	{
		// Past smallMapping keys, the first occurrence is found through a
		// map rather than by a scan: the same findings. A key repeated twice
		// more points at its first occurrence each time, and an alias of a
		// scalar is the key it names.
		name: "duplicate keys in a mapping of more than 16 keys",
		src: func() string {
			var b strings.Builder
			b.WriteString("big:\n")
			for i := range 20 {
				fmt.Fprintf(&b, "  k%d: %d\n", i, i)
			}
			b.WriteString("  k3: again\n  k3: thrice\n  name: &n k7\n  *n : alias\n")
			return b.String()
		}(),
		problems: []wantProb{
			{kind: "duplicate-key", pos: "22:3", msg: `duplicate key "k3" (first at line 5): OmegaConf.load rejects duplicate keys`},
			{kind: "duplicate-key", pos: "23:3", msg: `duplicate key "k3" (first at line 5): OmegaConf.load rejects duplicate keys`},
			{kind: "duplicate-key", pos: "25:3", msg: `duplicate key "k7" (first at line 9): OmegaConf.load rejects duplicate keys`},
		},
		docs: 1,
	},
	{
		name:    "CRLF line endings",
		src:     strings.ReplaceAll(typical, "\n", "\r\n"),
		servers: typicalServers,
		docs:    1,
		check: func(t *testing.T, f *File) {
			if got := f.Servers[0].Settings.Get("domain").Value; got != "math" {
				t.Errorf("domain = %q (a \\r leaked in?)", got)
			}
		},
	},
	{
		name: "inline comment after the value, commented-out entrypoint",
		src: `inst:
  resources_servers:
    srv:
      entrypoint: app.py   # server entry module
other:
  resources_servers:
    srv:
      # entrypoint: app.py
      num_workers: 2
`,
		servers:   []wantInst{{name: "inst", typ: "resources_servers", dir: "srv", ep: "app.py", epPos: "4:19"}},
		overrides: []wantInst{{name: "other", typ: "resources_servers", dir: "srv"}},
		docs:      1,
	},
	{
		name: "multiple documents, including non-mapping roots",
		src: `a:
  resources_servers:
    s1: {entrypoint: one.py}
---
b:
  resources_servers:
    s2: {entrypoint: two.py}
---
- just a list
---
plain scalar
`,
		// OmegaConf.load rejects the file: no server starts from it.
		problems: []wantProb{{kind: "multi-document", pos: "4:1", msg: "a second YAML document starts here: OmegaConf.load rejects the file", help: "put everything in one document, or split the file"}},
		docs:     4,
		check: func(t *testing.T, f *File) {
			if f.Docs[1].Get("b") == nil || f.Docs[2].Kind != SequenceNode || f.Docs[3].Kind != ScalarNode || f.Docs[3].Value != "plain scalar" {
				t.Errorf("docs 1, 2, 3 = %+v, %+v, %+v", f.Docs[1], f.Docs[2], f.Docs[3])
			}
		},
	},
	{
		name:     "a server, then an empty document",
		src:      "# header\n---\na:\n  resources_servers:\n    s1: {entrypoint: one.py}\n\n--- # nothing\n",
		problems: []wantProb{{kind: "multi-document", pos: "7:1"}},
		docs:     2,
	},
	{
		name:     "an override, then a directive and a second document",
		src:      "%YAML 1.1\n---\np:\n  responses_api_models:\n    m: {num_workers: 2}\n...\n%YAML 1.1\n---\nx: 1\n",
		problems: []wantProb{{kind: "multi-document", pos: "7:1"}},
		docs:     2,
	},
	{
		name:    "one document with its start and end markers",
		src:     "---\na:\n  resources_servers:\n    s1: {entrypoint: one.py}\n...\n",
		servers: []wantInst{{name: "a", typ: "resources_servers", dir: "s1", ep: "one.py", epPos: "4:22"}},
		docs:    1,
	},
	{
		name: "several documents that declare no server are not a config",
		src:  "apiVersion: v1\nkind: Service\n---\napiVersion: apps/v1\nkind: Deployment\nspec: {resources_servers: {a: 1}}\n",
		docs: 2,
	},
	{
		name: "a NUL byte in an entrypoint or a server dir key",
		src: "a:\n  resources_servers:\n    s1: {entrypoint: \"app\\0.py\"}\n    \"s\\x002\": {entrypoint: app.py}\n" +
			"    s3: {entrypoint: app.py}\n\"b\\0\\e[31m\":\n  resources_servers:\n    s4: {entrypoint: \"\\0\"}\n",
		servers: []wantInst{{name: "a", typ: "resources_servers", dir: "s3", ep: "app.py"}},
		problems: []wantProb{
			{kind: "bad-entrypoint", pos: "3:22", msg: `entrypoint "app\x00.py" of a.resources_servers.s1 contains a NUL byte, which no file name can hold`},
			{kind: "bad-entrypoint", pos: "4:5", msg: `the server dir key "s\x002" of a.resources_servers contains a NUL byte`},
			{kind: "bad-entrypoint", pos: "8:22", msg: `entrypoint "\x00" of "b\x00\x1b[31m".resources_servers.s4 contains a NUL byte`},
		},
		docs: 1,
	},
	{name: "empty file", src: "", docs: 0},
	{name: "only comments", src: "# nothing here\n# entrypoint: app.py\n", docs: 0},
	{name: "empty documents", src: "---\n---\n", docs: 2},
	{name: "list root", src: "- a\n- resources_servers: {s: {entrypoint: app.py}}\n", docs: 1},
	{name: "scalar root", src: "just text\n", docs: 1},
	{name: "null root", src: "~\n", docs: 1},
	{
		name: "non-ASCII before a key: byte columns",
		src: `ünïcødé:
  resources_servers:
    s: {name: "日本", entrypoint: app.py}
`,
		// "    s: {name: " is 14 bytes, `"日本"` 8 bytes, ", " 2, "entrypoint: " 12:
		// the value starts at byte column 37 (character column 33).
		servers: []wantInst{{name: "ünïcødé", typ: "resources_servers", dir: "s", ep: "app.py",
			namePos: "1:1", typePos: "2:3", dirPos: "3:5", epPos: "3:37"}},
		docs: 1,
	},
	{
		name: "non-ASCII in a flow mapping on the key's own line",
		src:  "ünïcødé: {resources_servers: {s: {entrypoint: app.py}}}\n",
		// "ünïcødé: {" is 14 bytes (10 characters).
		servers: []wantInst{{name: "ünïcødé", typ: "resources_servers", dir: "s", ep: "app.py",
			namePos: "1:1", typePos: "1:15", dirPos: "1:35", epPos: "1:51"}},
		docs: 1,
	},
	{
		name: "UTF-8 byte order mark",
		src:  "\ufeffinst:\n  resources_servers:\n    s: {entrypoint: app.py}\n",
		servers: []wantInst{{name: "inst", typ: "resources_servers", dir: "s", ep: "app.py",
			namePos: "1:1", dirPos: "3:5", epPos: "3:21"}},
		docs: 1,
		check: func(t *testing.T, f *File) {
			if got := f.Servers[0].NamePos.Offset; got != 3 {
				t.Errorf("NamePos.Offset = %d, want 3 (after the BOM)", got)
			}
		},
	},
	{
		name: "NEL, LS and lone CR are line breaks for yaml.v3",
		src:  "note: \"a\u0085b\"\rother: \"c\u2028d\"\ninst:\n  resources_servers:\n    s: {entrypoint: app.py}\n",
		servers: []wantInst{{name: "inst", typ: "resources_servers", dir: "s", ep: "app.py",
			namePos: "5:1", epPos: "7:21"}},
		docs: 1,
	},
	{
		name: "syntax error reports the line; earlier documents are kept",
		src: `a:
  resources_servers:
    s1: {entrypoint: one.py}
---
b: 1
c: [unclosed
d: 2
`,
		servers:  []wantInst{{name: "a", typ: "resources_servers", dir: "s1", ep: "one.py"}},
		problems: []wantProb{{kind: "syntax", pos: "6:1", msg: "did not find expected ',' or ']'"}},
		docs:     1,
	},
	{
		name:     "syntax error in a block mapping",
		src:      "a:\n  b: 1\n c: 2\n",
		problems: []wantProb{{kind: "syntax", pos: "3:1", msg: "did not find expected key"}},
	},
	{
		name:     "scanner syntax error on line 3",
		src:      "a: 1\nb: 2\nc: d: e\n",
		problems: []wantProb{{kind: "syntax", pos: "3:1", msg: "mapping values are not allowed", help: "fix the YAML"}},
	},
	{
		name:     "syntax error on the first line",
		src:      "a: b: c\n",
		problems: []wantProb{{kind: "syntax", pos: "1:1", msg: "mapping values are not allowed"}},
	},
	{
		name:     "unknown anchor",
		src:      "a: 1\nb: *nope\n",
		problems: []wantProb{{kind: "syntax", pos: "2:4", msg: "unknown anchor 'nope'"}},
	},
	{
		name:     "billion laughs",
		src:      billionLaughs(9, 9),
		problems: []wantProb{{kind: "aliasing", msg: "excessive aliasing"}},
		docs:     1,
		check: func(t *testing.T, f *File) {
			if f.Docs[0] != nil {
				t.Errorf("a document whose resolution was cut off must be nil in Docs")
			}
		},
	},
	{
		name: "small MaxNodeVisits budget",
		src: `a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
b: [*a, *a]
---
inst:
  resources_servers:
    s: {entrypoint: app.py}
`,
		opts:     Options{MaxNodeVisits: 10},
		problems: []wantProb{{kind: "aliasing", msg: "more than 10 extra node visits"}},
		docs:     2,
	},
	{
		name:     "self-referential merge",
		src:      "a: &a {<<: *a}\n",
		problems: []wantProb{{kind: "aliasing", pos: "1:12", msg: "recursive alias *a", help: "remove the cycle"}},
		docs:     1,
	},
	{
		name:     "self-referential sequence inside a server",
		src:      "inst:\n  resources_servers:\n    s: &s {entrypoint: app.py, again: [*s]}\n",
		servers:  []wantInst{{name: "inst", typ: "resources_servers", dir: "s", ep: "app.py"}},
		problems: []wantProb{{kind: "aliasing", pos: "3:40", msg: "recursive alias *s"}},
		docs:     1,
	},
	{
		name:     "invalid UTF-8",
		src:      "inst:\n  x: 1\n  y: \xff\xfe\n",
		problems: []wantProb{{kind: "syntax", pos: "3:6", msg: "UTF-8"}},
	},
	{
		name:     "NUL byte",
		src:      "inst:\n  x: \x00\n",
		problems: []wantProb{{kind: "syntax", pos: "2:6", msg: "control characters"}},
	},
	{
		name:     "UTF-16 file",
		src:      "\xff\xfei\x00n\x00s\x00t\x00:\x00 \x001\x00\n\x00",
		problems: []wantProb{{kind: "syntax", pos: "1:1", msg: "UTF-16", help: "save it as UTF-8"}},
	},
	{
		name: "bad entrypoints",
		src: `a:
  resources_servers:
    null_ep:
      entrypoint: ~
    list_ep:
      entrypoint: [x]
    empty_ep:
      entrypoint:
    quoted_empty:
      entrypoint: ""
    int_ep:
      entrypoint: 3
    map_ep:
      entrypoint: {file: app.py}
    good:
      entrypoint: app.py
`,
		servers: []wantInst{{name: "a", typ: "resources_servers", dir: "good", ep: "app.py"}},
		problems: []wantProb{
			{kind: "bad-entrypoint", pos: "4:19", msg: "entrypoint must be a file name (such as \"app.py\"), but a.resources_servers.null_ep.entrypoint is null", help: "set it to the server's entry file, relative to resources_servers/null_ep/"},
			{kind: "bad-entrypoint", pos: "6:19", msg: "is a list"},
			{kind: "bad-entrypoint", pos: "8:18", msg: "empty_ep.entrypoint is null"},
			{kind: "bad-entrypoint", pos: "10:19", msg: "is an empty string"},
			{kind: "bad-entrypoint", pos: "12:19", msg: "is the integer 3"},
			{kind: "bad-entrypoint", pos: "14:19", msg: "is a mapping"},
		},
		docs: 1,
	},
	{
		name: "bad entrypoint through a merge is reported at the << key",
		src: `x: &x {entrypoint: null}
a:
  resources_servers:
    s:
      <<: *x
`,
		problems: []wantProb{{kind: "bad-entrypoint", pos: "5:7", msg: "is null"}},
		docs:     1,
	},
	{
		name: "bad merge values",
		src: `a:
  <<: 3
b:
  <<: [{x: 1}, 2]
`,
		problems: []wantProb{
			{kind: "bad-merge", pos: "2:7", msg: "must be a mapping or a list of mappings", help: "merge an alias of a mapping instead"},
			{kind: "bad-merge", pos: "4:16", msg: "may only hold mappings"},
		},
		docs: 1,
		check: func(t *testing.T, f *File) {
			if got := f.Docs[0].Get("b").Get("x"); got == nil || got.Value != "1" {
				t.Errorf("b.x = %+v, want 1 from the valid list item", got)
			}
		},
	},
	{
		name: "custom server types",
		src: `inst:
  my_servers:
    s: {entrypoint: app.py}
  resources_servers:
    t: {entrypoint: app.py}
`,
		opts:    Options{ServerTypes: []string{"my_servers"}},
		servers: []wantInst{{name: "inst", typ: "my_servers", dir: "s", ep: "app.py", typePos: "2:3"}},
		docs:    1,
	},
	{
		name: "interpolations stay verbatim; quoted and plain keys",
		src: `"inst":
  'resources_servers':
    s:
      entrypoint: "${oc.env:ENTRY,app.py}"
      host: ${policy_base_url}
`,
		servers: []wantInst{{name: "inst", typ: "resources_servers", dir: "s", ep: "${oc.env:ENTRY,app.py}", namePos: "1:1", typePos: "2:3", epPos: "4:19"}},
		docs:    1,
		check: func(t *testing.T, f *File) {
			if got := f.Servers[0].Settings.Get("host").Value; got != "${policy_base_url}" {
				t.Errorf("host = %q", got)
			}
		},
	},
}

// lineCol computes line:col of a byte offset independently of the package,
// for sources that only use \n (and \r\n) line breaks.
func lineCol(src string, off int) string {
	before := src[:off]
	line := strings.Count(before, "\n") + 1
	col := off - (strings.LastIndex(before, "\n") + 1) + 1
	if line == 1 && strings.HasPrefix(src, "\ufeff") {
		col -= 3
	}
	return fmt.Sprintf("%d:%d", line, col)
}

func checkPos(t *testing.T, src, what string, p Pos, want, text string) {
	t.Helper()
	if p.Line < 1 || p.Col < 1 || p.Offset < 0 || p.Offset > len(src) {
		t.Errorf("%s: position %+v out of range", what, p)
		return
	}
	if want != "" && p.String() != want {
		t.Errorf("%s at %s, want %s", what, p, want)
	}
	if !strings.ContainsAny(strings.ReplaceAll(src, "\r\n", "\n"), "\r\u0085\u2028\u2029") {
		if got := lineCol(src, p.Offset); got != p.String() {
			t.Errorf("%s: Offset %d is at %s, but Line:Col say %s", what, p.Offset, got, p)
		}
	}
	if text != "" && !strings.HasPrefix(src[p.Offset:], text) {
		t.Errorf("%s: text at offset %d is %q, want it to start with %q", what, p.Offset, src[p.Offset:min(len(src), p.Offset+len(text)+5)], text)
	}
}

func checkInstances(t *testing.T, src, what string, got []Instance, want []wantInst) {
	t.Helper()
	if len(got) != len(want) {
		var names []string
		for _, g := range got {
			names = append(names, g.Name+":"+g.Type+":"+g.Dir)
		}
		t.Fatalf("%s: got %d %v, want %d", what, len(got), names, len(want))
	}
	for i, w := range want {
		g := got[i]
		label := fmt.Sprintf("%s[%d] %s:%s:%s", what, i, g.Name, g.Type, g.Dir)
		if g.Name != w.name || g.Type != w.typ || g.Dir != w.dir || g.Entrypoint != w.ep || g.ViaMerge != w.viaMerge {
			t.Errorf("%s = {%q %q %q ep=%q merge=%v}, want {%q %q %q ep=%q merge=%v}", label,
				g.Name, g.Type, g.Dir, g.Entrypoint, g.ViaMerge, w.name, w.typ, w.dir, w.ep, w.viaMerge)
		}
		if g.Settings == nil || g.Settings.Kind != MappingNode {
			t.Errorf("%s: Settings = %+v, want a mapping", label, g.Settings)
		}
		// The text at each position must be the key itself (plain or
		// quoted) or, for the entrypoint, its value or the << key.
		unq := func(s string) string { return strings.TrimLeft(s, `"'`) }
		checkPos(t, src, label+" name", g.NamePos, w.namePos, "")
		checkPos(t, src, label+" type", g.TypePos, w.typePos, "")
		checkPos(t, src, label+" dir", g.DirPos, w.dirPos, "")
		if w.namePos != "" && !strings.HasPrefix(unq(src[g.NamePos.Offset:]), g.Name) {
			t.Errorf("%s: name not at NamePos", label)
		}
		if w.typePos != "" && !strings.HasPrefix(unq(src[g.TypePos.Offset:]), g.Type) {
			t.Errorf("%s: type not at TypePos", label)
		}
		if w.dirPos != "" && !strings.HasPrefix(src[g.DirPos.Offset:], g.Dir) {
			t.Errorf("%s: dir not at DirPos", label)
		}
		if g.Entrypoint != "" {
			text := g.Entrypoint
			if g.ViaMerge {
				text = "<<"
			}
			if w.epPos != "" && !strings.HasPrefix(unq(src[g.EntrypointPos.Offset:]), text) {
				t.Errorf("%s: %q not at EntrypointPos %s", label, text, g.EntrypointPos)
			}
			checkPos(t, src, label+" entrypoint", g.EntrypointPos, w.epPos, "")
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("configs/x.yaml", []byte(tc.src), tc.opts)
			if f == nil {
				t.Fatal("Parse returned nil")
			}
			if f.Path != "configs/x.yaml" {
				t.Errorf("Path = %q", f.Path)
			}
			if len(f.Problems) != len(tc.problems) {
				for _, p := range f.Problems {
					t.Logf("problem %s %s: %s", p.Pos, p.Kind, p.Message)
				}
				t.Fatalf("got %d problems, want %d", len(f.Problems), len(tc.problems))
			}
			for i, w := range tc.problems {
				p := f.Problems[i]
				if p.Kind != w.kind || !strings.Contains(p.Message, w.msg) {
					t.Errorf("problem %d = %s %q, want %s containing %q", i, p.Kind, p.Message, w.kind, w.msg)
				}
				if w.help != "" && p.Help != w.help {
					t.Errorf("problem %d help = %q, want %q", i, p.Help, w.help)
				}
				checkPos(t, tc.src, "problem "+p.Kind, p.Pos, w.pos, "")
			}
			checkInstances(t, tc.src, "servers", f.Servers, tc.servers)
			checkInstances(t, tc.src, "overrides", f.Overrides, tc.overrides)
			if len(f.Docs) != tc.docs {
				t.Errorf("got %d docs, want %d", len(f.Docs), tc.docs)
			}
			if tc.check != nil && !t.Failed() {
				tc.check(t, f)
			}
		})
	}
}

// TestYAMLv3ColumnsAreRunes pins down the finding this package relies on:
// yaml.v3's Node.Column counts characters, not bytes, so Parse must convert.
func TestYAMLv3ColumnsAreRunes(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("ünïcødé: {entrypoint: app.py}\n"), &doc); err != nil {
		t.Fatal(err)
	}
	key := doc.Content[0].Content[1].Content[0]
	if key.Value != "entrypoint" {
		t.Fatalf("unexpected tree, got %q", key.Value)
	}
	// "ünïcødé: {" is 10 characters but 14 bytes.
	if key.Column != 11 {
		t.Errorf("yaml.v3 column of entrypoint = %d; 11 means characters, 15 bytes. If this changed, update lineIndex.pos", key.Column)
	}
	f := Parse("x.yaml", []byte("ünïcødé: {entrypoint: app.py}\n"), Options{})
	p := f.Docs[0].Get("ünïcødé").GetPair("entrypoint").KeyPos
	if p != (Pos{Offset: 14, Line: 1, Col: 15}) {
		t.Errorf("configscan position = %+v, want byte column 15 at offset 14", p)
	}
}

// TestDecoderAfterError documents why Parse stops at the first syntax error:
// yaml.v3's Decoder cannot resume after one.
func TestDecoderStopsAtError(t *testing.T) {
	dec := yaml.NewDecoder(bytes.NewReader([]byte("a: [\n---\nb: 1\n")))
	var n yaml.Node
	if err := dec.Decode(&n); err == nil || err == io.EOF {
		t.Fatalf("want a syntax error, got %v", err)
	}
}

func TestLargeFileWithoutAliasesIsNotAliasing(t *testing.T) {
	var b strings.Builder
	b.WriteString("inst:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      data:\n")
	for i := 0; i < 60000; i++ { // 120000 nodes, more than DefaultMaxNodeVisits
		fmt.Fprintf(&b, "      - {k: %d}\n", i)
	}
	f := Parse("big.yaml", []byte(b.String()), Options{})
	if len(f.Problems) != 0 {
		t.Fatalf("problems: %+v", f.Problems[0])
	}
	if len(f.Servers) != 1 || len(f.Servers[0].Settings.Get("data").Items) != 60000 {
		t.Fatalf("server not fully read")
	}
}

func TestDeepNesting(t *testing.T) {
	// yaml.v3 accepts up to 10000 flow levels; with aliases the resolved
	// depth can go further, which the resolver cuts off.
	src := "a: &a " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "\n" +
		"b: &b " + strings.Repeat("[", 9000) + "*a" + strings.Repeat("]", 9000) + "\n"
	f := Parse("deep.yaml", []byte(src), Options{})
	if len(f.Problems) != 1 || f.Problems[0].Kind != "nesting" {
		t.Fatalf("problems = %+v, want one nesting problem", f.Problems)
	}
	if len(f.Docs) != 1 || f.Docs[0] == nil {
		t.Fatalf("the document should still be returned")
	}
}

func TestManyProblemsFromOneAliasAreReportedOnce(t *testing.T) {
	src := "x: &x {<<: 3}\ny: [*x, *x, *x, *x]\n"
	f := Parse("x.yaml", []byte(src), Options{})
	if len(f.Problems) != 1 || f.Problems[0].Kind != "bad-merge" {
		t.Fatalf("problems = %+v, want one bad-merge", f.Problems)
	}
}

func TestScalarEnd(t *testing.T) {
	data := []byte("a:\n  resources_servers:\n    plain:\n      entrypoint: app.py   # comment\n" +
		"b:\n  resources_servers:\n    dq:\n      entrypoint: \"sub/x\\\"y.py\"\n" +
		"c:\n  resources_servers:\n    sq:\n      entrypoint: 'it''s.py'\n" +
		"d:\n  resources_servers:\n    ü:\n      entrypoint: é.py\n" +
		// An anchor or a tag is part of the value's span, the closing
		// quote its end.
		"e:\n  resources_servers:\n    anchored:\n      entrypoint: &ep \"sub/app.py\"   # comment\n" +
		"f:\n  resources_servers:\n    tagged:\n      entrypoint: !!str 'it.py'\n" +
		"g:\n  resources_servers:\n    plain_anchored:\n      entrypoint: &p plain.py\n" +
		"h:\n  resources_servers:\n    both:\n      entrypoint: &q !!str \"q \\\" .py\"\n")
	f := Parse("x.yaml", data, Options{})
	if len(f.Servers) != 8 {
		t.Fatalf("servers: %+v problems: %+v", f.Servers, f.Problems)
	}
	for i, want := range []string{"app.py", `"sub/x\"y.py"`, `'it''s.py'`, "é.py",
		`&ep "sub/app.py"`, `!!str 'it.py'`, `&p plain.py`, `&q !!str "q \" .py"`} {
		s := f.Servers[i]
		got := string(data[s.EntrypointPos.Offset:s.EntrypointEnd.Offset])
		if got != want || s.EntrypointEnd.Line != s.EntrypointPos.Line || s.EntrypointEnd.Col-s.EntrypointPos.Col != len(want) {
			t.Errorf("server %d: value span %q (%+v..%+v), want %q", i, got, s.EntrypointPos, s.EntrypointEnd, want)
		}
	}
}
