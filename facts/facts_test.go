package facts_test

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// framework is a small framework package with the contract's names.
var framework = map[string]string{
	"nemo_gym/__init__.py":     "",
	"nemo_gym/server_utils.py": "SESSION_ID_KEY = \"session_id\"\n\nclass SimpleServer:\n    pass\n",
	"nemo_gym/base_resources_server.py": `from fastapi import HTTPException
from nemo_gym.server_utils import SimpleServer


class ResourcesSeedRejectedError(HTTPException, ValueError):
    pass


class ResourcesSessionConflictError(HTTPException, ValueError):
    pass


class ResourcesSessionLostError(HTTPException):
    pass


class ResourcesSessionFences:
    def fence(self, resources_session_id, record):
        pass

    def raise_if_fenced(self, resources_session_id):
        pass

    def get(self, resources_session_id):
        pass


class ResourcesSessionLocks:
    def locked(self, resources_session_id):
        pass


class SimpleResourcesServer(SimpleServer):
    async def seed_session(self, body):
        return None

    async def close_resources_session(self, body):
        return None
`,
}

const header = `import asyncio
import secrets
import uuid
from uuid import uuid4

from fastapi import HTTPException, Request, status
from fastapi.responses import JSONResponse
from nemo_gym.base_resources_server import ResourcesSeedRejectedError, ResourcesSessionConflictError, ResourcesSessionLostError
from nemo_gym.base_resources_server import ResourcesSessionFences, ResourcesSessionLocks, SimpleResourcesServer
from nemo_gym.server_utils import SESSION_ID_KEY
`

// build returns the facts of a repository made of files and the framework.
func build(t *testing.T, files map[string]string) *facts.Facts {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range framework {
		overlay[p] = []byte(c)
	}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	for _, d := range v.Diagnostics() {
		if d.Code == "GL001" {
			t.Fatalf("fixture does not parse: %s:%d %s", d.Path, d.Start.Line, d.Message)
		}
	}
	return facts.Of(v)
}

// server returns the server class S of resources_servers/s/app.py.
func server(t *testing.T, f *facts.Facts) gym.ClassRef {
	t.Helper()
	m, err := f.View().Module("resources_servers/s/app.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Classes {
		if c.Name == "S" {
			return gym.ClassRef{Module: m, Class: c}
		}
	}
	t.Fatal("no class S")
	return gym.ClassRef{}
}

func method(t *testing.T, f *facts.Facts, s gym.ClassRef, name string) *facts.Func {
	t.Helper()
	fn := f.Override(s, name)
	if fn == nil {
		t.Fatalf("no method %s", name)
	}
	return fn
}

func app(body string) map[string]string {
	return map[string]string{"resources_servers/s/app.py": header + "\n\nclass S(SimpleResourcesServer):\n" + body}
}

// callsOf renders the calls of a function: "callee -> target (how)".
func callsOf(f *facts.Facts, s gym.ClassRef, fn *facts.Func) []string {
	var out []string
	for _, c := range f.Calls(s, fn) {
		target := "-"
		if c.Target != nil {
			target = c.Target.Name()
		}
		if c.Class.Class != nil {
			target = "class " + c.Class.Class.Name
		}
		out = append(out, fmt.Sprintf("%s -> %s (%d)", fn.Module.Text(c.Call.Func), target, c.How))
	}
	return out
}

