package pyscan

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// gymModule generates a large module shaped like a NeMo Gym entrypoint:
// imports, a config, helper functions, Ray remotes and server classes with
// session handling, repeated until the text reaches size bytes, then the
// __main__ guard.
func gymModule(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`# SPDX-License-Identifier: Apache-2.0
"""A generated resources server used to benchmark pyscan."""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, ClassVar, Dict, List, Optional

import ray
from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from nemo_gym.base_resources_server import (
    BaseResourcesServerConfig,
    BaseSeedSessionRequest,
    BaseVerifyRequest,
    BaseVerifyResponse,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

try:
    from .scoring import normalize_answer, score_answer
except ImportError:
    from scoring import normalize_answer, score_answer

logger = logging.getLogger(__name__)
MAX_TURNS = 16

`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `
class Tool%[1]dRequest(BaseModel):
    query: str
    limit: int = 10
    options: Dict[str, Any] = Field(default_factory=dict)


@ray.remote(num_cpus=1)
def _grade_%[1]d(answer: str, expected: str, *, strict: bool = False) -> float:
    """Grade one answer on a Ray worker."""
    if strict and not answer:
        raise ValueError(f"empty answer for task {%[1]d!r}")
    return float(normalize_answer(answer) == normalize_answer(expected))


class Env%[1]dServer(SimpleResourcesServer):
    config: BaseResourcesServerConfig
    ray_enabled: ClassVar[bool] = True
    session_id_to_state: Dict[str, Dict[str, Any]] = Field(default_factory=dict)
    TOOLS = ("search", "lookup", "finish")

    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()
        app.post("/tool_%[1]d")(self.tool)
        return app

    async def seed_session(self, request: Request, body: BaseSeedSessionRequest):
        session_id = request.session[SESSION_ID_KEY]
        if session_id in self.session_id_to_state:
            raise HTTPException(status_code=400, detail="Session already seeded.")
        self.session_id_to_state[session_id] = {"turns": 0, "history": []}
        return await super().seed_session(request, body)

    async def tool(self, request: Request, body: Tool%[1]dRequest) -> Dict[str, Any]:
        state = self.session_id_to_state.get(request.session[SESSION_ID_KEY])
        if state is None:
            raise HTTPException(status_code=400, detail="Session not initialized. Call seed_session first.")
        state["turns"] += 1
        results = [r for r in await self._search(body.query) if r.get("score", 0) > 0.5][: body.limit]
        match body.options.get("mode"):
            case "json":
                return {"results": json.dumps(results)}
            case {"format": fmt} if fmt in ("md", "txt"):
                return {"results": "\n".join(f"- {r['title']}" for r in results)}
            case _:
                return {"results": results}

    async def _search(self, query: str) -> List[Dict[str, Any]]:
        await asyncio.sleep(0)
        return [{"title": query.upper(), "score": len(query) / (len(query) + 1)}]

    async def verify(self, request: Request, body: BaseVerifyRequest) -> BaseVerifyResponse:
        state = self.session_id_to_state.pop(request.session[SESSION_ID_KEY], None)
        assert state is not None, "verify before seed_session"
        ref = _grade_%[1]d.remote(body.response.output_text, body.expected_answer)
        reward = await asyncio.get_running_loop().run_in_executor(None, ray.get, ref)
        if (turns := state["turns"]) > MAX_TURNS:
            logger.warning("too many turns: %%d", turns)
            reward = 0.0
        return BaseVerifyResponse(**body.model_dump(), reward=reward)
`, i)
	}
	b.WriteString(`

if __name__ == "__main__":
    Env0Server.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = Env0Server.run_webserver()  # noqa: F401
`)
	return b.Bytes()
}

const benchSize = 150 << 10

// TestBenchModule checks that the benchmark input is valid and realistic.
func TestBenchModule(t *testing.T) {
	src := gymModule(benchSize)
	m := parseSrc(t, string(src))
	if m.SyntaxError != nil {
		t.Fatalf("benchmark module has a syntax error: %+v", m.SyntaxError)
	}
	if len(src) < benchSize || len(m.Classes) < 50 || len(m.Functions) < 25 || len(m.Imports) != 25 {
		t.Fatalf("benchmark module: %d bytes, %d classes, %d functions, %d imports",
			len(src), len(m.Classes), len(m.Functions), len(m.Imports))
	}
	if n := len(find[*Match](m, nil)); n < 25 {
		t.Fatalf("benchmark module: %d match statements", n)
	}
}

// BenchmarkParse measures Parse: tree-sitter plus building the model.
func BenchmarkParse(b *testing.B) {
	src := gymModule(benchSize)
	p := NewParser(Options{})
	defer p.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if m := p.Parse("bench/app.py", src); m.SyntaxError != nil {
			b.Fatal(m.SyntaxError)
		}
	}
}

// BenchmarkParseTreeOnly measures tree-sitter alone on the same bytes, the
// same way Parse calls it, so that the model's overhead is the ratio of
// the two.
func BenchmarkParseTreeOnly(b *testing.B) {
	src := gymModule(benchSize)
	p := NewParser(Options{})
	defer p.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		tree, _ := p.parseTree(src, nil, nil)
		if tree == nil {
			b.Fatal("the parse did not finish")
		}
		tree.Close()
	}
}

