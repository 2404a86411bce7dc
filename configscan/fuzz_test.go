package configscan

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParse(f *testing.F) {
	seeds := []string{
		typical,
		"inst:\r\n  resources_servers:\r\n    s: {entrypoint: app.py}\r\n",
		"swe: &cfg {entrypoint: app.py, n: 1}\nx:\n  responses_api_agents:\n    swe:\n      <<: *cfg\n      n: 2\n",
		"a: &a {entrypoint: a.py}\nb: &b {entrypoint: b.py}\ni:\n  resources_servers:\n    s:\n      <<: [*a, *b]\n",
		"base: &i\n  resources_servers:\n    s: {entrypoint: app.py}\ncopy: *i\n",
		"i:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      datasets: 1\n      datasets: 2\n",
		"a:\n  resources_servers:\n    s1: {entrypoint: one.py}\n---\n- list\n---\nscalar\n",
		"",
		"ünïcødé:\n  resources_servers:\n    s: {name: \"日本\", entrypoint: app.py}\n",
		"\ufeffa: 1\n",
		"note: \"a\u0085b\"\rinst:\n  resources_servers:\n    s: {entrypoint: app.py}\n",
		"a: 1\nb: [unclosed\nc: 2\n",
		"a: b: c\n",
		"a: 1\nb: *nope\n",
		billionLaughs(9, 9),
		"a: &a {<<: *a}\n",
		"a: &a [*a]\n",
		"inst:\n  x: 1\n  y: \xff\n",
		"inst:\n  x: \x00\n",
		"\xff\xfea\x00",
		"a:\n  resources_servers:\n    n: {entrypoint: ~}\n    l: {entrypoint: [x]}\n",
		"x:\n  responses_api_agents:\n    o:\n      sandbox_spec:\n        entrypoint: [/usr/bin/tini, -s]\n",
		"a:\n  <<: 3\nb:\n  <<: [{x: 1}, 2]\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Parse("fuzz.yaml", data, Options{MaxNodeVisits: 5000})
		if file == nil {
			t.Fatal("Parse returned nil")
		}
		check := func(what string, p Pos) {
			if p.Line < 1 || p.Col < 1 || p.Offset < 0 || p.Offset > len(data) || p.Col-1 > p.Offset {
				t.Fatalf("%s: bad position %+v (len %d)", what, p, len(data))
			}
		}
		for i, p := range file.Problems {
			check("problem "+p.Kind, p.Pos)
			if p.Message == "" {
				t.Fatalf("problem %d has no message", i)
			}
			if i > 0 && file.Problems[i-1].Pos.Offset > p.Pos.Offset {
				t.Fatalf("problems not sorted: %+v before %+v", file.Problems[i-1].Pos, p.Pos)
			}
		}
		for _, list := range [][]Instance{file.Servers, file.Overrides} {
			for _, in := range list {
				check("name", in.NamePos)
				check("type", in.TypePos)
				check("dir", in.DirPos)
				if in.Settings == nil || in.Settings.Kind != MappingNode {
					t.Fatalf("instance %s has no settings mapping", in.Name)
				}
			}
		}
		// Every resolved node has a valid position. The resolved tree is
		// bounded by the budget, so this walk is too.
		visited := 0
		var walk func(n *Node)
		walk = func(n *Node) {
			if n == nil {
				return
			}
			visited++
			if visited > 10*len(data)+5000+100 {
				t.Fatalf("resolved tree larger than the budget allows")
			}
			check("node", n.Pos)
			for _, p := range n.Pairs {
				check("key "+p.Key, p.KeyPos)
				// A key written plainly (no quotes, alias, anchor, tag,
				// block scalar) starts with its own text, which checks the
				// byte offset against yaml.v3's line and column.
				if off := p.KeyPos.Offset; p.Key != "" && off < len(data) && !strings.ContainsRune(`"'&!*?|>`, rune(data[off])) {
					r, _ := utf8.DecodeRuneInString(p.Key)
					if !bytes.HasPrefix(data[off:], []byte(string(r))) {
						t.Fatalf("key %q at %+v, but the text there is %q", p.Key, p.KeyPos, data[off:min(len(data), off+10)])
					}
				}
				if p.Merged {
					check("merge", p.MergePos)
				}
				if p.Value == nil {
					t.Fatalf("pair %q has a nil value", p.Key)
				}
				walk(p.Value)
			}
			for _, it := range n.Items {
				if it == nil {
					t.Fatalf("nil sequence item")
				}
				walk(it)
			}
		}
		for _, d := range file.Docs {
			walk(d)
		}
		for _, in := range file.Servers {
			check("entrypoint", in.EntrypointPos)
			check("entrypoint end", in.EntrypointEnd)
			if e, p := in.EntrypointEnd, in.EntrypointPos; e.Offset < p.Offset || e.Line != p.Line || e.Col-p.Col != e.Offset-p.Offset {
				t.Fatalf("entrypoint end %+v does not follow its start %+v on the same line", e, p)
			}
			if in.Entrypoint == "" {
				t.Fatalf("server %s without entrypoint", in.Name)
			}
		}
	})
}
