//go:build ignore

package workers

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/pyscan"
)

// unroutedHead: imports at lines 1-3, a blank line; the next line is 5.
const unroutedHead = `from fastapi import Request
from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

`

// unroutedApp is the __main__ guard with the module-level app.
const unroutedApp = `

if __name__ == "__main__":
    MazeServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = MazeServer.run_webserver()
`

const unroutedPath = "resources_servers/maze/app.py"

// unroutedMaze keeps envs by a minted id that the client sends back in the
// body (lines 5-21 after unroutedHead).
const unroutedMaze = `class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(self.step)
        app.post("/close")(self.close)
        return app

    async def seed_session(self, request: Request, body):
        env_id = new_id()
        self.envs[env_id] = Maze()
        return {"env_id": env_id}

    async def step(self, request: Request, body):
        return self.envs[body.env_id].step(body.move)

    async def close(self, request: Request, body):
        self.envs.pop(body.env_id, None)
`

func TestUnroutedSessionState(t *testing.T) {
	cases := []mwCase{
		{
			name:  "env kept by a body field, written in seed_session and read in step and close",
			files: map[string]string{unroutedPath: unroutedHead + unroutedMaze + unroutedApp},
			want: []mwWant{{at: unroutedPath + ":14:9", contains: []string{
				"server class MazeServer keeps per-episode state in self.envs in process memory keyed by body.env_id",
				"written here in seed_session (key env_id) and read in step at line 18 (key body.env_id)",
				"since resources_servers/maze/app.py has a module-level app",
				"key the state by the session",
			}, related: []string{unroutedPath + ":18", unroutedPath + ":21", unroutedPath + ":27"}}},
		},
		{
			name: "score written under a body field in close and popped in verify",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.add_api_route("/close", self.close, methods=["POST"])
        return app

    async def close(self, request: Request, body):
        self.scores[str(body.env_id)] = 1.0

    async def verify(self, body):
        return self.scores.pop(body.response.env_id, 0.0)
` + unroutedApp},
			want: []mwWant{{at: unroutedPath + ":12:9", contains: []string{
				"keyed by str(body.env_id)",
				"written here in close (key str(body.env_id)) and read in verify at line 15 (key body.response.env_id)",
			}}},
		},
		{
			name: "a read in a helper that a route calls, and a wrapped registration",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/step")(failsafe(self.step))
        return app

    async def seed_session(self, request: Request, body):
        self.boards[body.board_id] = new_board()

    async def step(self, request: Request, body):
        return await self._advance(body)

    async def _advance(self, body):
        return self.boards[body.board_id]
` + unroutedApp},
			want: []mwWant{{at: unroutedPath + ":12:9", contains: []string{
				"read in _advance at line 18 (key body.board_id)",
			}}},
		},
		{
			name: "state in a parent class in another module, shared by two servers with apps: one finding",
			files: map[string]string{
				"resources_servers/maze/base.py": unroutedHead + strings.Replace(unroutedMaze, "class MazeServer(", "class MazeBase(", 1),
				unroutedPath: `from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.maze.base import MazeBase


class MazeServer(MazeBase):
    pass
` + unroutedApp,
				"resources_servers/maze/hard_app.py": `from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint
from resources_servers.maze.base import MazeBase


class HardMazeServer(MazeBase):
    pass
` + strings.ReplaceAll(unroutedApp, "MazeServer", "HardMazeServer"),
				"resources_servers/maze/configs/hard.yaml": "hard_maze:\n  resources_servers:\n    maze:\n      entrypoint: hard_app.py\n",
			},
			want: []mwWant{{at: "resources_servers/maze/base.py:14:9", contains: []string{
				"server classes MazeServer, HardMazeServer keep per-episode state in self.envs",
				"since resources_servers/maze/app.py and resources_servers/maze/hard_app.py have a module-level app",
			}, related: []string{
				"resources_servers/maze/base.py:18", "resources_servers/maze/base.py:21",
				unroutedPath + ":12", "resources_servers/maze/hard_app.py:12",
			}}},
		},
		{
			name: "an override that always returns None does not refuse",
			files: map[string]string{unroutedPath: unroutedHead + unroutedMaze + `
    def multiple_workers_unsupported_reason(self):
        return None
` + unroutedApp},
			want: []mwWant{{at: unroutedPath + ":14:9"}},
		},
		// Look-alikes that must not be reported.
		{
			name: "state keyed by the session cookie's id",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs[request.session[SESSION_ID_KEY]] = Maze(body.layout)

    async def verify(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        return self.envs.pop(session_id).score()
` + unroutedApp},
		},
		{
			name: "state keyed by body.resources_session_id",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs[body.resources_session_id] = Maze(body.layout)

    async def verify(self, request: Request, body):
        return self.envs[body.resources_session_id].score()
` + unroutedApp},
		},
		{
			name: "a dictionary also keyed by the session anywhere is left alone",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.envs[sid] = Maze(body.layout)

    async def verify(self, request: Request, body):
        return self.envs[body.env_id].score()
` + unroutedApp},
		},
		{
			name: "written and read in the same method only",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        self.envs[body.env_id] = Maze(body.layout)
        score = self.envs[body.env_id].score()
        del self.envs[body.env_id]
        return score
` + unroutedApp},
		},
		{
			name: "a helper only one route reaches writes, and that route reads",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    def _remember(self, body):
        self.envs[body.env_id] = Maze(body.layout)

    async def verify(self, request: Request, body):
        self._remember(body)
        return self.envs[body.env_id].score()
` + unroutedApp},
		},
		{
			name: "a get-or-create cache in every route",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        tok = self.tokenizers.get(body.model)
        if tok is None:
            tok = self.tokenizers[body.model] = load_tokenizer(body.model)
        return {}

    async def verify(self, request: Request, body):
        tok = self.tokenizers.get(body.model)
        if tok is None:
            tok = load_tokenizer(body.model)
            self.tokenizers[body.model] = tok
        return tok.score(body)
` + unroutedApp},
		},
		{
			name: "start-up code fills a table that requests read by a body field",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        for name in self.config.layouts:
            self._load(name)

    def _load(self, name):
        self.layouts[name] = read_layout(name)

    async def verify(self, request: Request, body):
        return self.layouts[body.layout].score(body)
` + unroutedApp},
		},
		{
			name: "local keys on both sides prove nothing",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        key = body.env_id
        self.envs[key] = Maze()

    async def verify(self, request: Request, body):
        key = body.env_id
        return self.envs[key].score()
` + unroutedApp},
		},
		{
			name:  "a server that refuses several workers",
			files: map[string]string{unroutedPath: unroutedHead + unroutedMaze + "\n    def multiple_workers_unsupported_reason(self):\n        return \"envs are kept by env_id\"\n" + unroutedApp},
		},
		{
			name:  "a server without a module-level app",
			files: map[string]string{unroutedPath: unroutedHead + unroutedMaze + "\n\nif __name__ == \"__main__\":\n    MazeServer.run_webserver()\n"},
		},
		{
			name:  "app only in the body of the __main__ guard does not count",
			files: map[string]string{unroutedPath: unroutedHead + unroutedMaze + "\n\nif __name__ == \"__main__\":\n    app = MazeServer.run_webserver()\n"},
		},
		{
			name: "an ancestry gymlint cannot resolve is skipped",
			files: map[string]string{unroutedPath: unroutedHead + "from resources_servers.maze import helpers\n\n" +
				strings.Replace(unroutedMaze, "class MazeServer(SimpleResourcesServer):", "class MazeServer(helpers.Missing, SimpleResourcesServer):", 1) + unroutedApp,
				"resources_servers/maze/helpers.py": "X = 1\n"},
		},
		{
			name: "a key that is not from the body (a constant, a cookie) is not reported",
			files: map[string]string{unroutedPath: unroutedHead + `class MazeServer(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs["current"] = Maze()
        self.runs[request.cookies["run_id"]] = body

    async def verify(self, request: Request, body):
        return self.envs[body.env_id].score(self.runs[request.cookies["run_id"]])
` + unroutedApp},
		},
	}
	mwCheck(t, cases, UnroutedSessionState, runUnrouted)
}

