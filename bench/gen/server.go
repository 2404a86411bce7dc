package gen

import (
	"strconv"
	"strings"
)

const (
	typeResources = "resources_servers"
	typeAgents    = "responses_api_agents"
	typeModels    = "responses_api_models"
)

// helperMod is a non-entrypoint module in a server dir.
type helperMod struct {
	name        string
	funcs       []fnRef  // exported functions
	remote      []string // exported @ray.remote functions
	imported    bool     // the entrypoint imports it with a bare sibling import
	relFallback bool     // ... written as `try: from .x import y / except ImportError: from x import y`
	deps        []*helperMod
	target      int
}

// server is one server dir (or one extra entrypoint in a server dir).
type server struct {
	typ, name, file string
	cls, cfgCls     string
	parent          *server
	generic         []string // the class's type parameters, if it is generic
	elifApp         bool     // `elif is_nemo_gym_fastapi_entrypoint(__file__): app = ...`
	refuses         bool     // overrides multiple_workers_unsupported_reason
	ray             int      // 0: no Ray, 1: imports ray itself, 2: only through a helper
	rayDecl         bool     // declares ray_enabled: ClassVar[bool] = True
	sessions        bool     // keys state by the session cookie
	helpers         []*helperMod
	target          int // approximate entrypoint size in bytes
	variants        []*server
	tests           int
	initPy          bool
	testsInit       bool
	crlf            bool
	domain          string
	configs         int
	prompts         bool
	year            int
	depth           int // number of repository-defined ancestors
}

func (s *server) dir() string { return s.typ + "/" + s.name }
func (s *server) module() string {
	return s.typ + "." + s.name + "." + strings.TrimSuffix(s.file, ".py")
}

// entryInfo is what the generated entrypoint defines that tests may use.
type entryInfo struct {
	tools    []string
	verifyRq string
}

var cfgFieldPool = []struct{ name, typ, def string }{
	{"max_retries", "int", "3"},
	{"timeout_seconds", "float", "30.0"},
	{"use_cache", "bool", "True"},
	{"num_samples", "int", "1"},
	{"temperature", "float", "0.0"},
	{"judge_prompt_template", "str", `"default"`},
	{"max_concurrency", "int", "16"},
	{"strict_mode", "bool", "False"},
	{"data_dir", "str", `"data"`},
	{"reward_threshold", "float", "0.5"},
	{"max_output_tokens", "int", "4096"},
	{"language", "str", `"en"`},
	{"tool_names", "List[str]", "Field(default_factory=list)"},
	{"extra_headers", "Dict[str, str]", "Field(default_factory=dict)"},
	{"sandbox_image", "Optional[str]", "None"},
	{"max_steps", "int", "10"},
}

type entryGen struct {
	s       *server
	r       *rng
	env     modEnv
	used    map[string]bool
	boolCfg string
	small   bool // a small entrypoint: less prose, fewer statements
	top     pyw
	models  pyw
	methods []*pyw
	routes  []string
	info    entryInfo
}

// uniqueName returns a verb_noun name not yet used in this module.
func (g *entryGen) uniqueName(prefix string) string {
	for i := 0; ; i++ {
		n := prefix + pick(g.r, verbs) + "_" + pick(g.r, nouns)
		if i > 20 {
			n += "_" + strconv.Itoa(i)
		}
		if !g.used[n] {
			g.used[n] = true
			return n
		}
	}
}

func (g *entryGen) size() int {
	n := g.top.size() + g.models.size() + 40*len(g.routes)
	for _, m := range g.methods {
		n += m.size()
	}
	return n
}

// genEntrypoint writes a server module: app.py or an extra entrypoint.
func genEntrypoint(s *server, seed int64) ([]byte, entryInfo) {
	g := &entryGen{s: s, r: newRNG(seed, "entry/"+s.dir()+"/"+s.file), used: map[string]bool{}}
	g.small = s.target < 5000
	r := g.r
	g.setupEnv()

	var head pyw
	g.header(&head)
	g.moduleTop()
	g.configAndModels()

	// Fill the module with tools, private methods and module functions
	// until it reaches its target size.
	for g.size()+5000 < s.target {
		switch r.weighted([]int{45, 25, 30}) {
		case 0:
			if s.typ == typeResources {
				g.tool()
			} else {
				g.private()
			}
		case 1:
			g.private()
		default:
			g.moduleFunc()
		}
	}

	var cls pyw
	g.class(&cls)
	var b strings.Builder
	b.WriteString(head.String())
	b.WriteString(g.top.String())
	b.WriteString(g.models.String())
	b.WriteString(cls.String())
	b.WriteString(g.guard())
	return []byte(b.String()), g.info
}

