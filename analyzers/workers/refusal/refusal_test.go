package refusal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The refusal tests build small repositories as overlays (nothing is written
// to disk). The framework is left out: `nemo_gym.*` is outside the
// repository, so SimpleResourcesServer is a framework server base by name,
// and its default multiple_workers_unsupported_reason() (None) ends every
// super() chain.

const rfHeader = `from typing import ClassVar

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

`

func rfView(t testing.TB, files map[string]string) *gym.View {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// rfServerOf returns the (first) server of the entrypoint at p.
func rfServerOf(t testing.TB, v *gym.View, p string) (*gym.Entrypoint, gym.Server) {
	t.Helper()
	for _, e := range v.Entrypoints {
		if e.Path == p {
			if len(e.Servers) == 0 {
				t.Fatalf("%s has no server class", p)
			}
			return e, e.Servers[0]
		}
	}
	t.Fatalf("no entrypoint %s", p)
	return nil, gym.Server{}
}

// rfMethod wraps a method body into a server module.
func rfMethod(body string) string {
	return rfHeader + "\nclass EchoServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self) -> str | None:\n" + body + "\n"
}

func TestAnalyzeShapes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		src       string // a module for resources_servers/echo/app.py
		extra     map[string]string
		kind      Kind
		reason    string
		condition string
		noMethod  bool
		uncertain bool
		paths     int // reachable paths, when not 0
	}{
		{
			name:   "string literal",
			src:    rfMethod(`        return "Episodes are kept in memory by the env_id in the request body."`),
			kind:   Always,
			reason: "Episodes are kept in memory by the env_id in the request body.",
			paths:  1,
		},
		{
			name:   "implicit concatenation over lines, with escapes",
			src:    rfMethod("        return (\n            \"Verdicts are \"\n            'memoised \\\"here\\\".'\n        )"),
			kind:   Always,
			reason: `Verdicts are memoised "here".`,
		},
		{
			name: "f-string: always, no literal reason",
			src:  rfMethod(`        return f"Each worker would start a sidecar on port {self.config.port}."`),
			kind: Always,
		},
		{
			name:   "format and percent strings refuse",
			src:    rfMethod("        if self.config.a:\n            return \"port {}\".format(self.config.port)\n        return \"port %d\" % self.config.port"),
			kind:   Always,
			reason: "",
		},
		{
			name:      "equality with a string literal",
			src:       rfMethod("        if self.config.metrics_source == \"prometheus\":\n            return \"The window starts from a snapshot in memory.\"\n        return None"),
			kind:      When,
			reason:    "The window starts from a snapshot in memory.",
			condition: `self.config.metrics_source == "prometheus"`,
			paths:     2,
		},
		{
			name:      "truthiness, falling off the end",
			src:       rfMethod("        if self.config.compute_comet:\n            return \"Each worker builds its own GPU actor pool.\""),
			kind:      When,
			reason:    "Each worker builds its own GPU actor pool.",
			condition: "self.config.compute_comet",
		},
		{
			name:      "early accept under not",
			src:       rfMethod("        if not self.config.compute_comet:\n            return None\n        return \"Each worker builds its own GPU actor pool.\""),
			kind:      When,
			reason:    "Each worker builds its own GPU actor pool.",
			condition: "self.config.compute_comet",
		},
		{
			name:      "is None",
			src:       rfMethod("        if self.config.resources_server is None:\n            return \"Episode sessions are process-local.\"\n        return None"),
			kind:      When,
			reason:    "Episode sessions are process-local.",
			condition: "self.config.resources_server is None",
		},
		{
			name:      "is not None, negated in the condition text",
			src:       rfMethod("        if self.config.resources_server is not None:\n            return None\n        return \"Episode sessions are process-local.\""),
			kind:      When,
			reason:    "Episode sessions are process-local.",
			condition: "self.config.resources_server is None",
		},
		{
			name:      "greater than a number",
			src:       rfMethod("        if self.config.num_rollouts_per_prompt > 1:\n            return \"It collects a prompt's rollouts in memory.\"\n        return None"),
			kind:      When,
			reason:    "It collects a prompt's rollouts in memory.",
			condition: "self.config.num_rollouts_per_prompt > 1",
		},
		{
			name:      "less than, reversed operands",
			src:       rfMethod("        if 2 < self.config.n:\n            return \"r\"\n        return None"),
			kind:      When,
			reason:    "r",
			condition: "self.config.n > 2",
		},
		{
			name: "nested if/elif/else",
			src: rfMethod(`        if self.config.verification == "cohort":
            if self.config.fixed_baseline:
                return "It collects a prompt's rollouts in memory."
            elif self.config.num_rollouts_per_prompt > 1:
                return "It collects a prompt's rollouts in memory."
            else:
                return None
        return None`),
			kind:      When,
			reason:    "It collects a prompt's rollouts in memory.",
			condition: `(self.config.verification == "cohort" and self.config.fixed_baseline) or (self.config.verification == "cohort" and self.config.num_rollouts_per_prompt > 1)`,
			paths:     4,
		},
		{
			name: "elif chain on one field",
			src: rfMethod(`        if self.config.mode == "local":
            return None
        elif self.config.mode == "http":
            return "Each worker starts a sidecar on the fixed python_tool_port."
        else:
            return None`),
			kind:      When,
			reason:    "Each worker starts a sidecar on the fixed python_tool_port.",
			condition: `self.config.mode != "local" and self.config.mode == "http"`,
		},
		{
			name:      "and/or in one test",
			src:       rfMethod("        if self.config.a and (self.config.b or self.config.c == 3):\n            return \"r\"\n        return None"),
			kind:      When,
			reason:    "r",
			condition: "(self.config.a and self.config.b) or (self.config.a and self.config.c == 3)",
		},
		{
			name:      "in a tuple of literals",
			src:       rfMethod("        if self.config.backend not in (\"local\", 'docker'):\n            return None\n        return \"r\""),
			kind:      When,
			reason:    "r",
			condition: `self.config.backend in ("local", 'docker')`,
		},
		{
			name:      "conditional expression",
			src:       rfMethod(`        return "Mock-tool episodes live in memory." if self.config.mock_tools else None`),
			kind:      When,
			reason:    "Mock-tool episodes live in memory.",
			condition: "self.config.mock_tools",
		},
		{
			name:      "a test that is not about the config is kept as written",
			src:       rfMethod("        if self.python_tool_mode == \"http\":\n            return f\"Each worker would start its own sidecar on port {self.python_tool_port}.\"\n        return None"),
			kind:      When,
			condition: `self.python_tool_mode == "http"`,
		},
		{
			name:      "delegating to a helper: unknown condition",
			src:       rfMethod("        return self._reason()"),
			kind:      When,
			condition: "",
		},
		{
			name:      "returning a local variable: unknown",
			src:       rfMethod("        reason = None\n        if self.config.x:\n            reason = \"r\"\n        return reason"),
			kind:      When,
			condition: "",
		},
		{
			name:      "super() reaching the framework default accepts",
			src:       rfMethod("        if self.config.compute_comet:\n            return \"r\"\n        return super().multiple_workers_unsupported_reason()"),
			kind:      When,
			reason:    "r",
			condition: "self.config.compute_comet",
		},
		{
			name: "super() reaching a repository parent is read through",
			src: rfHeader + `
class BaseJudge(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Verdicts are pooled in memory."


class EchoServer(BaseJudge):
    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.stateless:
            return None
        return super().multiple_workers_unsupported_reason()
`,
			kind:      When,
			reason:    "Verdicts are pooled in memory.",
			condition: "not self.config.stateless",
		},
		{
			name:     "only None",
			src:      rfMethod("        if self.config.x:\n            return None\n        return"),
			kind:     Never,
			noMethod: false,
		},
		{
			name: "empty string is no reason",
			src:  rfMethod(`        return ""`),
			kind: Never,
		},
		{
			name: "raising paths count for neither side",
			src:  rfMethod("        if self.config.broken:\n            raise ValueError(\"bad config\")\n        return \"r\""),
			kind: Always, reason: "r",
		},
		{
			name:   "module-level constant",
			src:    rfHeader + "REASON = \"Seeds are deduplicated in memory.\"\n\n\nclass EchoServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self) -> str | None:\n        return REASON\n",
			kind:   Always,
			reason: "Seeds are deduplicated in memory.",
		},
		{
			name:   "ClassVar constant",
			src:    rfHeader + "class EchoServer(SimpleResourcesServer):\n    REASON: ClassVar[str] = \"Seeds are deduplicated in memory.\"\n\n    def multiple_workers_unsupported_reason(self) -> str | None:\n        return self.REASON\n",
			kind:   Always,
			reason: "Seeds are deduplicated in memory.",
		},
		{
			name:      "a pydantic field is not a constant",
			src:       rfHeader + "class EchoServer(SimpleResourcesServer):\n    reason: str = \"x\"\n\n    def multiple_workers_unsupported_reason(self) -> str | None:\n        return self.reason\n",
			kind:      When,
			condition: "",
		},
		{
			name:   "return inside a loop is not unconditional",
			src:    rfMethod("        for tool in self.tools:\n            return \"r\"\n        return None"),
			kind:   When,
			reason: "r", condition: "",
		},
		{
			name:   "one-line loop body",
			src:    rfMethod("        for tool in self.tools: return \"r\"\n        return None"),
			kind:   When,
			reason: "r", condition: "",
		},
		{
			name: "a loop that refuses and a refusal after it: always",
			src:  rfMethod("        for tool in self.tools:\n            if tool.stateful:\n                return \"r\"\n        return \"r\""),
			kind: Always, reason: "r",
		},
		{
			name:   "try/except",
			src:    rfMethod("        try:\n            return \"r\"\n        except Exception:\n            return None"),
			kind:   When,
			reason: "r", condition: "",
		},
		{
			name: "with is not a condition",
			src:  rfMethod("        with self.lock:\n            return \"r\""),
			kind: Always, reason: "r",
		},
		{
			name: "for-else belongs to the loop",
			src:  rfMethod("        for t in self.tools:\n            if t:\n                break\n        else:\n            return \"r\"\n        return None"),
			kind: When, reason: "r", condition: "",
		},
		{
			name:     "mixin after the framework base is shadowed",
			src:      rfHeader + "class RefuseMixin:\n    def multiple_workers_unsupported_reason(self):\n        return \"r\"\n\n\nclass EchoServer(SimpleResourcesServer, RefuseMixin):\n    pass\n",
			kind:     Never,
			noMethod: true,
		},
		{
			name:   "mixin before the framework base wins",
			src:    rfHeader + "class RefuseMixin:\n    def multiple_workers_unsupported_reason(self):\n        return \"r\"\n\n\nclass EchoServer(RefuseMixin, SimpleResourcesServer):\n    pass\n",
			kind:   Always,
			reason: "r",
		},
		{
			name:     "no override",
			src:      rfHeader + "class EchoServer(SimpleResourcesServer):\n    pass\n",
			kind:     Never,
			noMethod: true,
		},
		{
			name:      "unresolved base: uncertain",
			src:       rfHeader + "from resources_servers.echo import helpers\n\n\nclass EchoServer(helpers.Missing, SimpleResourcesServer):\n    pass\n",
			extra:     map[string]string{"resources_servers/echo/helpers.py": "X = 1\n"},
			kind:      Never,
			noMethod:  true,
			uncertain: true,
		},
		{
			name:      "bound to a value: unknown",
			src:       rfHeader + "def _refuse(self):\n    return \"r\"\n\n\nclass EchoServer(SimpleResourcesServer):\n    multiple_workers_unsupported_reason = _refuse\n",
			kind:      When,
			noMethod:  true,
			condition: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"resources_servers/echo/app.py": tc.src}
			for p, c := range tc.extra {
				files[p] = c
			}
			v := rfView(t, files)
			_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
			r := Analyze(v, s.Class)
			if r.Kind != tc.kind {
				t.Errorf("kind %v, want %v (condition %q)", r.Kind, tc.kind, r.Condition)
			}
			if r.Reason != tc.reason {
				t.Errorf("reason %q, want %q", r.Reason, tc.reason)
			}
			if r.Condition != tc.condition {
				t.Errorf("condition\n got %s\nwant %s", r.Condition, tc.condition)
			}
			if (r.Method == nil) != tc.noMethod {
				t.Errorf("method %v, want none: %v", r.Method, tc.noMethod)
			}
			if r.Uncertain != tc.uncertain {
				t.Errorf("uncertain %v, want %v", r.Uncertain, tc.uncertain)
			}
			if tc.paths != 0 && len(r.Paths) != tc.paths {
				t.Errorf("%d paths, want %d: %+v", len(r.Paths), tc.paths, r.Paths)
			}
		})
	}
}

