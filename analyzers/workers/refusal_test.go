//go:build ignore

package workers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
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

func rfView(t *testing.T, files map[string]string) *gym.View {
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
func rfServerOf(t *testing.T, v *gym.View, p string) (*gym.Entrypoint, gym.Server) {
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
		kind      RefusalKind
		reason    string
		condition string
		noMethod  bool
		uncertain bool
		paths     int // reachable paths, when not 0
	}{
		{
			name:   "string literal",
			src:    rfMethod(`        return "Episodes are kept in memory by the env_id in the request body."`),
			kind:   RefusesAlways,
			reason: "Episodes are kept in memory by the env_id in the request body.",
			paths:  1,
		},
		{
			name:   "implicit concatenation over lines, with escapes",
			src:    rfMethod("        return (\n            \"Verdicts are \"\n            'memoised \\\"here\\\".'\n        )"),
			kind:   RefusesAlways,
			reason: `Verdicts are memoised "here".`,
		},
		{
			name: "f-string: always, no literal reason",
			src:  rfMethod(`        return f"Each worker would start a sidecar on port {self.config.port}."`),
			kind: RefusesAlways,
		},
		{
			name:   "format and percent strings refuse",
			src:    rfMethod("        if self.config.a:\n            return \"port {}\".format(self.config.port)\n        return \"port %d\" % self.config.port"),
			kind:   RefusesAlways,
			reason: "",
		},
		{
			name:      "equality with a string literal",
			src:       rfMethod("        if self.config.metrics_source == \"prometheus\":\n            return \"The window starts from a snapshot in memory.\"\n        return None"),
			kind:      RefusesWhen,
			reason:    "The window starts from a snapshot in memory.",
			condition: `self.config.metrics_source == "prometheus"`,
			paths:     2,
		},
		{
			name:      "truthiness, falling off the end",
			src:       rfMethod("        if self.config.compute_comet:\n            return \"Each worker builds its own GPU actor pool.\""),
			kind:      RefusesWhen,
			reason:    "Each worker builds its own GPU actor pool.",
			condition: "self.config.compute_comet",
		},
		{
			name:      "early accept under not",
			src:       rfMethod("        if not self.config.compute_comet:\n            return None\n        return \"Each worker builds its own GPU actor pool.\""),
			kind:      RefusesWhen,
			reason:    "Each worker builds its own GPU actor pool.",
			condition: "self.config.compute_comet",
		},
		{
			name:      "is None",
			src:       rfMethod("        if self.config.resources_server is None:\n            return \"Episode sessions are process-local.\"\n        return None"),
			kind:      RefusesWhen,
			reason:    "Episode sessions are process-local.",
			condition: "self.config.resources_server is None",
		},
		{
			name:      "is not None, negated in the condition text",
			src:       rfMethod("        if self.config.resources_server is not None:\n            return None\n        return \"Episode sessions are process-local.\""),
			kind:      RefusesWhen,
			reason:    "Episode sessions are process-local.",
			condition: "self.config.resources_server is None",
		},
		{
			name:      "greater than a number",
			src:       rfMethod("        if self.config.num_rollouts_per_prompt > 1:\n            return \"It collects a prompt's rollouts in memory.\"\n        return None"),
			kind:      RefusesWhen,
			reason:    "It collects a prompt's rollouts in memory.",
			condition: "self.config.num_rollouts_per_prompt > 1",
		},
		{
			name:      "less than, reversed operands",
			src:       rfMethod("        if 2 < self.config.n:\n            return \"r\"\n        return None"),
			kind:      RefusesWhen,
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
			kind:      RefusesWhen,
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
			kind:      RefusesWhen,
			reason:    "Each worker starts a sidecar on the fixed python_tool_port.",
			condition: `self.config.mode != "local" and self.config.mode == "http"`,
		},
		{
			name:      "and/or in one test",
			src:       rfMethod("        if self.config.a and (self.config.b or self.config.c == 3):\n            return \"r\"\n        return None"),
			kind:      RefusesWhen,
			reason:    "r",
			condition: "(self.config.a and self.config.b) or (self.config.a and self.config.c == 3)",
		},
		{
			name:      "in a tuple of literals",
			src:       rfMethod("        if self.config.backend not in (\"local\", 'docker'):\n            return None\n        return \"r\""),
			kind:      RefusesWhen,
			reason:    "r",
			condition: `self.config.backend in ("local", 'docker')`,
		},
		{
			name:      "conditional expression",
			src:       rfMethod(`        return "Mock-tool episodes live in memory." if self.config.mock_tools else None`),
			kind:      RefusesWhen,
			reason:    "Mock-tool episodes live in memory.",
			condition: "self.config.mock_tools",
		},
		{
			name:      "a test that is not about the config is kept as written",
			src:       rfMethod("        if self.python_tool_mode == \"http\":\n            return f\"Each worker would start its own sidecar on port {self.python_tool_port}.\"\n        return None"),
			kind:      RefusesWhen,
			condition: `self.python_tool_mode == "http"`,
		},
		{
			name:      "delegating to a helper: unknown condition",
			src:       rfMethod("        return self._reason()"),
			kind:      RefusesWhen,
			condition: "",
		},
		{
			name:      "returning a local variable: unknown",
			src:       rfMethod("        reason = None\n        if self.config.x:\n            reason = \"r\"\n        return reason"),
			kind:      RefusesWhen,
			condition: "",
		},
		{
			name:      "super() reaching the framework default accepts",
			src:       rfMethod("        if self.config.compute_comet:\n            return \"r\"\n        return super().multiple_workers_unsupported_reason()"),
			kind:      RefusesWhen,
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
			kind:      RefusesWhen,
			reason:    "Verdicts are pooled in memory.",
			condition: "not self.config.stateless",
		},
		{
			name:     "only None",
			src:      rfMethod("        if self.config.x:\n            return None\n        return"),
			kind:     RefusesNever,
			noMethod: false,
		},
		{
			name: "empty string is no reason",
			src:  rfMethod(`        return ""`),
			kind: RefusesNever,
		},
		{
			name: "raising paths count for neither side",
			src:  rfMethod("        if self.config.broken:\n            raise ValueError(\"bad config\")\n        return \"r\""),
			kind: RefusesAlways, reason: "r",
		},
		{
			name:   "module-level constant",
			src:    rfHeader + "REASON = \"Seeds are deduplicated in memory.\"\n\n\nclass EchoServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self) -> str | None:\n        return REASON\n",
			kind:   RefusesAlways,
			reason: "Seeds are deduplicated in memory.",
		},
		{
			name:   "ClassVar constant",
			src:    rfHeader + "class EchoServer(SimpleResourcesServer):\n    REASON: ClassVar[str] = \"Seeds are deduplicated in memory.\"\n\n    def multiple_workers_unsupported_reason(self) -> str | None:\n        return self.REASON\n",
			kind:   RefusesAlways,
			reason: "Seeds are deduplicated in memory.",
		},
		{
			name:      "a pydantic field is not a constant",
			src:       rfHeader + "class EchoServer(SimpleResourcesServer):\n    reason: str = \"x\"\n\n    def multiple_workers_unsupported_reason(self) -> str | None:\n        return self.reason\n",
			kind:      RefusesWhen,
			condition: "",
		},
		{
			name:   "return inside a loop is not unconditional",
			src:    rfMethod("        for tool in self.tools:\n            return \"r\"\n        return None"),
			kind:   RefusesWhen,
			reason: "r", condition: "",
		},
		{
			name:   "one-line loop body",
			src:    rfMethod("        for tool in self.tools: return \"r\"\n        return None"),
			kind:   RefusesWhen,
			reason: "r", condition: "",
		},
		{
			name: "a loop that refuses and a refusal after it: always",
			src:  rfMethod("        for tool in self.tools:\n            if tool.stateful:\n                return \"r\"\n        return \"r\""),
			kind: RefusesAlways, reason: "r",
		},
		{
			name:   "try/except",
			src:    rfMethod("        try:\n            return \"r\"\n        except Exception:\n            return None"),
			kind:   RefusesWhen,
			reason: "r", condition: "",
		},
		{
			name: "with is not a condition",
			src:  rfMethod("        with self.lock:\n            return \"r\""),
			kind: RefusesAlways, reason: "r",
		},
		{
			name: "for-else belongs to the loop",
			src:  rfMethod("        for t in self.tools:\n            if t:\n                break\n        else:\n            return \"r\"\n        return None"),
			kind: RefusesWhen, reason: "r", condition: "",
		},
		{
			name:     "mixin after the framework base is shadowed",
			src:      rfHeader + "class RefuseMixin:\n    def multiple_workers_unsupported_reason(self):\n        return \"r\"\n\n\nclass EchoServer(SimpleResourcesServer, RefuseMixin):\n    pass\n",
			kind:     RefusesNever,
			noMethod: true,
		},
		{
			name:   "mixin before the framework base wins",
			src:    rfHeader + "class RefuseMixin:\n    def multiple_workers_unsupported_reason(self):\n        return \"r\"\n\n\nclass EchoServer(RefuseMixin, SimpleResourcesServer):\n    pass\n",
			kind:   RefusesAlways,
			reason: "r",
		},
		{
			name:     "no override",
			src:      rfHeader + "class EchoServer(SimpleResourcesServer):\n    pass\n",
			kind:     RefusesNever,
			noMethod: true,
		},
		{
			name:      "unresolved base: uncertain",
			src:       rfHeader + "from resources_servers.echo import helpers\n\n\nclass EchoServer(helpers.Missing, SimpleResourcesServer):\n    pass\n",
			extra:     map[string]string{"resources_servers/echo/helpers.py": "X = 1\n"},
			kind:      RefusesNever,
			noMethod:  true,
			uncertain: true,
		},
		{
			name:      "bound to a value: unknown",
			src:       rfHeader + "def _refuse(self):\n    return \"r\"\n\n\nclass EchoServer(SimpleResourcesServer):\n    multiple_workers_unsupported_reason = _refuse\n",
			kind:      RefusesWhen,
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
			r := Analyze(v, s)
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
	for p, want := range map[string]RefusalKind{
		"resources_servers/many/app.py":  RefusesWhen,
		"resources_servers/nine/app.py":  RefusesWhen,
		"resources_servers/match/app.py": RefusesWhen,
		"resources_servers/while/app.py": RefusesWhen,
	} {
		_, s := rfServerOf(t, v, p)
		r := Analyze(v, s)
		if r.Kind != want || r.Condition != "" {
			t.Errorf("%s: %v %q, want %v with no condition", p, r.Kind, r.Condition, want)
		}
		if p == "resources_servers/nine/app.py" {
			settings := rfSettings(t, "x:\n  resources_servers:\n    nine:\n      g0: true\n      num_workers: 2\n")
			if d := r.Decide(settings); d.Verdict != VerdictAccept {
				t.Errorf("nine: g0 true accepts, got %v", d.Verdict)
			}
		}
	}
}

func FuzzRefusalExpr(f *testing.F) {
	for _, s := range []string{
		`self.config.x == "a"`, `not (a and b) or c`, `"a" if b else None`, `f"{x!r:>{w}}" "y"`,
		`rb'\x00' b"\\"`, `(1, 2,)`, `{1: 2}`, `-1e-3 ** 2`, `a.b(c)[d].e`, `x is not None`,
		`"\N{DASH}\777\U0010FFFF"`, `'''multi` + "\n" + `line'''`, "(a\n  # comment\n  and b)", `"\x4"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n := rfParse(src)
		if n == nil {
			return
		}
		// The text of a node is a slice of the source.
		if !strings.Contains(src, n.text) {
			t.Fatalf("node text %q is not in %q", n.text, src)
		}
		b := &rfBuilder{atomIdx: map[string]int{}}
		b.boolOf(n, "self")
		rfLiteralOf(n)
	})
}

func TestAnalyzePaths(t *testing.T) {
	v := rfView(t, map[string]string{"resources_servers/echo/app.py": rfMethod(`        if self.config.metrics_source == "prometheus":
            return "snapshot"
        if self.config.debug:
            return f"debug {self.config.debug}"
        return None`)})
	_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
	r := Analyze(v, s)
	want := []struct {
		outcome   PathOutcome
		cond      string
		reason    string
		value     string
		line      int
		hasReturn bool
	}{
		{PathRefuses, `self.config.metrics_source == "prometheus"`, "snapshot", `"snapshot"`, 10, true},
		{PathRefuses, `self.config.metrics_source != "prometheus" and self.config.debug`, "", `f"debug {self.config.debug}"`, 12, true},
		{PathAccepts, `self.config.metrics_source != "prometheus" and not self.config.debug`, "", "None", 13, true},
	}
	if len(r.Paths) != len(want) {
		t.Fatalf("%d paths, want %d: %+v", len(r.Paths), len(want), r.Paths)
	}
	for i, w := range want {
		p := r.Paths[i]
		if p.Outcome != w.outcome || p.Condition != w.cond || p.Reason != w.reason || p.Value != w.value ||
			p.Span.Start.Line != w.line || (p.Return != nil) != w.hasReturn || !p.Conditional {
			t.Errorf("path %d: %v %q %q %q line %d, want %+v", i, p.Outcome, p.Condition, p.Reason, p.Value, p.Span.Start.Line, w)
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
	r := Analyze(v, s)
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
		{"first branch decides alone", "      metrics_source: prometheus\n", VerdictRefuse, "snapshot", "metrics_source"},
		{"quoted value", "      metrics_source: \"prometheus\"\n", VerdictRefuse, "snapshot", "metrics_source"},
		{"other value, rest open", "      metrics_source: responses\n", Undecided, "", ""},
		{"all given, accepts", "      metrics_source: responses\n      compute_comet: false\n      resources_server: {name: x}\n", VerdictAccept, "", "metrics_source,compute_comet,resources_server"},
		{"null resources_server refuses", "      metrics_source: responses\n      compute_comet: false\n      resources_server: null\n", VerdictRefuse, "sessions", "resources_server"},
		{"comet with enough gpus", "      metrics_source: responses\n      compute_comet: true\n      gpus: 4\n", VerdictRefuse, "gpu", "compute_comet,gpus"},
		{"comet with a numeric string", "      metrics_source: responses\n      compute_comet: true\n      gpus: \"2\"\n", VerdictRefuse, "gpu", "compute_comet,gpus"},
		{"comet with too few gpus, resources server open", "      metrics_source: responses\n      compute_comet: true\n      gpus: 1\n", Undecided, "", ""},
		{"interpolation is open", "      metrics_source: ${oc.env:METRICS,prometheus}\n", Undecided, "", ""},
		{"mandatory missing is open", "      metrics_source: ???\n", Undecided, "", ""},
		{"wrong type is open", "      metrics_source: 3\n", Undecided, "", ""},
		{"yes/no strings are open for truthiness", "      metrics_source: responses\n      compute_comet: \"no\"\n      resources_server: null\n", VerdictRefuse, "", "resources_server"},
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
		"resources_servers/a/app.py": VerdictRefuse,
		"resources_servers/b/app.py": VerdictAccept,
		"resources_servers/c/app.py": Undecided,
	} {
		_, s := rfServerOf(t, v, p)
		if d := Analyze(v, s).Decide(settings); d.Verdict != want {
			t.Errorf("%s: verdict %v, want %v", p, d.Verdict, want)
		}
	}
}

func TestStatus(t *testing.T) {
	app := "\n\nif __name__ == \"__main__\":\n    EchoServer.run_webserver()\nelif is_nemo_gym_fastapi_entrypoint(__file__):\n    app = EchoServer.run_webserver()\n"
	v := rfView(t, map[string]string{
		"resources_servers/app_only/app.py":   rfHeader + "class EchoServer(SimpleResourcesServer):\n    pass\n" + app,
		"resources_servers/always/app.py":     rfMethod(`        return "kept in memory"`),
		"resources_servers/when/app.py":       rfMethod("        if self.config.compute_comet:\n            return \"gpu\"\n        return None") + app,
		"resources_servers/unknown/app.py":    rfMethod(`        return self._why()`),
		"resources_servers/none/app.py":       rfMethod(`        return None`),
		"resources_servers/undeclared/app.py": rfHeader + "class EchoServer(SimpleResourcesServer):\n    pass\n",
	})
	for p, want := range map[string]string{
		"resources_servers/app_only/app.py":   "app",
		"resources_servers/always/app.py":     "refuses always",
		"resources_servers/when/app.py":       "refuses when: self.config.compute_comet (+app)",
		"resources_servers/unknown/app.py":    "refuses when: (condition not known statically)",
		"resources_servers/none/app.py":       "no app",
		"resources_servers/undeclared/app.py": "undeclared",
	} {
		e, s := rfServerOf(t, v, p)
		st := Status(v, e, s)
		if st.String() != want {
			t.Errorf("%s: %q, want %q", p, st.String(), want)
		}
		if p == "resources_servers/always/app.py" && st.Reason != "kept in memory" {
			t.Errorf("reason %q", st.Reason)
		}
	}
}

func TestParseExpressions(t *testing.T) {
	for _, tc := range []struct {
		src  string
		kind rfNodeKind
		ok   bool
	}{
		{`self.config.x == "a"`, rnCmp, true},
		{`a < b < c`, rnOther, true},
		{`not (a and b) or c`, rnOr, true},
		{`x if y else z`, rnTernary, true},
		{`f"a {b!r:>{w}}"`, rnFStr, true},
		{`rb"\x00"`, rnStr, true},
		{`"a" 'b' """c"""`, rnStr, true},
		{`foo(bar, *baz, key=1)[0].attr`, rnAttr, true},
		{`(1, 2,)`, rnTuple, true},
		{`-1.5e-3`, rnNum, true},
		{`lambda: 1`, 0, false},
		{`[x for x in y]`, 0, false},
		{`(y := 3)`, 0, false},
		{`a, b`, 0, false},
		{`"unterminated`, 0, false},
		{`x $ y`, 0, false},
		{strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000), 0, false},
	} {
		n := rfParse(tc.src)
		if (n != nil) != tc.ok {
			t.Errorf("%q: parsed %v, want %v", tc.src, n != nil, tc.ok)
			continue
		}
		if n != nil && n.kind != tc.kind {
			t.Errorf("%q: kind %v, want %v", tc.src, n.kind, tc.kind)
		}
	}
	if n := rfParse(`"tab\there \u00e9 \x41 \101 \N{DASH}"`); n == nil || n.str != "tab\there é A A \\N{DASH}" {
		t.Errorf("escapes: %+v", n)
	}
}

func TestEnclosingBlock(t *testing.T) {
	src := rfMethod(`        # a comment at a lower indentation does not count
        while True:
            if self.x:
                return "a"
        try:
            pass
        except Exception:
            return "b"
        else:
            return "c"
        with self.lock:
            if self.y:
                return "d"
        return "e"`)
	v := rfView(t, map[string]string{"resources_servers/echo/app.py": src})
	_, s := rfServerOf(t, v, "resources_servers/echo/app.py")
	fn := s.Class.Class.Method(Method)
	data := []byte(src)
	want := map[string]string{`"a"`: "while", `"b"`: "except", `"c"`: "try", `"d"`: "", `"e"`: ""}
	for _, r := range fn.Returns {
		kw, _, nested := rfEnclosingBlock(data, fn, r.Span.Start)
		if w := want[r.Value.Text]; kw != w || nested != (w != "") {
			t.Errorf("return %s: %q %v, want %q", r.Value.Text, kw, nested, w)
		}
	}
}

func TestMinimize(t *testing.T) {
	// x0 or (x1 and not x2), over 3 atoms.
	on := make([]bool, 8)
	for m := 0; m < 8; m++ {
		x0, x1, x2 := m&1 != 0, m&2 != 0, m&4 != 0
		on[m] = x0 || (x1 && !x2)
	}
	b := &rfBuilder{atoms: []*rfAtom{{pos: "a", neg: "not a"}, {pos: "b", neg: "not b"}, {pos: "c", neg: "not c"}}}
	if got := b.render(rfMinimize(3, on, nil)); got != "a or (b and not c)" {
		t.Errorf("got %q", got)
	}
	// Don't-cares let the condition shrink.
	dc := make([]bool, 8)
	for m := range dc {
		dc[m] = !on[m] && m&2 != 0
	}
	if got := b.render(rfMinimize(3, on, dc)); got != "a or b" {
		t.Errorf("with don't-cares: got %q", got)
	}
}

// rfRun runs one check over an overlay repository, sorted.
func rfRun(t *testing.T, check func(*gym.View) []diag.Diagnostic, files map[string]string) []diag.Diagnostic {
	t.Helper()
	v := rfView(t, files)
	ds := check(v)
	diag.Sort(ds)
	return ds
}