// BenchmarkParseRatio reports BenchmarkParse's ratio to
// BenchmarkParseTreeOnly from pairs: each iteration times tree-sitter's
// parse alone and then Parse on the same bytes, and the metric is the
// median of the pairs' ratios. On a shared machine the two benchmarks,
// run one after the other for seconds each, meet different neighbours; a
// pair is timed within a few tens of milliseconds.
func BenchmarkParseRatio(b *testing.B) {
	src := gymModule(benchSize)
	p := NewParser(Options{})
	defer p.Close()
	var ratios []float64
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		t0 := time.Now()
		tree, _ := p.parseTree(src, nil, nil)
		if tree == nil {
			b.Fatal("the parse did not finish")
		}
		tree.Close()
		t1 := time.Now()
		if m := p.Parse("bench/app.py", src); m.SyntaxError != nil {
			b.Fatal(m.SyntaxError)
		}
		ratios = append(ratios, float64(time.Since(t1))/float64(t1.Sub(t0)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "parse/tree")
}

// BenchmarkParseTreeBinding parses as BenchmarkParseTreeOnly did before
// cparse.go: through the binding's ParseWithOptions, the same chunks
// handed over by a Go callback (which the binding copies), and no meter.
// The ratio of the two is what the meter costs, less what one crossing a
// parse saves.
func BenchmarkParseTreeBinding(b *testing.B) {
	src := gymModule(benchSize)
	p := NewParser(Options{})
	defer p.Close()
	n := len(src)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		tree := p.p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
			if i >= n {
				return nil
			}
			return src[i:min(i+readChunk, n)]
		}, nil, nil)
		if tree == nil {
			b.Fatal("the parse did not finish")
		}
		tree.Close()
	}
}

// BenchmarkInspect measures a walk of the whole model with ContextOf at
// every call, what a rule over every body costs.
func BenchmarkInspect(b *testing.B) {
	src := gymModule(benchSize)
	p := NewParser(Options{})
	defer p.Close()
	m := p.Parse("bench/app.py", src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		InspectBody(m.Body, func(x Node, stack []Node) bool {
			if _, ok := x.(*Call); ok && ContextOf(stack).Function != nil {
				n++
			}
			return true
		})
		if n == 0 {
			b.Fatal("no calls")
		}
	}
}

// BenchmarkLineEnds measures what CPython's line ends and the bracket
// rewrite (input.go) cost a file that needs neither, against Parse on the
// same bytes: "input" is the work added to every parse (the scan for a
// lone "\r" before tree-sitter runs and again in relex, whose check of a
// clean tree stops there, and the line index at "\n", "\r\n" and "\r");
// "lf index" is the line index as it was, at "\n" only, for comparison.
func BenchmarkLineEnds(b *testing.B) {
	src := gymModule(benchSize)
	b.Run("parse", func(b *testing.B) {
		p := NewParser(Options{})
		defer p.Close()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if m := p.Parse("bench/app.py", src); m.SyntaxError != nil {
				b.Fatal(m.SyntaxError)
			}
		}
	})
	b.Run("input", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, ok := sitterText(src); ok {
				b.Fatal("rewritten")
			}
			if _, ok := sitterText(src); ok {
				b.Fatal("rewritten")
			}
			if len(newLineIndex(src)) < 2 {
				b.Fatal("no lines")
			}
		}
	})
	b.Run("lf index", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			idx := make(lineIndex, 1, len(src)/40+1)
			for i, c := range src {
				if c == '\n' {
					idx = append(idx, int32(i+1))
				}
			}
			if len(idx) < 2 {
				b.Fatal("no lines")
			}
		}
	})
}

// benchTree parses the benchmark module with a parser of its own: the
// text, the parser and the tree, closed when the benchmark ends.
func benchTree(b *testing.B) ([]byte, *Parser, *sitter.Tree) {
	b.Helper()
	src := gymModule(benchSize)
	p := NewParser(Options{})
	b.Cleanup(p.Close)
	tree, _ := p.parseTree(src, nil, nil)
	if tree == nil {
		b.Fatal("the parse did not finish")
	}
	b.Cleanup(tree.Close)
	return src, p, tree
}

// BenchmarkFlatten measures the copy of a parsed tree out of tree-sitter
// (cwalk.go), the one cgo call of the walk.
func BenchmarkFlatten(b *testing.B) {
	src, _, tree := benchTree(b)
	root := tree.RootNode()
	buf := flatten(root, nil)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		buf = flatten(root, buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(buf)), "ns/node")
}

// BenchmarkBuildModel measures the walker alone: the model built from a
// tree already copied out of tree-sitter (the part of BenchmarkParse that
// is neither tree-sitter's parse nor the copy, BenchmarkFlatten).
func BenchmarkBuildModel(b *testing.B) {
	src, p, tree := benchTree(b)
	flat := flatten(tree.RootNode(), nil)
	text := string(src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		m := &Module{Path: "bench/app.py", Size: len(src), text: text}
		m.lines = newLineIndex(src)
		w := &walker{g: p.g, src: src, text: text, m: m, t: flat, ks: p.ks[:0], marks: p.marks[:0]}
		w.module()
		if len(m.Classes) == 0 {
			b.Fatal("no classes")
		}
		p.ks, p.marks = w.ks[:0], w.marks[:0]
	}
}