func TestAnalyzeLimits(t *testing.T) {
	// 13 independent tests: more than gymlint enumerates.
	var body strings.Builder
	for i := 0; i < 13; i++ {
		fmt.Fprintf(&body, "        if self.config.f%d:\n            return None\n", i)
	}
	body.WriteString("        return \"r\"")
	// 9 tests: enumerated, but the condition is not written out.
	var nine strings.Builder
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&nine, "        if self.config.g%d:\n            return None\n", i)
	}
	nine.WriteString("        return \"r\"")
	match := "        match self.config.mode:\n            case \"a\":\n                return \"r\"\n        return None"
	while := "        while self.config.retry:\n            return \"r\""
	v := rfView(t, map[string]string{
		"resources_servers/many/app.py":  rfMethod(body.String()),
		"resources_servers/nine/app.py":  rfMethod(nine.String()),
		"resources_servers/match/app.py": rfMethod(match),
		"resources_servers/while/app.py": rfMethod(while),
	})
	for p, want := range map[string]Kind{
		"resources_servers/many/app.py":  When,
		"resources_servers/nine/app.py":  When,
		"resources_servers/match/app.py": When,
		"resources_servers/while/app.py": When,
	} {
		_, s := rfServerOf(t, v, p)
		r := Analyze(v, s.Class)
		if r.Kind != want || r.Condition != "" {
			t.Errorf("%s: %v %q, want %v with no condition", p, r.Kind, r.Condition, want)
		}
		if p == "resources_servers/nine/app.py" {
			settings := rfSettings(t, "x:\n  resources_servers:\n    nine:\n      g0: true\n      num_workers: 2\n")
			if d := r.Decide(settings); d.Verdict != Accept {
				t.Errorf("nine: g0 true accepts, got %v", d.Verdict)
			}
		}
	}
}

