package sessions_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/cli"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/golden"
	"github.com/gymlint/gymlint/lint"
)

var updateSessionsB = flag.Bool("update-sessions-b", false, "rewrite testdata/sessionsrepo_b.golden.txt from the current output")

const fixtureB = "../../testdata/sessionsrepo_b"

// ownCodesB are the codes the sessionsrepo_b oracle speaks for: GL306–GL310
// and the core rules.
var ownCodesB = regexp.MustCompile(`^GL(?:30[6-9]|310|0\d\d)$`)

// TestSessionsrepoBOracle checks gymlint's findings on
// testdata/sessionsrepo_b against testdata/sessionsrepo_b.expect.md,
// written by hand: every finding of GL306–GL310 and the core rules, with
// its related positions in order, and the text each suggested fix leaves.
func TestSessionsrepoBOracle(t *testing.T) {
	res, err := lint.Run(fixtureB, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const (
		counter = "resources_servers/counter_zero/app.py"
		grid    = "resources_servers/grid_env/app.py"
		ladder  = "resources_servers/ladder/"
		quiz    = "resources_servers/quiz_spread/app.py"
		sandbox = "resources_servers/sandbox_race/app.py"
		board   = "resources_servers/tool_observe/app.py"
	)
	want := map[string][]string{
		counter + ":41 GL309":       {counter + ":40", counter + ":29", counter + ":42"},
		counter + ":48 GL306":       {counter + ":47", counter + ":29", counter + ":42"},
		grid + ":32 GL309":          {grid + ":31", grid + ":27"},
		ladder + "base.py:34 GL307": {ladder + "base.py:22", ladder + "app.py:5"},
		quiz + ":17 GL308":          nil,
		quiz + ":61 GL308":          nil,
		sandbox + ":18 GL310":       {sandbox + ":16", sandbox + ":19"},
		sandbox + ":25 GL310":       {sandbox + ":23", sandbox + ":26", sandbox + ":19"},
		sandbox + ":33 GL307":       {sandbox + ":19"},
		board + ":47 GL309":         {board + ":46", board + ":35"},
		board + ":53 GL309":         {board + ":52", board + ":35"},
		board + ":63 GL309":         {board + ":62", board + ":35"},
		board + ":70 GL306":         {board + ":47", board + ":46", board + ":35"},
	}
	got := map[string][]string{}
	var fixes []diag.Diagnostic
	for _, d := range res.Diagnostics {
		if !ownCodesB.MatchString(d.Code) {
			continue
		}
		var rel []string
		for _, r := range d.Related {
			rel = append(rel, fmt.Sprintf("%s:%d", r.Path, r.Start.Line))
		}
		got[fmt.Sprintf("%s:%d %s", d.Path, d.Start.Line, d.Code)] = rel
		if len(d.Fixes) > 0 {
			fixes = append(fixes, d)
		}
	}
	for k, wr := range want {
		if gr, ok := got[k]; ok && strings.Join(gr, " ") != strings.Join(wr, " ") {
			t.Errorf("%s: related %v, the oracle lists %v", k, gr, wr)
		}
	}
	golden.Findings(t, want, got)
	if n := len(res.View.Entrypoints); n != 9 {
		t.Errorf("got %d entrypoints, the oracle lists 9", n)
	}

	// The fixes: applied to the file (all their edits), they leave the
	// text the oracle lists, and GL308's leaves one spread instead of two.
	type fixed struct {
		text string
		safe bool
	}
	const (
		lostErr  = "ResourcesSessionLostError"
		lostFunc = "lost_session_verification"
	)
	wantFixed := map[string]fixed{
		quiz + ":17": {"    return BaseVerifyResponse(\n" +
			`        **(body.model_dump() | brs.lost_session_verification("quiz expired", failure_kind="session_expired")),` + "\n    )\n", true},
		quiz + ":61":    {`            return BaseVerifyResponse(**(body.model_dump() | lost_fields("quiz is gone")))` + "\n", true},
		counter + ":41": {`            raise ` + lostErr + `("Session not initialized. Please call seed_session first.")` + "\n", false},
		counter + ":48": {`            return BaseVerifyResponse(**(body.model_dump() | ` + lostFunc + `("session is gone")))` + "\n", false},
		grid + ":32":    {`            raise ` + lostErr + `("Session not initialized. Call /reset first.")` + "\n", false},
		sandbox + ":33": {"        reward = 0.0\n        if body.resources_session_id not in self.sandboxes:\n" +
			`            return BaseVerifyResponse(**(body.model_dump() | ` + lostFunc + `("session is gone")))` + "\n" +
			"        if body.resources_session_id in self.sandboxes:\n", false},
		board + ":53": {`            raise ` + lostErr + `("Session not initialized. Call /seed_session first.")` + "\n", false},
		board + ":63": {`                raise ` + lostErr + `(f"No board to move the {piece} on.")` + "\n", false},
	}
	// The names the fixes use, imported into the fixture's own
	// from-import of the framework module, in isort's order.
	wantImported := map[string]string{
		counter + ":41": "    ResourcesSessionLocks,\n    " + lostErr + ",\n    SimpleResourcesServer,\n",
		counter + ":48": "    SimpleResourcesServer,\n    " + lostFunc + ",\n)",
		grid + ":32":    "from nemo_gym.base_resources_server import " + lostErr + ", SimpleResourcesServer\n",
		sandbox + ":33": "import BaseVerifyResponse, ResourcesSessionFences, SimpleResourcesServer, " + lostFunc + "\n",
		board + ":53":   "    ResourcesSessionLocks,\n    " + lostErr + ",\n    SimpleResourcesServer,\n",
	}
	if len(fixes) != len(wantFixed) {
		t.Errorf("%d findings carry a fix, the oracle lists %d", len(fixes), len(wantFixed))
	}
	for _, d := range fixes {
		key := fmt.Sprintf("%s:%d", d.Path, d.Start.Line)
		src, err := os.ReadFile(filepath.Join(fixtureB, d.Path))
		if err != nil {
			t.Fatal(err)
		}
		w, ok := wantFixed[key]
		if !ok {
			t.Errorf("%s: unexpected fix %+v", key, d.Fixes)
			continue
		}
		if len(d.Fixes) != 1 {
			t.Fatalf("%s: want one fix, got %+v", key, d.Fixes)
		}
		fix := d.Fixes[0]
		if fix.IsSafe() != w.safe {
			t.Errorf("%s: the fix is safe: %v, the oracle says %v", key, fix.IsSafe(), w.safe)
		}
		edits := slices.Clone(fix.Edits)
		slices.SortFunc(edits, func(a, b diag.TextEdit) int { return int(b.Start.Offset - a.Start.Offset) })
		out := string(src)
		for _, e := range edits {
			if e.Path != d.Path {
				t.Fatalf("%s: an edit of another file, %s", key, e.Path)
			}
			out = out[:e.Start.Offset] + e.NewText + out[e.End.Offset:]
		}
		if !strings.Contains(out, w.text) {
			t.Errorf("%s: after the fix the file lacks\n%s", key, w.text)
		}
		if imp := wantImported[key]; imp != "" && !strings.Contains(out, imp) {
			t.Errorf("%s: after the fix the file lacks the import\n%s", key, imp)
		}
		if d.Code == "GL308" && strings.Count(out, "**") != strings.Count(string(src), "**")-1 {
			t.Errorf("%s: the fix should leave one spread instead of two: %+v", key, fix.Edits)
		}
	}
}

// TestSessionsrepoBGolden pins gymlint's exact text output on the
// fixture, every rule's. Regenerate with:
// go test ./analyzers/sessions -run TestSessionsrepoBGolden -update-sessions-b
func TestSessionsrepoBGolden(t *testing.T) {
	var out, errOut bytes.Buffer
	goldenFile, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sessionsrepo_b.golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixtureB) // the text output's paths are then the root's
	code := cli.Main([]string{"--quiet", "."}, &out, &errOut)
	if code != cli.ExitFindings {
		t.Errorf("exit code %d, want %d (stderr %q)", code, cli.ExitFindings, errOut.String())
	}
	golden.Check(t, goldenFile, out.Bytes(), *updateSessionsB, "update-sessions-b")
}
