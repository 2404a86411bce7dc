package configscan

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memLoader parses files from a map.
func memLoader(files map[string]string) Loader {
	return func(p string) (*File, error) {
		s, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("open %s: %w", p, fs.ErrNotExist)
		}
		return Parse(p, []byte(s), Options{}), nil
	}
}

func compose(t *testing.T, files map[string]string, root string) *Run {
	t.Helper()
	return Compose(root, ComposeOptions{Load: memLoader(files)})
}

// at follows a dotted path in a composed tree.
func at(t *testing.T, r *Run, dotted string) *Node {
	t.Helper()
	n := r.Root
	for _, k := range strings.Split(dotted, ".") {
		n = n.Get(k)
		if n == nil {
			t.Fatalf("%s: no %s in the composed config", r.File, dotted)
		}
	}
	return n
}

func problems(r *Run) string {
	var b strings.Builder
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "%s:%d %s %s\n", p.Origin.File, p.Pos.Line, p.Kind, p.Message)
	}
	return b.String()
}

func TestComposeThreeIncludesDeep(t *testing.T) {
	files := map[string]string{
		"benchmarks/b/config.yaml": "config_paths:\n  - benchmarks/b/mid1.yaml\nextra: 1\n",
		"benchmarks/b/mid1.yaml":   "config_paths:\n  - benchmarks/b/mid2.yaml\n",
		"benchmarks/b/mid2.yaml": "config_paths:\n  - resources_servers/s/configs/s.yaml\n" +
			"s:\n  resources_servers:\n    s:\n      num_workers: 16\n",
		"resources_servers/s/configs/s.yaml": "s:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      num_workers: 1\n",
	}
	r := compose(t, files, "benchmarks/b/config.yaml")
	if len(r.Problems) != 0 {
		t.Fatalf("problems:\n%s", problems(r))
	}
	n := at(t, r, "s.resources_servers.s.num_workers")
	if n.Value != "16" || n.Origin.File != "benchmarks/b/mid2.yaml" || n.Pos.Line != 6 {
		t.Fatalf("num_workers = %s from %s:%d", n.Value, n.Origin.File, n.Pos.Line)
	}
	if got := r.OriginOf(n.Origin.File).ChainString(); got != "benchmarks/b/config.yaml -> benchmarks/b/mid1.yaml -> benchmarks/b/mid2.yaml" {
		t.Fatalf("chain %q", got)
	}
	ep := at(t, r, "s.resources_servers.s.entrypoint")
	if ep.Origin.File != "resources_servers/s/configs/s.yaml" || len(r.OriginOf(ep.Origin.File).Chain) != 3 {
		t.Fatalf("entrypoint from %s chain %d", ep.Origin.File, len(r.OriginOf(ep.Origin.File).Chain))
	}
	if len(r.Servers) != 1 || r.Servers[0].Settings.Get("num_workers").Value != "16" {
		t.Fatalf("servers %+v", r.Servers)
	}
	want := []string{"resources_servers/s/configs/s.yaml", "benchmarks/b/mid2.yaml", "benchmarks/b/mid1.yaml", "benchmarks/b/config.yaml"}
	if strings.Join(r.Files, ",") != strings.Join(want, ",") {
		t.Fatalf("merge order %v", r.Files)
	}
}

func TestComposeSiblingsAndBreadthFirst(t *testing.T) {
	// root lists a then b; a also lists b. Gym loads breadth first, so b is
	// root's child (the entry in a is a repeat) and merges after a: b wins.
	files := map[string]string{
		"root.yaml": "config_paths: [a.yaml, b.yaml]\n",
		"a.yaml":    "config_paths: [b.yaml]\nx: from-a\ny: from-a\n",
		"b.yaml":    "x: from-b\n",
	}
	r := compose(t, files, "root.yaml")
	if got := at(t, r, "x").Value; got != "from-b" {
		t.Fatalf("x = %s", got)
	}
	if got := at(t, r, "y").Value; got != "from-a" {
		t.Fatalf("y = %s", got)
	}
	if len(r.Problems) != 0 {
		t.Fatalf("a repeat that is no cycle is no problem:\n%s", problems(r))
	}
}

