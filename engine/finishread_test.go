package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
)

// The suppression pass reads again only the files whose content, as the
// analysis read it, may hold a directive: the others have nothing to
// suppress. Directives in entrypoints and configs still suppress and
// still are reported unused.
func TestFinishReadsOnlyFilesWithDirectives(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources_servers/plain/app.py":         "class Plain:\n    pass\n",
		"resources_servers/plain/configs/p.yaml": "p:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n",
		"resources_servers/used/app.py":          "class Used:  # gymlint: ignore[GL998] checked by hand\n    pass\n",
		"resources_servers/used/configs/u.yaml":  "u:\n  resources_servers:\n    used:\n      entrypoint: app.py\n",
		"resources_servers/spare/app.py":         "class Spare:\n    pass  # gymlint: ignore[GL998] not needed\n",
		"resources_servers/spare/configs/s.yaml": "s:  # gymlint: ignore[GL004] not needed\n  resources_servers:\n    spare:\n      entrypoint: app.py\n",
		"resources_servers/ruff/app.py":          "class Ruff:  # noqa: GL016\n    pass\n",
		"resources_servers/ruff/configs/r.yaml":  "r:\n  resources_servers:\n    ruff:\n      entrypoint: app.py\n",
	})
	check := gym.Check{Rule: testRule, Run: func(v *gym.View) []diag.Diagnostic {
		var ds []diag.Diagnostic
		for _, e := range v.Entrypoints {
			ds = append(ds, testRule.New(e.Path, diag.Pos{Line: 1, Col: 1}, diag.Pos{Line: 1, Col: 1}, "seen"))
		}
		return ds
	}}
	res := scan(t, Options{Root: root, NoGo: true, Checks: append(lint.Checks(), check)})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Path+" "+d.Code)
	}
	for _, want := range []string{
		"resources_servers/plain/app.py GL998",
		"resources_servers/spare/app.py GL998",
		"resources_servers/spare/app.py GL010",
		"resources_servers/spare/configs/s.yaml GL010",
		"resources_servers/ruff/app.py GL013", // a noqa naming GL codes suppresses nothing
		"resources_servers/ruff/app.py GL998",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %s in %q", want, got)
		}
	}
	for _, no := range []string{"resources_servers/used/app.py GL998", "resources_servers/used/app.py GL010"} {
		if slices.Contains(got, no) {
			t.Errorf("%s in %q", no, got)
		}
	}
	// Which files the pass reads.
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.View(nil)
	read := finishRead(c)
	for p, skipped := range map[string]bool{
		"resources_servers/plain/app.py": true, "resources_servers/plain/configs/p.yaml": true, "resources_servers/used/configs/u.yaml": true,
		"resources_servers/used/app.py": false, "resources_servers/spare/app.py": false, "resources_servers/spare/configs/s.yaml": false,
		"resources_servers/ruff/app.py": false, "resources_servers/ruff/configs/r.yaml": true,
	} {
		data, err := read(p)
		if skipped != errors.Is(err, errNoDirective) || !skipped && len(data) == 0 {
			t.Errorf("%s: read %d bytes, %v; want skipped %v", p, len(data), err, skipped)
		}
	}
}
