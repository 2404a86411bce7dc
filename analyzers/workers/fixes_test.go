//go:build ignore

package workers

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The GL101 fixes are checked by applying them: each edit's line and column
// must agree with its offset, the edited files must parse, GL101 must be
// gone for the entrypoint once the fix is applied, and the edited files are
// compared with the expected text.

// applyFix applies fix's edits to a copy of files, checking every edit's
// positions against the file it edits.
func applyFix(t *testing.T, files map[string]string, fix diag.Fix) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, c := range files {
		out[p] = c
	}
	byPath := map[string][]diag.TextEdit{}
	for _, e := range fix.Edits {
		src, ok := files[e.Path]
		if !ok {
			t.Fatalf("edit of %s, which is not in the repository", e.Path)
		}
		for _, p := range []diag.Pos{e.Start, e.End} {
			if p.Offset < 0 || p.Offset > len(src) {
				t.Fatalf("edit position %+v outside %s (%d bytes)", p, e.Path, len(src))
			}
			line := strings.Count(src[:p.Offset], "\n") + 1
			col := p.Offset - (strings.LastIndexByte(src[:p.Offset], "\n"[0]) + 1) + 1
			if p.Line != line || p.Col != col {
				t.Errorf("edit position %+v of %s: offset %d is %d:%d", p, e.Path, p.Offset, line, col)
			}
		}
		if e.Start.Offset > e.End.Offset {
			t.Fatalf("edit %+v ends before it starts", e)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	for p, es := range byPath {
		sort.Slice(es, func(i, j int) bool { return es[i].Start.Offset > es[j].Start.Offset })
		s := out[p]
		for i, e := range es {
			if i > 0 && e.End.Offset > es[i-1].Start.Offset {
				t.Fatalf("edits of %s overlap: %+v, %+v", p, e, es[i-1])
			}
			s = s[:e.Start.Offset] + e.NewText + s[e.End.Offset:]
		}
		out[p] = s
	}
	return out
}

// checkFixed checks that every Python file of files parses and that GL101
// no longer reports path.
func checkFixed(t *testing.T, files map[string]string, path string) {
	t.Helper()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	for name, src := range files {
		if !strings.HasSuffix(name, ".py") {
			continue
		}
		if m := p.Parse(name, []byte(src)); m.SyntaxError != nil {
			t.Errorf("%s does not parse after the fix: %s at %d:%d\n%s", name, m.SyntaxError.Message,
				m.SyntaxError.Span.Start.Line, m.SyntaxError.Span.Start.Col, src)
		}
	}
	for _, d := range scan(t, files, gym.Options{}) {
		if d.Path == path {
			t.Errorf("GL101 still reported after the fix: %s:%d:%d %s", d.Path, d.Start.Line, d.Start.Col, d.Message)
		}
	}
}

// fixOf returns the fix with that message, or false.
func fixOf(d diag.Diagnostic, msg string) (diag.Fix, bool) {
	for _, f := range d.Fixes {
		if f.Message == msg {
			return f, true
		}
	}
	return diag.Fix{}, false
}

const (
	echoPath = "resources_servers/echo/app.py"
	noImport = "from nemo_gym.base_resources_server import SimpleResourcesServer\n"
)

func TestUndeclaredWorkersFixes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		at    string // the path of the GL101 finding; echoPath if ""
		// The expected content of the edited files after each fix; nil
		// when the fix must not be offered.
		app, override map[string]string
	}{
		{
			name: "plain entrypoint: the import and the elif branch; the override",
			files: map[string]string{echoPath: `"""Echo."""

from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    EchoServer.run_webserver()
`},
			app: map[string]string{echoPath: `"""Echo."""

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return body


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
`},
			override: map[string]string{echoPath: `"""Echo."""

from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):
        return body

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"


if __name__ == "__main__":
    EchoServer.run_webserver()
`},
		},
		{
			name: "the name is imported already; the guard has an elif and an else; the body ends in a nested block",
			files: map[string]string{echoPath: framework + `import os


class EchoServer(SimpleResourcesServer):
    def verify(self, body):
        if body:
            for x in body:
                pass
    # a comment after the body


if __name__ == "__main__":
    if os.environ.get("X"):
        EchoServer.run_webserver()
    # done
elif os.environ.get("Y"):
    pass
else:
    print("imported")
`},
			app: map[string]string{echoPath: framework + `import os


class EchoServer(SimpleResourcesServer):
    def verify(self, body):
        if body:
            for x in body:
                pass
    # a comment after the body


if __name__ == "__main__":
    if os.environ.get("X"):
        EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
    # done
elif os.environ.get("Y"):
    pass
else:
    print("imported")
`},
			override: map[string]string{echoPath: framework + `import os


class EchoServer(SimpleResourcesServer):
    def verify(self, body):
        if body:
            for x in body:
                pass

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"
    # a comment after the body


if __name__ == "__main__":
    if os.environ.get("X"):
        EchoServer.run_webserver()
    # done
elif os.environ.get("Y"):
    pass
else:
    print("imported")
`},
		},
		{
			name: "class defined in another module: the override goes there",
			files: map[string]string{
				echoPath: noImport + `

class EchoServer(SimpleResourcesServer):
    """The echo server."""
`,
				"resources_servers/echo/lite_app.py": `from resources_servers.echo.app import EchoServer

if __name__ == "__main__":
    EchoServer.run_webserver()
`,
				"resources_servers/echo/configs/echo.yaml": "echo_lite:\n  resources_servers:\n    echo:\n      entrypoint: lite_app.py\n",
			},
			at: "resources_servers/echo/lite_app.py",
			app: map[string]string{"resources_servers/echo/lite_app.py": `from resources_servers.echo.app import EchoServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
`},
			override: map[string]string{echoPath: noImport + `

class EchoServer(SimpleResourcesServer):
    """The echo server."""

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"
`},
		},
		{
			name: "one-line class body and one-line guard",
			files: map[string]string{echoPath: framework + `
class EchoServer(SimpleResourcesServer): pass  # nothing yet
if __name__ == "__main__": EchoServer.run_webserver()
`},
			app: map[string]string{echoPath: framework + `
class EchoServer(SimpleResourcesServer): pass  # nothing yet
if __name__ == "__main__": EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
`},
			override: map[string]string{echoPath: framework + `
class EchoServer(SimpleResourcesServer):
    pass  # nothing yet

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"
if __name__ == "__main__": EchoServer.run_webserver()
`},
		},
		{
			name: "CRLF line endings, no final line ending",
			files: map[string]string{echoPath: strings.ReplaceAll(noImport+`

class EchoServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()`, "\n", "\r\n")},
			app: map[string]string{echoPath: strings.ReplaceAll(noImport+`from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
`, "\n", "\r\n")},
			override: map[string]string{echoPath: strings.ReplaceAll(noImport+`

class EchoServer(SimpleResourcesServer):
    pass

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"


if __name__ == "__main__":
    EchoServer.run_webserver()`, "\n", "\r\n")},
		},
		{
			name:  "tab indentation",
			files: map[string]string{echoPath: framework + "\n\nclass EchoServer(SimpleResourcesServer):\n\tdef verify(self, body):\n\t\treturn body\n\n\nif __name__ == \"__main__\":\n\tEchoServer.run_webserver()\n"},
			app: map[string]string{echoPath: framework + "\n\nclass EchoServer(SimpleResourcesServer):\n\tdef verify(self, body):\n\t\treturn body\n\n\nif __name__ == \"__main__\":\n\tEchoServer.run_webserver()\n" +
				"elif is_nemo_gym_fastapi_entrypoint(__file__):\n\tapp = EchoServer.run_webserver()  # noqa: F401\n"},
			override: map[string]string{echoPath: framework + "\n\nclass EchoServer(SimpleResourcesServer):\n\tdef verify(self, body):\n\t\treturn body\n\n" +
				"\tdef multiple_workers_unsupported_reason(self) -> str | None:\n\t\treturn \"TODO: say why this server cannot run with several workers\"\n" +
				"\n\nif __name__ == \"__main__\":\n\tEchoServer.run_webserver()\n"},
		},
		{
			name: "two-space indentation inside a top-level if",
			files: map[string]string{echoPath: framework + `import sys

if sys.version_info >= (3, 10):
  class EchoServer(SimpleResourcesServer):
    pass

if __name__ == "__main__":
  EchoServer.run_webserver()
`},
			app: map[string]string{echoPath: framework + `import sys

if sys.version_info >= (3, 10):
  class EchoServer(SimpleResourcesServer):
    pass

if __name__ == "__main__":
  EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
  app = EchoServer.run_webserver()  # noqa: F401
`},
			override: map[string]string{echoPath: framework + `import sys

if sys.version_info >= (3, 10):
  class EchoServer(SimpleResourcesServer):
    pass

    def multiple_workers_unsupported_reason(self) -> str | None:
      return "TODO: say why this server cannot run with several workers"

if __name__ == "__main__":
  EchoServer.run_webserver()
`},
		},
		{
			name: "no guard: only the override",
			files: map[string]string{echoPath: framework + `

class EchoServer(SimpleResourcesServer):
    x: int = 1
`},
			override: map[string]string{echoPath: framework + `

class EchoServer(SimpleResourcesServer):
    x: int = 1

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"
`},
		},
		{
			name: "started from a function the guard calls: only the override",
			files: map[string]string{echoPath: framework + `

class EchoServer(SimpleResourcesServer):
    pass


def main():
    EchoServer.run_webserver()


if __name__ == "__main__":
    main()
`},
			override: map[string]string{echoPath: framework + `

class EchoServer(SimpleResourcesServer):
    pass

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"


def main():
    EchoServer.run_webserver()


if __name__ == "__main__":
    main()
`},
		},
		{
			name: "the import goes above the guard when every import is in a try; a shadowed mixin",
			files: map[string]string{echoPath: `try:
    from nemo_gym.base_resources_server import SimpleResourcesServer
except ImportError:
    raise


class RefuseMixin:
    def multiple_workers_unsupported_reason(self):
        return "state"


class EchoServer(SimpleResourcesServer, RefuseMixin):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
`},
			app: map[string]string{echoPath: `from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
try:
    from nemo_gym.base_resources_server import SimpleResourcesServer
except ImportError:
    raise


class RefuseMixin:
    def multiple_workers_unsupported_reason(self):
        return "state"


class EchoServer(SimpleResourcesServer, RefuseMixin):
    pass


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
`},
			override: map[string]string{echoPath: `try:
    from nemo_gym.base_resources_server import SimpleResourcesServer
except ImportError:
    raise


class RefuseMixin:
    def multiple_workers_unsupported_reason(self):
        return "state"


class EchoServer(SimpleResourcesServer, RefuseMixin):
    pass

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"


if __name__ == "__main__":
    EchoServer.run_webserver()
`},
		},
		{
			name: "two server classes: no app (one app starts one server), the override on both",
			files: map[string]string{echoPath: framework + `

class EchoServer(SimpleResourcesServer):
    pass


class OtherServer(SimpleResourcesServer):
    pass
`},
			override: map[string]string{echoPath: framework + `

class EchoServer(SimpleResourcesServer):
    pass

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"


class OtherServer(SimpleResourcesServer):
    pass

    def multiple_workers_unsupported_reason(self) -> str | None:
        return "TODO: say why this server cannot run with several workers"
`},
		},
		{
			name: "a module that defines no server class gets no fix",
			files: map[string]string{
				"resources_servers/turns/base.py":            "def helper():\n    return 1\n",
				"resources_servers/turns/configs/turns.yaml": "turns:\n  resources_servers:\n    turns:\n      entrypoint: base.py\n",
			},
			at: "resources_servers/turns/base.py",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := tc.at
			if at == "" {
				at = echoPath
			}
			var d *diag.Diagnostic
			ds := scan(t, tc.files, gym.Options{})
			for i := range ds {
				if ds[i].Path == at {
					d = &ds[i]
				}
			}
			if d == nil {
				t.Fatalf("no GL101 on %s; got %v", at, ds)
			}
			for _, c := range []struct {
				msg  string
				want map[string]string
			}{{appFixMessage, tc.app}, {overrideFixMessage, tc.override}} {
				fix, ok := fixOf(*d, c.msg)
				if ok != (c.want != nil) {
					t.Fatalf("fix %q offered: %v, want %v (fixes: %+v)", c.msg, ok, c.want != nil, d.Fixes)
				}
				if !ok {
					continue
				}
				if fix.Applicability != diag.Unsafe || fix.IsSafe() {
					t.Errorf("fix %q: applicability %q, want unsafe", c.msg, fix.Applicability)
				}
				fixed := applyFix(t, tc.files, fix)
				for p, want := range c.want {
					if fixed[p] != want {
						t.Errorf("fix %q: %s is\n%s\nwant\n%s", c.msg, p, fixed[p], want)
					}
				}
				for p := range fixed {
					if _, ok := c.want[p]; !ok && fixed[p] != tc.files[p] {
						t.Errorf("fix %q edits %s too", c.msg, p)
					}
				}
				checkFixed(t, fixed, at)
			}
			want := 0
			for _, f := range []map[string]string{tc.app, tc.override} {
				if f != nil {
					want++
				}
			}
			if len(d.Fixes) != want {
				t.Errorf("got %d fixes, want %d: %+v", len(d.Fixes), want, d.Fixes)
			}
		})
	}
}

