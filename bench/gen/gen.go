// Package gen generates deterministic synthetic NeMo Gym-style repositories
// for benchmarks.
//
// A generated repository has the layout of NVIDIA NeMo Gym: a small
// nemo_gym/ framework package; server dirs split about 65% under
// resources_servers/, 27% under responses_api_agents/ and 8% under
// responses_api_models/, each with app.py, 0-4 helper modules, a tests/ dir,
// requirements.txt and configs/*.yaml; and a benchmarks/ dir of
// override-only configs. Entrypoints average about 18 KB (a few are 2 KB,
// a few over 100 KB) and contain the shapes gymlint has to handle: server
// classes that subclass a server in another dir (some through a subscripted
// generic base), the `elif is_nemo_gym_fastapi_entrypoint(__file__)` guard,
// multiple_workers_unsupported_reason overrides, Ray used directly or
// through a helper, bare sibling imports, merge keys, _inherit_from and
// ${oc.env:...} in configs. The code is valid Python 3 but does not run.
//
// The same Options give the same bytes on every platform: the generator
// uses its own integer-only random number generator.
package gen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Options controls the generated repository.
type Options struct {
	Servers int   // number of server dirs, e.g. 2000; at least 3
	Seed    int64 // deterministic output for a seed
}

// Summary counts what Generate wrote.
type Summary struct {
	Servers, PyFiles, YAMLFiles int
	PyBytes, YAMLBytes          int64
}

// Generate writes a Gym-shaped repository under dir (which must exist and be
// empty) and returns a summary.
func Generate(dir string, opts Options) (Summary, error) {
	if opts.Servers < 3 {
		return Summary{}, fmt.Errorf("gen: Servers must be at least 3 (one per server type), got %d", opts.Servers)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Summary{}, fmt.Errorf("gen: %w", err)
	}
	if len(entries) > 0 {
		return Summary{}, fmt.Errorf("gen: %s is not empty", dir)
	}
	p := makePlan(opts)
	o := &output{root: dir}
	o.sum.Servers = opts.Servers
	if err := writeRepo(o, p, opts.Seed); err != nil {
		return o.sum, err
	}
	return o.sum, nil
}

type output struct {
	root string
	sum  Summary
	err  error
}

func (o *output) write(rel string, data []byte) {
	if o.err != nil {
		return
	}
	path := filepath.Join(o.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		o.err = err
		return
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		o.err = err
		return
	}
	switch {
	case strings.HasSuffix(rel, ".py"):
		o.sum.PyFiles++
		o.sum.PyBytes += int64(len(data))
	case strings.HasSuffix(rel, ".yaml"), strings.HasSuffix(rel, ".yml"):
		o.sum.YAMLFiles++
		o.sum.YAMLBytes += int64(len(data))
	}
}

func crlf(data []byte, on bool) []byte {
	if !on {
		return data
	}
	return []byte(strings.ReplaceAll(string(data), "\n", "\r\n"))
}

type bench struct {
	name    string
	target  *server
	configs int
	yml     []bool
}

type plan struct {
	resources, agents, models []*server
	benches                   []bench
}

func (p *plan) all() []*server {
	var out []*server
	out = append(out, p.resources...)
	out = append(out, p.agents...)
	return append(out, p.models...)
}

// entrySize draws an entrypoint size: most between 4 and 32 KB, a tenth
// under 4 KB, a few over 100 KB; the mean is about 18 KB.
func entrySize(r *rng) int {
	buckets := []struct{ w, lo, hi int }{
		{105, 1800, 4000}, {200, 4000, 8000}, {330, 8000, 16000}, {260, 16000, 32000},
		{90, 32000, 64000}, {10, 64000, 100000}, {5, 100000, 180000},
	}
	ws := make([]int, len(buckets))
	for i, b := range buckets {
		ws[i] = b.w
	}
	b := buckets[r.weighted(ws)]
	return r.between(b.lo, b.hi)
}

func helperSize(r *rng) int {
	switch r.weighted([]int{30, 40, 25, 5}) {
	case 0:
		return r.between(1500, 4000)
	case 1:
		return r.between(4000, 10000)
	case 2:
		return r.between(10000, 20000)
	default:
		return r.between(20000, 40000)
	}
}