func TestCalls(t *testing.T) {
	f := build(t, map[string]string{
		"resources_servers/s/helpers.py": "def grade(x):\n    return x\n",
		"resources_servers/s/base.py": header + `
class Base(SimpleResourcesServer):
    def _state(self, sid):
        return sid

    async def seed_session(self, request: Request, body):
        return None
`,
		"resources_servers/s/app.py": header + `from resources_servers.s.base import Base
from resources_servers.s.helpers import grade


class Config:
    pass


class S(Base):
    def _state(self, sid):
        return super()._state(sid)

    async def seed_session(self, request: Request, body):
        def inner(x):
            return x

        self._state(body.resources_session_id)
        await super().seed_session(request, body)
        inner(1)
        grade(2)
        Config()
        self.unknown_method()

    def shadow(self, grade):
        grade(3)
`,
	})
	s := server(t, f)
	got := strings.Join(callsOf(f, s, method(t, f, s, "seed_session")), "\n")
	want := strings.Join([]string{
		"self._state -> S._state (1)",
		"super().seed_session -> Base.seed_session (2)",
		"super -> - (0)",
		"inner -> S.seed_session.inner (3)",
		"grade -> grade (4)",
		"Config -> class Config (5)",
		"self.unknown_method -> - (6)",
	}, "\n")
	if got != want {
		t.Errorf("calls of seed_session:\n%s\nwant:\n%s", got, want)
	}
	if got := callsOf(f, s, method(t, f, s, "_state")); len(got) < 1 || got[0] != "super()._state -> Base._state (2)" {
		t.Errorf("calls of _state: %v", got)
	}
	// A parameter named like a module function is not that function.
	if got := callsOf(f, s, method(t, f, s, "shadow")); len(got) != 1 || got[0] != "grade -> - (0)" {
		t.Errorf("calls of shadow: %v", got)
	}
	var reached []string
	for _, r := range f.Reach(s, method(t, f, s, "seed_session")) {
		reached = append(reached, fmt.Sprintf("%s/%d", r.Func.Name(), len(r.Via)))
	}
	if got := strings.Join(reached, " "); got != "S.seed_session/0 S._state/1 Base.seed_session/1 S.seed_session.inner/1 grade/1 Base._state/2" {
		t.Errorf("reach: %s", got)
	}
}

func TestFrameworkCallsAndMethodRefs(t *testing.T) {
	f := build(t, app(`    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/a")(self.tool)
        return app

    def tool(self):
        return 1

    async def close_resources_session(self, body):
        return await super().close_resources_session(body)
`))
	s := server(t, f)
	close := method(t, f, s, "close_resources_session")
	cs := f.Calls(s, close)
	if len(cs) != 2 || cs[0].How != facts.CallFramework || cs[0].Target != nil {
		t.Errorf("super().close_resources_session: %+v", cs)
	}
	refs := f.MethodRefs(s, method(t, f, s, "setup_webserver"))
	if len(refs) != 1 || refs[0].Name() != "S.tool" {
		t.Errorf("method refs: %v", refs)
	}
}

// valuesOf renders what a name may hold in a function.
func valuesOf(f *facts.Facts, fn *facts.Func, name string) string {
	var out []string
	for _, v := range f.Values(fn, name) {
		switch {
		case v.Param != nil:
			out = append(out, "param")
		case v.Def != nil:
			out = append(out, "def")
		case v.Expr == nil:
			out = append(out, "?")
		default:
			s := v.Func.Module.Text(v.Expr)
			if v.Enter {
				s = "enter " + s
			}
			if v.Aug {
				s = "aug " + s
			}
			if v.Func != fn {
				s += " (in " + v.Func.Name() + ")"
			}
			out = append(out, s)
		}
	}
	return strings.Join(out, " | ")
}

func TestValues(t *testing.T) {
	f := build(t, app(`    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if not sid:
            sid = str(uuid4())
        a, b = body.x, body.y
        c, d = make()
        with open("f") as fh:
            pass
        if (w := compute()) is not None:
            pass
        for item in body.items:
            pass
        n = 0
        n += 1
        global G
        G = 1
        try:
            pass
        except KeyError as err:
            pass
        def helper():
            return sid
        return helper
`))
	s := server(t, f)
	seed := method(t, f, s, "seed_session")
	for name, want := range map[string]string{
		"sid":     "request.session[SESSION_ID_KEY] | str(uuid4())",
		"a":       "body.x",
		"b":       "body.y",
		"c":       "?",
		"fh":      `enter open("f")`,
		"w":       "compute()",
		"item":    "?",
		"n":       "0 | aug 1",
		"G":       "",
		"err":     "?",
		"body":    "param",
		"helper":  "def",
		"nothing": "",
	} {
		if got := valuesOf(f, seed, name); got != want {
			t.Errorf("Values(%s) = %q, want %q", name, got, want)
		}
	}
	var inner *facts.Func
	for _, st := range seed.Fn.Body {
		if fn, ok := st.(*pyscan.Function); ok {
			inner = f.Nested(seed, fn)
		}
	}
	if got := valuesOf(f, inner, "sid"); got != "request.session[SESSION_ID_KEY] (in S.seed_session) | str(uuid4()) (in S.seed_session)" {
		t.Errorf("a closure's variable: %q", got)
	}
	if inner.Recv != "self" || inner.Outer != seed || inner.Name() != "S.seed_session.helper" {
		t.Errorf("nested func: %+v", inner)
	}
}

