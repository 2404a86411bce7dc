package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hostile configuration: gymlint's own configuration files
// (pyproject.toml, .gymlint.yaml), its flags, and Gym configs that the
// framework's loader rejects.

// configLimit and configMB bound every run here: the good server alone
// takes some milliseconds and about 12 MB.
const (
	configLimit = 30 * time.Second
	configMB    = 150
)

// tomlDepth is the nesting of the TOML bomb; HOSTILE_TOML_DEPTH changes it
// (to measure the decoder's cost at a depth it survives).
func tomlDepth(t *testing.T) int {
	if s := os.Getenv("HOSTILE_TOML_DEPTH"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return 20000
}

// tomlBomb is an inline table nested depth deep: {a = {a = ... 1 ...}}.
// BurntSushi/toml's cost grows with the square of the depth: 81 MB at
// 1,000, 249 MB at 2,000, 524 MB at 3,000, more than 12 GB at 20,000.
func tomlBomb(depth int) string {
	return strings.Repeat("{a = ", depth) + "1" + strings.Repeat("}", depth)
}

// TestHostileTOMLDepth: a pyproject.toml whose [tool.black] holds a value
// nested 20,000 deep (120 KB) costs nothing: only [tool.gymlint] is
// decoded. The same value in [tool.gymlint] is a configuration error at
// its line, found without decoding it.
func TestHostileTOMLDepth(t *testing.T) {
	depth := tomlDepth(t)
	t.Run("elsewhere", func(t *testing.T) {
		dir := hostileRepo(t, map[string]string{
			"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.black]\nx = " + tomlBomb(depth) + "\n",
		})
		o := bounded(t, dir, configLimit, configMB, ".")
		if o.code != 1 {
			t.Errorf("exit %d, want 1\nstderr:\n%s", o.code, o.stderr)
		}
		wantGood(t, o)
	})
	t.Run("beside [tool.gymlint]", func(t *testing.T) {
		dir := hostileRepo(t, map[string]string{
			"pyproject.toml": "[tool.black]\nx = " + tomlBomb(depth) + "\n\n[tool.gymlint]\nseverity = { GL101 = \"warning\" }\n",
		})
		wantGood(t, bounded(t, dir, configLimit, configMB, "."))
		o := bounded(t, dir, configLimit, configMB, "--format", "json", ".")
		if o.code != 1 || !strings.Contains(o.stdout, `"code": "GL101"`) || !strings.Contains(o.stdout, `"severity": "warning"`) {
			t.Errorf("exit %d, want 1 with GL101 as a warning (the configuration read)\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
		}
	})
	t.Run("in [tool.gymlint]", func(t *testing.T) {
		dir := hostileRepo(t, map[string]string{
			"pyproject.toml": "[tool.gymlint]\n\nseverity = " + tomlBomb(depth) + "\n",
		})
		o := bounded(t, dir, configLimit, configMB, ".")
		want := "gymlint: configuration error: pyproject.toml:3: tool.gymlint nests deeper than 16 levels"
		if o.code != 2 || !strings.HasPrefix(o.stderr, want) {
			t.Errorf("exit %d, want 2 and %q\nstderr:\n%s", o.code, want, o.stderr)
		}
	})
}

// TestHostileFlagRanges: --max-file-size 9223372036854775807 overflowed
// the read's limit, so every file read as empty and the scan reported
// nothing. Values out of range are usage errors; the largest in range
// works.
func TestHostileFlagRanges(t *testing.T) {
	dir := hostileRepo(t, nil)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-file-size", "9223372036854775807"}, "gymlint: --max-file-size must be a number of bytes from 1 to 1073741824 (1 GiB), not 9223372036854775807"},
		{[]string{"--jobs", "1000000000"}, "gymlint: --jobs must be from 1 to 1024"},
	} {
		o := bounded(t, dir, configLimit, configMB, append(c.args, ".")...)
		if o.code != 2 || !strings.HasPrefix(o.stderr, c.want) || o.stdout != "" {
			t.Errorf("%v: exit %d, want 2 and %q\nstdout:\n%s\nstderr:\n%s", c.args, o.code, c.want, o.stdout, o.stderr)
		}
	}
	wantGood(t, bounded(t, dir, configLimit, configMB, "--max-file-size", "1073741824", "--jobs", "1024", "."))

	dir = hostileRepo(t, map[string]string{".gymlint.yaml": "max_file_size: 9223372036854775807\n"})
	o := bounded(t, dir, configLimit, configMB, ".")
	if want := "gymlint: configuration error: .gymlint.yaml:1: max_file_size must be a positive number of bytes, at most 1073741824 (1 GiB)"; o.code != 2 || !strings.HasPrefix(o.stderr, want) {
		t.Errorf("max_file_size: exit %d, want 2 and %q\nstderr:\n%s", o.code, want, o.stderr)
	}
}

// TestHostileConfigFiles: a configuration file that is a named pipe, or a
// link out of the repository, used to stop the scan (exit 2, "symbolic
// link" even for a pipe). Now it is a GL002 at the file, never opened (a
// pipe would block the scan until the deadline), and the scan goes on with
// the defaults. A link to a file inside the repository is followed.
func TestHostileConfigFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "pyproject.toml")
	if err := os.WriteFile(outside, []byte("[tool.gymlint]\ndisable = [\"GL101\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file string
		make       func(t *testing.T, p string)
		want       string
	}{
		{"fifo pyproject.toml", "pyproject.toml", mkfifo, "pyproject.toml:1:1: GL002 pyproject.toml is a named pipe (FIFO), not a regular file"},
		{"fifo .gymlint.yaml", ".gymlint.yaml", mkfifo, ".gymlint.yaml:1:1: GL002 .gymlint.yaml is a named pipe (FIFO), not a regular file"},
		{"link out of the root", "pyproject.toml", func(t *testing.T, p string) { symlink(t, outside, p) },
			"pyproject.toml:1:1: GL002 pyproject.toml is a symbolic link that leaves the repository"},
		// The walk reads .gymlint.yaml as a YAML file too: one GL002 still.
		{".gymlint.yaml link out of the root", ".gymlint.yaml", func(t *testing.T, p string) { symlink(t, outside, p) },
			".gymlint.yaml:1:1: GL002 .gymlint.yaml is a symbolic link that leaves the repository"},
		{"directory", ".gymlint.yaml", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, ".gymlint.yaml:1:1: GL002 .gymlint.yaml is a directory, not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := hostileRepo(t, nil)
			c.make(t, filepath.Join(dir, c.file))
			o := bounded(t, dir, configLimit, configMB, ".")
			if o.code != 1 || !strings.Contains(o.stdout, c.want) || strings.Count(o.stdout, "GL002") != 1 {
				t.Errorf("exit %d, want 1 and %q once\nstdout:\n%s\nstderr:\n%s", o.code, c.want, o.stdout, o.stderr)
			}
			wantGood(t, o) // with the defaults: GL101 is not disabled
		})
	}
	t.Run("link inside the root", func(t *testing.T) {
		dir := hostileRepo(t, map[string]string{"conf/gymlint.yaml": "disable: [GL101]\n"})
		symlink(t, "conf/gymlint.yaml", filepath.Join(dir, ".gymlint.yaml"))
		o := bounded(t, dir, configLimit, configMB, ".")
		if o.code != 0 || strings.Contains(o.stdout, "GL101") || strings.Contains(o.stdout, "GL002") {
			t.Errorf("the linked configuration (disable GL101) was not read: exit %d\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
		}
	})
	t.Run("syntax error", func(t *testing.T) {
		dir := hostileRepo(t, map[string]string{".gymlint.yaml": "disable: [GL101\n"})
		o := bounded(t, dir, configLimit, configMB, ".")
		if want := "gymlint: configuration error: .gymlint.yaml:2: did not find expected ',' or ']'"; o.code != 2 || !strings.HasPrefix(o.stderr, want) {
			t.Errorf("exit %d, want 2 and %q\nstderr:\n%s", o.code, want, o.stderr)
		}
	})
}

