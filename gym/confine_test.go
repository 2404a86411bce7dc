package gym_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// hiddenExtra is a config that starts two servers: one whose entrypoint
// exists (and is not a server directory's app.py, which the walk would
// find on its own), one whose entrypoint does not.
const hiddenExtra = "hidden:\n  resources_servers:\n    hidden:\n      entrypoint: srv.py\n" +
	"gone:\n  resources_servers:\n    gone:\n      entrypoint: nothere.py\n"

// outsideTheWalk are the ways a config can be outside the walk: where it
// is, and the files and options that put it there.
var outsideTheWalk = []struct {
	name, extra string
	files       map[string]string
	opts        gym.Options
}{
	{"hidden directory", ".private/extra.yaml", nil, gym.Options{}},
	{"name the walk does not take", "configs/extra.YAML", nil, gym.Options{}},
	{"gitignored", "local/extra.yaml", map[string]string{".gitignore": "local/\n"}, gym.Options{Gitignore: true}},
	{"skipped directory", "node_modules/pkg/extra.yaml", nil, gym.Options{}},
	{"excluded", "private/extra.yaml", nil, gym.Options{Exclude: []string{"private"}}},
	{"included by an included file", ".a/b.yml", map[string]string{".a/mid.YML": "config_paths: [.a/b.yml]\n"}, gym.Options{}},
}

// A config that the walk does not read but that a walked config includes
// is composed into the run, so Gym starts its servers: its entrypoints are
// analysed, and a missing one is GL005, however the config is outside the
// walk.
func TestIncludedConfigOutsideTheWalk(t *testing.T) {
	for _, c := range outsideTheWalk {
		t.Run(c.name, func(t *testing.T) {
			top := "config_paths:\n  - " + c.extra + "\n"
			if c.files[".a/mid.YML"] != "" {
				top = "config_paths:\n  - .a/mid.YML\n"
			}
			files := map[string]string{
				"configs/top.yaml":                top,
				c.extra:                           hiddenExtra,
				"resources_servers/hidden/srv.py": serverModule("HiddenServer"),
			}
			for k, v := range c.files {
				files[k] = v
			}
			root := writeRepo(t, files)
			v := build(t, root, c.opts)
			if got, want := entryPaths(v), []string{"resources_servers/hidden/srv.py"}; !equalStrings(got, want) {
				t.Fatalf("entrypoints = %v, want %v\n%s", got, want, dumpDiags(v.Diagnostics()))
			}
			e := entry(t, v, "resources_servers/hidden/srv.py")
			if len(e.Configs) != 1 || e.Configs[0].File != c.extra || e.Module == nil {
				t.Errorf("configs %+v, module %v", e.Configs, e.Module != nil)
			}
			if got := serverNames(e); !equalStrings(got, []string{"HiddenServer"}) {
				t.Errorf("servers = %v", got)
			}
			gl005 := diagsOf(v, "GL005")
			if len(gl005) != 1 || gl005[0].Path != c.extra || gl005[0].Start.Line != 8 ||
				!strings.Contains(gl005[0].Message, "resources_servers/gone/nothere.py") {
				t.Errorf("GL005 = %s", dumpDiags(gl005))
			}
			if v.ConfigFile(c.extra) == nil {
				t.Errorf("ConfigFile(%s) = nil", c.extra)
			}
		})
	}
}

