package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
)

const pluggedServer = `from nemo_gym.base_resources_server import SimpleResourcesServer


class Plugged(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    Plugged.run_webserver()
`

// extraFixture is a root whose config names a server that only the extra
// root has, and the extra root, whose helper module has a syntax error.
func extraFixture(t *testing.T) (root, extra string) {
	root = writeTree(t, map[string]string{
		".gymlint.yaml":    "contract: latest\n",
		"configs/run.yaml": "plug:\n  resources_servers:\n    plugged:\n      entrypoint: app.py\n      domain: other\n",
	})
	extra = writeTree(t, map[string]string{
		"resources_servers/plugged/app.py":           pluggedServer + "from .broken import x\n",
		"resources_servers/plugged/broken.py":        "def (:\n",
		"resources_servers/plugged/requirements.txt": "fastapi\n",
	})
	return root, extra
}

// seenCheck reports each entrypoint at its module and at the config that
// names it (with the module as related).
var seenCheck = gym.Check{Rule: testRule, Run: func(v *gym.View) []diag.Diagnostic {
	var ds []diag.Diagnostic
	one := diag.Pos{Line: 1, Col: 1}
	for _, e := range v.Entrypoints {
		ds = append(ds, testRule.New(e.Path, one, one, "module"))
		for _, c := range e.Configs {
			d := testRule.New(c.File, one, one, "config")
			d.Related = []diag.Related{{Path: e.Path, Start: one, End: one, Message: "the entrypoint"}}
			ds = append(ds, d)
		}
	}
	return ds
}}

func TestExtraRootsReported(t *testing.T) {
	root, extra := extraFixture(t)
	name := "<" + filepath.Base(extra) + ">"
	checks := append(lint.Checks(), seenCheck)

	without := keys(scan(t, Options{Root: root, NoGo: true, Checks: checks}).Diagnostics)
	if !slices.ContainsFunc(without, func(k string) bool { return strings.Contains(k, "GL005") }) {
		t.Errorf("without the extra root: no GL005: %v", without)
	}

	res := scan(t, Options{Root: root, NoGo: true, Checks: checks, ExtraRoots: []string{extra}})
	got := keys(res.Diagnostics)
	want := []string{"configs/run.yaml GL998 config"}
	if !slices.Equal(got, want) {
		t.Errorf("by default = %q, want %q", got, want)
	}
	if res.Entrypoints != 1 || res.Modules < 2 {
		t.Errorf("entrypoints %d, modules %d: the extra root's server is analysed", res.Entrypoints, res.Modules)
	}

	res = scan(t, Options{Root: root, NoGo: true, Checks: checks, ExtraRoots: []string{extra}, IncludeExtraRoots: true})
	got = keys(res.Diagnostics)
	for _, w := range []string{
		"configs/run.yaml GL998 config",
		name + "/resources_servers/plugged/app.py GL998 module",
		name + "/resources_servers/plugged/broken.py GL001",
	} {
		if !slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, w) }) {
			t.Errorf("with --include-extra-roots: no %q in %q", w, got)
		}
	}
	// The printers read the extra root's files through the scan's reader.
	if data, err := res.Source(name + "/resources_servers/plugged/broken.py"); err != nil || string(data) != "def (:\n" {
		t.Errorf("Source = %q, %v", data, err)
	}
}

// The configuration's extra_roots may name a directory inside the root
// only: a link out of it is a configuration error.
func TestExtraRootsFromConfiguration(t *testing.T) {
	root, extra := extraFixture(t)
	os.WriteFile(filepath.Join(root, ".gymlint.yaml"), []byte("contract: latest\nextra_roots: [plugins]\n"), 0o644)
	if err := os.Symlink(extra, filepath.Join(root, "plugins")); err != nil {
		t.Skip(err)
	}
	if _, err := New(Options{Root: root, NoGo: true}); err == nil || !strings.Contains(err.Error(), "leads outside the repository") {
		t.Fatalf("New = %v", err)
	}
	os.Remove(filepath.Join(root, "plugins"))
	if err := os.CopyFS(filepath.Join(root, "plugins"), os.DirFS(extra)); err != nil {
		t.Fatal(err)
	}
	res := scan(t, Options{Root: root, NoGo: true})
	for _, d := range res.Diagnostics {
		if d.Code == "GL005" {
			t.Errorf("GL005 with the extra root inside the root: %s", d.Message)
		}
	}
	// Inside the root, its findings are the root's.
	if !slices.ContainsFunc(keys(res.Diagnostics), func(k string) bool {
		return strings.HasPrefix(k, "plugins/resources_servers/plugged/broken.py GL001")
	}) {
		t.Errorf("findings = %q", keys(res.Diagnostics))
	}
}