func (g *entryGen) setupEnv() {
	s, r := g.s, g.r
	env := &g.env
	env.httpErr = s.typ != typeModels
	perm := []int{}
	for i := range cfgFieldPool {
		perm = append(perm, i)
	}
	for i := len(perm) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	nFields := r.between(2, 7)
	if g.small {
		nFields = r.between(1, 2)
	}
	for _, i := range perm[:nFields] {
		env.cfgFields = append(env.cfgFields, cfgFieldPool[i].name)
		if cfgFieldPool[i].typ == "bool" && g.boolCfg == "" {
			g.boolCfg = cfgFieldPool[i].name
		}
	}
	switch s.typ {
	case typeAgents:
		env.serverRefs = []string{"self.config.model_server.name", "self.config.resources_server.name"}
	case typeResources:
		if r.permille(300) {
			env.serverRefs = []string{"self.config.judge_model_server.name"}
		}
	}
	for i, n := 0, r.between(1, 3); i < n; i++ {
		d := pick(r, nouns) + "_" + pick(r, []string{"cache", "index", "by_id", "registry", "stats"})
		if !g.used[d] {
			g.used[d] = true
			env.selfDicts = append(env.selfDicts, d)
		}
	}
	if s.sessions {
		env.selfDicts = append(env.selfDicts, "session_id_to_state")
	}
	if r.permille(300) {
		env.lock = "_lock"
	}
	env.rayGet = s.ray == 1
	for _, h := range s.helpers {
		if h.imported {
			env.funcs = append(env.funcs, h.funcs...)
			env.remote = append(env.remote, h.remote...)
		}
	}
}

func (g *entryGen) header(w *pyw) {
	s, r := g.s, g.r
	licenseHeader(w, s.year)
	if r.permille(300) {
		w.l(`"""%s server for the %s environment."""`, camel(s.name), strings.ReplaceAll(s.name, "_", " "))
		w.blank()
	}
	if r.permille(250) {
		w.l("from __future__ import annotations")
		w.blank()
	}
	w.l("import asyncio")
	w.l("import functools")
	w.l("import json")
	w.l("import logging")
	w.l("import math")
	w.l("import re")
	w.l("import time")
	typing := "Any, ClassVar, Dict, List, Optional, Tuple, Union"
	if len(s.generic) > 0 {
		typing += ", Generic, TypeVar"
	}
	w.l("from typing import %s", typing)
	w.blank()
	if s.ray == 1 {
		w.l("import ray")
	}
	w.l("from fastapi import Body, FastAPI, HTTPException, Request")
	w.l("from pydantic import BaseModel, ConfigDict, Field, PrivateAttr")
	w.blank()
	switch s.typ {
	case typeResources:
		w.l("from nemo_gym.base_resources_server import (")
		w.in()
		for _, n := range []string{"BaseResourcesServerConfig", "BaseSeedSessionRequest", "BaseSeedSessionResponse", "BaseVerifyRequest", "BaseVerifyResponse", "SimpleResourcesServer"} {
			w.l("%s,", n)
		}
		w.out()
		w.l(")")
		w.l("from nemo_gym.config_types import ModelServerRef")
	case typeAgents:
		w.l("from nemo_gym.base_resources_server import BaseRunRequest, BaseVerifyRequest, BaseVerifyResponse")
		w.l("from nemo_gym.base_responses_api_agent import BaseResponsesAPIAgentConfig, SimpleResponsesAPIAgent")
		w.l("from nemo_gym.config_types import ModelServerRef, ResourcesServerRef")
		w.l("from nemo_gym.openai_utils import NeMoGymResponse, NeMoGymResponseCreateParamsNonStreaming")
	case typeModels:
		w.l("from nemo_gym.base_responses_api_model import BaseResponsesAPIModelConfig, SimpleResponsesAPIModel")
		w.l("from nemo_gym.openai_utils import (")
		w.in()
		for _, n := range []string{"NeMoGymChatCompletion", "NeMoGymChatCompletionCreateParamsNonStreaming", "NeMoGymResponse", "NeMoGymResponseCreateParamsNonStreaming"} {
			w.l("%s,", n)
		}
		w.out()
		w.l(")")
	}
	utils := []string{"SESSION_ID_KEY"}
	if s.elifApp {
		utils = append(utils, "is_nemo_gym_fastapi_entrypoint")
	}
	w.l("from nemo_gym.server_utils import %s", strings.Join(utils, ", "))
	if p := s.parent; p != nil {
		w.l("from %s import %s, %s", p.module(), p.cls, p.cfgCls)
	}
	for _, h := range s.helpers {
		if !h.imported {
			continue
		}
		var names []string
		for _, f := range h.funcs {
			names = append(names, f.name)
		}
		names = append(names, h.remote...)
		list := strings.Join(names, ", ")
		if h.relFallback {
			w.blank()
			w.l("try:")
			w.in()
			w.l("from .%s import %s", h.name, list)
			w.out()
			w.l("except ImportError:")
			w.in()
			w.l("from %s import %s", h.name, list)
			w.out()
		} else {
			w.l("from %s import %s", h.name, list)
		}
	}
	w.blank()
	w.blank()
	w.l("logger = logging.getLogger(__name__)")
	w.blank()
}