func TestComposeMergeReplacesNonMappings(t *testing.T) {
	files := map[string]string{
		"root.yaml": "config_paths: [base.yaml]\nm: {b: 2, l: [3]}\ns: {k: v}\nq: ???\n",
		"base.yaml": "m: {a: 1, b: 1, l: [1, 2]}\ns: plain\nq: {kept: true}\n",
	}
	r := compose(t, files, "root.yaml")
	if at(t, r, "m.a").Value != "1" || at(t, r, "m.b").Value != "2" || len(at(t, r, "m.l").Items) != 1 {
		t.Fatalf("mapping merge wrong")
	}
	if at(t, r, "s.k").Value != "v" {
		t.Fatal("a mapping replaces a scalar")
	}
	if at(t, r, "q.kept").Value != "true" {
		t.Fatal("??? does not replace a mapping")
	}
}

func TestComposeInheritFromIncluded(t *testing.T) {
	files := map[string]string{
		"bench.yaml": "config_paths: [srv.yaml]\nmy_bench:\n  _inherit_from: generic\n  resources_servers:\n    s:\n      port: 8000\n",
		"srv.yaml":   "generic:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      port: 9000\n      domain: math\n",
	}
	r := compose(t, files, "bench.yaml")
	if len(r.Problems) != 0 {
		t.Fatalf("problems:\n%s", problems(r))
	}
	if r.Root.Get("generic") != nil {
		t.Fatal("_inherit_from moves the instance: generic must be gone")
	}
	if p := at(t, r, "my_bench.resources_servers.s.port"); p.Value != "8000" || p.Origin.File != "bench.yaml" {
		t.Fatalf("port %s from %s", p.Value, p.Origin.File)
	}
	if d := at(t, r, "my_bench.resources_servers.s.domain"); d.Origin.File != "srv.yaml" {
		t.Fatalf("domain from %s", d.Origin.File)
	}
	inst := r.Root.Get("my_bench")
	mv, ok := r.Moves[inst]
	if !ok || mv.Directive != "_inherit_from" || mv.From != "generic" || mv.Origin.File != "bench.yaml" || mv.Pos.Line != 3 {
		t.Fatalf("move %+v %v", mv, ok)
	}
	if len(r.Servers) != 1 || r.Servers[0].Name != "my_bench" {
		t.Fatalf("servers %+v", r.Servers)
	}
	if inst.GetPair("resources_servers") == nil || r.Root.GetPair("my_bench").KeyOrigin.File != "bench.yaml" {
		t.Fatal("key origin")
	}
}

