//go:build ignore

package workers

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// Each case is a small repository given as an overlay (nothing is written
// to disk) and the GL101 findings expected in it, as "path:line:col" plus
// fragments the message must contain. The fixture repository in
// testdata/gymrepo covers every real-world shape end to end; these pin the
// rule's decisions and messages one at a time.

const framework = `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
`

type finding struct {
	at       string   // path:line:col
	contains []string // message fragments
	related  []string // related paths, in order
}

func scan(t *testing.T, files map[string]string, opts gym.Options) []diag.Diagnostic {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	opts.Overlay = overlay
	v, err := gym.Build(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ds := run(v)
	diag.Sort(ds)
	return ds
}

func TestUndeclaredWorkers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		opts  gym.Options
		want  []finding
	}{
		{
			name: "plain guard is reported at the class name",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
`},
			want: []finding{{at: "resources_servers/echo/app.py:5:7", contains: []string{
				"server class EchoServer of resources_servers/echo/app.py",
				"add `app = EchoServer.run_webserver()`",
				"override multiple_workers_unsupported_reason() to return why it is not",
			}}},
		},
		{
			name: "app in the elif branch of the guard counts",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()
`},
		},
		{
			name: "app only in the guard's body does not count",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    app = EchoServer.run_webserver()
`},
			want: []finding{{at: "resources_servers/echo/app.py:5:7"}},
		},
		{
			name: "override on the class counts",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "state in memory"
`},
		},
		{
			name: "mixin after the framework base is shadowed, and the message says so",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class RefuseMixin:
    def multiple_workers_unsupported_reason(self):
        return "state in memory"


class EchoServer(SimpleResourcesServer, RefuseMixin):
    pass
`},
			want: []finding{{at: "resources_servers/echo/app.py:10:7", contains: []string{
				"the override on RefuseMixin is shadowed by the framework's default",
				"list RefuseMixin first in the bases",
			}, related: []string{"resources_servers/echo/app.py"}}},
		},
		{
			name: "mixin before the framework base counts",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class RefuseMixin:
    def multiple_workers_unsupported_reason(self):
        return "state in memory"


class EchoServer(RefuseMixin, SimpleResourcesServer):
    pass
`},
		},
		{
			name: "class started from another module: reported at the call, class related",
			files: map[string]string{
				"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    pass
`,
				"resources_servers/echo/lite_app.py": `from resources_servers.echo.app import EchoServer

if __name__ == "__main__":
    EchoServer.run_webserver()
`,
				"resources_servers/echo/configs/echo.yaml": "echo_lite:\n  resources_servers:\n    echo:\n      entrypoint: lite_app.py\n",
			},
			want: []finding{
				{at: "resources_servers/echo/app.py:5:7"},
				{at: "resources_servers/echo/lite_app.py:4:5", contains: []string{
					"server class EchoServer (defined in resources_servers/echo/app.py) of resources_servers/echo/lite_app.py",
				}, related: []string{"resources_servers/echo/app.py", "resources_servers/echo/configs/echo.yaml"}},
			},
		},
		{
			name: "library module named by a config is reported at 1:1 unless exempt",
			files: map[string]string{
				"resources_servers/turns/base.py":            "def helper():\n    return 1\n",
				"resources_servers/turns/configs/turns.yaml": "turns:\n  resources_servers:\n    turns:\n      entrypoint: base.py\n",
			},
			want: []finding{{at: "resources_servers/turns/base.py:1:1", contains: []string{
				"defines no server class and no module-level app",
				"resources_servers/turns/configs/turns.yaml:4 names it as an entrypoint",
				"add it to exempt: in .gymlint.yaml",
			}, related: []string{"resources_servers/turns/configs/turns.yaml"}}},
		},
		{
			name: "exempt module is not reported",
			files: map[string]string{
				"resources_servers/turns/base.py":            "def helper():\n    return 1\n",
				"resources_servers/turns/configs/turns.yaml": "turns:\n  resources_servers:\n    turns:\n      entrypoint: base.py\n",
			},
			opts: gym.Options{Exemptions: []gym.Exemption{{Path: "resources_servers/turns/base.py", Reason: "base classes"}}},
		},
		{
			name: "a syntax error suppresses the rule for that module",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    def verify(self, body:
        pass
`},
		},
		{
			name: "an unresolvable base makes the answer uncertain: not reported",
			files: map[string]string{"resources_servers/echo/app.py": framework + `
from resources_servers.echo import helpers


class EchoServer(helpers.Missing, SimpleResourcesServer):
    pass
`, "resources_servers/echo/helpers.py": "X = 1\n"},
		},
		{
			name: "two leaf server classes without overrides are named in one finding",
			files: map[string]string{"resources_servers/echo/app.py": framework + `

class EchoServer(SimpleResourcesServer):
    pass


class OtherServer(SimpleResourcesServer):
    pass
`},
			want: []finding{{at: "resources_servers/echo/app.py:5:7", contains: []string{"server classes EchoServer, OtherServer of"}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := scan(t, tc.files, tc.opts)
			if len(ds) != len(tc.want) {
				var got []string
				for _, d := range ds {
					got = append(got, d.Path+":"+itoa(d.Start.Line)+":"+itoa(d.Start.Col)+" "+d.Message)
				}
				t.Fatalf("got %d findings, want %d:\n%s", len(ds), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				d := ds[i]
				if d.Code != "GL101" || d.Rule != "undeclared-workers" || d.Analyzer != "workers" || d.Severity != diag.Error {
					t.Errorf("metadata: %+v", d)
				}
				if at := d.Path + ":" + itoa(d.Start.Line) + ":" + itoa(d.Start.Col); at != w.at {
					t.Errorf("finding %d at %s, want %s", i, at, w.at)
				}
				for _, frag := range w.contains {
					if !strings.Contains(d.Message, frag) {
						t.Errorf("message %q lacks %q", d.Message, frag)
					}
				}
				var rel []string
				for _, r := range d.Related {
					rel = append(rel, r.Path)
				}
				if w.related != nil && strings.Join(rel, ",") != strings.Join(w.related, ",") {
					t.Errorf("related %v, want %v", rel, w.related)
				}
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