func TestKeyOf(t *testing.T) {
	f := build(t, app(`    async def seed_session(self, request: Request, body):
        cookie = request.session[SESSION_ID_KEY]
        cookie_get = request.session.get("session_id")
        other_cookie = request.session["user"]
        bid = body.resources_session_id
        either = cookie if body.flag else bid
        wrapped = str(bid)
        formatted = f"sess-{cookie}"
        fallback = bid
        if not fallback:
            fallback = str(uuid.uuid4())
        minted = uuid.uuid4().hex
        token = secrets.token_hex(8)
        reused = self.by_exec.get(body.exec_id) or str(uuid4())
        env = body.env_id
        task = body.task_id
        nested = body.meta.sandbox_handle
        keyed = body["resources_session_id"]
        turn = f"{cookie}:{body.turn}"
        for each in body.env_ids:
            pass
        for other in self.pool:
            pass
        self._use(bid)
        self._use(bid)
        self._mixed(bid)
        self._mixed(body.task_id)
        return None

    def _use(self, sid):
        return sid

    def _mixed(self, key):
        return key
`))
	s := server(t, f)
	seed := method(t, f, s, "seed_session")
	for name, want := range map[string]string{
		"cookie":       "session from 1",
		"cookie_get":   "session from 1",
		"other_cookie": "other",
		"bid":          "session from 2",
		"either":       "session from 3",
		"wrapped":      "session from 2",
		"formatted":    "session from 1",
		"fallback":     "session from 2",
		"minted":       "minted",
		"token":        "minted",
		"reused":       "minted",
		"env":          "body env_id session-like",
		"task":         "body task_id",
		"nested":       "body sandbox_handle session-like",
		"keyed":        "session from 2",
		"turn":         "session from 1",
		"each":         "body env_ids",
		"other":        "other",
	} {
		k := f.KeyOf(s, seed, &pyscan.Name{Id: name})
		got := k.Kind.String()
		switch k.Kind {
		case facts.KeySession:
			got += fmt.Sprintf(" from %d", k.From)
		case facts.KeyBody:
			got += " " + k.Field
			if f.SessionLike(k) {
				got += " session-like"
			}
		}
		if got != want {
			t.Errorf("KeyOf(%s) = %q, want %q", name, got, want)
		}
	}
	use := method(t, f, s, "_use")
	if k := f.KeyOf(s, use, &pyscan.Name{Id: "sid"}); k.Kind != facts.KeySession {
		t.Errorf("a parameter every call passes the session's id: %v", k.Kind)
	}
	mixed := method(t, f, s, "_mixed")
	if k := f.KeyOf(s, mixed, &pyscan.Name{Id: "key"}); k.Kind != facts.KeyOther {
		t.Errorf("a parameter the calls disagree on: %v", k.Kind)
	}
}