func TestComposeDirectivesReadTheConfigBeforeThem(t *testing.T) {
	// Gym takes every value from a copy of the merged config made before
	// any directive: the second _inherit_from of generic finds it though
	// the first moved it away, and a _copy takes its value as written,
	// not as its own directive made it.
	files := map[string]string{
		"c.yaml": "generic:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      port: 9000\n" +
			"one:\n  _inherit_from: generic\n  note: one\n" +
			"two:\n  _inherit_from: generic\n  note: two\n" +
			"a:\n  _copy: two\n  extra: 1\n" +
			"b:\n  _copy: a\n",
	}
	r := compose(t, files, "c.yaml")
	if len(r.Problems) != 0 {
		t.Fatalf("problems:\n%s", problems(r))
	}
	if r.Root.Get("generic") != nil {
		t.Fatal("generic must be moved away")
	}
	for _, name := range []string{"one", "two"} {
		if at(t, r, name+".resources_servers.s.port").Value != "9000" || at(t, r, name+".note").Value != name {
			t.Fatalf("%s: %s", name, problems(r))
		}
	}
	// a took two as it was before two's directive; b took a likewise.
	for name, want := range map[string]string{"a": "_inherit_from=generic note=two extra=1", "b": "_copy=two extra=1"} {
		var keys []string
		for _, p := range r.Root.Get(name).Pairs {
			keys = append(keys, p.Key+"="+p.Value.Value)
		}
		if got := strings.Join(keys, " "); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

func TestComposeCopyAndStringForms(t *testing.T) {
	files := map[string]string{
		"c.yaml": "a:\n  responses_api_models:\n    m:\n      entrypoint: app.py\n      port: 7000\n" +
			"b:\n  _copy: a\n" +
			"c: ${copy:a}\n" +
			"d: ${inherit_from:e}\n" +
			"e:\n  responses_api_models:\n    m:\n      entrypoint: app.py\n",
	}
	r := compose(t, files, "c.yaml")
	if len(r.Problems) != 0 {
		t.Fatalf("problems:\n%s", problems(r))
	}
	for _, k := range []string{"a", "b", "c"} {
		if p := at(t, r, k+".responses_api_models.m.port"); p.Value != "7000" || p.Pos.Line != 5 {
			t.Fatalf("%s port %s line %d", k, p.Value, p.Pos.Line)
		}
	}
	if r.Root.Get("e") != nil || r.Root.Get("d") == nil {
		t.Fatal("${inherit_from:e} moves e into d")
	}
	if len(r.Servers) != 4 {
		t.Fatalf("%d servers", len(r.Servers))
	}
}

func TestComposeDeleteKey(t *testing.T) {
	files := map[string]string{
		"d.yaml": "base:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      judge: j\n      other: o\n" +
			"x:\n  _inherit_from: base\n  resources_servers:\n    s:\n      _delete_key: judge, nothere\n",
		// The form the real benchmarks use: drop a dir that an included
		// file gives the instance.
		"ok.yaml":    "config_paths: [judge.yaml]\nj:\n  responses_api_models:\n    _delete_key: local\n    remote:\n      entrypoint: app.py\n",
		"judge.yaml": "j:\n  responses_api_models:\n    local:\n      entrypoint: app.py\n",
	}
	r := compose(t, files, "d.yaml")
	// judge is not in x's own mapping, and the inner mapping has no
	// _inherit_from of its own: Gym keeps it, and the key that is nowhere
	// is ignored.
	if at(t, r, "x.resources_servers.s.judge").Value != "j" {
		t.Fatal("judge")
	}
	r = compose(t, files, "ok.yaml")
	if len(r.Problems) != 0 {
		t.Fatalf("problems:\n%s", problems(r))
	}
	if at(t, r, "j.responses_api_models").GetPair("local") != nil || len(r.Servers) != 1 || r.Servers[0].Dir != "remote" {
		t.Fatalf("_delete_key: local removes the included dir: %+v", r.Servers)
	}
}

func TestComposeProblems(t *testing.T) {
	files := map[string]string{
		"cyc-a.yaml":       "config_paths: [cyc-b.yaml]\n",
		"cyc-b.yaml":       "config_paths: [cyc-a.yaml]\n",
		"miss.yaml":        "config_paths:\n  - nothere.yaml\n  - sub.yaml\n",
		"dir/rel.yaml":     "config_paths: [sib.yaml]\n",
		"dir/sib.yaml":     "x: 1\n",
		"out.yaml":         "config_paths: [../etc/x.yaml, /etc/y.yaml]\n",
		"bad.yaml":         "config_paths: one.yaml\n",
		"inh.yaml":         "x:\n  _inherit_from: nobody\n",
		"interp.yaml":      "s:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      port: ${oc.env:PORT,8000}\n",
		"sub.yaml":         "y: 1\n",
		"deep-0.yaml":      "config_paths: [deep-1.yaml]\n",
		"deep-1.yaml":      "config_paths: [deep-2.yaml]\n",
		"deep-2.yaml":      "config_paths: [deep-3.yaml]\n",
		"deep-3.yaml":      "x: 1\n",
		"delmissing.yaml":  "b:\n  k: 1\na:\n  _copy: b\n  _delete_key: zz\n",
		"delmissing2.yaml": "b:\n  k: 1\na:\n  _copy: b\n  _delete_key: k\n",
	}
	cases := []struct {
		root, want string
		fatal      bool
	}{
		{"cyc-a.yaml", "cyc-b.yaml:1 include-cycle config_paths includes cyc-a.yaml, which includes this file (cyc-a.yaml -> cyc-b.yaml -> cyc-a.yaml)", false},
		{"miss.yaml", "miss.yaml:2 include-missing config_paths entry \"nothere.yaml\" names no file", true},
		{"out.yaml", "out.yaml:1 include-outside-root", false},
		{"bad.yaml", "bad.yaml:1 include-bad config_paths must be a list", true},
		{"inh.yaml", "inh.yaml:2 directive-invalid _inherit_from names nobody", true},
		{"delmissing.yaml", "delmissing.yaml:5 directive-invalid _delete_key names \"zz\"", true},
	}
	for _, c := range cases {
		r := compose(t, files, c.root)
		if got := problems(r); !strings.Contains(got, c.want) || r.Fatal != c.fatal {
			t.Errorf("%s: problems (fatal %v):\n%swant %q (fatal %v)", c.root, r.Fatal, got, c.want, c.fatal)
		}
	}
	r := compose(t, files, "dir/rel.yaml")
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Help, "write dir/sib.yaml") {
		t.Errorf("file-relative entry: %+v", r.Problems)
	}
	r = compose(t, files, "delmissing2.yaml")
	if len(r.Problems) != 0 || at(t, r, "a").Get("k") != nil {
		t.Errorf("delete of a copied key: %s", problems(r))
	}
	r = compose(t, files, "interp.yaml")
	if p := at(t, r, "s.resources_servers.s.port"); !p.Interpolation() || p.Value != "${oc.env:PORT,8000}" {
		t.Errorf("interpolation kept: %+v", p)
	}
	r = Compose("deep-0.yaml", ComposeOptions{Load: memLoader(files), MaxDepth: 2})
	if !r.Fatal || !strings.Contains(problems(r), "compose-limit includes nest more than 2") {
		t.Errorf("depth bound: %s", problems(r))
	}
	r = Compose("deep-0.yaml", ComposeOptions{Load: memLoader(files), MaxIncludes: 2})
	if !r.Fatal || !strings.Contains(problems(r), "more than 2 files") {
		t.Errorf("include bound: %s", problems(r))
	}
}

func TestComposeNodeBound(t *testing.T) {
	// Copies are taken from the config before any directive (so they do
	// not compound), but many copies of a big instance still multiply.
	var b strings.Builder
	b.WriteString("big:\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "  k%d: %d\n", i, i)
	}
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "c%d: {_copy: big}\n", i)
	}
	r := Compose("bomb.yaml", ComposeOptions{Load: memLoader(map[string]string{"bomb.yaml": b.String()}), MaxNodes: 5000})
	if !r.Fatal || r.Root != nil || !strings.Contains(problems(r), "more than 5000 values") {
		t.Fatalf("problems: %s", problems(r))
	}
}

