package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileOutputReads: entrypoints and configs that are symbolic links
// to /dev/zero, to a FIFO, and to a file outside the root with a marker in
// it, and a FIFO config. Every output format must finish within its bound
// (nothing opened reads forever or fills memory), report the unreadable
// files, analyse the good server, and never show the outside file's text:
// printers read only through the engine's root-confined reader.
func TestHostileOutputReads(t *testing.T) {
	const marker = "GYMLINT-OUTSIDE-MARKER-7f3a"
	outside := filepath.Join(t.TempDir(), "secret.py")
	secret := "class Leak:  # " + marker + "\n    pass\n"
	if err := os.WriteFile(outside, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := hostileRepo(t, map[string]string{
		"resources_servers/zero/configs/zero.yaml":   "zero:\n  resources_servers:\n    zero:\n      entrypoint: app.py\n",
		"resources_servers/fifo/configs/fifo.yaml":   "fifo:\n  resources_servers:\n    fifo:\n      entrypoint: app.py\n",
		"resources_servers/leak/configs/leak.yaml":   "leak:\n  resources_servers:\n    leak:\n      entrypoint: app.py\n",
		"resources_servers/link/configs/inroot.yaml": "link:\n  resources_servers:\n    link:\n      entrypoint: app.py\n",
	})
	for link, target := range map[string]string{
		"resources_servers/zero/app.py": "/dev/zero",
		"resources_servers/leak/app.py": outside,
		"resources_servers/link/app.py": filepath.Join(dir, "resources_servers/good/app.py"), // in the root: followed
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "resources_servers/fifo/app.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "resources_servers/fifo/configs/blocked.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "sarif", "github"} {
		o := bounded(t, dir, 30*time.Second, 300, "--format", format, ".")
		if o.code != 1 {
			t.Errorf("--format %s: exit %d, stderr %q", format, o.code, o.stderr)
		}
		if strings.Contains(o.stdout+o.stderr, marker) {
			t.Errorf("--format %s: the text of a file outside the root is in the output", format)
		}
		for _, want := range []string{"resources_servers/zero/app.py", "resources_servers/fifo/app.py", "resources_servers/leak/app.py", "GL002"} {
			if !strings.Contains(o.stdout, want) {
				t.Errorf("--format %s: %s is not reported:\n%s", format, want, o.stdout)
			}
		}
		if format == "text" {
			wantGood(t, o)
			if !strings.Contains(o.stdout, "resources_servers/link/app.py:4:7: GL101") {
				t.Errorf("the in-root symbolic link was not followed:\n%s", o.stdout)
			}
		}
	}
}
