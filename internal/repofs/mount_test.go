package repofs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestMount(t *testing.T) {
	root, extra, outside := t.TempDir(), t.TempDir(), t.TempDir()
	for p, c := range map[string]string{
		filepath.Join(root, "a.py"):          "a = 1\n",
		filepath.Join(extra, "pkg/b.py"):     "b = 1\n",
		filepath.Join(outside, "secret.py"):  "s = 1\n",
		filepath.Join(extra, "pkg/bin.py"):   "x\x00",
		filepath.Join(root, "<x>/shadow.py"): "c = 1\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(extra, "pkg/link.py")); err != nil {
		t.Skip(err)
	}
	f, _ := New(root, Options{})
	sub, _ := New(extra, Options{})
	for _, bad := range []string{"x", "<a/b>", "<>", ""} {
		if err := f.Mount(bad, sub); !errors.Is(err, ErrBadMount) {
			t.Errorf("Mount(%q) = %v", bad, err)
		}
	}
	if err := f.Mount("<x>", sub); err != nil {
		t.Fatal(err)
	}
	if err := f.Mount("<x>", sub); err == nil {
		t.Errorf("mounted twice")
	}
	if data, err := f.Read("<x>/pkg/b.py"); err != nil || string(data) != "b = 1\n" {
		t.Errorf("Read mounted = %q, %v", data, err)
	}
	if !f.IsFile("<x>/pkg/b.py") || f.IsFile("<x>/shadow.py") {
		t.Errorf("IsFile: the mount must serve <x>/, not the root's directory of that name")
	}
	if _, err := f.Read("<x>/pkg/link.py"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("link out of the mount: %v", err)
	} else if pe := (*PathError)(nil); errors.As(err, &pe) && pe.Path != "<x>/pkg/link.py" {
		t.Errorf("error path %q", pe.Path)
	}
	if _, err := f.Read("<x>/pkg/bin.py"); !errors.Is(err, ErrBinary) {
		t.Errorf("binary: %v", err)
	}
	if _, err := f.Read("<x>/../" + filepath.Base(outside) + "/secret.py"); err == nil {
		t.Errorf("read above the mount")
	}
	if dirs, files := f.ListDir("<x>/pkg"); len(dirs) != 0 || len(files) != 3 {
		t.Errorf("ListDir = %v %v", dirs, files)
	}
	if f.SetOverlay("<x>/pkg/b.py", []byte("no")) {
		t.Errorf("overlay set in a mount")
	}
	if f.MountRoot("<x>") != sub.Root() || f.MountRoot("<y>") != "" {
		t.Errorf("MountRoot")
	}
	// The walk does not enter mounts.
	l := f.Walk()
	for _, p := range append(l.YAML, l.AppPy...) {
		t.Errorf("walk listed %s", p)
	}
}