func TestComposeMergeKeysWithinFiles(t *testing.T) {
	files := map[string]string{
		"m.yaml": "config_paths: [base.yaml]\nbase: &b\n  responses_api_agents:\n    a:\n      entrypoint: app.py\n      port: 1\n" +
			"other:\n  <<: *b\n",
		"base.yaml": "base:\n  responses_api_agents:\n    a:\n      port: 2\n",
	}
	r := compose(t, files, "m.yaml")
	if at(t, r, "other.responses_api_agents.a.port").Value != "1" || at(t, r, "base.responses_api_agents.a.port").Value != "1" {
		t.Fatal("merge key")
	}
}

// BenchmarkCompose composes the run of every config of a repository (the
// test data's gymrepo, or GYMLINT_BENCH_REPO=DIR), from parses made once:
// a scan composes every run of the repository again whenever a view asks
// for them.
func BenchmarkCompose(b *testing.B) {
	root := filepath.Join("..", "testdata", "gymrepo")
	if d := os.Getenv("GYMLINT_BENCH_REPO"); d != "" {
		root = d
	}
	files := map[string]*File{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		files[rel] = Parse(rel, data, Options{})
		return nil
	})
	load := func(p string) (*File, error) {
		if f := files[p]; f != nil {
			return f, nil
		}
		return nil, fs.ErrNotExist
	}
	var names []string
	for p, f := range files {
		if len(f.Servers)+len(f.Overrides) > 0 || (len(f.Docs) == 1 && f.Docs[0] != nil && f.Docs[0].GetPair("config_paths") != nil) {
			names = append(names, p)
		}
	}
	if len(names) == 0 {
		b.Skip("no configs")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, p := range names {
			Compose(p, ComposeOptions{Load: load})
		}
	}
	b.ReportMetric(float64(len(names)), "runs")
}

// A config_paths entry with a backslash names the file of that name where
// a backslash is no separator (Linux, macOS), as Gym's open() does, not
// the file with a slash in its place.
func TestComposeBackslashEntry(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip("on Windows a backslash is a separator")
	}
	files := map[string]string{
		"top.yaml":            "config_paths:\n  - configs\\victim.yaml\n",
		"configs/victim.yaml": "who: victim\n",
		`configs\victim.yaml`: "who: attacker\n",
	}
	r := compose(t, files, "top.yaml")
	if got := at(t, r, "who").Value; got != "attacker" {
		t.Errorf("who = %q, want attacker (files %v)", got, r.Files)
	}
	if len(r.Files) != 2 || r.Files[0] != `configs\victim.yaml` {
		t.Errorf("files = %q", r.Files)
	}
	if p := problems(r); p != "" {
		t.Errorf("problems:\n%s", p)
	}
}