func TestRoutes(t *testing.T) {
	f := build(t, app(`    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/a")(self.tool_a)
        app.post("/b")(log_calls(self.tool_b))
        app.add_api_route("/c", endpoint=self.tool_c, methods=["POST"])
        for name in ("x", "y"):
            app.add_api_route(f"/run_{name}", self._make(name), methods=["POST"])

        @app.post("/d")
        async def tool_d(request: Request):
            return 1

        async def tool_e(request: Request):
            return 2

        handler = tool_e
        app.post("/e")(handler)
        app.post("/a")(self.tool_b)
        app.post("/verify")(self.tool_a)
        return app

    async def seed_session(self, request: Request, body):
        return None

    async def verify(self, body):
        return None

    def tool_a(self):
        return 1

    def tool_b(self):
        return 1

    def tool_c(self):
        return 1

    def _make(self, name):
        async def made(request: Request):
            return name

        return made
`))
	s := server(t, f)
	var got []string
	for _, r := range f.Routes(s) {
		line := r.Path + " " + r.Handler.Name()
		if r.Standard {
			line += " standard"
		}
		if r.Factory != nil {
			line += " by " + r.Factory.Name()
		}
		if r.Shadowed {
			line += " shadowed"
		}
		got = append(got, line)
	}
	want := []string{
		"/seed_session S.seed_session standard",
		"/verify S.verify standard",
		"/a S.tool_a",
		"/b S.tool_b",
		"/c S.tool_c",
		" S._make.made by S._make",
		"/e S.setup_webserver.tool_e",
		"/a S.tool_b shadowed",
		"/verify S.tool_a shadowed",
		"/d S.setup_webserver.tool_d",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("routes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// accessesOf renders the state of a server: "container kind key/keykind in func".
func accessesOf(f *facts.Facts, s gym.ClassRef) []string {
	var out []string
	for _, c := range f.StateOf(s).Containers {
		for _, a := range c.Accesses {
			key := "-"
			if a.Key != nil {
				key = a.Func.Module.Text(a.Key) + "/" + a.KeyOf.Kind.String()
			}
			out = append(out, fmt.Sprintf("%s %s %s in %s", c.Name, a.Kind, key, a.Func.Name()))
		}
	}
	return out
}

func TestState(t *testing.T) {
	f := build(t, map[string]string{
		"resources_servers/s/app.py": header + `
REGISTRY = {}


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.envs[sid] = object()
        self.counts[sid] += 1
        self.store.games.setdefault(sid, [])
        REGISTRY[sid] = 1
        S.by_class[sid] = 2
        envs = self.envs
        envs[body.env_id] = 3
        self.config.x = 1

    async def step(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid in self.envs and self.envs.get(sid):
            del self.envs[sid]
        self.envs.pop(sid, None)
        for k in self.envs:
            pass
        n = len(self.envs)
        self._closed.add(sid)
        self._closed.discard(sid)
        return self.envs[sid]
`,
	})
	s := server(t, f)
	want := []string{
		"self.envs write sid/session in S.seed_session",
		"self.envs write body.env_id/body in S.seed_session",
		"self.envs contains sid/session in S.step",
		"self.envs get sid/session in S.step",
		"self.envs delete sid/session in S.step",
		"self.envs pop sid/session in S.step",
		"self.envs iterate - in S.step",
		"self.envs reference - in S.step",
		"self.envs read sid/session in S.step",
		"self.counts augmented write sid/session in S.seed_session",
		"self.store.games setdefault sid/session in S.seed_session",
		"REGISTRY write sid/session in S.seed_session",
		"S.by_class write sid/session in S.seed_session",
		"self._closed add sid/session in S.step",
		"self._closed remove sid/session in S.step",
	}
	got := accessesOf(f, s)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("state:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var per []string
	for _, sc := range f.SessionState(s) {
		per = append(per, sc.Name)
	}
	if got := strings.Join(per, " "); got != "self.envs self.counts self.store.games REGISTRY S.by_class" {
		t.Errorf("per-session containers: %s", got)
	}
}

func TestPerSessionMintedOnlyInSeed(t *testing.T) {
	f := build(t, app(`    async def seed_session(self, request: Request, body):
        eid = str(uuid4())
        self.episodes[eid] = object()
        return {"episode": eid}

    async def step(self, request: Request, body):
        tid = str(uuid4())
        self.traces[tid] = object()
        self.cache[body.url] = 1
`))
	s := server(t, f)
	var per []string
	for _, sc := range f.SessionState(s) {
		per = append(per, sc.Name)
	}
	if got := strings.Join(per, " "); got != "self.episodes" {
		t.Errorf("per-session containers: %q, want self.episodes only", got)
	}
}

func TestFences(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"framework fence in a helper", `    def model_post_init(self, ctx):
        self._fences = ResourcesSessionFences(60)

    async def close_resources_session(self, body):
        self._done(body.resources_session_id)

    def _done(self, sid):
        self._fences.fence(sid, None)
`, "framework S._done"},
		{"hand-rolled set", `    async def seed_session(self, request: Request, body):
        if body.resources_session_id in self.closed:
            raise ResourcesSessionConflictError("closed")

    async def close_resources_session(self, body):
        self.closed.add(body.resources_session_id)
`, "record self.closed checked"},
		{"hand-rolled dict refused with a 409 response", `    async def seed_session(self, request: Request, body):
        if self.closed_at.get(body.resources_session_id) is not None:
            return JSONResponse(status_code=409, content={})

    async def close_resources_session(self, body):
        self.closed_at[body.resources_session_id] = 1.0
`, "record self.closed_at checked"},
		{"recorded, never refused", `    async def seed_session(self, request: Request, body):
        if body.resources_session_id in self.closed:
            print("again")

    async def close_resources_session(self, body):
        self.closed.add(body.resources_session_id)
`, ""},
		{"recorded by another key", `    async def seed_session(self, request: Request, body):
        if body.resources_session_id in self.closed:
            raise ResourcesSessionConflictError("closed")

    async def close_resources_session(self, body):
        self.closed.add(body.task_id)
`, ""},
	} {
		f := build(t, app(tc.body))
		s := server(t, f)
		var got []string
		for _, fe := range f.Fences(s, method(t, f, s, "close_resources_session")) {
			switch {
			case fe.Framework:
				got = append(got, "framework "+fe.Call.In.Name())
			case fe.Record != nil:
				g := "record " + fe.Record.Container.Name
				if fe.Refusal != nil {
					g += " checked"
				}
				got = append(got, g)
			}
		}
		if g := strings.Join(got, ", "); g != tc.want {
			t.Errorf("%s: fences %q, want %q", tc.name, g, tc.want)
		}
	}
}

func TestLocks(t *testing.T) {
	f := build(t, app(`    _locks: ResourcesSessionLocks = ResourcesSessionLocks()

    def model_post_init(self, ctx):
        self._lock = asyncio.Lock()
        self._per = {}
        self._state_guard = None
        self.pool = Pool()

    async def seed_session(self, request: Request, body):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            pass
        async with self._lock:
            pass
        self._per[sid] = asyncio.Lock()
        async with self._per[sid]:
            pass
        lock = self._per.setdefault(sid, asyncio.Lock())
        async with lock:
            pass
        async with self.pool:
            pass
        async with self.unknown_lock:
            pass
`))
	s := server(t, f)
	var got []string
	for _, l := range f.Locks(s, method(t, f, s, "seed_session")) {
		g := fmt.Sprintf("%s %d", s.Module.Text(l.Item.Context), l.Kind)
		if l.Framework {
			g += " framework"
		}
		got = append(got, g)
	}
	want := []string{
		"self._locks.locked(sid) 0 framework",
		"self._lock 1",
		"self._per[sid] 0",
		"lock 0",
		"self.unknown_lock 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("locks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEscapes(t *testing.T) {
	f := build(t, map[string]string{
		"resources_servers/s/errors.py": "from fastapi import HTTPException\n\n\nclass TaskError(ValueError):\n    pass\n\n\nclass Upstream(HTTPException):\n    pass\n",
		"resources_servers/s/app.py": header + `from pydantic import BaseModel
from resources_servers.s.errors import TaskError, Upstream


class Task(BaseModel):
    x: int


class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
        self.envs[body.resources_session_id] = 1
        if body.a:
            raise ValueError("a")
        try:
            raise KeyError("caught by LookupError")
        except LookupError:
            pass
        try:
            Task.model_validate(body.task_data)
        except ValueError as e:
            raise ResourcesSeedRejectedError(str(e))
        Task.model_validate(body.task_data)
        try:
            self._helper(body)
        except TaskError:
            pass
        self._helper(body)
        self._other(body)
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "later")

    def _helper(self, body):
        raise TaskError("bad task")

    def _other(self, body):
        try:
            int(body.n)
        except TypeError:
            raise
        assert body.n > 0
        return self.envs[body.resources_session_id]
`,
	})
	s := server(t, f)
	var got []string
	for _, r := range f.Escapes(s, method(t, f, s, "seed_session")) {
		g := fmt.Sprintf("%s %d in %s", r.Exc.Name, r.Exc.Status, r.In.Name())
		switch {
		case r.Validation != nil:
			g += " validation"
		case r.Reraise != nil:
			g += " reraise"
		case r.Assert:
			g += " assert"
		case r.Missing != nil:
			g += " missing " + r.Missing.Name
		}
		if len(r.Via) > 0 {
			g += fmt.Sprintf(" via %d", len(r.Via))
		}
		got = append(got, g)
	}
	want := []string{
		"builtins.ValueError 500 in S.seed_session",
		"nemo_gym.base_resources_server.ResourcesSeedRejectedError 422 in S.seed_session",
		"pydantic.ValidationError 500 in S.seed_session validation",
		"resources_servers.s.errors.TaskError 500 in S._helper via 1",
		"builtins.TypeError 500 in S._other reraise via 1",
		"builtins.AssertionError 500 in S._other assert via 1",
		"builtins.KeyError 500 in S._other missing self.envs via 1",
		"fastapi.HTTPException 503 in S.seed_session",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("escapes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	up := f.ExcOf(s.Module, &pyscan.Name{Id: "Upstream"})
	if !up.IsHTTP() || up.Status != 0 {
		t.Errorf("a repository HTTPException: %+v", up)
	}
}

func TestGuard(t *testing.T) {
	f := build(t, app(`    async def seed_session(self, request: Request, body):
        self.envs[request.session[SESSION_ID_KEY]] = 1

    def _get(self, sid):
        return self.envs.get(sid)

    def _checked(self, sid):
        if sid not in self.envs:
            return None
        return self.envs[sid]

    async def step(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        state = self.envs.get(sid)
        got = self._get(sid)
        checked = self._checked(sid)
        if sid not in self.envs:
            a = 1
        if sid in self.envs:
            b = 1
        else:
            c = 1
        if state is None:
            d = 1
        if not state:
            e = 1
        if body.flag or (w := self.envs.get(sid)) is None:
            g = 1
        if got is None:
            h = 1
        if checked is None:
            i = 1
        if self.envs.get(sid, {}) is None:
            j = 1
        if body.other is None:
            k = 1
`))
	s := server(t, f)
	step := method(t, f, s, "step")
	wanted := func(*facts.Container) bool { return true }
	got := map[string]string{}
	pyscan.InspectBody(step.Fn.Body, func(n pyscan.Node, st []pyscan.Node) bool {
		a, ok := n.(*pyscan.Assign)
		if !ok {
			return true
		}
		name, ok := a.Targets[0].(*pyscan.Name)
		if !ok || len(name.Id) != 1 {
			return true
		}
		ctx := pyscan.ContextOf(append([]pyscan.Node{step.Fn}, st...))
		var shows []string
		for _, g := range ctx.Guards {
			l := f.Guard(s, step, g, wanted)
			w := [...]string{"nothing", "missing", "present"}[l.Shows]
			if l.Via != nil {
				w += " via " + l.Via.Name()
			}
			shows = append(shows, w)
		}
		got[name.Id] = strings.Join(shows, ",")
		return true
	})
	want := map[string]string{
		"a": "missing", "b": "present", "c": "missing", "d": "missing", "e": "missing",
		"g": "missing", "h": "missing via S._get", "i": "missing via S._checked", "j": "nothing", "k": "nothing",
	}
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("under the guard of %s: %q, want %q", k, got[k], want[k])
		}
	}
}

// TestFuncOfConcurrent asks for the Funcs of one module's methods from many
// goroutines at once: each must come back with its class and receiver,
// however the calls interleave with the module's indexing.
func TestFuncOfConcurrent(t *testing.T) {
	var body strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&body, "    def m%d(self):\n        def inner():\n            return self\n        return inner\n\n", i)
	}
	for round := 0; round < 20; round++ {
		f := build(t, app(body.String()))
		s := server(t, f)
		var wg sync.WaitGroup
		got := make([]*facts.Func, len(s.Class.Methods))
		for i, fn := range s.Class.Methods {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = f.FuncOf(s.Module, fn)
			}()
		}
		wg.Wait()
		for i, x := range got {
			if x.Class != s.Class || x.Recv != "self" {
				t.Fatalf("round %d: FuncOf(%s) = class %v, receiver %q; want S, self", round, s.Class.Methods[i].Name, x.Class, x.Recv)
			}
			if x != f.FuncOf(s.Module, s.Class.Methods[i]) {
				t.Fatalf("round %d: two Funcs for %s", round, x.Name())
			}
		}
	}
}