func TestAnalyzePaths(t *testing.T) {
	v := rfView(t, map[string]string{"resources_servers/echo/app.py": rfMethod(`        if self.config.metrics_source == "prometheus":
            return "snapshot"
        if self.config.debug:
            return f"debug {self.config.debug}"
        return None`)})
	_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
	r := Analyze(v, s.Class)
	want := []struct {
		outcome   Outcome
		cond      string
		reason    string
		value     string
		line      int
		hasReturn bool
	}{
		{Refuses, `self.config.metrics_source == "prometheus"`, "snapshot", `"snapshot"`, 10, true},
		{Refuses, `self.config.metrics_source != "prometheus" and self.config.debug`, "", `f"debug {self.config.debug}"`, 12, true},
		{Accepts, `self.config.metrics_source != "prometheus" and not self.config.debug`, "", "None", 13, true},
	}
	if len(r.Paths) != len(want) {
		t.Fatalf("%d paths, want %d: %+v", len(r.Paths), len(want), r.Paths)
	}
	for i, w := range want {
		p := r.Paths[i]
		_, isReturn := p.Stmt.(*pyscan.Return)
		line := p.Class.Module.Line(p.Span.Start)
		if p.Outcome != w.outcome || p.Condition != w.cond || p.Reason != w.reason || p.ValueText() != w.value ||
			line != w.line || isReturn != w.hasReturn || !p.Conditional {
			t.Errorf("path %d: %v %q %q %q line %d, want %+v", i, p.Outcome, p.Condition, p.Reason, p.ValueText(), line, w)
		}
	}
	if r.Condition != `self.config.metrics_source == "prometheus" or self.config.debug` {
		t.Errorf("condition %q", r.Condition)
	}
	if r.Reason != "" {
		t.Errorf("reason %q: two different refusing values", r.Reason)
	}
}

