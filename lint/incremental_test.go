package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
)

// fixtures are the repositories under testdata with hand-written oracles.
var fixtures = []string{"gymrepo", "extframework", "rayrepo", "refusalrepo", "staterepo", "sessionsrepo_a", "sessionsrepo_b"}

// key identifies a diagnostic as an editor shows it.
func key(d diag.Diagnostic) string {
	return fmt.Sprintf("%s:%d:%d-%d:%d %s %s %s", d.Path, d.Start.Line, d.Start.Col, d.End.Line, d.End.Col, d.Code, d.Severity, d.Message)
}

func keys(ds []diag.Diagnostic) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		if k := key(d); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestFocusedViewsMatchBatch checks the promise the language server rests
// on: a session, which analyses groups of entrypoints in focused views,
// finds exactly what one scan of the whole repository finds, and each
// group's dependencies hold its entrypoints and the configs naming them.
func TestFocusedViewsMatchBatch(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			s, want, _ := sessionMatchesBatch(t, filepath.Join("..", "testdata", name))
			if len(want) == 0 {
				t.Fatal("fixture has no findings: the comparison proves nothing")
			}
			for _, e := range s.Cache().Entrypoints() {
				d := s.DependenciesOf(e.Path)
				if !slices.Contains(d, e.Path) {
					t.Errorf("%s: dependencies %v lack the entrypoint", e.Path, d)
				}
				for _, cf := range e.Configs {
					if !slices.Contains(d, cf) {
						t.Errorf("%s: dependencies lack its config %s", e.Path, cf)
					}
				}
			}
		})
	}
}

// optionsOf returns the scan options of a repository's configuration.
func optionsOf(t *testing.T, dir string) gym.Options {
	t.Helper()
	conf, err := settings.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return gym.Options{Exemptions: conf.Exempt, ServerTypes: conf.ServerTypes, FrameworkPackage: conf.FrameworkPackage}
}

