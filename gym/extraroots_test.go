package gym_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/gym"
)

// The root's config names a server directory that only the extra root
// has: the entrypoint is the extra root's, analysed, and no GL005.
func TestExtraRootProvidesServer(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"configs/run.yaml": yamlServer("plug", "resources_servers", "plugged", "app.py"),
	})
	extra := writeRepo(t, map[string]string{
		"resources_servers/plugged/app.py":           serverModule("PluggedServer") + "from resources_servers.plugged.helper import X\n",
		"resources_servers/plugged/helper.py":        "X = 1\n",
		"resources_servers/plugged/requirements.txt": "fastapi\n",
	})
	name := "<" + filepath.Base(extra) + ">"

	v := build(t, root, gym.Options{})
	findDiag(t, v, core.MissingEntrypoint.Code, "configs/run.yaml")

	v = build(t, root, gym.Options{ExtraRoots: []string{extra}})
	noDiag(t, v, core.MissingEntrypoint.Code, "configs/run.yaml")
	p := name + "/resources_servers/plugged/app.py"
	e := entry(t, v, p)
	if e.Module == nil || e.Module.Name != "resources_servers.plugged.app" || len(e.Servers) != 1 || len(e.Configs) != 1 {
		t.Fatalf("entrypoint %s: module %v, servers %v, configs %d", p, e.Module, serverNames(e), len(e.Configs))
	}
	// Its absolute import is found in the extra root, as sys.path has it.
	if got := v.ModuleFile(p, 0, "resources_servers.plugged.helper"); got != name+"/resources_servers/plugged/helper.py" {
		t.Errorf("ModuleFile = %q", got)
	}
	// A relative import cannot climb above the extra root.
	if got := v.ModuleFile(p, 4, "x"); got != "" {
		t.Errorf("ModuleFile climbing out = %q", got)
	}
	if dir, ok := v.ExtraRoot(p); !ok || dir == "" {
		t.Errorf("ExtraRoot(%s) = %q, %v", p, dir, ok)
	}
	if _, ok := v.ExtraRoot("configs/run.yaml"); ok {
		t.Errorf("a root path taken for an extra root's")
	}
	if len(v.Diagnostics()) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
}

// A server directory in both the extra root and the root is the extra
// root's (the supervisor searches extra roots first); one without an
// install marker in the extra root is not counted there.
func TestExtraRootOrder(t *testing.T) {
	files := map[string]string{
		"resources_servers/both/app.py":           serverModule("Both"),
		"resources_servers/both/requirements.txt": "x\n",
	}
	root := writeRepo(t, map[string]string{
		"configs/run.yaml":                        yamlServer("b", "resources_servers", "both", "app.py") + yamlServer("n", "resources_servers", "nomark", "app.py"),
		"resources_servers/both/app.py":           serverModule("Both"),
		"resources_servers/both/requirements.txt": "x\n",
		"resources_servers/nomark/app.py":         serverModule("NoMark"),
		"resources_servers/nomark/pyproject.toml": "[project]\n",
	})
	extra := writeRepo(t, map[string]string{
		"resources_servers/both/app.py":           files["resources_servers/both/app.py"],
		"resources_servers/both/requirements.txt": "x\n",
		"resources_servers/nomark/app.py":         serverModule("NoMark"), // no marker here
	})
	second := writeRepo(t, files)
	name := "<" + filepath.Base(extra) + ">"
	v := build(t, root, gym.Options{ExtraRoots: []string{extra, second}})
	entry(t, v, name+"/resources_servers/both/app.py")
	entry(t, v, "resources_servers/nomark/app.py")
	for _, e := range v.Entrypoints {
		if e.Path == "resources_servers/both/app.py" && len(e.Configs) > 0 {
			t.Errorf("the root's both/ was taken, not the extra root's")
		}
		if strings.Contains(e.Path, filepath.Base(second)) {
			t.Errorf("the second extra root was used: %s", e.Path)
		}
	}
	// In the other order, the second one wins.
	v = build(t, root, gym.Options{ExtraRoots: []string{second, extra}})
	entry(t, v, "<"+filepath.Base(second)+">/resources_servers/both/app.py")
}

// A symbolic link out of an extra root is refused as one out of the root:
// nothing outside the named roots is read.
func TestExtraRootSymlinkEscape(t *testing.T) {
	outside := writeRepo(t, map[string]string{"secret.py": serverModule("Secret")})
	root := writeRepo(t, map[string]string{
		"configs/run.yaml": yamlServer("s", "resources_servers", "sneaky", "app.py") + yamlServer("h", "resources_servers", "sneaky", "helper_link.py"),
	})
	extra := writeRepo(t, map[string]string{
		"resources_servers/sneaky/requirements.txt": "x\n",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(extra, "resources_servers/sneaky/app.py")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(outside, filepath.Join(extra, "resources_servers/sneaky/out")); err != nil {
		t.Skip(err)
	}
	v := build(t, root, gym.Options{ExtraRoots: []string{extra}})
	d := findDiag(t, v, core.EntrypointOutsideRoot.Code, "configs/run.yaml")
	if !strings.Contains(d.Message, "leaves its extra root") {
		t.Errorf("message %q", d.Message)
	}
	name := "<" + filepath.Base(extra) + ">"
	if _, err := v.FS.Read(name + "/resources_servers/sneaky/out/secret.py"); err == nil {
		t.Errorf("read through a link out of the extra root")
	}
	if _, err := v.FS.Read(name + "/../" + filepath.Base(outside) + "/secret.py"); err == nil {
		t.Errorf("read above the extra root")
	}
	for _, e := range v.Entrypoints {
		if e.Module != nil {
			t.Errorf("parsed %s", e.Path)
		}
	}
}

// An extra root inside the scanned root is that directory, not a mount;
// one that does not exist is skipped.
func TestExtraRootInsideRoot(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"configs/run.yaml":                                 yamlServer("p", "resources_servers", "inner", "app.py"),
		"plugins/resources_servers/inner/app.py":           serverModule("Inner"),
		"plugins/resources_servers/inner/setup.py":         "",
		"plugins/resources_servers/inner/requirements.txt": "x\n",
	})
	v := build(t, root, gym.Options{ExtraRoots: []string{"plugins", filepath.Join(root, "missing")}})
	e := entry(t, v, "plugins/resources_servers/inner/app.py")
	if e.Module == nil || e.Module.Name != "resources_servers.inner.app" {
		t.Fatalf("module %v", e.Module)
	}
	if _, ok := v.ExtraRoot(e.Path); ok {
		t.Errorf("an extra root inside the root is reported as outside")
	}
	noDiag(t, v, core.MissingEntrypoint.Code, "configs/run.yaml")
}

// The same root named twice, or the scanned root itself, is searched once:
// roots are told apart by their real directory, as the supervisor
// de-duplicates them.
func TestExtraRootDuplicates(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"configs/run.yaml": yamlServer("p", "resources_servers", "plugged", "app.py"),
	})
	extra := writeRepo(t, map[string]string{
		"resources_servers/plugged/app.py":           serverModule("Plugged"),
		"resources_servers/plugged/requirements.txt": "x\n",
	})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(extra, link); err != nil {
		t.Skip(err)
	}
	c, err := gym.NewCache(root, gym.Options{ExtraRoots: []string{extra, link, root, extra}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := c.ExtraRoots(); len(got) != 2 || !strings.HasPrefix(got[0], "<"+filepath.Base(extra)+">=") || !strings.HasPrefix(got[1], ".=") {
		t.Errorf("search order = %q", got)
	}
}
