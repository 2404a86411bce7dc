package workers_test

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/golden"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/output"
	"github.com/gymlint/gymlint/settings"
)

var updateRefusal = flag.Bool("update-refusal", false, "rewrite testdata/refusalrepo.golden.txt from the current output")

const refusalRepo = "../../testdata/refusalrepo"

func runRefusalRepo(t *testing.T) *lint.Result {
	t.Helper()
	conf, err := settings.Load(refusalRepo)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lint.Run(refusalRepo, gym.Options{Exemptions: conf.Exempt})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRefusalRepoOracle checks the findings that testdata/refusalrepo.expect.md
// lists, written by hand from the rules. It checks the core rules, GL101,
// GL104 and GL106, and ignores the codes of other rules.
func TestRefusalRepoOracle(t *testing.T) {
	res := runRefusalRepo(t)
	want := []string{
		"benchmarks/big_eval/config.yaml:14 GL104",
		"benchmarks/merged/config.yaml:4 GL104",
		"benchmarks/speed/config.yaml:11 GL104",
		"resources_servers/cohort_compare/configs/cohort_compare.yaml:16 GL104",
		"resources_servers/env_pool/configs/env_pool.yaml:6 GL104",
		"resources_servers/env_pool/configs/env_pool.yaml:18 GL104",
		"resources_servers/sidecar_tools/configs/sidecar_tools.yaml:7 GL104",
		"resources_servers/speed_check/configs/speed_check.yaml:7 GL104",
		"resources_servers/tool_box/configs/tool_box.yaml:6 GL104",
		"resources_servers/translate_eval/configs/translate_eval.yaml:8 GL104",
		"responses_api_agents/terminal_agent/configs/terminal_agent.yaml:14 GL104",
		"resources_servers/tool_box/app.py:21 GL106",
		"resources_servers/task_files/app.py:26 GL106",
		"resources_servers/shadowed/app.py:13 GL101",
	}
	checked := func(code string) bool {
		return strings.HasPrefix(code, "GL0") || code == "GL101" || code == "GL104" || code == "GL106"
	}
	var got []string
	for _, d := range res.Diagnostics {
		if checked(d.Code) {
			got = append(got, fmt.Sprintf("%s:%d %s", d.Path, d.Start.Line, d.Code))
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings differ from the oracle\n--- got\n%s\n--- want\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(res.View.Entrypoints); n != 14 {
		t.Errorf("got %d entrypoints, the oracle lists 14", n)
	}
}

// TestRefusalRepoGolden pins gymlint's exact text output on the fixture.
// Regenerate with: go test ./analyzers/workers -run TestRefusalRepoGolden -update-refusal
func TestRefusalRepoGolden(t *testing.T) {
	res := runRefusalRepo(t)
	var b bytes.Buffer
	if err := output.Text(&b, res.Diagnostics); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("..", "..", "testdata", "refusalrepo.golden.txt"), b.Bytes(), *updateRefusal, "update-refusal")
}