// The incremental session (the language server's) works with extra roots,
// and Finish drops their findings as Scan does.
func TestExtraRootsSession(t *testing.T) {
	root, extra := extraFixture(t)
	e, err := New(Options{Root: root, NoGo: true, ExtraRoots: []string{extra}, Checks: append(lint.Checks(), seenCheck)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Update(nil)
	ds := s.Diagnostics()
	if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return gym.InExtraRoot(d.Path) }) {
		t.Errorf("the session did not analyse the extra root's server: %q", keys(ds))
	}
	got := keys(e.Finish(ds, nil, s.Cache().Source))
	if !slices.Equal(got, []string{"configs/run.yaml GL998 config"}) {
		t.Errorf("finished = %q", got)
	}
	// An edit of the root's config is still seen.
	s.Cache().SetOverlay("configs/run.yaml", []byte("plug:\n  resources_servers:\n    gone:\n      entrypoint: app.py\n      domain: other\n"))
	s.Update([]string{"configs/run.yaml"})
	got = keys(e.Finish(s.Diagnostics(), nil, s.Cache().Source))
	if len(got) != 1 || !strings.Contains(got[0], "GL005") {
		t.Errorf("after the edit = %q", got)
	}
}

// The framework's install root, when it is a separate install (here a
// virtual environment outside the root), is searched after the root: a
// built-in server there is found, analysed, and its findings are the
// extra roots'.
func TestInstallRoot(t *testing.T) {
	root := writeTree(t, map[string]string{
		"configs/run.yaml": "plug:\n  resources_servers:\n    builtin:\n      entrypoint: app.py\n      domain: other\n" +
			"mine:\n  resources_servers:\n    mine:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/mine/app.py":           pluggedServer,
		"resources_servers/mine/requirements.txt": "x\n",
	})
	venv := writeTree(t, map[string]string{
		"lib/python3.12/site-packages/nemo_gym/__init__.py":                       "",
		"lib/python3.12/site-packages/resources_servers/builtin/app.py":           pluggedServer + "def (:\n",
		"lib/python3.12/site-packages/resources_servers/builtin/requirements.txt": "x\n",
		// The root's own server wins over the install root's.
		"lib/python3.12/site-packages/resources_servers/mine/app.py":           "def (:\n",
		"lib/python3.12/site-packages/resources_servers/mine/requirements.txt": "x\n",
	})
	e, err := New(Options{Root: root, NoGo: true, VirtualEnv: venv})
	if err != nil {
		t.Fatal(err)
	}
	if fw, _ := e.Framework(); !fw.Found {
		t.Fatalf("framework not found in %s", venv)
	}
	res, err := e.Scan(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		if d.Code == "GL005" || gym.InExtraRoot(d.Path) {
			t.Errorf("finding %s %s %s", d.Path, d.Code, d.Message)
		}
	}
	res = scan(t, Options{Root: root, NoGo: true, VirtualEnv: venv, IncludeExtraRoots: true})
	got := keys(res.Diagnostics)
	if !slices.ContainsFunc(got, func(k string) bool {
		return strings.HasPrefix(k, "<site-packages>/resources_servers/builtin/app.py GL001")
	}) || slices.ContainsFunc(got, func(k string) bool { return strings.Contains(k, "mine/app.py GL001") }) {
		t.Errorf("findings = %q", got)
	}
}

// A fix that would edit a file of an extra root is never offered: gymlint
// writes only in the root.
func TestExtraRootsNoFixes(t *testing.T) {
	root, extra := extraFixture(t)
	p := "<" + filepath.Base(extra) + ">/resources_servers/plugged/app.py"
	one := diag.Pos{Line: 1, Col: 1}
	fixing := gym.Check{Rule: testRule, Run: func(v *gym.View) []diag.Diagnostic {
		d := testRule.New("configs/run.yaml", one, one, "fixable")
		d.Fixes = []diag.Fix{
			{Message: "edit the extra root", Edits: []diag.TextEdit{{Path: p, Start: one, End: one, NewText: "x"}}},
			{Message: "edit the root", Edits: []diag.TextEdit{{Path: "configs/run.yaml", Start: one, End: one, NewText: "x"}}},
		}
		return []diag.Diagnostic{d}
	}}
	res := scan(t, Options{Root: root, NoGo: true, Checks: []gym.Check{fixing}, ExtraRoots: []string{extra}, IncludeExtraRoots: true})
	for _, d := range res.Diagnostics {
		if d.Code == testRule.Code && (len(d.Fixes) != 1 || d.Fixes[0].Message != "edit the root") {
			t.Errorf("fixes = %+v", d.Fixes)
		}
	}
}
