package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestUseColor(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	var buf bytes.Buffer
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, false}, // not a terminal
		{map[string]string{"FORCE_COLOR": "1"}, true},
		{map[string]string{"FORCE_COLOR": "0"}, false},
		{map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false},
	} {
		if got := useColor(&buf, env(tc.env)); got != tc.want {
			t.Errorf("%v: %v", tc.env, got)
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if useColor(f, env(nil)) {
		t.Error("a regular file is not a terminal")
	}
}

func TestCwdRelative(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	if cwdRelative(root) != nil {
		t.Error("at the root, paths stay as they are")
	}
	if err := os.MkdirAll(root+"/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root + "/a")
	if got := cwdRelative(root)("a/b/x.py"); got != "b/x.py" {
		t.Errorf("inside: %q", got)
	}
	// Outside the current directory: absolute, as ruff and go vet print it.
	if got, want := cwdRelative(root)("c/y.py"), filepath.Join(root, "c", "y.py"); got != want {
		t.Errorf("beside: %q, want %q", got, want)
	}
	// The root below the current directory: paths start with its path.
	t.Chdir(filepath.Dir(root))
	if got, want := cwdRelative(root)("c/y.py"), filepath.Join(filepath.Base(root), "c", "y.py"); got != want {
		t.Errorf("below: %q, want %q", got, want)
	}
}
