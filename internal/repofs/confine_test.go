package repofs_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// A backslash is an ordinary character of a file name where the OS's
// separator is "/": configs\victim.yaml and configs/victim.yaml are two
// files, each read with its own content, and a directory named back\slash
// holds its own files.
func TestBackslashIsAName(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip("on Windows a backslash is a separator")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"configs/victim.yaml":                 "victim: 1\n",
		`configs\victim.yaml`:                 "attacker: 1\n",
		`resources_servers/back\slash/app.py`: "x = 'back slash'\n",
		"resources_servers/back/slash/app.py": "x = 'nested'\n",
	})
	f := open(t, dir, repofs.Options{})
	for p, want := range map[string]string{
		"configs/victim.yaml":                 "victim: 1\n",
		`configs\victim.yaml`:                 "attacker: 1\n",
		`./configs\victim.yaml`:               "attacker: 1\n",
		`resources_servers/back\slash/app.py`: "x = 'back slash'\n",
		"resources_servers/back/slash/app.py": "x = 'nested'\n",
	} {
		data, err := f.Read(p)
		if err != nil || string(data) != want {
			t.Errorf("Read(%q) = %q, %v; want %q", p, data, err, want)
		}
		if err := f.Stat(p); err != nil {
			t.Errorf("Stat(%q) = %v", p, err)
		}
	}
	l := f.Walk()
	if want := []string{"configs/victim.yaml", `configs\victim.yaml`}; !slices.Equal(l.YAML, want) {
		t.Errorf("YAML = %q, want %q", l.YAML, want)
	}
	if want := []string{"resources_servers/back/slash/app.py", `resources_servers/back\slash/app.py`}; !slices.Equal(l.AppPy, want) {
		t.Errorf("AppPy = %q, want %q", l.AppPy, want)
	}
	if !f.IsDir(`resources_servers/back\slash`) {
		t.Errorf(`IsDir(resources_servers/back\slash) = false`)
	}
	if dirs, _ := f.ListDir("resources_servers"); !slices.Equal(dirs, []string{"back", `back\slash`}) {
		t.Errorf("ListDir(resources_servers) dirs = %q", dirs)
	}
	// Only the file of that name: a missing one is missing, not its
	// slash twin.
	if err := f.Stat(`resources_servers/back\other.py`); !errors.Is(err, repofs.ErrNotExist) {
		t.Errorf(`Stat(back\other.py) = %v, want ErrNotExist`, err)
	}
}

// A link whose target lies outside the root gives the same answer whether
// or not anything is there, and whether or not the target's directory
// exists or can be read: the FS never looks outside the root.
func TestOutsideTargetsAlike(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.py": "secret\n", "d/x.py": "x\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"real/mod.py": "x = 1\n"})
	ob := filepath.Base(outside)
	targets := map[string]string{
		"exists.py":      filepath.Join(outside, "secret.py"),
		"missing.py":     filepath.Join(outside, "nothere.py"),
		"nodir.py":       filepath.Join(outside, "nodir", "nothere.py"),
		"filedir.py":     filepath.Join(outside, "secret.py", "x.py"), // a file used as a directory
		"rootless.py":    "/nonexistent-gymlint-dir/x/y.py",
		"rel_exists.py":  "../" + ob + "/secret.py",
		"rel_missing.py": "../" + ob + "/nothere.py",
		"real/up.py":     "../../" + ob + "/secret.py",
		"real/chain.py":  "../exists.py", // a link inside to a link out
	}
	for rel, target := range targets {
		link(t, dir, rel, target)
	}
	link(t, dir, "outdir", filepath.Join(outside, "d"))
	link(t, dir, "gonedir", filepath.Join(outside, "gone"))
	f := open(t, dir, repofs.Options{})
	paths := []string{"outdir/x.py", "outdir/nothere.py", "gonedir/x.py"}
	for rel := range targets {
		paths = append(paths, rel)
	}
	slices.Sort(paths)
	for _, p := range paths {
		for what, err := range map[string]error{"Read": readErr(f, p), "Stat": f.Stat(p)} {
			if !errors.Is(err, repofs.ErrOutsideRoot) {
				t.Errorf("%s(%s) = %v, want ErrOutsideRoot", what, p, err)
				continue
			}
			if got, want := err.Error(), p+": "+repofs.ErrOutsideRoot.Error(); got != want {
				t.Errorf("%s(%s) = %q, want %q", what, p, got, want)
			}
		}
	}
	for _, d := range []string{"outdir", "gonedir"} {
		if dirs, files := f.ListDir(d); len(dirs)+len(files) != 0 {
			t.Errorf("ListDir(%s) = %v %v: listed outside the root", d, dirs, files)
		}
		if f.IsDir(d+"/sub") || f.IsDir(d) {
			t.Errorf("IsDir(%s...) = true", d)
		}
	}
	// A link that climbs out of the root and comes back in by the root's
	// own path is inside.
	link(t, dir, "back_in.py", "../"+filepath.Base(dir)+"/real/mod.py")
	f.Forget("back_in.py")
	if data, err := f.Read("back_in.py"); err != nil || string(data) != "x = 1\n" {
		t.Errorf("Read(back_in.py) = %q, %v", data, err)
	}
}

func readErr(f *repofs.FS, p string) error {
	_, err := f.Read(p)
	return err
}

// An absolute link target written through the path the root was given by
// (a link to the real checkout) is inside the root.
func TestAbsoluteTargetThroughGivenRoot(t *testing.T) {
	realDir := t.TempDir()
	writeTree(t, realDir, map[string]string{"a/mod.py": "x = 1\n"})
	rootLink := filepath.Join(t.TempDir(), "repo")
	if err := os.Symlink(realDir, rootLink); err != nil {
		t.Fatal(err)
	}
	link(t, realDir, "given.py", filepath.Join(rootLink, "a", "mod.py"))
	link(t, realDir, "given_up.py", filepath.Join(rootLink, "a", "..", "a", "mod.py"))
	link(t, realDir, "given_out.py", filepath.Join(rootLink, "..", "elsewhere.py"))
	f := open(t, rootLink, repofs.Options{})
	for _, p := range []string{"given.py", "given_up.py"} {
		if data, err := f.Read(p); err != nil || string(data) != "x = 1\n" {
			t.Errorf("Read(%s) = %q, %v", p, data, err)
		}
	}
	if err := f.Stat("given_out.py"); !errors.Is(err, repofs.ErrOutsideRoot) {
		t.Errorf("Stat(given_out.py) = %v, want ErrOutsideRoot", err)
	}
}

// Messages name root-relative paths only: an error of the file system
// (permission denied) carries the absolute path of the checkout, which
// a PathError must not show.
func TestPermissionErrorsNameRelativePaths(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode (TestErrorsWithoutAbsolutePath covers this through a hook)")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/secret.py": "x\n", "b/c/app.py": "y\n"})
	if err := os.Chmod(filepath.Join(dir, "a", "secret.py"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "b", "c"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "b", "c"), 0o755) })
	f := open(t, dir, repofs.Options{})
	_, err := f.Read("a/secret.py")
	if !errors.Is(err, os.ErrPermission) || strings.Contains(err.Error(), dir) {
		t.Errorf("Read = %v: want a permission error without %s", err, dir)
	}
	l := f.Walk()
	if len(l.Problems) != 1 || !errors.Is(l.Problems[0], os.ErrPermission) || strings.Contains(l.Problems[0].Error(), dir) {
		t.Errorf("Problems = %v: want one permission error without %s", l.Problems, dir)
	}
}
