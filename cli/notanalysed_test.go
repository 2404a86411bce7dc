package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotAnalysedKeepsSuppressions: a suppression in a file that gymlint
// did not analyse (a Python module that does not parse, GL001, or that the
// scan's parse budget left out, GL002; a config that does not parse,
// GL003; a Go package that does not type-check, or imports one that does
// not, GL008) is never reported unused, so --fix leaves it byte for byte;
// the same repository's analysed file with a suppression that suppresses
// nothing still gets GL010, which --fix removes.
func TestNotAnalysedKeepsSuppressions(t *testing.T) {
	framework := map[string]string{
		"nemo_gym/__init__.py":                   "",
		"nemo_gym/base_resources_server.py":      "class SimpleResourcesServer:\n    def multiple_workers_unsupported_reason(self):\n        return None\n",
		"resources_servers/srv/configs/srv.yaml": "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/srv/requirements.txt": "fastapi\n",
		// Analysed, and its suppression suppresses nothing: GL010.
		"resources_servers/srv/configs/extra.yaml": "# gymlint: ignore[GL104] the server takes four workers\nother:\n  num_workers: 4\n",
	}
	const control = "resources_servers/srv/configs/extra.yaml"
	// A server that gymlint finds undeclared (GL101), its finding suppressed.
	const app = "resources_servers/srv/app.py"
	server := "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
		"# gymlint: ignore[GL101] the app is built by a factory in deploy.py\n" +
		"class Srv(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n"
	with := func(extra map[string]string) map[string]string {
		files := map[string]string{}
		for p, c := range framework {
			files[p] = c
		}
		for p, c := range extra {
			files[p] = c
		}
		return files
	}
	goMod := "module example.com/native\n\ngo 1.21\n"
	goSuppressed := "//gymlint:ignore GL150 the state is keyed by the routed session\nvar %s\n"
	for _, tc := range []struct {
		name    string
		files   map[string]string
		args    []string
		kept    []string // the files whose suppressions must stay
		because string   // the finding that says a kept file was not analysed
		control string   // an analysed file whose suppression is unused
		needGo  bool
	}{
		{name: "GL001 a half-typed line",
			files:   with(map[string]string{app: server + "\n    def half(self, x:\n"}),
			kept:    []string{app},
			because: app + ":9:5: GL001",
			control: control},
		{name: "GL002 the scan's parse budget ran out",
			files:   with(map[string]string{app: server}),
			args:    []string{"--parse-budget", "1"},
			kept:    []string{app},
			because: app + ":1:1: GL002",
			control: control},
		{name: "GL003 a config that does not parse",
			files: with(map[string]string{app: server,
				"resources_servers/srv/configs/broken.yaml": "# gymlint: ignore[GL104] the server takes four workers\nsrv:\n  resources_servers:\n    srv:\n      num_workers: 4\n  bad: [unclosed\n"}),
			kept:    []string{"resources_servers/srv/configs/broken.yaml"},
			because: "resources_servers/srv/configs/broken.yaml:6:1: GL003",
			control: control},
		{name: "GL008 a Go package that does not type-check",
			files: map[string]string{
				"native/go.mod": goMod,
				// The type error, and a GL008, in a.go; b.go has no finding,
				// but its package is not analysed either.
				"native/broken/a.go": "package broken\n\n" + fmt.Sprintf(goSuppressed, `X int = "s"`),
				"native/broken/b.go": "package broken\n\n" + fmt.Sprintf(goSuppressed, "Y = 1"),
				// A package that imports the broken one is not analysed.
				"native/user/u.go":  "package user\n\nimport \"example.com/native/broken\"\n\nvar Z = broken.Y\n",
				"native/user/u2.go": "package user\n\n" + fmt.Sprintf(goSuppressed, "W = 1"),
				"native/ok/ok.go":   "package ok\n\n" + fmt.Sprintf(goSuppressed, "V = 1"),
			},
			kept:    []string{"native/broken/a.go", "native/broken/b.go", "native/user/u2.go"},
			because: "native/broken/a.go:4:13: GL008",
			control: "native/ok/ok.go",
			needGo:  true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath("go"); tc.needGo && err != nil {
				t.Skip("no go command")
			}
			root := writeTree(t, tc.files)
			t.Chdir(root) // paths in the output relative to the root
			out, _, code := run(t, append(append([]string{"--no-cache", "--quiet"}, tc.args...), ".")...)
			if code != ExitFindings || !strings.Contains(out, tc.because) {
				t.Fatalf("exit %d, want findings with %s:\n%s", code, tc.because, out)
			}
			for _, k := range tc.kept {
				if gl010At(out, k) {
					t.Errorf("GL010 in %s, which gymlint did not analyse:\n%s", k, out)
				}
			}
			if !gl010At(out, tc.control) {
				t.Errorf("no GL010 in %s, which was analysed and whose suppression suppresses nothing:\n%s", tc.control, out)
			}
			before := map[string]string{}
			for _, k := range tc.kept {
				before[k] = tc.files[k]
			}
			run(t, append(append([]string{"--no-cache", "--quiet", "--fix"}, tc.args...), ".")...)
			for _, k := range tc.kept {
				if got := readRel(t, root, k); got != before[k] {
					t.Errorf("--fix changed %s:\n%s\nwant it unchanged:\n%s", k, got, before[k])
				}
			}
			if got := readRel(t, root, tc.control); strings.Contains(got, "gymlint:") {
				t.Errorf("--fix left the unused suppression of the analysed %s:\n%s", tc.control, got)
			}
		})
	}
}

// gl010At reports whether the text output has a GL010 in file p.
func gl010At(out, p string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, p+":") && strings.Contains(l, ": GL010 ") {
			return true
		}
	}
	return false
}

func readRel(t *testing.T, root, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