func TestUnroutedKey(t *testing.T) {
	params := []string{"self", "request", "body"}
	for text, want := range map[string]unroutedKeyKind{
		"body.env_id":                     ukBody,
		"body.response.env_id":            ukBody,
		"str(body.env_id)":                ukBody,
		"body.resources_session_id":       ukSession,
		"request.session[SESSION_ID_KEY]": ukSession,
		"session_id":                      ukSession,
		"sid":                             ukSession,
		"env_id":                          ukLocal,
		`"current"`:                       ukOther,
		"self.current":                    ukOther,
		"body.ids[0]":                     ukOther,
	} {
		e := pyscan.Expr{Text: text}
		switch {
		case strings.HasPrefix(text, "str("):
			e.Call, e.Dotted = true, "str"
		case !strings.ContainsAny(text, `"[(`):
			e.Dotted = text
		case strings.HasPrefix(text, "body.ids["):
			e.Dotted = "body.ids"
			e.Args = []pyscan.Expr{{Text: "0"}}
		}
		if got := unroutedKey(e, params); got != want {
			t.Errorf("unroutedKey(%q) = %v, want %v", text, got, want)
		}
	}
	if got := unroutedKey(pyscan.Expr{Text: "body.env_id", Dotted: "body.env_id"}, []string{"self", "payload"}); got != ukOther {
		t.Errorf("body that is not a parameter: got %v", got)
	}
	for _, h := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
		if !strings.Contains(UnroutedSessionState.Doc, h) {
			t.Errorf("GL105 doc lacks %q", h)
		}
	}
}
