package gen

import (
	"strings"
)

// genHelper writes a helper module of a server dir.
func genHelper(s *server, h *helperMod, seed int64) []byte {
	r := newRNG(seed, "helper/"+s.dir()+"/"+h.name)
	w := &pyw{}
	licenseHeader(w, s.year)
	w.l(`"""%s for the %s server."""`, camel(h.name)+" helpers", strings.ReplaceAll(s.name, "_", " "))
	w.blank()
	w.l("import json")
	w.l("import logging")
	w.l("import math")
	w.l("import re")
	w.l("import time")
	w.l("from dataclasses import dataclass, field")
	w.l("from typing import Any, Dict, List, Optional")
	w.blank()
	if len(h.remote) > 0 {
		w.l("import ray")
		w.blank()
	}
	env := &modEnv{}
	for _, d := range h.deps {
		w.l("from %s import %s", d.name, d.funcs[0].name)
		env.funcs = append(env.funcs, d.funcs[0])
	}
	w.blank()
	w.l("logger = logging.getLogger(__name__)")
	w.blank()
	for i, n := 0, r.between(0, 3); i < n; i++ {
		name := strings.ToUpper(pick(r, nouns) + "_" + pick(r, []string{"limit", "weight", "timeout", "size"}))
		env.consts = append(env.consts, name)
		w.l("%s = %s", name, pick(r, []string{"3", "0.25", "60.0", "512"}))
	}
	if r.permille(500) {
		promptConstant(w, r, "DEFAULT_PROMPT")
	}
	if r.permille(600) {
		env.regex = "_PATTERN"
		w.l("_PATTERN = re.compile(%s)", pick(r, regexPatterns))
	}
	w.blank()
	if r.permille(500) {
		rec := camel(pick(r, nouns)) + "Record"
		w.blank()
		w.l("@dataclass")
		w.l("class %s:", rec)
		w.in()
		w.l("id: str")
		w.l("text: str = \"\"")
		w.l("score: float = 0.0")
		w.l("tags: List[str] = field(default_factory=list)")
		w.l("extra: Dict[str, Any] = field(default_factory=dict)")
		w.blank()
		w.l("def to_dict(self) -> Dict[str, Any]:")
		w.in()
		w.l(`return {"id": self.id, "text": self.text, "score": self.score, "tags": list(self.tags), **self.extra}`)
		w.out()
		w.blank()
		w.l("@classmethod")
		w.l("def from_dict(cls, data: Dict[str, Any]) -> %q:", rec)
		w.in()
		w.l(`return cls(id=str(data.get("id", "")), text=data.get("text", ""), score=float(data.get("score", 0.0)))`)
		w.out()
		w.out()
		w.blank()
	}
	for _, name := range h.remote {
		w.blank()
		w.l("@ray.remote(num_cpus=1)")
		w.l("def %s(payload: Dict[str, Any]) -> Dict[str, Any]:", name)
		w.in()
		f := newFn(r, w, env, false, false, "payload")
		f.stmts(r.between(2, 8))
		w.l("return %s", f.local())
		w.out()
		w.blank()
	}
	helperFunc := func(name string, params []string) {
		w.blank()
		w.l("def %s(%s) -> Any:", name, strings.Join(params, ", "))
		w.in()
		if r.permille(650) {
			docstring(w, r, params)
		}
		f := newFn(r, w, env, false, false, params...)
		f.stmts(r.between(3, 12))
		w.l("return %s", f.local())
		w.out()
		w.blank()
	}
	for _, fr := range h.funcs {
		var ps []string
		for i := 0; i < fr.arity; i++ {
			ps = append(ps, []string{"text", "reference", "options"}[i])
		}
		helperFunc(fr.name, ps)
		env.funcs = append(env.funcs, fr)
	}
	for i := 0; w.size() < h.target; i++ {
		name := "_" + pick(r, verbs) + "_" + pick(r, nouns) + "_" + itoa(i)
		ps := []string{pick(r, localNames)}
		helperFunc(name, ps)
		env.funcs = append(env.funcs, fnRef{name, 1})
	}
	return []byte(w.String())
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// genTest writes a test module. subject is nil for test_app.py, or the
// helper module the test file covers.
func genTest(s *server, info entryInfo, subject *helperMod, target int, seed int64, file string) []byte {
	r := newRNG(seed, "test/"+s.dir()+"/"+file)
	w := &pyw{}
	licenseHeader(w, s.year)
	w.l("import json")
	w.l("from unittest.mock import AsyncMock, MagicMock")
	w.blank()
	w.l("import pytest")
	w.blank()
	w.l("from nemo_gym.server_utils import ServerClient")
	env := &modEnv{asserts: true}
	if subject == nil {
		names := []string{s.cls, s.cfgCls}
		if info.verifyRq != "" {
			names = append(names, info.verifyRq)
		}
		w.l("from %s import %s", s.module(), strings.Join(names, ", "))
	}
	for _, h := range s.helpers {
		if subject != nil && h != subject {
			continue
		}
		var names []string
		for _, f := range h.funcs {
			names = append(names, f.name)
		}
		w.l("from %s.%s import %s", strings.ReplaceAll(s.dir(), "/", "."), h.name, strings.Join(names, ", "))
		env.funcs = append(env.funcs, h.funcs...)
	}
	w.blank()
	w.blank()
	if subject == nil {
		w.l("@pytest.fixture")
		w.l("def config() -> %s:", s.cfgCls)
		w.in()
		switch s.typ {
		case typeResources:
			w.l(`return %s(host="127.0.0.1", port=8000, entrypoint="", name="%s", domain="other")`, s.cfgCls, s.name)
		case typeAgents:
			w.l(`return %s(`, s.cfgCls)
			w.in()
			w.l(`host="127.0.0.1",`)
			w.l(`port=8000,`)
			w.l(`entrypoint="",`)
			w.l(`name="%s",`, s.name)
			w.l(`resources_server={"type": "resources_servers", "name": "dummy"},`)
			w.l(`model_server={"type": "responses_api_models", "name": "policy_model"},`)
			w.out()
			w.l(")")
		default:
			w.l(`return %s(host="127.0.0.1", port=8000, entrypoint="", name="%s", base_url="http://localhost", api_key="dummy", model="dummy")`, s.cfgCls, s.name)
		}
		w.out()
		w.blank()
		w.blank()
		w.l("@pytest.fixture")
		w.l("def server(config: %s) -> %s:", s.cfgCls, s.cls)
		w.in()
		w.l("return %s(config=config, server_client=MagicMock(spec=ServerClient))", s.cls)
		w.out()
		w.blank()
		w.blank()
	}
	testCls := "Test" + s.cls
	if subject != nil {
		testCls = "Test" + camel(subject.name)
	}
	w.l("class %s:", testCls)
	w.in()
	if subject == nil {
		w.l("def test_sanity(self, server: %s) -> None:", s.cls)
		w.in()
		w.l(`assert server.config.name == "%s"`, s.name)
		w.out()
		w.blank()
	}
	targets := append([]string{}, info.tools...)
	if s.typ == typeResources {
		targets = append(targets, "verify")
	} else {
		targets = append(targets, "responses")
	}
	for i := 0; w.size() < target; i++ {
		if len(env.funcs) > 0 && r.permille(300) {
			fr := pick(r, env.funcs)
			var cases []string
			for j, n := 0, r.between(2, 5); j < n; j++ {
				var args []string
				for k := 0; k < fr.arity; k++ {
					args = append(args, `"`+pick(r, stringValues)+`"`)
				}
				args = append(args, `"`+pick(r, stringValues)+`"`)
				cases = append(cases, "("+strings.Join(args, ", ")+")")
			}
			var params []string
			for k := 0; k < fr.arity; k++ {
				params = append(params, "arg"+itoa(k))
			}
			w.l(`@pytest.mark.parametrize("%s", [%s])`, strings.Join(append(append([]string{}, params...), "expected"), ", "), strings.Join(cases, ", "))
			w.l("def test_%s_%s(self, %s, expected) -> None:", strings.TrimLeft(fr.name, "_"), itoa(i), strings.Join(params, ", "))
			w.in()
			w.l("assert %s(%s) == expected", fr.name, strings.Join(params, ", "))
			w.out()
			w.blank()
			continue
		}
		if subject == nil {
			m := pick(r, targets)
			w.l("async def test_%s_%s_%s(self, server: %s) -> None:", m, pick(r, []string{"returns", "handles", "rejects", "scores"}), pick(r, nouns), s.cls)
			w.in()
			if r.permille(650) {
				docstring(w, r, nil)
			}
			w.l("server.server_client.post = AsyncMock(return_value=MagicMock(json=AsyncMock(return_value={})))")
			w.l("body = MagicMock()")
			f := newFn(r, w, env, true, false, "server", "body")
			f.stmts(r.between(1, 4))
			w.l("result = await server.%s(body)", m)
			w.l("assert result is not None")
			f.locals = append(f.locals, "result")
			f.stmts(r.between(2, 8))
			w.out()
			w.blank()
		} else {
			w.l("def test_%s_%s(self) -> None:", pick(r, verbs), pick(r, nouns))
			w.in()
			if r.permille(650) {
				docstring(w, r, nil)
			}
			f := newFn(r, w, env, false, false)
			f.stmts(r.between(3, 10))
			w.out()
			w.blank()
		}
	}
	w.out()
	return []byte(w.String())
}

func genRequirements(s *server, seed int64) []byte {
	r := newRNG(seed, "req/"+s.dir())
	var b strings.Builder
	b.WriteString("-e nemo-gym[dev] @ ../../\n")
	seen := map[string]bool{}
	for i, n := 0, r.between(0, 4); i < n; i++ {
		p := pick(r, requirementPkgs)
		if seen[p] {
			continue
		}
		seen[p] = true
		b.WriteString(p)
		if r.permille(500) {
			b.WriteString(">=" + itoa(r.between(0, 3)) + "." + itoa(r.between(0, 20)))
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func genBenchPrepare(name string, seed int64) []byte {
	r := newRNG(seed, "bench/"+name)
	w := &pyw{}
	licenseHeader(w, 2025)
	w.l(`"""Download and convert the %s benchmark data."""`, name)
	w.blank()
	w.l("import argparse")
	w.l("import json")
	w.l("import logging")
	w.l("import math")
	w.l("import re")
	w.l("import time")
	w.l("from pathlib import Path")
	w.blank()
	w.l("logger = logging.getLogger(__name__)")
	w.blank()
	w.blank()
	env := &modEnv{}
	for i, n := 0, r.between(1, 4); i < n; i++ {
		name := "convert_" + pick(r, nouns) + "_" + itoa(i)
		w.l("def %s(row):", name)
		w.in()
		f := newFn(r, w, env, false, false, "row")
		f.stmts(r.between(2, 8))
		w.l("return %s", f.local())
		w.out()
		w.blank()
		w.blank()
		env.funcs = append(env.funcs, fnRef{name, 1})
	}
	w.l("def main() -> None:")
	w.in()
	w.l("parser = argparse.ArgumentParser()")
	w.l(`parser.add_argument("--output", type=Path, default=Path(__file__).parent / "data" / "%s_benchmark.jsonl")`, name)
	w.l("args = parser.parse_args()")
	w.l("args.output.parent.mkdir(parents=True, exist_ok=True)")
	w.l(`with args.output.open("w", encoding="utf-8") as fh:`)
	w.in()
	w.l("for row in []:")
	w.in()
	w.l(`fh.write(json.dumps(%s(row)) + "\n")`, env.funcs[0].name)
	w.out()
	w.out()
	w.out()
	w.blank()
	w.blank()
	w.l(`if __name__ == "__main__":`)
	w.l("    main()")
	return []byte(w.String())
}