// rfSettings parses one YAML instance and returns its settings mapping.
func rfSettings(t *testing.T, yaml string) *configscan.Node {
	t.Helper()
	f := configscan.Parse("c.yaml", []byte(yaml), configscan.Options{})
	if len(f.Problems) > 0 {
		t.Fatalf("yaml problems: %+v", f.Problems)
	}
	insts := append(f.Servers, f.Overrides...)
	if len(insts) != 1 {
		t.Fatalf("%d instances", len(insts))
	}
	return insts[0].Settings
}

func TestDecide(t *testing.T) {
	method := rfMethod(`        if self.config.metrics_source == "prometheus":
            return "snapshot"
        if self.config.compute_comet and self.config.gpus >= 2:
            return "gpu"
        if self.config.resources_server is None:
            return "sessions"
        return None`)
	v := rfView(t, map[string]string{"resources_servers/echo/app.py": method})
	_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
	r := Analyze(v, s.Class)
	inst := func(fields string) string {
		return "x:\n  resources_servers:\n    echo:\n" + fields
	}
	for _, tc := range []struct {
		name    string
		fields  string
		verdict Verdict
		reason  string
		used    string // fields used, comma-separated
	}{
		{"first branch decides alone", "      metrics_source: prometheus\n", Refuse, "snapshot", "metrics_source"},
		{"quoted value", "      metrics_source: \"prometheus\"\n", Refuse, "snapshot", "metrics_source"},
		{"other value, rest open", "      metrics_source: responses\n", Undecided, "", ""},
		{"all given, accepts", "      metrics_source: responses\n      compute_comet: false\n      resources_server: {name: x}\n", Accept, "", "metrics_source,compute_comet,resources_server"},
		{"null resources_server refuses", "      metrics_source: responses\n      compute_comet: false\n      resources_server: null\n", Refuse, "sessions", "resources_server"},
		{"comet with enough gpus", "      metrics_source: responses\n      compute_comet: true\n      gpus: 4\n", Refuse, "gpu", "compute_comet,gpus"},
		{"comet with a numeric string", "      metrics_source: responses\n      compute_comet: true\n      gpus: \"2\"\n", Refuse, "gpu", "compute_comet,gpus"},
		{"comet with too few gpus, resources server open", "      metrics_source: responses\n      compute_comet: true\n      gpus: 1\n", Undecided, "", ""},
		{"interpolation is open", "      metrics_source: ${oc.env:METRICS,prometheus}\n", Undecided, "", ""},
		{"mandatory missing is open", "      metrics_source: ???\n", Undecided, "", ""},
		{"wrong type is open", "      metrics_source: 3\n", Undecided, "", ""},
		{"yes/no strings are open for truthiness", "      metrics_source: responses\n      compute_comet: \"no\"\n      resources_server: null\n", Refuse, "", "resources_server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := r.Decide(rfSettings(t, inst(tc.fields)))
			if d.Verdict != tc.verdict || d.Reason != tc.reason {
				t.Errorf("verdict %v reason %q, want %v %q", d.Verdict, d.Reason, tc.verdict, tc.reason)
			}
			var used []string
			for _, f := range d.Fields {
				used = append(used, f.Field)
				if f.Node == nil {
					t.Errorf("field %s without a node", f.Field)
				}
			}
			if got := strings.Join(used, ","); got != tc.used {
				t.Errorf("fields %q, want %q", got, tc.used)
			}
		})
	}
}