// Every GL101 fix on the fixture repository applies, parses, and removes
// its finding.
func TestUndeclaredWorkersFixesOnGymrepo(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "gymrepo")
	v, err := gym.Build(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds := run(v)
	v.Close()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	n := 0
	for _, d := range ds {
		for _, f := range d.Fixes {
			n++
			files := map[string]string{}
			for _, e := range f.Edits {
				b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Path)))
				if err != nil {
					t.Fatal(err)
				}
				files[e.Path] = string(b)
			}
			fixed := applyFix(t, files, f)
			overlay := map[string][]byte{}
			for name, src := range fixed {
				overlay[name] = []byte(src)
				if m := p.Parse(name, []byte(src)); m.SyntaxError != nil {
					t.Errorf("%s: fix %q: %s does not parse: %s", d.Path, f.Message, name, m.SyntaxError.Message)
				}
			}
			v2, err := gym.Build(root, gym.Options{Overlay: overlay})
			if err != nil {
				t.Fatal(err)
			}
			for _, d2 := range run(v2) {
				if d2.Path == d.Path {
					t.Errorf("%s: fix %q leaves %s", d.Path, f.Message, d2.Message)
				}
			}
			v2.Close()
		}
	}
	if n == 0 {
		t.Fatal("no GL101 fix in the fixture repository")
	}
	t.Logf("%d fixes of %d findings checked", n, len(ds))
}