// An included file that stops being included is no longer read, also
// when the cache was given a listing that names it (a record's).
func TestIncludedConfigDropped(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"configs/top.yaml":                "config_paths:\n  - .private/extra.yaml\n",
		".private/extra.yaml":             hiddenExtra,
		"resources_servers/hidden/srv.py": serverModule("HiddenServer"),
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	listing, _ := c.SkeletonInputs()
	if want := []string{".private/extra.yaml", "configs/top.yaml"}; !equalStrings(listing.YAML, want) {
		t.Fatalf("configs read = %v, want %v", listing.YAML, want)
	}
	writeFiles(t, root, map[string]string{"configs/top.yaml": "config_paths: []\n"})
	for _, given := range []bool{false, true} {
		c2, err := gym.NewCache(root, gym.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer c2.Close()
		if given {
			c2.SetListing(listing)
		}
		got, _ := c2.SkeletonInputs()
		if want := []string{"configs/top.yaml"}; !equalStrings(got.YAML, want) {
			t.Errorf("given %v: configs read = %v, want %v", given, got.YAML, want)
		}
		v := c2.View(nil)
		if len(v.Entrypoints) != 0 || len(v.Configs) != 1 {
			t.Errorf("given %v: entrypoints %v, configs %d", given, entryPaths(v), len(v.Configs))
		}
	}
}

// A backslash is an ordinary character of a file name on Linux and macOS:
// configs\victim.yaml is read with its own content, not that of
// configs/victim.yaml, and a server directory named back\slash is read.
func TestBackslashInFileNames(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip("on Windows a backslash is a separator")
	}
	root := writeRepo(t, map[string]string{
		"configs/victim.yaml":                 yamlServer("victim", "resources_servers", "victim", "app.py"),
		`configs\victim.yaml`:                 yamlServer("attacker", "resources_servers", "victim", "other.py"),
		"resources_servers/victim/app.py":     serverModule("VictimServer"),
		"resources_servers/victim/other.py":   serverModule("OtherServer"),
		`resources_servers/back\slash/app.py`: serverModule("BackslashServer"),
	})
	v := build(t, root, gym.Options{})
	want := []string{`resources_servers/back\slash/app.py`, "resources_servers/victim/app.py", "resources_servers/victim/other.py"}
	if got := entryPaths(v); !equalStrings(got, want) {
		t.Fatalf("entrypoints = %q, want %q", got, want)
	}
	if f := v.ConfigFile(`configs\victim.yaml`); f == nil || len(f.Servers) != 1 || f.Servers[0].Name != "attacker" {
		t.Errorf(`configs\victim.yaml parsed as %+v`, f)
	}
	if f := v.ConfigFile("configs/victim.yaml"); f == nil || len(f.Servers) != 1 || f.Servers[0].Name != "victim" {
		t.Errorf("configs/victim.yaml parsed as %+v", f)
	}
	if e := entry(t, v, "resources_servers/victim/other.py"); len(e.Configs) != 1 || e.Configs[0].File != `configs\victim.yaml` {
		t.Errorf("other.py named by %+v", e.Configs)
	}
	if e := entry(t, v, `resources_servers/back\slash/app.py`); e.Module == nil || !equalStrings(serverNames(e), []string{"BackslashServer"}) {
		t.Errorf(`back\slash server: module %v, servers %v`, e.Module != nil, serverNames(e))
	}
	if ds := v.Diagnostics(); len(ds) != 0 {
		t.Errorf("diagnostics:\n%s", dumpDiags(ds))
	}
}

// The GL002 of a file that cannot be read names it relative to the root:
// the message never shows where the checkout lies. (Root reads whatever
// the mode: run as another user to exercise it.)
func TestUnreadableMessageIsRootRelative(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	root := writeRepo(t, map[string]string{
		"resources_servers/locked/app.py": serverModule("LockedServer"),
		"resources_servers/shut/app.py":   serverModule("ShutServer"),
	})
	if err := os.Chmod(filepath.Join(root, "resources_servers", "locked", "app.py"), 0); err != nil {
		t.Fatal(err)
	}
	shut := filepath.Join(root, "resources_servers", "shut")
	if err := os.Chmod(shut, 0o100); err != nil { // enterable, not listable
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(shut, 0o755) })
	v := build(t, root, gym.Options{})
	gl002 := diagsOf(v, "GL002")
	if len(gl002) == 0 {
		t.Fatal("no GL002")
	}
	for _, d := range gl002 {
		if strings.Contains(d.Message, root) || !strings.Contains(d.Message, "permission denied") {
			t.Errorf("GL002 %s: %q", d.Path, d.Message)
		}
	}
}
