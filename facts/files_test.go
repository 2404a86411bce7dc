package facts_test

import (
	"testing"

	"github.com/gymlint/gymlint/facts"
)

// TestPathOf: a path is fixed when built from constants, module constants
// and config fields; the session's when a part is the session id; the
// body's when a part is another field of a route's body and the rest is
// fixed; unknown otherwise (a temp file, the pid, a minted id, a server
// attribute, a helper's parameter's field).
func TestPathOf(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).parent / "out"
LOG = os.path.join(ROOT, "log.jsonl")
ENV_LOG = os.environ.get("S_LOG", None)


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        self._log(LOG)
        open(LOG, "a")
        open(os.path.join(self.config.root, "x.json"), "w")
        open(f"{self.config.root}/{request.session[SESSION_ID_KEY]}/s.json", "w")
        open(Path(self.config.root) / body.resources_session_id / "s.json", "w")
        open(os.path.join(self.config.root, body.task_id), "w")
        open(tempfile.mkstemp()[1], "w")
        open(f"{self.config.root}/{os.getpid()}", "a")
        open(self.out_path, "w")
        open(self.config.data)
        Path(self.config.root).joinpath("y").write_text("y")
        open(os.path.join(self.config.root, body.task_id, str(uuid4())), "w")
        open(ENV_LOG, "a")
        open(os.getenv("S_DIR") + "/x", "a")
        (Path(self.config.root) / "z.json").open("w")
        Path(self.config.root).open()
        open(self.config.cache_dir / "c.jsonl", "a")
        self._helper(object())

    def model_post_init(self, context):
        # Each worker resolves its own cache directory.
        self.config.cache_dir = unique_dir(self.config.cache_dir)

    def _helper(self, params):
        # Not a route: params.out is no request body's field.
        open(params.out, "w")

    def _log(self, path):
        with open(path, "a") as f:
            f.write("x")
`})
	s := server(t, f)
	want := []string{"fixed", "fixed", "session", "session", "body", "unknown", "unknown", "unknown", "fixed", "unknown", "fixed", "fixed", "fixed", "unknown"}
	var got []string
	for _, w := range f.FileWrites(method(t, f, s, "verify")) {
		got = append(got, f.PathOf(s, w.Func, w.Path).Kind.String())
	}
	if len(got) != len(want) {
		t.Fatalf("writes = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("write %d: %s, want %s", i, got[i], want[i])
		}
	}
	if ws := f.FileWrites(method(t, f, s, "_helper")); len(ws) != 1 || f.PathOf(s, ws[0].Func, ws[0].Path).Kind != facts.PathUnknown {
		t.Errorf("_helper: want one write of an unknown path")
	}
	// A parameter takes what the server's calls pass it.
	ws := f.FileWrites(method(t, f, s, "_log"))
	if len(ws) != 1 || f.PathOf(s, ws[0].Func, ws[0].Path).Kind != facts.PathFixed {
		t.Errorf("_log writes %v, want one fixed path", ws)
	}
}

// TestFileLocked: fcntl.flock in the function, a FileLock with statement,
// and a repository lock helper hold a file lock; an asyncio.Lock does not.
func TestFileLocked(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
import contextlib
import fcntl
from filelock import FileLock


@contextlib.contextmanager
def locked(p):
    with open(p + ".lock", "w") as lf:
        fcntl.lockf(lf, fcntl.LOCK_EX)
        yield


class S(SimpleResourcesServer):
    async def a(self, body):
        with open(self.config.p, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)

    async def b(self, body):
        with FileLock("x.lock"):
            open(self.config.p, "a")

    async def c(self, body):
        with locked(self.config.p):
            open(self.config.p, "a")

    async def d(self, body):
        async with self._lock:
            open(self.config.p, "a")
        with FileLock("x.lock"):
            pass
        open(self.config.p, "a")
`})
	s := server(t, f)
	for name, want := range map[string]bool{"a": true, "b": true, "c": true, "d": false} {
		fn := method(t, f, s, name)
		ws := f.FileWrites(fn)
		if len(ws) == 0 {
			t.Fatalf("%s: no write", name)
		}
		for _, w := range ws {
			if got := f.FileLocked(s, fn, w.Node); got != want {
				t.Errorf("%s: FileLocked = %v, want %v", name, got, want)
			}
		}
	}
}
