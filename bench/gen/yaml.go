package gen

import (
	"strings"
)

// yw builds YAML text line by line with two-space indentation.
type yw struct {
	b   strings.Builder
	ind int
}

func (w *yw) l(parts ...string) {
	for i := 0; i < w.ind; i++ {
		w.b.WriteString("  ")
	}
	for _, p := range parts {
		w.b.WriteString(p)
	}
	w.b.WriteByte('\n')
}
func (w *yw) in()  { w.ind++ }
func (w *yw) out() { w.ind-- }

func (w *yw) ref(key, typ, name string) {
	w.l(key, ":")
	w.in()
	w.l("type: ", typ)
	w.l("name: ", name)
	w.out()
}

func datasets(w *yw, r *rng, dir, name string) {
	w.l("datasets:")
	for _, split := range []string{"train", "validation", "example"}[:r.between(1, 3)] {
		w.l("- name: ", split)
		w.in()
		w.l("type: ", split)
		w.l("jsonl_fpath: ", dir, "/data/", split, ".jsonl")
		if split != "example" {
			if r.permille(500) {
				w.l("huggingface_identifier:")
				w.in()
				w.l("repo_id: synthetic/", name, "-", split)
				w.out()
			}
			w.l("license: ", pick(r, []string{"Apache 2.0", "MIT", "CC BY 4.0"}))
		}
		w.out()
	}
}

func agentInstance(w *yw, r *rng, instance, agent, resources string) {
	w.l(instance, ":")
	w.in()
	w.l(typeAgents, ":")
	w.in()
	w.l(agent, ":")
	w.in()
	w.l("entrypoint: app.py")
	w.ref("resources_server", typeResources, resources)
	w.ref("model_server", typeModels, "policy_model")
	if r.permille(300) {
		w.l("max_steps: ", itoa(r.between(4, 64)))
	}
	datasets(w, r, typeResources+"/"+strings.TrimSuffix(resources, "_strict"), resources)
	w.out()
	w.out()
	w.out()
}

func resourcesBody(w *yw, r *rng, s *server, entry string) {
	w.l("entrypoint: ", entry)
	w.l("domain: ", s.domain)
	w.l("verified: ", pick(r, []string{"false", "true"}))
	w.l("description: ", camel(s.name), " environment (synthetic)")
	if r.permille(300) {
		w.ref("judge_model_server", typeModels, "policy_model")
		w.l("judge_api_key: ${oc.env:JUDGE_API_KEY,???}")
	}
	if r.permille(200) {
		w.l("num_workers: ", pick(r, []string{"1", "2", "4", "16"}))
	}
	if r.permille(250) {
		w.l("timeout_seconds: ", itoa(r.between(10, 600)))
	}
}

// genConfigs returns the config files of a server dir, keyed by file name
// under configs/.
func genConfigs(s *server, agents []*server, seed int64) map[string][]byte {
	r := newRNG(seed, "configs/"+s.dir())
	out := map[string][]byte{}
	switch s.typ {
	case typeResources:
		w := &yw{}
		resourcesInstance(w, r, s)
		agentInstance(w, r, s.name+"_simple_agent", "simple_agent", s.name)
		out[s.name+".yaml"] = []byte(w.b.String())
		for i := 1; i < s.configs; i++ {
			w := &yw{}
			switch r.intn(3) {
			case 0: // anchor + merge key: the second instance gets its entrypoint through <<.
				anchor := s.name + "_base_cfg"
				w.l(s.name, "_base:")
				w.in()
				w.l(typeResources, ":")
				w.in()
				w.l(s.name, ": &", anchor)
				w.in()
				resourcesBody(w, r, s, "app.py")
				w.out()
				w.out()
				w.out()
				w.l(s.name, "_strict:")
				w.in()
				w.l(typeResources, ":")
				w.in()
				w.l(s.name, ":")
				w.in()
				w.l("<<: *", anchor)
				w.l("strict_mode: true")
				w.out()
				w.out()
				w.out()
				agentInstance(w, r, s.name+"_strict_simple_agent", "simple_agent", s.name+"_strict")
			case 1: // override of the main config through _inherit_from
				w.l("config_paths:")
				w.l("  - ", s.dir(), "/configs/", s.name, ".yaml")
				w.l("")
				w.l(s.name, "_eval:")
				w.in()
				w.l("_inherit_from: ", s.name)
				w.l(typeResources, ":")
				w.in()
				w.l(s.name, ":")
				w.in()
				w.l("num_workers: ", pick(r, []string{"1", "4", "8"}))
				w.l("cache_dir: ${oc.env:HF_HOME,/tmp/hf}/", s.name)
				w.out()
				w.out()
				w.out()
			default: // a different agent
				agent := pick(r, agents)
				w.l("policy_base_url: ${oc.env:POLICY_BASE_URL,http://localhost:8000/v1}")
				w.l("")
				resourcesInstance(w, r, s)
				agentInstance(w, r, s.name+"_"+agent.name, agent.name, s.name)
			}
			out[s.name+"_"+pick(r, []string{"eval", "train", "judge", "strict", "multi", "long"})+"_"+itoa(i)+".yaml"] = []byte(w.b.String())
		}
		for _, v := range s.variants {
			w := &yw{}
			vname := s.name + "_" + strings.TrimSuffix(v.file, "_app.py")
			w.l(vname, ":")
			w.in()
			w.l(typeResources, ":")
			w.in()
			w.l(s.name, ":")
			w.in()
			resourcesBody(w, r, s, v.file)
			w.out()
			w.out()
			w.out()
			agentInstance(w, r, vname+"_simple_agent", "simple_agent", vname)
			out[vname+".yaml"] = []byte(w.b.String())
		}
	case typeAgents:
		w := &yw{}
		w.l("# ", camel(s.name), " agent")
		w.l(s.name, ":")
		w.in()
		w.l(typeAgents, ":")
		w.in()
		w.l(s.name, ":")
		w.in()
		w.l("entrypoint: app.py")
		w.ref("resources_server", typeResources, "${resources_server_name}")
		w.ref("model_server", typeModels, "policy_model")
		w.l("max_steps: ", itoa(r.between(4, 64)))
		if r.permille(200) {
			w.l("num_workers: ", pick(r, []string{"1", "4"}))
		}
		w.out()
		w.out()
		w.out()
		out[s.name+".yaml"] = []byte(w.b.String())
	case typeModels:
		instance := s.name
		if s.name == "openai_model" {
			instance = "policy_model"
		}
		w := &yw{}
		w.l(instance, ":")
		w.in()
		w.l(typeModels, ":")
		w.in()
		w.l(s.name, ":")
		w.in()
		w.l("entrypoint: app.py")
		w.l("base_url: ${oc.env:POLICY_BASE_URL,http://localhost:8000/v1}")
		w.l("api_key: ${oc.env:POLICY_API_KEY,dummy}")
		w.l("model: ${policy_model_name}")
		if r.permille(300) {
			w.l("num_workers: ", pick(r, []string{"1", "4", "16"}))
		}
		w.out()
		w.out()
		w.out()
		out[s.name+".yaml"] = []byte(w.b.String())
	}
	return out
}