func (g *entryGen) moduleTop() {
	s, r, w := g.s, g.r, &g.top
	env := &g.env
	for i, n := 0, r.between(1, 4); i < n; i++ {
		name := strings.ToUpper(pick(r, []string{"max_", "default_", "min_", "num_"}) + pick(r, nouns) + "_" + pick(r, []string{"limit", "count", "timeout", "size", "retries"}))
		if g.used[name] {
			continue
		}
		g.used[name] = true
		env.consts = append(env.consts, name)
		w.l("%s = %s", name, pick(r, []string{"3", "8", "30.0", "128", "0.5", "1024"}))
	}
	if r.permille(600) {
		env.regex = "_" + strings.ToUpper(pick(r, nouns)) + "_PATTERN"
		flags := ""
		if r.permille(500) {
			flags = ", re.DOTALL"
		}
		w.l("%s = re.compile(%s%s)", env.regex, pick(r, regexPatterns), flags)
	}
	for i, n := 0, r.weighted([]int{30, 45, 25}); i < n && !g.small; i++ {
		promptConstant(w, r, "_"+strings.ToUpper(pick(r, []string{"system", "judge", "user", "grading", "tool"}))+"_PROMPT_"+itoa(i))
	}
	if r.permille(80) {
		w.l(`_PUNCTUATION_MAP = {"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "…": "..."}`)
	}
	w.blank()
	if len(s.generic) > 0 {
		for _, t := range s.generic {
			w.l(`%s = TypeVar("%s", bound=BaseModel)`, t, t)
		}
		w.blank()
	}
	if s.ray == 1 {
		for i, n := 0, r.between(1, 2); i < n; i++ {
			name := g.uniqueName("_") + "_remote"
			w.blank()
			w.l("@ray.remote(num_cpus=%d)", r.between(1, 4))
			w.l("def %s(payload: Dict[str, Any]) -> Dict[str, Any]:", name)
			w.in()
			f := newFn(r, w, env, false, false, "payload")
			f.stmts(r.between(2, 6))
			w.l("return %s", f.local())
			w.out()
			w.blank()
			env.remote = append(env.remote, name)
		}
	}
}