// TestHostileGymConfigs: Gym configs that OmegaConf.load would reject or
// that name no file. A config of two YAML documents was read as two
// configs; it is a GL003 at the second document, and its servers are not
// read. An entrypoint with a NUL byte was reported as leaving the
// repository; it is a GL003 that says what is wrong.
func TestHostileGymConfigs(t *testing.T) {
	dir := hostileRepo(t, map[string]string{
		"resources_servers/multi/app.py": "class Multi:\n    pass\n",
		"resources_servers/multi/configs/multi.yaml": "multi:\n  resources_servers:\n    multi:\n      entrypoint: app.py\n" +
			"---\nmulti_again:\n  resources_servers:\n    multi:\n      entrypoint: other.py\n",
		"resources_servers/nul/configs/nul.yaml": "nul:\n  resources_servers:\n    nul:\n      entrypoint: \"app\\0.py\"\n",
		"deploy/k8s.yaml":                        "apiVersion: v1\nkind: Service\n---\napiVersion: apps/v1\nkind: Deployment\n",
	})
	o := bounded(t, dir, configLimit, configMB, ".")
	for _, want := range []string{
		"resources_servers/multi/configs/multi.yaml:5:1: GL003 a second YAML document starts here",
		`resources_servers/nul/configs/nul.yaml:4:19: GL003 entrypoint "app\x00.py" of nul.resources_servers.nul contains a NUL byte`,
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("no %q\nstdout:\n%s\nstderr:\n%s", want, o.stdout, o.stderr)
		}
	}
	for _, not := range []string{"other.py", "outside", "deploy/k8s.yaml", "\x00"} {
		if strings.Contains(o.stdout, not) {
			t.Errorf("the output has %q:\n%s", not, o.stdout)
		}
	}
	if o.code != 1 {
		t.Errorf("exit %d, want 1", o.code)
	}
	wantGood(t, o)
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
