package engine

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A configuration file that cannot be read as a file (here a named pipe)
// is no error of New: the defaults are used, and the scan reports the file
// as GL002 beside the other findings.
func TestUnreadableConfiguration(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources_servers/echo/app.py":            "class Echo:\n    pass\n",
		"resources_servers/echo/configs/echo.yaml": "echo:\n  resources_servers:\n    echo:\n      entrypoint: app.py\n",
	})
	if err := syscall.Mkfifo(filepath.Join(root, "pyproject.toml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	e, err := New(Options{Root: root, NoGo: true})
	if err != nil {
		t.Fatal(err)
	}
	if e.Settings().File != "" {
		t.Errorf("settings from %q", e.Settings().File)
	}
	if ds := e.Diagnostics(); len(ds) != 1 || ds[0].Code != "GL002" || ds[0].Path != "pyproject.toml" || ds[0].Start.Line != 1 {
		t.Fatalf("Diagnostics: %v", keys(ds))
	}
	res, err := e.Scan(nil)
	if err != nil {
		t.Fatal(err)
	}
	var unread, others int
	for _, d := range res.Diagnostics {
		switch {
		case d.Path == "pyproject.toml":
			unread++
			if d.Code != "GL002" || !strings.Contains(d.Message, "named pipe") {
				t.Errorf("%+v", d)
			}
		case strings.HasPrefix(d.Path, "resources_servers/echo/"):
			others++
		}
	}
	if unread != 1 || others == 0 {
		t.Errorf("want one GL002 at pyproject.toml and the server's findings: %v", keys(res.Diagnostics))
	}
}