func TestDecideAlwaysAndNever(t *testing.T) {
	v := rfView(t, map[string]string{
		"resources_servers/a/app.py": rfMethod(`        return "always"`),
		"resources_servers/b/app.py": rfHeader + "class EchoServer(SimpleResourcesServer):\n    pass\n",
		"resources_servers/c/app.py": rfMethod(`        return self._why()`),
	})
	settings := rfSettings(t, "x:\n  resources_servers:\n    a:\n      num_workers: 2\n")
	for p, want := range map[string]Verdict{
		"resources_servers/a/app.py": Refuse,
		"resources_servers/b/app.py": Accept,
		"resources_servers/c/app.py": Undecided,
	} {
		_, s := rfServerOf(t, v, p)
		if d := Analyze(v, s.Class).Decide(settings); d.Verdict != want {
			t.Errorf("%s: verdict %v, want %v", p, d.Verdict, want)
		}
	}
}

// The tests are read from the typed model: a test written twice in other
// spellings is one atom, a comparison and its negation are one atom, the
// comments of a condition are not part of it, and names resolve as Python
// resolves them.
func TestAnalyzeModel(t *testing.T) {
	for _, tc := range []struct {
		name      string
		src       string
		extra     map[string]string
		kind      Kind
		reason    string
		condition string
		paths     int
	}{
		{
			name: "one test in two spellings is one atom",
			src: rfMethod(`        if self.mode == "http":
            return "r"
        if (self.mode  ==  'http'):
            return None
        return None`),
			kind: When, reason: "r", condition: `self.mode == "http"`, paths: 2,
		},
		{
			name:      "!= is the negation of ==",
			src:       rfMethod("        if self.mode != \"local\":\n            return None\n        if self.mode == 'local':\n            return \"r\"\n        return \"unreachable\""),
			kind:      When,
			reason:    "r",
			condition: `self.mode == "local"`,
			paths:     2,
		},
		{
			name: "comments inside a condition are left out",
			src: rfMethod(`        if (self.mode == "http"  # the sidecar
                and self.config.port):
            return "r"
        return None`),
			kind: When, reason: "r", condition: `self.mode == "http" and self.config.port`,
		},
		{
			name:   "a constant imported from another module",
			src:    rfHeader + "from resources_servers.echo.consts import REASON\n\n\nclass EchoServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self):\n        return REASON\n",
			extra:  map[string]string{"resources_servers/echo/consts.py": "REASON = \"Seeds are deduplicated in memory.\"\n"},
			kind:   Always,
			reason: "Seeds are deduplicated in memory.",
		},
		{
			name:  "a local shadows the module constant",
			src:   rfHeader + "REASON = \"r\"\n\n\nclass EchoServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self):\n        REASON = self._why()\n        return REASON\n",
			kind:  When,
			paths: 1,
		},
		{
			name:   "ClassVar through a module alias",
			src:    "import typing as t\n" + rfHeader + "class EchoServer(SimpleResourcesServer):\n    REASON: t.ClassVar[str] = \"r\"\n\n    def multiple_workers_unsupported_reason(self):\n        return self.REASON\n",
			kind:   Always,
			reason: "r",
		},
		{
			name: "Final, bare",
			src:  "from typing import Final\n" + rfHeader + "class EchoServer(SimpleResourcesServer):\n    REASON: Final = \"r\"\n\n    def multiple_workers_unsupported_reason(self):\n        return self.REASON\n",
			kind: Always, reason: "r",
		},
		{
			name: "a ClassVar of the repository's own is not typing's",
			src:  strings.Replace(rfHeader, "from typing import ClassVar\n", "", 1) + "class ClassVar:\n    pass\n\n\nclass EchoServer(SimpleResourcesServer):\n    REASON: ClassVar = \"r\"\n\n    def multiple_workers_unsupported_reason(self):\n        return self.REASON\n",
			kind: When,
		},
		{
			name: "super() with the class and the receiver",
			src: rfHeader + `
class BaseJudge(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "pooled"


class EchoServer(BaseJudge):
    def multiple_workers_unsupported_reason(self):
        return super(EchoServer, self).multiple_workers_unsupported_reason()
`,
			kind: Always, reason: "pooled",
		},
		{
			name: "a concatenation with text anywhere refuses",
			src:  rfMethod(`        return "Port " + str(self.config.port) + " is fixed."`),
			kind: Always,
		},
		{
			name: "an assert raises when it fails",
			src:  rfMethod("        assert self.config.port\n        return \"r\""),
			kind: Always, reason: "r",
		},
		{
			name: "a return in a nested function is not the method's",
			src:  rfMethod("        def inner():\n            return \"r\"\n        return None"),
			kind: Never,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"resources_servers/echo/app.py": tc.src}
			for p, c := range tc.extra {
				files[p] = c
			}
			v := rfView(t, files)
			_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
			r := Analyze(v, s.Class)
			if r.Kind != tc.kind || r.Reason != tc.reason || r.Condition != tc.condition {
				t.Errorf("got %v %q %q, want %v %q %q", r.Kind, r.Reason, r.Condition, tc.kind, tc.reason, tc.condition)
			}
			if tc.paths != 0 && len(r.Paths) != tc.paths {
				t.Errorf("%d paths, want %d", len(r.Paths), tc.paths)
			}
		})
	}
}

