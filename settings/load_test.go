package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/testtree"
)

// loadSoon runs Load, failing the test (instead of hanging) should it
// block, as opening a named pipe without O_NONBLOCK would.
func loadSoon(t *testing.T, root string) (*Settings, error) {
	t.Helper()
	type res struct {
		s   *Settings
		err error
	}
	done := make(chan res, 1)
	go func() {
		s, err := Load(root)
		done <- res{s, err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked")
		return nil, nil
	}
}

// A configuration file that is not a regular file inside the root is not
// read, not opened (a named pipe would block), and no error: the defaults
// stand, and Unread says why.
func TestLoadUnreadable(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.toml")
	if err := os.WriteFile(outside, []byte("[tool.gymlint]\ndisable = [\"GL205\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := "[tool.gymlint]\n" + strings.Repeat("# padding\n", maxSize/10+1)
	for _, c := range []struct {
		name  string
		file  string
		make  func(t *testing.T, root, p string)
		want  string
		files map[string]string
	}{
		{"fifo pyproject", PyProject, func(t *testing.T, root, p string) { mkfifo(t, p) }, "pyproject.toml is a named pipe (FIFO), not a regular file", nil},
		{"fifo gymlint.yaml", FileName, func(t *testing.T, root, p string) { mkfifo(t, p) }, ".gymlint.yaml is a named pipe (FIFO), not a regular file", nil},
		{"link to a fifo", PyProject, func(t *testing.T, root, p string) {
			mkfifo(t, filepath.Join(root, "pipe"))
			symlink(t, "pipe", p)
		}, "pyproject.toml is a named pipe (FIFO)", nil},
		{"link out of the root", PyProject, func(t *testing.T, root, p string) { symlink(t, outside, p) }, "pyproject.toml is a symbolic link that leaves the repository", nil},
		{"relative link out of the root", FileName, func(t *testing.T, root, p string) { symlink(t, "../../../../../../../../etc/hostname", p) }, ".gymlint.yaml is a symbolic link", nil},
		{"dangling link", PyProject, func(t *testing.T, root, p string) { symlink(t, "nowhere.toml", p) }, "pyproject.toml is a symbolic link to a file that does not exist", nil},
		{"link loop", PyProject, func(t *testing.T, root, p string) {
			symlink(t, "b", p)
			symlink(t, PyProject, filepath.Join(root, "b"))
		}, "pyproject.toml is a symbolic link loop", nil},
		{"directory", FileName, func(t *testing.T, root, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, ".gymlint.yaml is a directory, not a regular file", nil},
		{"link to a device", FileName, func(t *testing.T, root, p string) { symlink(t, "/dev/null", p) }, ".gymlint.yaml is a symbolic link that leaves the repository", nil},
		{"device", FileName, func(t *testing.T, root, p string) {
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|3); err != nil { // /dev/null's numbers
				t.Skipf("mknod: %v", err)
			}
		}, ".gymlint.yaml is a device, not a regular file", nil},
		{"too large", PyProject, nil, "pyproject.toml is larger than 1048576 bytes", map[string]string{PyProject: big}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"README": "x"}
			for k, v := range c.files {
				files[k] = v
			}
			root := testtree.New(t, files)
			p := filepath.Join(root, c.file)
			if c.make != nil {
				c.make(t, root, p)
			}
			s, err := loadSoon(t, root)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if s.File != "" || len(s.Disable) != 0 || len(s.Unread) != 1 || s.Unread[0].File != c.file {
				t.Fatalf("%+v", s)
			}
			msg := s.Unread[0].Msg
			if !strings.HasPrefix(msg, c.want) || !strings.Contains(msg, "uses the default configuration") {
				t.Errorf("message %q, want it to start with %q", msg, c.want)
			}
			if strings.Contains(msg, "symbolic link") != strings.Contains(c.want, "symbolic link") {
				t.Errorf("message %q names a link where there is none, or none where there is one", msg)
			}
		})
	}
}

// A link to a regular file inside the root is followed; a syntax error in
// what it points at is an error, as in a file.
func TestLoadFollowsLinksInside(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"conf/gymlint.toml": "[tool.gymlint]\ndisable = [\"GL205\"]\n",
		"conf/bad.yaml":     "disable: [GL205\n",
	})
	symlink(t, "conf/gymlint.toml", filepath.Join(root, PyProject))
	s, err := loadSoon(t, root)
	if err != nil || s.File != PyProject || len(s.Disable) != 1 || len(s.Unread) != 0 {
		t.Fatalf("%v %+v", err, s)
	}
	symlink(t, "conf/bad.yaml", filepath.Join(root, FileName))
	_, err = loadSoon(t, root)
	var e *Error
	if !errors.As(err, &e) || e.File != FileName || e.Line != 2 {
		t.Errorf("a syntax error behind a link: %v", err)
	}
}

// What the file says is still checked: errors in its content are Load's.
func TestLoadContentErrors(t *testing.T) {
	for _, c := range []struct{ file, content, want string }{
		{FileName, "disable: [GL205\n", ".gymlint.yaml:2: "},
		{FileName, "a: 1\n---\nb: 2\n", ".gymlint.yaml:2: more than one YAML document"},
		{FileName, "disable: [\"\x00\"]\n", ".gymlint.yaml:1: "},
		{PyProject, "[tool.gymlint]\nbogus = 1\n", `pyproject.toml:2: unknown key "bogus"`},
		{PyProject, "[tool.gymlint]\nx = " + nested(100) + "\n", "pyproject.toml:2: tool.gymlint nests deeper than 16 levels"},
	} {
		root := testtree.New(t, map[string]string{c.file: c.content})
		s, err := loadSoon(t, root)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v %+v, want %q", c.content, err, s, c.want)
		}
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlink: %v", err)
	}
}