// TestComposeSharesIncludedTrees checks that the runs of configs that
// include the same file share that file's parsed tree instead of copying
// it (100 configs including the same 250 files held 100 copies, 3.7 GB),
// and that what a run's directives change is its own: the shared tree,
// and so the other runs, are as the file says.
func TestComposeSharesIncludedTrees(t *testing.T) {
	files := map[string]string{
		"shared.yaml": "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      num_workers: 1\n      port: 8000\n" +
			"base:\n  responses_api_models:\n    m:\n      entrypoint: app.py\n      temperature: 1.0\n",
		// a overrides a shared value, and deletes and moves others.
		"a.yaml": "config_paths: [shared.yaml]\nsrv:\n  resources_servers:\n    srv:\n      num_workers: 8\n      _delete_key: port\n" +
			"mine:\n  _inherit_from: base\n  responses_api_models:\n    m:\n      temperature: 0.0\n",
		"b.yaml": "config_paths: [shared.yaml]\nother: 1\n",
	}
	parsed := map[string]*File{}
	for p, s := range files {
		parsed[p] = Parse(p, []byte(s), Options{})
	}
	before, err := Encode(parsed["shared.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	load := func(p string) (*File, error) {
		if f := parsed[p]; f != nil {
			return f, nil
		}
		return nil, fs.ErrNotExist
	}
	a := Compose("a.yaml", ComposeOptions{Load: load})
	b := Compose("b.yaml", ComposeOptions{Load: load})
	if len(a.Problems)+len(b.Problems) != 0 {
		t.Fatalf("problems:\n%s%s", problems(a), problems(b))
	}
	shared := parsed["shared.yaml"].Docs[0]
	// b changes nothing of shared.yaml: its run points into the parse.
	for _, key := range []string{"srv", "base"} {
		if got := b.Root.Get(key); got != shared.Get(key) {
			t.Errorf("b.yaml's %s is a copy, not the tree of shared.yaml", key)
		}
	}
	if b.Servers[0].Settings != shared.Get("srv").Get("resources_servers").Get("srv") {
		t.Error("b.yaml's server settings are a copy, not the tree of shared.yaml")
	}
	// a's run copies the mappings it changes, and shares what is left.
	srv := a.Root.Get("srv").Get("resources_servers").Get("srv")
	if srv.Get("num_workers").Value != "8" || srv.Get("port") != nil {
		t.Errorf("a.yaml's server: %+v", srv.Pairs)
	}
	if srv.Get("entrypoint") != shared.Get("srv").Get("resources_servers").Get("srv").Get("entrypoint") {
		t.Error("a.yaml's unchanged entrypoint is a copy")
	}
	if m := a.Root.Get("mine").Get("responses_api_models").Get("m"); m.Get("temperature").Value != "0.0" || m.Get("entrypoint") == nil {
		t.Errorf("a.yaml's inherited model: %+v", m.Pairs)
	}
	if a.Root.Get("base") != nil {
		t.Error("_inherit_from did not move base")
	}
	// shared.yaml's tree is as parsed: a's changes are a's.
	after, err := Encode(parsed["shared.yaml"])
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("composing changed the parse of shared.yaml (%v)", err)
	}
	if got := b.Root.Get("srv").Get("resources_servers").Get("srv"); got.Get("port") == nil || got.Get("num_workers").Value != "1" {
		t.Error("a.yaml's directives reached b.yaml's run")
	}
	// Each run knows its include chain for a shared node's file.
	n := b.Servers[0].Settings.Get("port")
	if o := b.OriginOf(n.Origin.File); o == nil || o.ChainString() != "b.yaml -> shared.yaml" {
		t.Errorf("b.yaml's origin of shared.yaml: %+v", o)
	}
	if o := a.OriginOf("shared.yaml"); o == nil || o.ChainString() != "a.yaml -> shared.yaml" {
		t.Errorf("a.yaml's origin of shared.yaml: %+v", o)
	}
}
