//go:build ignore

package sessions

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// The tests of GL306-GL310 mark the lines they expect findings on with a
// comment in the Python source ("# <- a"), so that the expectation is
// written next to the code it is about.

const appPath = "resources_servers/s/app.py"

// lostImports adds the names the lost-session rules look for.
const lostImports = `from nemo_gym.base_resources_server import ResourcesSessionLostError, lost_session_verification
from nemo_gym.base_resources_server import BaseVerifyResponse
`

// app builds a one-server repository: header, lostImports, pre, then the
// class body of server S (methods indented by 4).
func app(pre, class string) map[string]string {
	return map[string]string{appPath: header + lostImports + pre + `

class S(SimpleResourcesServer):
` + class + mainS}
}

// marked is an expected finding: on the line holding marker, at the
// column where col starts on that line, with message fragments, related
// positions as markers too.
type marked struct {
	path     string // default appPath
	marker   string
	col      string
	contains []string
	related  []string // markers of related lines (in any file of the repository)
}

// checkMarked compares findings with marked expectations.
func checkMarked(t *testing.T, files map[string]string, ds []diag.Diagnostic, want []marked) {
	t.Helper()
	locate := func(path, marker, col string) (int, int) {
		src, ok := files[path]
		if !ok {
			src = frameworkFiles[path]
		}
		for i, line := range strings.Split(src, "\n") {
			if strings.Contains(line, marker) {
				c := 1
				if col != "" {
					c = strings.Index(line, col) + 1
					if c == 0 {
						t.Fatalf("column text %q not on the line of %q", col, marker)
					}
				}
				return i + 1, c
			}
		}
		t.Fatalf("marker %q not in %s", marker, path)
		return 0, 0
	}
	if len(ds) != len(want) {
		for _, d := range ds {
			t.Logf("got %s:%d:%d %s %s", d.Path, d.Start.Line, d.Start.Col, d.Code, d.Message)
		}
		t.Fatalf("got %d findings, want %d", len(ds), len(want))
	}
	for i, w := range want {
		d := ds[i]
		p := w.path
		if p == "" {
			p = appPath
		}
		line, col := locate(p, w.marker, w.col)
		if d.Path != p || d.Start.Line != line || d.Start.Col != col {
			t.Errorf("finding %d at %s:%d:%d, want %s:%d:%d (%s)", i, d.Path, d.Start.Line, d.Start.Col, p, line, col, d.Message)
		}
		for _, c := range w.contains {
			if !strings.Contains(d.Message, c) {
				t.Errorf("finding %d: message %q lacks %q", i, d.Message, c)
			}
		}
		if w.related != nil {
			var got, exp []string
			for _, r := range d.Related {
				got = append(got, r.Path+":"+itoa(r.Start.Line))
			}
			for _, m := range w.related {
				rp, mk := p, m
				if i := strings.Index(m, "@"); i >= 0 {
					rp, mk = m[:i], m[i+1:]
				}
				l, _ := locate(rp, mk, "")
				exp = append(exp, rp+":"+itoa(l))
			}
			if strings.Join(got, " ") != strings.Join(exp, " ") {
				t.Errorf("finding %d: related %v, want %v", i, got, exp)
			}
		}
	}
}

// seedWrites is a seed that writes the per-session state self.sessions.
const seedWrites = `    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.sessions[sid] = {"n": 0}  # <- write
        return None

`

type ruleCase struct {
	name  string
	files map[string]string
	want  []marked
}

func runCases(t *testing.T, run func(*gym.View) []diag.Diagnostic, code string, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := runRule(t, run, tc.files)
			for _, d := range ds {
				if d.Code != code || d.Analyzer != Analyzer {
					t.Errorf("metadata: %s %s", d.Code, d.Analyzer)
				}
			}
			checkMarked(t, tc.files, ds, tc.want)
		})
	}
}

