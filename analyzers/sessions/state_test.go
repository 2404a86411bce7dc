//go:build ignore

package sessions

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/pyscan"
)

func TestStates(t *testing.T) {
	const main = `

if __name__ == "__main__":
    S.run_webserver()
`
	for _, tc := range []struct {
		name string
		body string
		want []string // "attr key method line"
	}{
		{
			name: "cookie id through a local, body id, setdefault",
			body: `
class S(SimpleResourcesServer):
    _sessions: dict = {}

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self._sessions[session_id] = {"n": 0}
        self.by_body[body.resources_session_id] = 1
        self.counts.setdefault(request.session["session_id"], 0)
        self.things[str(body.env_id)] = 2
        self.cache[body.url] = 3
        self.per_task[body.task_id] = 4
        return None

    async def step(self, request: Request, body):
        sid = request.session.get(SESSION_ID_KEY)
        self.steps[sid] += 1
        del self._sessions[sid]
`,
			want: []string{
				"self._sessions session seed_session 16",
				"self.by_body session seed_session 17",
				"self.counts session seed_session 18",
				"self.things body seed_session 19",
				"self.steps session step 26",
			},
		},
		{
			name: "minted id counts in the seed only",
			body: `
import uuid


class S(SimpleResourcesServer):
    async def seed_session(self, request, body):
        env_id = str(uuid.uuid4())
        self.envs[env_id] = object()
        return Response(
            env_id=env_id,
        )

    async def reset(self, body):
        env_id = uuid.uuid4().hex
        self.envs[env_id] = object()
`,
			want: []string{"self.envs minted seed_session 17"},
		},
		{
			name: "not state: helper parameter, local dict, cookie store, unknown key, disagreeing locals",
			body: `
_CACHE = {}


class S(SimpleResourcesServer):
    async def seed_session(self, request, body):
        local = {}
        local[body.x] = 1
        request.session[SESSION_ID_KEY] = "x"
        self.other[request.session["other"]] = 1
        key = body.task_id
        if body.flag:
            key = "fixed"
        self.mixed[key] = 1
        self.pairs[0] = 1
        self._put(body.task_id)
        self._put(body.resources_session_id)
        return None

    def _put(self, session_id):
        self.envs[session_id] = 1

    async def verify(self, request, body):
        def inner():
            sid = request.session[SESSION_ID_KEY]
            self.nested[sid] = 1
        return inner
`,
		},
		{
			name: "parameters traced to the server's own calls; minted fallback",
			body: `
import uuid


class S(SimpleResourcesServer):
    async def _reset_endpoint(self, body, request):
        session_id = request.session.get(SESSION_ID_KEY)
        if not session_id:
            session_id = str(uuid.uuid4())
        return await self.reset(body.metadata, session_id)

    async def _other(self, request):
        await self.reset({}, session_id=request.session[SESSION_ID_KEY])

    async def reset(self, metadata, session_id=None):
        self.turns[session_id] = 0
`,
			want: []string{"self.turns session reset 25"},
		},
		{
			name: "module-level container and inherited route",
			body: `
_STATE = {}


class Base(SimpleResourcesServer):
    async def seed_session(self, request, body):
        _STATE[body.resources_session_id] = 1
        return None


class S(Base):
    async def step(self, request, body):
        self.log[request.session[SESSION_ID_KEY]] = 1
`,
			want: []string{
				"self.log session step 22",
				"_STATE session seed_session 16",
			},
		},
		{
			name: "a shadowed definition does not count",
			body: `
class Base(SimpleResourcesServer):
    async def seed_session(self, request, body):
        self.envs[body.resources_session_id] = 1
        return None


class S(Base):
    async def seed_session(self, request, body):
        return None
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := build(t, map[string]string{"resources_servers/s/app.py": header + tc.body + main}, true)
			var got []string
			for _, s := range States(v, server(t, v)) {
				got = append(got, fmt.Sprintf("%s %s %s %d", s.Attr, s.Key, s.Method.Name, s.Store.Span.Start.Line))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("States:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestStateWhere(t *testing.T) {
	v := build(t, map[string]string{"resources_servers/s/app.py": header + `
class S(SimpleResourcesServer):
    async def seed_session(self, request, body):
        self.counts.setdefault(body.resources_session_id, 0)
        self.envs[body.resources_session_id] = 1
        return None


if __name__ == "__main__":
    S.run_webserver()
`}, true)
	st := States(v, server(t, v))
	if len(st) != 2 {
		t.Fatalf("got %d states", len(st))
	}
	if w := st[1].Where(); w != "self.envs[body.resources_session_id] in S.seed_session" {
		t.Errorf("Where = %q", w)
	}
	if w := st[0].Where(); w != "self.counts.setdefault(body.resources_session_id, ...) in S.seed_session" {
		t.Errorf("Where = %q", w)
	}
	r := st[1].Related()
	if r.Path != "resources_servers/s/app.py" || r.Start.Line != 14 {
		t.Errorf("Related = %+v", r)
	}
}

func TestClassifyKey(t *testing.T) {
	v := build(t, map[string]string{"resources_servers/s/app.py": header + `
import uuid


class S(SimpleResourcesServer):
    async def route(self, request, body, session_id):
        sid = request.session.get(SESSION_ID_KEY)
        local_env = body.env_id
        self._use(sid)

    def _use(self, key):
        pass
` + mainS}, true)
	s := server(t, v)
	route := s.Class.Class.Method("route")
	use := s.Class.Class.Method("_use")
	m := s.Class.Module
	for text, want := range map[string]KeyKind{
		"request.session[SESSION_ID_KEY]": KeySession,
		"request.session['session_id']":   KeySession,
		"request.session[\"other\"]":      KeyOther,
		"body.resources_session_id":       KeySession,
		"str(body.resources_session_id)":  KeySession,
		"body.env_id":                     KeyBody,
		"body.task_id":                    KeyOther,
		"other.env_id":                    KeyOther,
		"sid":                             KeySession,
		"local_env":                       KeyBody,
		"session_id":                      KeyOther, // a parameter
		"uuid.uuid4().hex":                KeyMinted,
		"undefined_local":                 KeyOther,
		"self.x":                          KeyOther,
	} {
		if got := ClassifyKey(v, m, route, pyscan.Expr{Text: text}); got != want {
			t.Errorf("ClassifyKey(%q) = %v, want %v", text, got, want)
		}
	}
	if got := ClassifyKey(v, m, use, pyscan.Expr{Text: "key"}); got != KeyOther {
		t.Errorf("ClassifyKey of a parameter = %v", got)
	}
	if got := ServerKey(v, s.Class, Method{Class: s.Class, Func: use}, pyscan.Expr{Text: "key"}); got != KeySession {
		t.Errorf("ServerKey of a parameter passed the cookie id = %v", got)
	}
}
