package sessions_test

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/cli"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/golden"
	"github.com/gymlint/gymlint/lint"
)

var updateSessionsA = flag.Bool("update-sessions-a", false, "rewrite testdata/sessionsrepo_a.golden.txt from the current output")

const fixtureA = "../../testdata/sessionsrepo_a"

// ownCodes are the codes this fixture is about: GL301–GL305 and the core
// rules.
var ownCodes = regexp.MustCompile(`^GL(?:30[1-5]|0\d\d)$`)

// TestSessionsrepoAOracle checks gymlint's findings on
// testdata/sessionsrepo_a against the expectations written by hand in
// testdata/sessionsrepo_a.expect.md, independently of gymlint's output.
func TestSessionsrepoAOracle(t *testing.T) {
	res, err := lint.Run(fixtureA, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// finding → related positions ("path:line", in order).
	want := map[string][]string{
		// GL301 plain-exception-in-seed
		"resources_servers/seed_bad_input/app.py:18 GL301":  nil,
		"resources_servers/seed_bad_input/app.py:19 GL301":  nil,
		"resources_servers/seed_bad_input/app.py:21 GL301":  nil,
		"resources_servers/seed_bad_input/app.py:23 GL301":  nil,
		"resources_servers/seed_bad_input/app.py:28 GL301":  {"resources_servers/seed_bad_input/app.py:26"},
		"resources_servers/seed_validation/app.py:29 GL301": {"resources_servers/seed_validation/app.py:28"},
		"resources_servers/seed_validation/app.py:34 GL301": {"resources_servers/seed_validation/app.py:32"},
		"resources_servers/seed_validation/app.py:36 GL301": nil,
		// GL302 seed-without-close
		"resources_servers/counter_no_close/app.py:9 GL302": {
			"resources_servers/counter_no_close/app.py:14", "resources_servers/counter_no_close/app.py:20"},
		"resources_servers/minted_base/base.py:10 GL302": {
			"resources_servers/minted_base/base.py:15", "resources_servers/minted_a/app.py:6", "resources_servers/minted_b/app.py:6"},
		"resources_servers/mixin_shadow/app.py:14 GL302": {
			"resources_servers/mixin_shadow/app.py:18", "resources_servers/mixin_shadow/app.py:10"},
		// GL303 close-without-fence
		"resources_servers/close_no_fence/app.py:19 GL303": {
			"resources_servers/close_no_fence/app.py:20", "resources_servers/close_no_fence/app.py:16"},
		"resources_servers/close_super_only/app.py:19 GL303": {"resources_servers/close_super_only/app.py:17"},
		// GL304 close-swallows-failure
		"resources_servers/close_swallows/app.py:35 GL304": {"resources_servers/close_swallows/app.py:34"},
		"resources_servers/close_swallows/app.py:38 GL304": {"resources_servers/close_swallows/app.py:39"},
		"resources_servers/close_swallows/app.py:46 GL304": {
			"resources_servers/close_swallows/app.py:45", "resources_servers/close_swallows/app.py:29"},
		// GL305 close-keyed-by-cookie
		"resources_servers/close_cookie/app.py:26 GL305": {"resources_servers/close_cookie/app.py:22"},
	}
	got := map[string][]string{}
	for _, d := range res.Diagnostics {
		if !ownCodes.MatchString(d.Code) {
			continue
		}
		var rel []string
		for _, r := range d.Related {
			rel = append(rel, fmt.Sprintf("%s:%d", r.Path, r.Start.Line))
		}
		got[fmt.Sprintf("%s:%d %s", d.Path, d.Start.Line, d.Code)] = rel
	}
	for k, wr := range want {
		if gr, ok := got[k]; ok && strings.Join(gr, " ") != strings.Join(wr, " ") {
			t.Errorf("%s: related %v, the oracle lists %v", k, gr, wr)
		}
	}
	golden.Findings(t, want, got)
	if n := len(res.View.Entrypoints); n != 17 {
		t.Errorf("got %d entrypoints, the oracle lists 17", n)
	}
}

// TestSessionsrepoAGolden checks gymlint's exact text output on the
// fixture, restricted to the lines of GL301–GL305 and the core rules so
// that other analyzers' rules do not churn it. Regenerate with:
// go test ./analyzers/sessions -run TestSessionsrepoAGolden -update-sessions-a
func TestSessionsrepoAGolden(t *testing.T) {
	var out, errOut bytes.Buffer
	goldenFile, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sessionsrepo_a.golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixtureA) // the text output's paths are then the root's
	code := cli.Main([]string{"--quiet", "."}, &out, &errOut)
	if code != cli.ExitFindings {
		t.Errorf("exit code %d, want %d (stderr %q)", code, cli.ExitFindings, errOut.String())
	}
	var kept strings.Builder
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && ownCodes.MatchString(f[1]) {
			kept.WriteString(line)
		}
	}
	golden.Check(t, goldenFile, []byte(kept.String()), *updateSessionsA, "update-sessions-a")
}
