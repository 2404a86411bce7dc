package rayenabled_test

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/analyzers/rayenabled"
	"github.com/gymlint/gymlint/cli"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/golden"
	"github.com/gymlint/gymlint/lint"
)

var update = flag.Bool("update", false, "rewrite testdata/rayrepo.golden.txt and the .golden files of the gymtest cases from the current output")

const fixture = "../../testdata/rayrepo"

// TestRayrepoOracle checks gymlint's findings on testdata/rayrepo against
// the expectations written by hand in testdata/rayrepo.expect.md,
// independently of gymlint's output. Only the rayenabled rules (GL2xx) and
// the core rules (GL0xx) are compared: the fixture is built so that the
// other analyzers have nothing to say, but their verdicts are not this
// oracle's business.
func TestRayrepoOracle(t *testing.T) {
	res, err := lint.Run(fixture, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// GL201 undeclared-ray
		"resources_servers/translate_eval/app.py:19 GL201",
		"resources_servers/code_runner/app.py:9 GL201",
		"resources_servers/sql_eval/app.py:9 GL201",
		"resources_servers/ray_false/app.py:9 GL201",
		"resources_servers/legal_bench/bridge.py:7 GL201",
		"responses_api_agents/sandbox_agent/app.py:7 GL201",
		"responses_api_agents/job_agent/app.py:16 GL201",
		"responses_api_models/local_model/app.py:11 GL201",
		"responses_api_models/local_model/lite.py:8 GL201",
		"responses_api_models/rerank_model/app.py:7 GL201",
		// GL202 inherited-ray-enabled
		"resources_servers/inherit_child/app.py:8 GL202",
		"resources_servers/inherit_parent/lite_app.py:8 GL202",
		// GL203 unreadable-ray-enabled
		"resources_servers/computed/app.py:20 GL203",
		"resources_servers/method_set/app.py:11 GL203",
		"resources_servers/method_set/app.py:22 GL203",
		"resources_servers/mixin_decl/app.py:12 GL203",
		// GL204 unannotated-ray-enabled
		"resources_servers/legacy_placement/app.py:10 GL204",
		// GL205 unneeded-ray-enabled
		"resources_servers/unneeded/app.py:10 GL205",
		// Core: the helper that leaves unneeded_scratch's Ray needs unknown.
		"resources_servers/unneeded_scratch/scratch.py:5 GL001",
	}
	exp := map[string]bool{}
	for _, w := range want {
		exp[w] = true
	}
	got := map[string]bool{}
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Code, "GL2") || strings.HasPrefix(d.Code, "GL0") {
			got[fmt.Sprintf("%s:%d %s", d.Path, d.Start.Line, d.Code)] = true
		}
	}
	golden.Findings(t, exp, got)
	if n := len(res.View.Entrypoints); n != 25 {
		t.Errorf("got %d entrypoints, the oracle lists 25", n)
	}

	// The inventory's view of the same servers (Status), per entrypoint:
	// D declared, N needed.
	status := map[string]string{
		"resources_servers/code_runner/app.py":         "N",
		"resources_servers/computed/app.py":            "N",
		"resources_servers/declared_ok/app.py":         "DN",
		"resources_servers/inherit_child/app.py":       "N",
		"resources_servers/inherit_parent/app.py":      "DN",
		"resources_servers/inherit_parent/lite_app.py": "N",
		"resources_servers/legacy_placement/app.py":    "DN",
		"resources_servers/legal_bench/bridge.py":      "N",
		"resources_servers/method_set/app.py":          "N",
		"resources_servers/mixin_decl/app.py":          "N",
		"resources_servers/ray_false/app.py":           "N",
		"resources_servers/sql_docs/app.py":            "",
		"resources_servers/sql_eval/app.py":            "N",
		"resources_servers/translate_eval/app.py":      "N",
		"resources_servers/unneeded/app.py":            "D",
		"resources_servers/unneeded_scratch/app.py":    "D",
		"responses_api_agents/job_agent/app.py":        "N",
		"responses_api_agents/lazy_agent/app.py":       "",
		"responses_api_agents/lookalike_agent/app.py":  "",
		"responses_api_agents/sandbox_agent/app.py":    "N",
		"responses_api_models/engine_model/app.py":     "D",
		"responses_api_models/judge_model/app.py":      "D",
		"responses_api_models/local_model/app.py":      "N",
		"responses_api_models/local_model/lite.py":     "N",
		"responses_api_models/rerank_model/app.py":     "N",
	}
	for _, e := range res.View.Entrypoints {
		w, ok := status[e.Path]
		if !ok {
			t.Errorf("entrypoint %s is not in the oracle", e.Path)
			continue
		}
		if len(e.Servers) != 1 {
			t.Errorf("%s: %d server classes, the oracle has one", e.Path, len(e.Servers))
			continue
		}
		st := rayenabled.Status(res.View, e.Servers[0])
		g := ""
		if st.Declared {
			g += "D"
		}
		if st.Needed {
			g += "N"
		}
		if g != w {
			t.Errorf("%s: status %q, oracle %q", e.Path, g, w)
		}
	}
}

// TestRayrepoGolden checks gymlint's exact text output on the fixture.
// Regenerate with: go test ./analyzers/rayenabled -run TestRayrepoGolden -update
func TestRayrepoGolden(t *testing.T) {
	var out, errOut bytes.Buffer
	goldenFile, err := filepath.Abs(filepath.Join("..", "..", "testdata", "rayrepo.golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixture) // the text output's paths are then the root's
	code := cli.Main([]string{"--quiet", "."}, &out, &errOut)
	if code != cli.ExitFindings {
		t.Errorf("exit code %d, want %d (stderr %q)", code, cli.ExitFindings, errOut.String())
	}
	golden.Check(t, goldenFile, out.Bytes(), *update, "update")
}