func TestDecideNegativeNumber(t *testing.T) {
	v := rfView(t, map[string]string{"resources_servers/echo/app.py": rfMethod("        if self.config.offset > -1:\n            return \"r\"\n        return None")})
	_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
	r := Analyze(v, s.Class)
	if r.Condition != "self.config.offset > -1" {
		t.Errorf("condition %q", r.Condition)
	}
	for fields, want := range map[string]Verdict{"      offset: 0\n": Refuse, "      offset: -1\n": Accept, "      offset: x\n": Undecided} {
		if d := r.Decide(rfSettings(t, "x:\n  resources_servers:\n    echo:\n"+fields)); d.Verdict != want {
			t.Errorf("%q: %v, want %v", fields, d.Verdict, want)
		}
	}
}

func TestOfIsShared(t *testing.T) {
	v := rfView(t, map[string]string{"resources_servers/echo/app.py": rfMethod(`        return "r"`)})
	_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
	if a, b := Of(v, s.Class), Of(v, s.Class); a != b || a.Kind != Always {
		t.Errorf("Of: %p %p %v", a, b, a.Kind)
	}
}

func TestCanon(t *testing.T) {
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	expr := func(src string) pyscan.Expr {
		m := p.Parse("m.py", []byte("(\n"+src+"\n)\n"))
		if m.SyntaxError != nil || len(m.Body) != 1 {
			t.Fatalf("%q: %v", src, m.SyntaxError)
		}
		return m.Body[0].(*pyscan.ExprStmt).Value
	}
	for _, same := range [][2]string{
		{`self.mode == "http"`, `self.mode  ==  'http'`},
		{`(a and b) or not c`, "a and b  # one\nor (not c)"},
		{`f(x, *y, k=1, **z)[0].a`, `f( x , *y , k = 1 , **z ) [ 0 ] . a`},
		{`x if y else -1`, `(x) if (y) else (-1)`},
		{`0x10 > 1_0`, `16 > 10`},
		{`{1: [2, (3,)]}`, `{1:[2,(3,)]}`},
		{`f"a{b}c"`, `f'a{ b }c'`},
	} {
		if a, b := canon(expr(same[0])), canon(expr(same[1])); a != b {
			t.Errorf("%q and %q differ: %s, %s", same[0], same[1], a, b)
		}
	}
	for _, other := range [][2]string{
		{`a == b`, `b == a`},
		{`a.b`, `a["b"]`},
		{`"1"`, `1`},
		{`b"x"`, `"x"`},
		{`(a, b)`, `[a, b]`},
		{`f(k=1)`, `f(1)`},
		{`a < b < c`, `(a < b) < c`},
	} {
		if a, b := canon(expr(other[0])), canon(expr(other[1])); a == b {
			t.Errorf("%q and %q are one: %s", other[0], other[1], a)
		}
	}
	// What the model does not keep the structure of is told apart by
	// position, even when it reads the same.
	if two := expr(`lambda: 1, lambda: 1`).(*pyscan.Tuple); canon(two.Elts[0]) == canon(two.Elts[1]) {
		t.Errorf("two lambdas are one: %s", canon(two.Elts[0]))
	}
}