func TestLostSessionScored(t *testing.T) {
	runCases(t, runLostSessionScored, "GL306", []ruleCase{
		{
			name: "reward 0 under `not in`",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:  # <- test
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)  # <- a
        return BaseVerifyResponse(**body.model_dump(), reward=float(self.sessions[sid]["n"]))
`),
			want: []marked{{marker: "# <- a", col: "return", contains: []string{
				"S.verify returns a reward when the session's state self.sessions is missing (`sid not in self.sessions`)",
				"`return BaseVerifyResponse(**(body.model_dump() | lost_session_verification(\"session is gone\")))`",
			}, related: []string{"# <- test", "# <- write"}}},
		},
		{
			name: "raise under `not state` after a get, and a dict reward in the else of `in`",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        state = self.sessions.get(sid)
        if not state:
            raise HTTPException(status_code=400, detail="Session not initialized.")  # <- a
        if sid in self.sessions:
            pass
        else:
            return {**body.model_dump(), "reward": 0}  # <- b
        return {"reward": 1.0}
`),
			want: []marked{
				{marker: "# <- a", col: "raise", contains: []string{"raises HTTPException(400) when the session's state self.sessions is missing (`not state`)", "a 5xx dispatches the episode again"}},
				{marker: "# <- b", col: "return", contains: []string{"is missing (the else of `sid in self.sessions`)"}},
			},
		},
		{
			name: "walrus, `is None` joined by or, ResourcesSessionLostError is wrong in verify too",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if body.strict or (state := self.sessions.get(sid, None)) is None:
            raise ResourcesSessionLostError("gone")  # <- a
        return BaseVerifyResponse(**body.model_dump(), reward=state["n"])
`),
			want: []marked{{marker: "# <- a", col: "raise", contains: []string{"raises ResourcesSessionLostError when"}}},
		},
		{
			name: "except KeyError around the read",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        try:
            state = self.sessions[request.session[SESSION_ID_KEY]]
        except KeyError:  # <- handler
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)  # <- a
        return BaseVerifyResponse(**body.model_dump(), reward=state["n"])
`),
			want: []marked{{marker: "# <- a", col: "return", contains: []string{"(a KeyError reading it)"}, related: []string{"# <- handler", "# <- write"}}},
		},
		{
			name: "a helper that raises, called from verify",
			files: app("", seedWrites+`    def _get_state(self, request):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            raise HTTPException(status_code=400, detail="Session not initialized.")  # <- raise
        return self.sessions[sid]

    async def verify(self, request: Request, body):
        state = self._get_state(request)  # <- a
        return BaseVerifyResponse(**body.model_dump(), reward=state["n"])
`),
			want: []marked{{marker: "# <- a", col: "self._get_state", contains: []string{
				"S.verify calls S._get_state, which raises HTTPException(400) when",
			}, related: []string{"# <- raise", "    if sid not in self.sessions:", "# <- write"}}},
		},
		{
			name: "corrected: lost_session_verification merged with |",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone", failure_kind="x")))
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)
`),
		},
		{
			name: "corrected through a module alias",
			files: app("import nemo_gym.base_resources_server as brs\n", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if self.sessions.get(sid) is None:
            return BaseVerifyResponse(**(body.model_dump() | brs.lost_session_verification("gone")))
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)
`),
		},
		{
			name: "a test that the state is present, a raise handled in verify, a helper called in a try",
			files: app("", seedWrites+`    def _get_state(self, sid):
        if sid not in self.sessions:
            raise KeyError(sid)
        return self.sessions[sid]

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid in self.sessions:
            return BaseVerifyResponse(**body.model_dump(), reward=1.0)
        if self.sessions.get(sid) is not None:
            raise RuntimeError("never")
        try:
            if sid not in self.sessions:
                raise KeyError(sid)
            state = self._get_state(sid)
        except KeyError:
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone")))
        return BaseVerifyResponse(**body.model_dump(), reward=state["n"])
`),
		},
		{
			name: "a lookup of something that is not per-session state",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        if body.task not in self.tasks:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)
`),
		},
		{
			name: "a server that keeps no per-session state",
			files: app("", `    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)
`),
		},
		{
			name: "an agent (not a resources server) is not checked",
			files: map[string]string{
				"nemo_gym/base_responses_api_agent.py": "class SimpleResponsesAPIAgent:\n    pass\n",
				"responses_api_agents/a/app.py": `from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent
from nemo_gym.server_utils import SESSION_ID_KEY


class A(SimpleResponsesAPIAgent):
    async def run(self, request, body):
        self.sessions[request.session[SESSION_ID_KEY]] = 1

    async def verify(self, request, body):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            return {"reward": 0.0}


if __name__ == "__main__":
    A.run_webserver()
`},
		},
	})
}