// genBenchConfig writes an override-only benchmark config: it uses the
// server nesting but names no entrypoint.
func genBenchConfig(name string, target *server, seed int64, i int) []byte {
	r := newRNG(seed, "benchcfg/"+name+"/"+itoa(i))
	w := &yw{}
	w.l("# Chain to the environment's own config.")
	w.l("config_paths:")
	w.l("  - ", target.dir(), "/configs/", target.name, ".yaml")
	w.l("  - responses_api_models/vllm_model/configs/vllm_model.yaml")
	w.l("")
	if r.permille(500) {
		w.l("policy_model:")
		w.in()
		w.l(typeModels, ":")
		w.in()
		w.l("vllm_model:")
		w.in()
		w.l("num_workers: ", pick(r, []string{"4", "8", "16"}))
		w.out()
		w.out()
		w.out()
	}
	w.l(target.name, "_", name, "_agent:")
	w.in()
	w.l("_inherit_from: ", target.name, "_simple_agent")
	w.l(typeAgents, ":")
	w.in()
	w.l("simple_agent:")
	w.in()
	w.l("datasets:")
	w.l("- name: ", name)
	w.in()
	w.l("type: benchmark")
	w.l("jsonl_fpath: benchmarks/", name, "/data/", name, "_benchmark.jsonl")
	w.l("prepare_script: benchmarks/", name, "/prepare.py")
	w.l("num_repeats: ", itoa(r.between(1, 16)))
	w.out()
	w.out()
	w.out()
	w.out()
	if r.permille(300) {
		w.l(target.name, ":")
		w.in()
		w.l(typeResources, ":")
		w.in()
		w.l(target.name, ":")
		w.in()
		w.l("_delete_key: judge_model_server")
		w.l("timeout_seconds: ${oc.select:bench_timeout,600}")
		w.out()
		w.out()
		w.out()
	}
	return []byte(w.b.String())
}

func genPrompts(s *server, seed int64) []byte {
	r := newRNG(seed, "prompts/"+s.dir())
	w := &yw{}
	w.l("system_prompt: |")
	w.l("  You are a careful assistant working on ", strings.ReplaceAll(s.name, "_", " "), " tasks.")
	w.l("  ", pick(r, []string{"Think step by step.", "Answer concisely.", "Use the tools when needed."}))
	w.l(`user_template: "Question: {question}\nAnswer:"`)
	w.l("few_shot:")
	for i, n := 0, r.between(0, 3); i < n; i++ {
		w.l("  - question: ", pick(r, nouns), " ", itoa(i))
		w.l("    answer: ", pick(r, stringValues[1:]))
	}
	return []byte(w.b.String())
}

// resourcesInstance writes `<name>: resources_servers: <name>: {...}`, the
// resources server instance of a server's own config.
func resourcesInstance(w *yw, r *rng, s *server) {
	w.l(s.name, ":")
	w.in()
	w.l(typeResources, ":")
	w.in()
	w.l(s.name, ":")
	w.in()
	resourcesBody(w, r, s, "app.py")
	w.out()
	w.out()
	w.out()
}