func makePlan(opts Options) *plan {
	n := opts.Servers
	nModels := max(1, (n*8+50)/100)
	nAgents := max(1, (n*27+50)/100)
	nRes := n - nModels - nAgents
	if nRes < 1 {
		nRes, nAgents = 1, n-nModels-1
	}
	r := newRNG(opts.Seed, "plan")
	p := &plan{}
	taken := map[string]bool{}
	name := func(typ string, first []string, words, mods []string, suffix string) string {
		if len(first) > 0 && !taken[typ+first[0]] {
			taken[typ+first[0]] = true
			return first[0]
		}
		for i := 0; ; i++ {
			var s string
			if mods == nil {
				s = pick(r, words) + suffix
				if i > 3 {
					s = pick(r, topicWords) + "_" + pick(r, words) + suffix
				}
			} else if r.permille(700) {
				s = pick(r, words) + "_" + pick(r, mods)
			} else {
				s = pick(r, words) + "_" + pick(r, words)
			}
			if i > 30 {
				s += "_" + itoa(i)
			}
			if !taken[typ+s] {
				taken[typ+s] = true
				return s
			}
		}
	}
	for i := 0; i < nRes; i++ {
		s := &server{typ: typeResources, name: name(typeResources, nil, topicWords, topicModifiers, "")}
		s.cls = camel(s.name) + "ResourcesServer"
		s.cfgCls = s.cls + "Config"
		p.resources = append(p.resources, s)
	}
	agentFirst := [][]string{{"simple_agent"}}
	for i := 0; i < nAgents; i++ {
		var first []string
		if i < len(agentFirst) {
			first = agentFirst[i]
		}
		s := &server{typ: typeAgents, name: name(typeAgents, first, agentWords, nil, "_agent")}
		s.cls = camel(s.name)
		s.cfgCls = s.cls + "Config"
		p.agents = append(p.agents, s)
	}
	modelFirst := [][]string{{"openai_model"}, {"vllm_model"}}
	for i := 0; i < nModels; i++ {
		var first []string
		if i < len(modelFirst) {
			first = modelFirst[i]
		}
		s := &server{typ: typeModels, name: name(typeModels, first, modelWords, nil, "_model")}
		s.cls = camel(s.name)
		s.cfgCls = s.cls + "Config"
		p.models = append(p.models, s)
	}

	for _, group := range [][]*server{p.resources, p.agents, p.models} {
		for i, s := range group {
			planServer(s, group[:i], i, opts.Seed)
		}
	}

	// Benchmarks: override-only configs, about one file per three servers.
	for i, nb := 0, max(1, n/6); i < nb; i++ {
		t := pick(r, p.resources)
		b := bench{name: t.name + pick(r, []string{"", "_x", "_v2", "_hard", "_mini"}), target: t, configs: r.between(1, 3)}
		if taken["bench"+b.name] {
			b.name += "_" + itoa(i)
		}
		taken["bench"+b.name] = true
		for j := 0; j < b.configs; j++ {
			b.yml = append(b.yml, r.permille(100))
		}
		p.benches = append(p.benches, b)
	}
	return p
}

// planServer decides the features of the i-th server of a type; earlier
// holds the servers of the same type planned before it. The first few
// servers of each type are forced to have one feature each, so that even a
// small repository has every shape.
func planServer(s *server, earlier []*server, i int, seed int64) {
	r := newRNG(seed, "plan/"+s.dir())
	s.file = "app.py"
	s.year = 2024 + r.intn(3)
	s.domain = pick(r, domains)
	s.target = entrySize(r)
	res := s.typ == typeResources
	special := s.name == "simple_agent" || s.name == "openai_model"

	s.generic = nil
	if res && (i == 1 || (i > 8 && r.permille(20))) {
		s.generic = []string{"TTask", "TState"}
	}
	if len(s.generic) == 0 && !special && len(earlier) > 0 && (res && i == 2 || i > 8 && r.permille(150)) {
		var candidates, generics []*server
		for _, e := range earlier {
			if e.depth < 3 {
				candidates = append(candidates, e)
				if len(e.generic) > 0 {
					generics = append(generics, e)
				}
			}
		}
		if len(generics) > 0 && (i == 2 || r.permille(250)) {
			s.parent = pick(r, generics)
		} else if len(candidates) > 0 {
			s.parent = pick(r, candidates)
		}
		if s.parent != nil {
			s.depth = s.parent.depth + 1
		}
	}
	s.elifApp = (res && i == 3) || s.name == "vllm_model" || (i > 8 && r.permille(50))
	s.refuses = (res && i == 4) || (i > 8 && r.permille(30))
	switch {
	case res && i == 5, i > 8 && r.permille(40):
		s.ray = 1
	case res && i == 6, i > 8 && r.permille(40):
		s.ray = 2
	}
	s.rayDecl = s.ray > 0 && r.permille(500)
	s.sessions = res && (i == 7 || r.permille(200))
	s.crlf = i > 8 && r.permille(5)
	s.initPy = r.permille(150)
	s.testsInit = r.permille(600)
	s.configs = 1
	if res {
		if r.permille(400) {
			s.configs++
		}
		if r.permille(100) {
			s.configs++
		}
		s.prompts = r.permille(200)
	}

	nHelpers := r.weighted([]int{15, 25, 30, 18, 12})
	if s.ray == 2 && nHelpers == 0 {
		nHelpers = 1
	}
	used := map[string]bool{}
	for j := 0; j < nHelpers; j++ {
		h := &helperMod{target: helperSize(r)}
		for {
			h.name = pick(r, helperModuleNames)
			if !used[h.name] {
				used[h.name] = true
				break
			}
		}
		h.imported = r.permille(100) || (j == 0 && (s.ray == 2 || i == 8))
		h.relFallback = h.imported && r.permille(200)
		for k, nf := 0, r.between(1, 4); k < nf; k++ {
			fname := pick(r, verbs) + "_" + pick(r, nouns)
			if used[fname] {
				continue
			}
			used[fname] = true
			h.funcs = append(h.funcs, fnRef{fname, r.between(1, 3)})
		}
		if len(h.funcs) == 0 {
			h.funcs = append(h.funcs, fnRef{h.name + "_main", 1})
		}
		if j == 0 && s.ray == 2 {
			h.remote = []string{pick(r, verbs) + "_" + pick(r, nouns) + "_remote"}
		}
		if j > 0 && r.permille(400) {
			h.deps = append(h.deps, s.helpers[r.intn(j)])
		}
		s.helpers = append(s.helpers, h)
	}

	s.tests = r.between(1, 3)

	if res && (i == 9 || i > 9 && r.permille(30)) {
		vname := pick(r, []string{"lite", "hard", "multi", "judge", "client", "notebook", "legacy"})
		v := &server{
			typ: s.typ, name: s.name, file: vname + "_app.py",
			cls: camel(vname) + s.cls, cfgCls: camel(vname) + s.cfgCls,
			parent: s, year: s.year, domain: s.domain,
			target: r.between(2000, 6000), depth: s.depth + 1,
		}
		v.elifApp = r.permille(200)
		s.variants = append(s.variants, v)
	}
}