func (g *entryGen) fields(w *pyw, n int) []string {
	var names []string
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		name := pick(g.r, dictKeys)
		if g.r.permille(400) {
			name = pick(g.r, nouns) + "_" + name
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		ft := pick(g.r, fieldTypes)
		if g.r.permille(500) {
			w.l("%s: %s", name, ft.typ)
		} else {
			w.l("%s: %s = %s", name, ft.typ, ft.def)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		w.l("pass")
	}
	return names
}

func (g *entryGen) configAndModels() {
	s, r, w := g.s, g.r, &g.models
	base := map[string]string{
		typeResources: "BaseResourcesServerConfig",
		typeAgents:    "BaseResponsesAPIAgentConfig",
		typeModels:    "BaseResponsesAPIModelConfig",
	}[s.typ]
	if s.parent != nil {
		base = s.parent.cfgCls
	}
	w.blank()
	w.l("class %s(%s):", s.cfgCls, base)
	w.in()
	if !g.small && r.permille(500) {
		docstring(w, r, nil)
	}
	if s.parent == nil {
		switch s.typ {
		case typeAgents:
			w.l("resources_server: ResourcesServerRef")
			w.l("model_server: ModelServerRef")
		case typeModels:
			w.l("base_url: Union[str, List[str]]")
			w.l("api_key: str")
			w.l("model: str")
		}
	}
	for _, name := range g.env.cfgFields {
		for _, c := range cfgFieldPool {
			if c.name == name {
				w.l("%s: %s = %s", c.name, c.typ, c.def)
			}
		}
	}
	for _, ref := range g.env.serverRefs {
		if strings.Contains(ref, "judge_model_server") {
			w.l("judge_model_server: Optional[ModelServerRef] = None")
		}
	}
	w.out()
	w.blank()
	if p := s.parent; p != nil && len(p.generic) > 0 {
		for _, t := range p.generic {
			w.blank()
			w.l("class %s%s(BaseModel):", s.cls, strings.TrimPrefix(t, "T"))
			w.in()
			g.fields(w, r.between(1, 4))
			w.out()
			w.blank()
		}
	}
	switch s.typ {
	case typeResources:
		g.info.verifyRq = s.cls + "VerifyRequest"
		w.blank()
		w.l("class %sVerifyRequest(BaseVerifyRequest):", s.cls)
		w.in()
		g.fields(w, r.between(1, 4))
		w.out()
		w.blank()
		w.blank()
		w.l("class %sVerifyResponse(BaseVerifyResponse):", s.cls)
		w.in()
		g.fields(w, r.between(0, 3))
		w.out()
		w.blank()
	case typeAgents:
		w.blank()
		w.l("class %sRunRequest(BaseRunRequest):", s.cls)
		w.in()
		w.l(`model_config = ConfigDict(extra="allow")`)
		w.out()
		w.blank()
		w.blank()
		w.l("class %sVerifyResponse(BaseVerifyResponse):", s.cls)
		w.in()
		w.l(`model_config = ConfigDict(extra="allow")`)
		w.out()
		w.blank()
	}
}

// funcBody writes the statements of a function and returns the generator
// so that the caller can write the return statement.
func (g *entryGen) funcBody(w *pyw, async, method bool, params ...string) *fn {
	if !g.small && g.r.permille(600) {
		docstring(w, g.r, params)
	}
	f := newFn(g.r, w, &g.env, async, method, params...)
	if g.small {
		f.stmts(g.r.between(1, 4))
	} else {
		f.stmts(g.r.between(3, 12))
	}
	return f
}

func (g *entryGen) tool() {
	s, r := g.s, g.r
	name := g.uniqueName("")
	req, resp := camel(name)+"Request", camel(name)+"Response"
	w := &g.models
	w.blank()
	w.l("class %s(BaseModel):", req)
	w.in()
	g.fields(w, r.between(1, 5))
	w.out()
	w.blank()
	w.blank()
	w.l("class %s(BaseModel):", resp)
	w.in()
	respFields := g.fields(w, r.between(1, 4))
	w.out()
	w.blank()

	m := &pyw{ind: 1}
	params := []string{"body"}
	withRequest := s.sessions || r.permille(600)
	if withRequest {
		m.l("async def %s(self, request: Request, body: %s) -> %s:", name, req, resp)
		params = append(params, "request")
	} else {
		m.l("async def %s(self, body: %s) -> %s:", name, req, resp)
	}
	m.in()
	if s.sessions {
		m.l("session_id = request.session[SESSION_ID_KEY]")
		m.l("state = self.session_id_to_state.setdefault(session_id, {})")
		params = append(params, "session_id", "state")
	}
	f := g.funcBody(m, true, true, params...)
	var args []string
	for _, fld := range respFields {
		args = append(args, fld+"="+f.expr())
	}
	m.l("return %s(%s)", resp, strings.Join(args, ", "))
	g.methods = append(g.methods, m)
	g.routes = append(g.routes, name)
	g.info.tools = append(g.info.tools, name)
}

func (g *entryGen) params() []string {
	var ps []string
	seen := map[string]bool{}
	for i, n := 0, g.r.between(1, 3); i < n; i++ {
		p := pick(g.r, localNames)
		if !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	return ps
}

func (g *entryGen) private() {
	r := g.r
	name := g.uniqueName("_")
	ps := g.params()
	async := r.permille(650)
	m := &pyw{ind: 1}
	kw := "def"
	if async {
		kw = "async def"
	}
	if r.permille(100) && !async {
		m.l("@staticmethod")
		m.l("def %s(%s) -> Any:", name, strings.Join(ps, ", "))
		m.in()
		f := g.funcBody(m, false, false, ps...)
		m.l("return %s", f.local())
		g.methods = append(g.methods, m)
		g.env.funcs = append(g.env.funcs, fnRef{g.s.cls + "." + name, len(ps)})
		return
	}
	m.l("%s %s(self, %s) -> Any:", kw, name, strings.Join(ps, ", "))
	m.in()
	f := g.funcBody(m, async, true, ps...)
	m.l("return %s", f.local())
	g.methods = append(g.methods, m)
	if async {
		g.env.selfAsync = append(g.env.selfAsync, fnRef{name, len(ps)})
	} else {
		g.env.selfSync = append(g.env.selfSync, fnRef{name, len(ps)})
	}
}

func (g *entryGen) moduleFunc() {
	r, w := g.r, &g.top
	name := g.uniqueName("")
	ps := g.params()
	w.blank()
	if r.permille(100) && len(ps) == 1 {
		w.l("@functools.lru_cache(maxsize=%d)", r.between(16, 1024))
		w.l("def %s(%s: str) -> Any:", name, ps[0])
	} else {
		var typed []string
		for _, p := range ps {
			typed = append(typed, p+": "+pick(r, []string{"Any", "str", "Dict[str, Any]", "List[Any]", "Optional[str]"}))
		}
		w.l("def %s(%s) -> Any:", name, strings.Join(typed, ", "))
	}
	w.in()
	f := g.funcBody(w, false, false, ps...)
	w.l("return %s", f.local())
	w.out()
	w.blank()
	g.env.funcs = append(g.env.funcs, fnRef{name, len(ps)})
}

func (g *entryGen) class(w *pyw) {
	s, r := g.s, g.r
	env := &g.env
	bases := map[string]string{
		typeResources: "SimpleResourcesServer",
		typeAgents:    "SimpleResponsesAPIAgent",
		typeModels:    "SimpleResponsesAPIModel",
	}[s.typ]
	if len(s.generic) > 0 {
		bases += ", Generic[" + strings.Join(s.generic, ", ") + "]"
	}
	if p := s.parent; p != nil {
		bases = p.cls
		if len(p.generic) > 0 {
			var args []string
			for _, t := range p.generic {
				args = append(args, s.cls+strings.TrimPrefix(t, "T"))
			}
			bases += "[" + strings.Join(args, ", ") + "]"
		}
	}
	w.blank()
	w.l("class %s(%s):", s.cls, bases)
	w.in()
	if r.permille(500) {
		w.l(`"""Serve the %s environment."""`, strings.ReplaceAll(s.name, "_", " "))
		w.blank()
	}
	w.l("config: %s", s.cfgCls)
	if s.rayDecl {
		w.l("ray_enabled: ClassVar[bool] = True")
	}
	for _, d := range env.selfDicts {
		w.l("%s: Dict[str, Any] = Field(default_factory=dict)", d)
	}
	if env.lock != "" {
		w.l("%s: asyncio.Lock = PrivateAttr(default_factory=asyncio.Lock)", env.lock)
	}
	if r.permille(300) {
		w.l("%s_LIMIT: ClassVar[int] = %d", strings.ToUpper(pick(r, nouns)), r.between(1, 64))
	}
	w.blank()

	if !g.small && r.permille(250) {
		w.l("def model_post_init(self, context: Any) -> None:")
		w.in()
		w.l("super().model_post_init(context)")
		f := newFn(r, w, env, false, true, "context")
		f.stmts(r.between(1, 4))
		w.out()
		w.blank()
	}
	if len(g.routes) > 0 {
		w.l("def setup_webserver(self) -> FastAPI:")
		w.in()
		w.l("app = super().setup_webserver()")
		w.blank()
		for _, rt := range g.routes {
			w.l(`app.post("/%s")(self.%s)`, rt, rt)
		}
		w.blank()
		w.l("return app")
		w.out()
		w.blank()
	}
	if s.refuses {
		w.l("def multiple_workers_unsupported_reason(self) -> Optional[str]:")
		w.in()
		if g.boolCfg != "" && r.permille(500) {
			w.l("if not self.config.%s:", g.boolCfg)
			w.in()
			w.l("return None")
			w.out()
		}
		w.l("return %q", pick(r, refusalReasons))
		w.out()
		w.blank()
	}
	switch s.typ {
	case typeResources:
		if s.sessions {
			w.l("async def seed_session(self, request: Request, body: BaseSeedSessionRequest) -> BaseSeedSessionResponse:")
			w.in()
			w.l("session_id = request.session[SESSION_ID_KEY]")
			w.l(`self.session_id_to_state[session_id] = {"created_at": time.time(), "history": []}`)
			f := newFn(r, w, env, true, true, "request", "body", "session_id")
			f.stmts(r.between(0, 4))
			w.l("return BaseSeedSessionResponse()")
			w.out()
			w.blank()
		}
	case typeAgents:
		w.l("async def responses(")
		w.in()
		w.l("self, request: Request, body: NeMoGymResponseCreateParamsNonStreaming = Body()")
		w.out()
		w.l(") -> NeMoGymResponse:")
		w.in()
		f := g.funcBody(w, true, true, "request", "body")
		w.l("model_response = await self.server_client.post(")
		w.in()
		w.l("server_name=self.config.model_server.name,")
		w.l(`url_path="/v1/responses",`)
		w.l("json=body,")
		w.l("cookies=request.cookies,")
		w.out()
		w.l(")")
		w.l("return NeMoGymResponse.model_validate(await model_response.json())")
		_ = f
		w.out()
		w.blank()
		w.l("async def run(self, request: Request, body: %sRunRequest) -> %sVerifyResponse:", s.cls, s.cls)
		w.in()
		f = g.funcBody(w, true, true, "request", "body")
		w.l("verify_response = await self.server_client.post(")
		w.in()
		w.l("server_name=self.config.resources_server.name,")
		w.l(`url_path="/verify",`)
		w.l("json=%s,", f.local())
		w.l("cookies=request.cookies,")
		w.out()
		w.l(")")
		w.l("return %sVerifyResponse.model_validate(await verify_response.json())", s.cls)
		w.out()
		w.blank()
	case typeModels:
		w.l("async def responses(")
		w.in()
		w.l("self, request: Request, body: NeMoGymResponseCreateParamsNonStreaming = Body()")
		w.out()
		w.l(") -> NeMoGymResponse:")
		w.in()
		f := g.funcBody(w, true, true, "request", "body")
		w.l("return NeMoGymResponse.model_validate(%s)", f.local())
		w.out()
		w.blank()
		w.l("async def chat_completions(")
		w.in()
		w.l("self, request: Request, body: NeMoGymChatCompletionCreateParamsNonStreaming = Body()")
		w.out()
		w.l(") -> NeMoGymChatCompletion:")
		w.in()
		f = g.funcBody(w, true, true, "request", "body")
		w.l("return NeMoGymChatCompletion.model_validate(%s)", f.local())
		w.out()
		w.blank()
	}
	for _, m := range g.methods {
		w.raw(m.String())
		w.blank()
	}
	if s.typ == typeResources && !(s.parent != nil && r.permille(300)) {
		if r.permille(800) {
			w.l("async def verify(self, body: %sVerifyRequest) -> %sVerifyResponse:", s.cls, s.cls)
		} else {
			w.l("async def verify(self, request: Request, body: %sVerifyRequest) -> %sVerifyResponse:", s.cls, s.cls)
		}
		w.in()
		f := g.funcBody(w, true, true, "body")
		w.l("reward = 1.0 if %s else 0.0", f.cond())
		w.l("return %sVerifyResponse(**body.model_dump(), reward=reward)", s.cls)
		w.out()
		w.blank()
	}
	w.out()
	w.blank()
}

func (g *entryGen) guard() string {
	s := g.s
	var w pyw
	w.blank()
	w.l(`if __name__ == "__main__":`)
	w.l("    %s.run_webserver()", s.cls)
	if s.elifApp {
		w.l("elif is_nemo_gym_fastapi_entrypoint(__file__):")
		w.l("    app = %s.run_webserver()  # noqa: F401", s.cls)
	}
	return w.String()
}