func TestVerifyIgnoresLostSession(t *testing.T) {
	runCases(t, runVerifyIgnoresLostSession, "GL307", []ruleCase{
		{
			name: "reads the state, falls through with a default reward",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):  # <- a
        sid = request.session[SESSION_ID_KEY]
        reward = 0.0
        if sid in self.sessions:
            reward = float(self.sessions[sid]["n"] == body.expected)
        return BaseVerifyResponse(**body.model_dump(), reward=reward)
`),
			want: []marked{{marker: "# <- a", col: "verify", contains: []string{
				"S.verify reads the per-session state self.sessions, written in S.seed_session, but never refers to lost_session_verification",
			}, related: []string{"# <- write"}}},
		},
		{
			name: "reads it through a helper; inherited from a repository base",
			files: map[string]string{
				"resources_servers/s/base.py": header + `

class Base(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs[body.resources_session_id] = object()  # <- write

    def _env(self, sid):
        return self.envs[sid]

    async def verify(self, request: Request, body):  # <- a
        return {"reward": self._env(body.resources_session_id).score()}
`,
				appPath: `from resources_servers.s.base import Base


class S(Base):  # <- server
    pass
` + mainS,
			},
			want: []marked{{path: "resources_servers/s/base.py", marker: "# <- a", col: "verify", contains: []string{
				"Base.verify reads the per-session state self.envs (through Base._env), written in Base.seed_session",
			}, related: []string{"resources_servers/s/base.py@# <- write", appPath + "@# <- server"}}},
		},
		{
			name: "a pop whose value verify uses reads the state",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):  # <- a
        details = self.sessions.pop(request.session[SESSION_ID_KEY], {"n": 0})
        return BaseVerifyResponse(**body.model_dump(), reward=float(details["n"]))
`),
			want: []marked{{marker: "# <- a", col: "verify", related: []string{"# <- write"}}},
		},
		{
			name: "refers to lost_session_verification somewhere (a helper)",
			files: app("", seedWrites+`    def _lost(self, body):
        return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone")))

    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        state = self.sessions.get(sid)
        if state is None:
            return self._lost(body)
        return BaseVerifyResponse(**body.model_dump(), reward=state["n"])
`),
		},
		{
			name: "scores from the body alone, and pops the state to release it",
			files: app("", seedWrites+`    def _cleanup(self, sid):
        if sid in self.sessions:
            del self.sessions[sid]

    async def verify(self, request: Request, body):
        self.sessions.pop(request.session[SESSION_ID_KEY], None)
        self._cleanup(request.session[SESSION_ID_KEY])
        return BaseVerifyResponse(**body.model_dump(), reward=float(body.answer == body.expected))
`),
		},
		{
			name: "state written only by verify itself; a verify that raises NotImplementedError",
			files: map[string]string{
				appPath: header + `

class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.results[sid] = body.answer
        return {"reward": float(self.results[sid] == 1)}


class G(SimpleResourcesServer):
    async def reset(self, request: Request, body):
        self.games[request.session[SESSION_ID_KEY]] = object()

    async def step(self, request: Request, body):
        return self.games[request.session[SESSION_ID_KEY]].step(body.action)

    async def verify(self, body):
        raise NotImplementedError("G scores in /step")
`},
		},
		{
			name: "a verify that GL306 reports is left to it",
			files: app("", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            return BaseVerifyResponse(**body.model_dump(), reward=0.0)
        return BaseVerifyResponse(**body.model_dump(), reward=float(self.sessions[sid]["n"]))
`),
		},
	})
}

func TestAbsentConditions(t *testing.T) {
	v := build(t, app("", seedWrites+`    async def verify(self, request: Request, body):
        state = self.sessions.get(sid)
        other = compute()
        return None
`), true)
	s := server(t, v)
	_, fn, _ := Override(v, s.Class, VerifyMethod)
	lk := newLookups(v, s.Class.Module, fn, "self", newStateSet(States(v, s)))
	for _, tc := range []struct {
		cond      string
		whenHolds bool // shows the state missing when the test holds
		whenFails bool // ... when it fails
	}{
		{"sid not in self.sessions", true, false},
		{"sid in self.sessions", false, true},
		{"sid not in self.sessions.keys()", true, false},
		{"not sid in self.sessions", true, false},
		{"(sid not in self.sessions)", true, false},
		{"self.sessions.get(sid) is None", true, false},
		{"self.sessions.get(sid) is not None", false, true},
		{"self.sessions.get(sid, None) == None", true, false},
		{"self.sessions.get(sid, {}) is None", false, false},
		{"not self.sessions.get(sid)", true, false},
		{"self.sessions.get(sid)", false, true},
		{"state is None", true, false},
		{"not state", true, false},
		{"state", false, true},
		{"other is None", false, false},
		{"sid is None or sid not in self.sessions", true, false},
		{"sid in self.sessions and body.ok", false, true},
		{"(s := self.sessions.get(sid)) is None", true, false},
		{"sid not in self.other", false, false},
		{"sid not in self.sessions[k]", false, false},
		{"'not in' in self.sessions", false, true},
		{"self.sessions.get(f(a, b)) is None", true, false},
		{"index(sid) in self.sessions", false, true},
		{"sid is not self.sessions", false, false},
	} {
		if got := len(lk.absent(tc.cond, true)) > 0; got != tc.whenHolds {
			t.Errorf("absent(%q, holds) = %v, want %v", tc.cond, got, tc.whenHolds)
		}
		if got := len(lk.absent(tc.cond, false)) > 0; got != tc.whenFails {
			t.Errorf("absent(%q, fails) = %v, want %v", tc.cond, got, tc.whenFails)
		}
	}
}

func TestLostFix(t *testing.T) {
	for in, want := range map[string]string{
		`BaseVerifyResponse(**body.model_dump(), reward=0.0)`: `BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))`,
		`Resp(**f(a, b), reward=0)`:                           `Resp(**(f(a, b) | lost_session_verification("session is gone")))`,
		`{"reward": 0}`:                                       `BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))`,
		`Resp(x=g(**y), reward=0)`:                            `BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))`,
	} {
		if got := lostFix(in); got != want {
			t.Errorf("lostFix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAbsentPathological(t *testing.T) {
	v := build(t, app("", seedWrites+`    async def verify(self, request: Request, body):
        return None
`), true)
	s := server(t, v)
	_, fn, _ := Override(v, s.Class, VerifyMethod)
	lk := newLookups(v, s.Class.Module, fn, "self", newStateSet(States(v, s)))
	for _, cond := range []string{
		"", "not", "in", "not in", "is", "is None", "(", ")", "((", `"unterminated`, `'''x`, "a in", "in self.sessions",
		strings.Repeat("not ", 400) + "sid in self.sessions",
		strings.Repeat("(", 300) + "sid not in self.sessions" + strings.Repeat(")", 300),
		strings.Repeat("a or ", 300) + "b",
	} {
		lk.absent(cond, true)
		lk.absent(cond, false)
	}
	if len(lk.absent(strings.Repeat("not ", 4)+"sid not in self.sessions", true)) == 0 {
		t.Error("an even number of nots keeps the test")
	}
}