func writeRepo(o *output, p *plan, seed int64) error {
	o.write("README.md", []byte(topReadme))
	o.write("pyproject.toml", []byte(topPyproject))
	o.write(".github/workflows/tests.yml", []byte(ciWorkflow))
	for _, f := range frameworkFiles {
		o.write(f.path, []byte(f.text))
	}
	for _, s := range p.all() {
		writeServer(o, s, p, seed)
		if o.err != nil {
			return o.err
		}
	}
	for _, b := range p.benches {
		dir := "benchmarks/" + b.name
		o.write(dir+"/__init__.py", nil)
		o.write(dir+"/prepare.py", genBenchPrepare(b.name, seed))
		for i := 0; i < b.configs; i++ {
			name := dir + "/config.yaml"
			if i > 0 {
				name = dir + "/configs/" + b.name + "_" + itoa(i) + ".yaml"
			}
			if b.yml[i] {
				name = strings.TrimSuffix(name, ".yaml") + ".yml"
			}
			o.write(name, genBenchConfig(b.name, b.target, seed, i))
		}
	}
	if o.err != nil {
		return o.err
	}
	if o.sum.PyFiles == 0 {
		return errors.New("gen: wrote no Python files")
	}
	return nil
}

func writeServer(o *output, s *server, p *plan, seed int64) {
	dir := s.dir()
	app, info := genEntrypoint(s, seed)
	o.write(dir+"/app.py", crlf(app, s.crlf))
	for _, v := range s.variants {
		src, _ := genEntrypoint(v, seed)
		o.write(dir+"/"+v.file, src)
	}
	if s.initPy {
		o.write(dir+"/__init__.py", nil)
	}
	for _, h := range s.helpers {
		o.write(dir+"/"+h.name+".py", genHelper(s, h, seed))
	}
	r := newRNG(seed, "tests/"+dir)
	if s.testsInit {
		o.write(dir+"/tests/__init__.py", nil)
	}
	appTarget := max(1500, s.target*r.between(60, 140)/100)
	o.write(dir+"/tests/test_app.py", genTest(s, info, nil, appTarget, seed, "test_app.py"))
	for i := 1; i < s.tests; i++ {
		if i-1 < len(s.helpers) {
			h := s.helpers[i-1]
			name := "test_" + h.name + ".py"
			o.write(dir+"/tests/"+name, genTest(s, info, h, r.between(2000, 8000), seed, name))
		} else {
			name := "test_" + pick(r, nouns) + "_" + itoa(i) + ".py"
			o.write(dir+"/tests/"+name, genTest(s, info, nil, r.between(2000, 8000), seed, name))
		}
	}
	o.write(dir+"/requirements.txt", genRequirements(s, seed))
	cfgs := genConfigs(s, p.agents, seed)
	names := make([]string, 0, len(cfgs))
	for n := range cfgs {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		o.write(dir+"/configs/"+n, crlf(cfgs[n], s.crlf && i == 0))
	}
	if s.prompts {
		o.write(dir+"/prompts/default.yaml", genPrompts(s, seed))
	}
}
