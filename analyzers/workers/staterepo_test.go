package workers_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
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

var updateState = flag.Bool("update-state", false, "rewrite testdata/staterepo.golden.txt from the current output")

var stateRepo = filepath.Join("..", "..", "testdata", "staterepo")

func runStateRepo(t *testing.T) *lint.Result {
	t.Helper()
	conf, err := settings.Load(stateRepo)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lint.Run(stateRepo, gym.Options{
		ServerTypes: conf.ServerTypes, FrameworkPackage: conf.FrameworkPackage, Exemptions: conf.Exempt,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// stateOracle is testdata/staterepo.expect.md: path, line, code. It was
// written by hand from the rules, not from gymlint's output.
var stateOracle = []string{
	"resources_servers/bare_envs/app.py:11 GL101",
	"resources_servers/ladder/base.py:25 GL105",
	"resources_servers/lexicon/app.py:21 GL102",
	"resources_servers/maze_env/app.py:37 GL105",
	"resources_servers/maze_env/app.py:44 GL105",
	"resources_servers/proof_check/app.py:17 GL103",
	"resources_servers/proof_check/app.py:29 GL102",
	"resources_servers/proof_check/app.py:31 GL103",
	"resources_servers/quiz_bowl/app.py:7 GL103",
	"resources_servers/quiz_bowl/app.py:11 GL101",
	"resources_servers/report_builder/app.py:26 GL102",
	"resources_servers/sheet_grader/app.py:15 GL103",
}

// stateOracleCodes are the codes the oracle speaks for; other rules'
// findings on this fixture are left to their own tests (and the golden).
func stateOracleCode(code string) bool {
	switch code {
	case "GL101", "GL102", "GL103", "GL105":
		return true
	}
	return strings.HasPrefix(code, "GL0")
}

func TestStateRepoOracle(t *testing.T) {
	res := runStateRepo(t)
	got := map[string]bool{}
	for _, d := range res.Diagnostics {
		if stateOracleCode(d.Code) {
			got[fmt.Sprintf("%s:%d %s", d.Path, d.Start.Line, d.Code)] = true
		}
	}
	want := map[string]bool{}
	for _, w := range stateOracle {
		want[w] = true
		if !got[w] {
			t.Errorf("expected but not reported: %s", w)
		}
	}
	var extra []string
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, e := range extra {
		t.Errorf("reported but not expected: %s", e)
	}
	if n := len(res.View.Entrypoints); n != 13 {
		t.Errorf("got %d entrypoints, the oracle lists 13", n)
	}
	// GL105 names both places: the store is the finding, the reads and the
	// module-level apps are related.
	for _, d := range res.Diagnostics {
		if d.Code != "GL105" {
			continue
		}
		var reads, apps int
		for _, r := range d.Related {
			switch {
			case strings.Contains(r.Message, "is read here"):
				reads++
			case strings.Contains(r.Message, "module-level app"):
				apps++
			}
		}
		if reads == 0 || apps == 0 {
			t.Errorf("%s:%d GL105 lacks a related read or app: %+v", d.Path, d.Start.Line, d.Related)
		}
		if d.Path == "resources_servers/ladder/base.py" && apps != 2 {
			t.Errorf("the ladder finding should name both apps, got %d", apps)
		}
	}
}

// TestStateRepoGolden pins gymlint's exact text output on the fixture: the
// lines of the workers rules and the core rules, which are this package's
// to keep (the sessions rules' lines of the file are the sessions
// analyzer's; its own fixture tests check them).
// Regenerate with: go test ./analyzers/workers -run TestStateRepoGolden -update-state
func TestStateRepoGolden(t *testing.T) {
	res := runStateRepo(t)
	var b bytes.Buffer
	if err := output.Text(&b, res.Diagnostics); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "testdata", "staterepo.golden.txt")
	if *updateState {
		golden.Check(t, path, b.Bytes(), true, "update-state")
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ownLines(b.Bytes()), ownLines(want); got != want {
		t.Errorf("the workers' and core findings differ from %s (run with -update-state to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// ownLines keeps the lines of a text output whose code is a core rule's
// (GL0xx) or a workers rule's (GL1xx).
func ownLines(out []byte) string {
	var keep []string
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if _, rest, ok := strings.Cut(l, ": GL"); ok && (strings.HasPrefix(rest, "0") || strings.HasPrefix(rest, "1")) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
