package workers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/fixes"
)

// scanCase lints a case directory through the engine, with overlay.
func scanCase(t *testing.T, dir string, overlay map[string][]byte) []diag.Diagnostic {
	t.Helper()
	e, err := engine.New(engine.Options{Root: dir, Overlay: overlay, NoGo: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Scan(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Diagnostics
}

// applyFirstFixes applies what gymlint --fix --unsafe-fixes applies: each
// finding's chosen fix (fixes.Chosen), taken whole into one fixes.Set in
// the findings' order (an edit two fixes make alike is made once, a fix
// that overlaps one taken before is left out). It returns the fixed
// files' contents and how many fixes it took.
func applyFirstFixes(t *testing.T, dir string, ds []diag.Diagnostic) (map[string][]byte, int) {
	t.Helper()
	var set fixes.Set
	taken := 0
	for _, d := range ds {
		f, ok := fixes.Chosen(d, true)
		if !ok {
			continue
		}
		if err := set.Add(f.Edits); err != nil {
			t.Logf("%s:%d: %s: fix %q left out: %v", d.Path, d.Start.Line, d.Code, f.Message, err)
			continue
		}
		taken++
	}
	byFile := map[string][]diag.TextEdit{}
	for _, e := range set.Edits() {
		byFile[e.Path] = append(byFile[e.Path], e)
	}
	out := map[string][]byte{}
	for p, es := range byFile {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		// The set's edits are sorted and do not overlap: apply them from
		// the end.
		s := string(src)
		for i := len(es) - 1; i >= 0; i-- {
			e := es[i]
			s = s[:e.Start.Offset] + e.NewText + s[e.End.Offset:]
		}
		out[p] = []byte(s)
	}
	return out, taken
}

// count counts the findings of each path and code: those of the workers
// analyzer, and GL001 (a file that does not parse).
func count(ds []diag.Diagnostic) map[string]int {
	n := map[string]int{}
	for _, d := range ds {
		if d.Analyzer == "workers" || d.Code == "GL001" {
			n[d.Path+" "+d.Code]++
		}
	}
	return n
}

// TestFirstFixesCompose applies the first fix of every finding of each
// case at once, as gymlint --fix --unsafe-fixes does, lints the fixed
// files again, and checks that no file has more findings of the workers
// analyzer (or GL001) than before: the fixes of one finding do not undo
// another's (an app for a server whose parent another fix makes refuse,
// GL106; an override that a config's num_workers then contradicts, GL104;
// an app that exposes a hazard, GL105 and GL107-GL117; an override that
// leaves setup before the refusal, GL102). The hierarchy case, shaped like
// NeMo Gym's aviary servers, must end with none of them.
func TestFirstFixesCompose(t *testing.T) {
	cases, err := os.ReadDir(filepath.Join("testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			dir := filepath.Join("testdata", "src", c.Name())
			before := scanCase(t, dir, nil)
			fixed, taken := applyFirstFixes(t, dir, before)
			if taken == 0 {
				return
			}
			checked++
			after := scanCase(t, dir, fixed)
			nb, na := count(before), count(after)
			for k, n := range na {
				if n > nb[k] {
					var lines []string
					for _, d := range after {
						if d.Path+" "+d.Code == k {
							lines = append(lines, fmt.Sprintf("%s:%d: %s %s", d.Path, d.Start.Line, d.Code, d.Message))
						}
					}
					t.Errorf("%s: %d findings after the first fixes, %d before:\n\t%s", k, n, nb[k], strings.Join(lines, "\n\t"))
				}
			}
			if c.Name() == "undeclared-fix-hierarchy" {
				for k, n := range na {
					t.Errorf("%s: %d findings left after the first fixes", k, n)
				}
				// Each subclass entrypoint's first fix is its base class's
				// override, the base module's own fix: no app, and no stub
				// of its own (BixBenchServer's hazard would ask for one).
				for _, d := range before {
					f, ok := fixes.Chosen(d, true)
					if d.Code != "GL101" || !strings.Contains(d.Path, "_aviary/") || !ok {
						continue
					}
					for _, e := range f.Edits {
						if e.Path != "resources_servers/aviary/app.py" {
							t.Errorf("%s: the first fix %q edits %s, not the base module", d.Path, f.Message, e.Path)
						}
					}
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no case has a fix")
	}
}