// sessionMatchesBatch opens a session on dir, analyses everything, and
// checks that it finds exactly what one batch scan finds. It returns the
// session (closed with the test), the batch's findings and the stats of
// the session's first update.
func sessionMatchesBatch(t *testing.T, dir string) (*lint.Session, []string, lint.UpdateStats) {
	t.Helper()
	opts := optionsOf(t, dir)
	batch, err := lint.Run(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := lint.NewSession(dir, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	_, st := s.Update(nil)
	want, got := keys(batch.Diagnostics), keys(s.Diagnostics())
	if !slices.Equal(want, got) {
		t.Errorf("the session differs from the batch scan\nonly in batch:\n  %s\nonly in the session:\n  %s",
			strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
	}
	return s, want, st
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestCacheInvalidation edits a copy of a fixture through the cache's
// overlay, as an editor does, and checks that a fresh focused view sees the
// edit, that the parent module's edit reaches the subclass's entrypoint
// through its dependencies, and that clearing the overlay restores the
// disk's verdict.
func TestCacheInvalidation(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("resources_servers/echo/base.py", `from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoBase(SimpleResourcesServer):
    pass
`)
	write("resources_servers/echo/app.py", `from base import EchoBase


class EchoServer(EchoBase):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
`)
	write("resources_servers/echo/configs/echo.yaml", `echo:
  resources_servers:
    echo:
      entrypoint: app.py
      domain: other
`)
	write("resources_servers/echo/requirements.txt", "fastapi\n")
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const ep = "resources_servers/echo/app.py"
	codes := func() []string {
		v := c.View([]string{ep})
		var out []string
		for _, d := range lint.Analyse(v) {
			out = append(out, d.Code+"@"+d.Path)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	v := c.View([]string{ep})
	lint.Analyse(v)
	deps := v.Dependencies()
	for _, want := range []string{ep, "resources_servers/echo/base.py", "resources_servers/echo/configs/echo.yaml"} {
		if !slices.Contains(deps, want) {
			t.Errorf("dependencies %v lack %s", deps, want)
		}
	}
	if got := codes(); !slices.Equal(got, []string{"GL101@" + ep}) {
		t.Fatalf("before the edit: %v, want GL101 on the entrypoint", got)
	}
	// The parent class refuses several workers: the subclass's entrypoint
	// is fixed by an edit to another module.
	c.SetOverlay("resources_servers/echo/base.py", []byte(`from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoBase(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "the echo log is kept in this process"
`))
	if got := codes(); len(got) != 0 {
		t.Fatalf("after the parent's override: %v, want nothing", got)
	}
	// A syntax error in the parent is the entrypoint's problem now.
	c.SetOverlay("resources_servers/echo/base.py", []byte("class EchoBase(:\n"))
	if got := codes(); !slices.Contains(got, "GL001@resources_servers/echo/base.py") {
		t.Fatalf("after breaking the parent: %v, want GL001 on base.py", got)
	}
	c.ClearOverlay("resources_servers/echo/base.py")
	if got := codes(); !slices.Equal(got, []string{"GL101@" + ep}) {
		t.Fatalf("after clearing the overlay: %v, want GL101 again", got)
	}
	// A config edit that stops naming the entrypoint: still a server dir
	// app.py; one that names a missing module gives a repository diagnostic.
	c.SetOverlay("resources_servers/echo/configs/echo.yaml", []byte(`echo:
  resources_servers:
    echo:
      entrypoint: missing.py
`))
	var infos []string
	for _, e := range c.Entrypoints() {
		infos = append(infos, fmt.Sprintf("%s %v", e.Path, e.Configs))
	}
	if !slices.Equal(infos, []string{ep + " []"}) {
		t.Errorf("entrypoints after the config edit: %v", infos)
	}
	var repo []string
	for _, d := range c.View([]string{}).RepositoryDiagnostics() {
		repo = append(repo, d.Code+"@"+d.Path)
	}
	if !slices.Equal(repo, []string{"GL005@resources_servers/echo/configs/echo.yaml"}) {
		t.Errorf("repository diagnostics after the config edit: %v", repo)
	}
	// A new unsaved module that an import now finds: the import of `base`
	// resolves to the new file first (own folder), and the dependency on
	// its path was recorded while it did not exist.
	write("resources_servers/echo/helpers.py", "X = 1\n")
	c.Created("resources_servers/echo/helpers.py")
	if got := c.Entrypoints(); len(got) != 1 {
		t.Errorf("entrypoints after creating a helper: %v", got)
	}
}

// TestSessionFollowsEdits makes a long, seeded sequence of editor-like
// edits (unsaved buffers) to the fixtures' Python and YAML files — removed
// and duplicated lines, truncations, changed bases, added apps and
// overrides, renamed entrypoints, syntax errors, buffers closed again —
// and after each one checks that the session's incremental update gives
// exactly what a fresh scan of the repository with the same buffers gives.
func TestSessionFollowsEdits(t *testing.T) {
	steps := 60
	if s := os.Getenv("GYMLINT_EDIT_STEPS"); s != "" {
		steps, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		steps = 15
	}
	dirs := []string{}
	for _, name := range fixtures {
		dirs = append(dirs, filepath.Join("..", "testdata", name))
	}
	if d := os.Getenv("GYMLINT_EQUIV_REPO"); d != "" {
		dirs = append(dirs, d) // by hand, on a real repository
	}
	for fi, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			opts := optionsOf(t, dir)
			// A fixture is copied, so that files can also be deleted and
			// created on disk, as git does behind the editor's back.
			disk := strings.HasPrefix(dir, filepath.Join("..", "testdata"))
			if disk {
				work := t.TempDir()
				if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
					t.Fatal(err)
				}
				dir = work
			}
			removed := map[string][]byte{}
			var files []string
			_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".yaml")) {
					rel, _ := filepath.Rel(dir, p)
					files = append(files, filepath.ToSlash(rel))
				}
				return nil
			})
			slices.Sort(files)
			s, err := lint.NewSession(dir, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.Update(nil)
			// Two edits in three go to files some entrypoint depends on
			// (in a real repository most files are read by none).
			hotSet := map[string]bool{}
			for _, e := range s.Cache().Entrypoints() {
				for _, d := range s.DependenciesOf(e.Path) {
					hotSet[d] = true
				}
			}
			var hot []string
			for _, f := range files {
				if hotSet[f] {
					hot = append(hot, f)
				}
			}
			overlay := map[string][]byte{}
			rng := newRand(uint64(fi + 1))
			for step := 0; step < steps; step++ {
				p := files[rng.intn(len(files))]
				if len(hot) > 0 && rng.intn(3) != 0 {
					p = hot[rng.intn(len(hot))]
				}
				old, ok := overlay[p]
				full := filepath.Join(dir, filepath.FromSlash(p))
				if !ok {
					if old, err = os.ReadFile(full); err != nil {
						old = removed[p]
					}
				}
				what := ""
				if disk && !ok && rng.intn(6) == 0 {
					if _, gone := removed[p]; !gone {
						removed[p] = old
						if err := os.Remove(full); err != nil {
							t.Fatal(err)
						}
						s.Cache().Deleted(p)
						what = "delete on disk"
					} else {
						if err := os.WriteFile(full, removed[p], 0o644); err != nil {
							t.Fatal(err)
						}
						delete(removed, p)
						s.Cache().Created(p)
						what = "restore on disk"
					}
				} else if ok && rng.intn(5) == 0 {
					delete(overlay, p)
					s.Cache().ClearOverlay(p)
					what = "close"
				} else {
					var content []byte
					content, what = mutate(rng, p, old)
					overlay[p] = content
					s.Cache().SetOverlay(p, content)
				}
				s.Update([]string{p})
				batchOpts := opts
				batchOpts.Overlay = maps(overlay)
				batch, err := lint.Run(dir, batchOpts)
				if err != nil {
					t.Fatal(err)
				}
				want, got := keys(batch.Diagnostics), keys(s.Diagnostics())
				if !slices.Equal(want, got) {
					t.Fatalf("step %d (%s of %s): session differs from a fresh scan\nonly in the scan:\n  %s\nonly in the session:\n  %s",
						step, what, p, strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
				}
				// Per file, as the language server asks.
				var perFile []diag.Diagnostic
				for _, path := range s.Paths() {
					perFile = append(perFile, s.DiagnosticsOf(path)...)
				}
				if got := keys(perFile); !slices.Equal(want, got) {
					t.Fatalf("step %d: DiagnosticsOf over Paths differs from Diagnostics:\n  %s\n  %s",
						step, strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
				}
			}
		})
	}
}

func maps(m map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// mutate makes one edit of the kinds an author makes while typing.
func mutate(rng *rand, p string, src []byte) ([]byte, string) {
	lines := strings.SplitAfter(string(src), "\n")
	line := rng.intn(len(lines))
	py := strings.HasSuffix(p, ".py")
	switch k := rng.intn(8); {
	case k == 0:
		return []byte(strings.Join(slices.Delete(slices.Clone(lines), line, line+1), "")), "delete line"
	case k == 1:
		return src[:rng.intn(len(src)+1)], "truncate"
	case k == 2:
		return []byte(strings.Join(slices.Insert(slices.Clone(lines), line, lines[line]), "")), "duplicate line"
	case k == 3 && py:
		return []byte(string(src) + "\napp = None\n"), "add app"
	case k == 4 && py:
		return []byte(strings.Replace(string(src), "(", "(:", 1)), "syntax error"
	case k == 5 && py:
		for _, pair := range [][2]string{{"SimpleResourcesServer", "SimpleResponsesAPIAgent"}, {"Base", "Other"}, {"app = ", "other = "}} {
			if strings.Contains(string(src), pair[0]) {
				return []byte(strings.Replace(string(src), pair[0], pair[1], 1)), "rename " + pair[0]
			}
		}
	case k == 6 && py:
		i := strings.Index(string(src), "\nclass ")
		if i >= 0 {
			j := strings.Index(string(src[i+1:]), "\n") + i + 1
			return []byte(string(src[:j+1]) + "    def multiple_workers_unsupported_reason(self):\n        return \"kept in memory\"\n" + string(src[j+1:])), "add override"
		}
	case k == 3 || k == 4:
		return []byte(strings.Replace(string(src), "entrypoint: ", "entrypoint: x", 1)), "rename entrypoint"
	case k == 5:
		return []byte(string(src) + "\n" + lines[0]), "duplicate key"
	}
	return []byte(string(src) + "\n# edited\n"), "comment"
}

// rand is a small deterministic generator (xorshift), so a failing
// sequence can be replayed.
type rand struct{ s uint64 }

func newRand(seed uint64) *rand { return &rand{s: seed*0x9E3779B97F4A7C15 + 1} }

func (r *rand) intn(n int) int {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return int(r.s % uint64(n))
}

// TestSessionReanalysesOnlyDependents checks how much an edit costs: an
// edit to a module nothing reads re-analyses nothing, an edit to an
// entrypoint re-analyses its group only, an edit to a parent class's module
// re-analyses exactly the entrypoints whose servers derive from it, and an
// edit to a config re-analyses the entrypoints it names.
func TestSessionReanalysesOnlyDependents(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"resources_servers/common/base.py":   "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass SharedBase(SimpleResourcesServer):\n    pass\n",
		"resources_servers/common/unused.py": "X = 1\n",
		"resources_servers/helpers/text.py":  "def clean(s):\n    return s.strip()\n",
	}
	server := func(name, base, imp string) string {
		return imp + "\n\nclass " + name + "(" + base + "):\n    pass\n\n\nif __name__ == \"__main__\":\n    " + name + ".run_webserver()\n"
	}
	const shared = "from resources_servers.common.base import SharedBase"
	const plain = "from nemo_gym.base_resources_server import SimpleResourcesServer"
	for i, n := range []string{"a", "b", "c", "d", "e"} {
		imp, base := plain, "SimpleResourcesServer"
		if i < 2 {
			imp, base = shared, "SharedBase"
		}
		if n == "e" {
			imp += "\nfrom resources_servers.helpers.text import clean"
		}
		files["resources_servers/"+n+"/app.py"] = server("Server"+strings.ToUpper(n), base, imp)
		files["resources_servers/"+n+"/configs/"+n+".yaml"] = n + ":\n  resources_servers:\n    " + n + ":\n      entrypoint: app.py\n"
	}
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := lint.NewSession(root, gym.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, st := s.Update(nil); st.Analysed != 5 || st.Groups != 4 {
		t.Fatalf("first update: %+v, want 5 entrypoints in 4 groups (a and b share SharedBase)", st)
	}
	if g := s.GroupOf("resources_servers/a/app.py"); !slices.Equal(g, []string{"resources_servers/a/app.py", "resources_servers/b/app.py"}) {
		t.Errorf("group of a: %v", g)
	}
	edit := func(p, suffix string) lint.UpdateStats {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		s.Cache().SetOverlay(p, append(data, suffix...))
		_, st := s.Update([]string{p})
		return st
	}
	for _, tc := range []struct {
		path, suffix string
		want         int
	}{
		{"resources_servers/common/unused.py", "Y = 2\n", 0},
		{"resources_servers/c/app.py", "# edited\n", 1},
		{"resources_servers/a/app.py", "# edited\n", 2}, // with b: they share a class
		{"resources_servers/common/base.py", "# edited\n", 2},
		{"resources_servers/helpers/text.py", "# edited\n", 1}, // e imports it
		{"resources_servers/d/configs/d.yaml", "# edited\n", 1},
	} {
		if st := edit(tc.path, tc.suffix); st.Analysed != tc.want {
			t.Errorf("edit of %s re-analysed %d entrypoints, want %d", tc.path, st.Analysed, tc.want)
		}
	}
	// c's server now derives from SharedBase: the groups are made again,
	// and a later edit of base.py reaches all three.
	s.Cache().SetOverlay("resources_servers/c/app.py", []byte(server("ServerC", "SharedBase", shared)))
	s.Update([]string{"resources_servers/c/app.py"})
	if st := edit("resources_servers/common/base.py", "# again\n"); st.Analysed != 3 || st.Groups != 1 {
		t.Errorf("after c joined SharedBase, an edit of base.py analysed %+v, want 3 entrypoints in 1 group", st)
	}
}

// TestSessionMatchesBatchOnRepo runs the session-versus-batch comparison
// on any repository named by GYMLINT_EQUIV_REPO (the real NeMo Gym
// repository, a generated one): skipped without it.
func TestSessionMatchesBatchOnRepo(t *testing.T) {
	dir := os.Getenv("GYMLINT_EQUIV_REPO")
	if dir == "" {
		t.Skip("GYMLINT_EQUIV_REPO is not set")
	}
	_, want, st := sessionMatchesBatch(t, dir)
	t.Logf("%d diagnostics, %d entrypoints in %d groups", len(want), st.Analysed, st.Groups)
}

// TestOneShotSessionMatchesBatch: a one-shot session (the batch scan's),
// which keeps no parsed module once its update is done, finds what a
// batch scan finds and groups the entrypoints as a language server's
// session does; the modules it dropped are parsed again for a later
// update, with the same verdict.
func TestOneShotSessionMatchesBatch(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", name)
			s, want, _ := sessionMatchesBatch(t, dir)
			one, err := lint.NewSessionWith(dir, optionsOf(t, dir), nil, lint.SessionOptions{OneShot: true})
			if err != nil {
				t.Fatal(err)
			}
			defer one.Close()
			one.Update(nil)
			if got := keys(one.Diagnostics()); !slices.Equal(want, got) {
				t.Errorf("the one-shot session differs from the batch scan\nonly in batch:\n  %s\nonly in the session:\n  %s",
					strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
			}
			for _, e := range s.Cache().Entrypoints() {
				if a, b := s.GroupOf(e.Path), one.GroupOf(e.Path); !slices.Equal(a, b) {
					t.Errorf("%s: grouped with %v, one-shot with %v", e.Path, a, b)
				}
				if a, b := s.DependenciesOf(e.Path), one.DependenciesOf(e.Path); !slices.Equal(a, b) {
					t.Errorf("%s: dependencies differ: %v, one-shot %v", e.Path, a, b)
				}
			}
			// Everything analysed again from an empty cache.
			var all []string
			for _, e := range one.Cache().Entrypoints() {
				all = append(all, e.Path)
				one.Cache().Changed(e.Path)
			}
			one.Update(all)
			if got := keys(one.Diagnostics()); !slices.Equal(want, got) {
				t.Errorf("after a second update the one-shot session differs from the batch scan\nonly in batch:\n  %s\nonly in the session:\n  %s",
					strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
			}
		})
	}
}

// TestNoDependenciesSession: a one-shot session that keeps no
// dependencies (a batch scan without a cache) finds and groups what a
// language server's session does, gives no dependencies, and, since it
// cannot tell which groups a change reaches, analyses every group again
// on a later update, with the same verdict.
func TestNoDependenciesSession(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", name)
			s, want, first := sessionMatchesBatch(t, dir)
			one, err := lint.NewSessionWith(dir, optionsOf(t, dir), nil, lint.SessionOptions{OneShot: true, NoDependencies: true})
			if err != nil {
				t.Fatal(err)
			}
			defer one.Close()
			if one.Cache().RecordsDependencies() {
				t.Fatal("the session's cache records dependencies")
			}
			if _, st := one.Update(nil); st != first {
				t.Errorf("first update: %+v, the language server's session %+v", st, first)
			}
			if got := keys(one.Diagnostics()); !slices.Equal(want, got) {
				t.Errorf("the session differs from the batch scan\nonly in batch:\n  %s\nonly in the session:\n  %s",
					strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
			}
			eps := s.Cache().Entrypoints()
			if len(eps) == 0 {
				t.Fatal("no entrypoints")
			}
			for _, e := range eps {
				if a, b := s.GroupOf(e.Path), one.GroupOf(e.Path); !slices.Equal(a, b) {
					t.Errorf("%s: grouped with %v, without dependencies with %v", e.Path, a, b)
				}
				if d := one.DependenciesOf(e.Path); d != nil {
					t.Errorf("%s: dependencies %v, want none", e.Path, d)
				}
			}
			// A change to one entrypoint: the language server's session
			// analyses what depends on it, this one every group.
			p := eps[0].Path
			s.Cache().Changed(p)
			one.Cache().Changed(p)
			_, some := s.Update([]string{p})
			_, all := one.Update([]string{p})
			if all != first {
				t.Errorf("second update analysed %+v, want every group: %+v", all, first)
			}
			if some.Groups > all.Groups {
				t.Errorf("the language server's session analysed %d groups, more than every group (%d)", some.Groups, all.Groups)
			}
			if got := keys(one.Diagnostics()); !slices.Equal(want, got) {
				t.Errorf("after a second update the session differs from the batch scan\nonly in batch:\n  %s\nonly in the session:\n  %s",
					strings.Join(minus(want, got), "\n  "), strings.Join(minus(got, want), "\n  "))
			}
		})
	}
}
