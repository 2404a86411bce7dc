//go:build ignore

package sessions

import "testing"

// closeServer builds server S from class-body text (methods indented by 4).
func closeServer(pre, body string) map[string]string {
	return map[string]string{"resources_servers/s/app.py": header + pre + `

class S(SimpleResourcesServer):
` + body + mainS}
}

const statefulSeed = `    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        self._fences.raise_if_fenced(body.resources_session_id)
        self.envs[session_id] = object()
        return None
`

func TestSeedWithoutClose(t *testing.T) {
	const p = "resources_servers/s/app.py"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []finding
	}{
		{
			name:  "stateful seed, no close",
			files: closeServer("", statefulSeed),
			want: []finding{{at: p + ":12:7", contains: []string{
				"S keeps per-session state in seed_session (self.envs[session_id] in S.seed_session)",
				"no close_resources_session override",
				"release the state by body.resources_session_id",
			}, related: []string{p + ":16"}}},
		},
		{
			name: "corrected: a close override",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)
`),
		},
		{
			name: "stateless seed, and state kept only in a tool route",
			files: closeServer("", `    async def seed_session(self, request, body):
        self.config_seen = True
        return None

    async def step(self, request, body):
        self.envs[request.session[SESSION_ID_KEY]] = 1
`),
		},
		{
			name: "an ad-hoc close is named",
			files: closeServer("", statefulSeed+`
    async def close(self, request, body):
        self.envs.pop(body.env_id, None)
`),
			want: []finding{{at: p + ":12:7", contains: []string{"S.close is not called by the environment server: serve the close as close_resources_session"},
				related: []string{p + ":16", p + ":19"}}},
		},
		{
			name: "a base's seed is reported once, at the base, naming the servers",
			files: map[string]string{
				"resources_servers/s/base.py": header + `

class Base(SimpleResourcesServer):
` + statefulSeed,
				"resources_servers/a/app.py": `from resources_servers.s.base import Base


class A(Base):
    pass


if __name__ == "__main__":
    A.run_webserver()
`,
				"resources_servers/b/app.py": `from resources_servers.s.base import Base


class B(Base):
    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)


if __name__ == "__main__":
    B.run_webserver()
`,
				"resources_servers/c/app.py": `from resources_servers.s.base import Base


class C(Base):
    pass


if __name__ == "__main__":
    C.run_webserver()
`,
			},
			want: []finding{{at: "resources_servers/s/base.py:12:7", contains: []string{"A, C (seed_session of Base) keep per-session state"},
				related: []string{"resources_servers/s/base.py:16", "resources_servers/a/app.py:4", "resources_servers/c/app.py:4"}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFindings(t, runRule(t, runSeedWithoutClose, tc.files), tc.want)
		})
	}
}

func TestSeedWithoutCloseShadowed(t *testing.T) {
	const p = "resources_servers/s/app.py"
	files := map[string]string{p: header + `

class CloseMixin:
    async def close_resources_session(self, body):
        pass


class S(SimpleResourcesServer, CloseMixin):
` + statefulSeed + mainS}
	checkFindings(t, runRule(t, runSeedWithoutClose, files), []finding{{at: p + ":17:7", contains: []string{
		"the close_resources_session override on CloseMixin is shadowed by the framework's default",
	}, related: []string{p + ":21", p + ":13"}}})
}

func TestCloseWithoutFence(t *testing.T) {
	const p = "resources_servers/s/app.py"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []finding
	}{
		{
			name: "pop without fence",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        return None
`),
			want: []finding{{at: p + ":19:15", contains: []string{
				"S.close_resources_session releases the session's state (self.envs.pop(...)) but never fences the session",
				"raise_if_fenced",
			}, related: []string{p + ":20", p + ":16"}}},
		},
		{
			name: "corrected: fenced directly",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, body.episode_id)
`),
		},
		{
			name: "corrected: fenced in a helper the close calls",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, body):
        del self.envs[body.resources_session_id]
        self._done(body.resources_session_id)

    def _done(self, sid):
        self._fences.fence(sid, None)
`),
		},
		{
			name: "corrected: fenced in a module function",
			files: closeServer(`

def fence_it(fences, sid):
    fences.fence(sid, None)
`, statefulSeed+`
    async def close_resources_session(self, body):
        del self.envs[body.resources_session_id]
        fence_it(self._fences, body.resources_session_id)
`),
		},
		{
			name: "stateful server whose close releases nothing gymlint sees",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, body):
        return await super().close_resources_session(body)
`),
			want: []finding{{at: p + ":19:15", contains: []string{"belongs to a server that keeps per-session state (self.envs[session_id] in S.seed_session)"}}},
		},
		{
			name: "stateless close that only calls super is silent",
			files: closeServer("", `    async def close_resources_session(self, body):
        return await super().close_resources_session(body)
`),
		},
		{
			name: "a fence-named method on an unrelated object does not count",
			files: map[string]string{p: `from nemo_gym.base_resources_server import SimpleResourcesServer


class S(SimpleResourcesServer):
    async def close_resources_session(self, body):
        self.envs.pop(body.resources_session_id, None)
        self.wall.fence(body.resources_session_id, None)
` + mainS},
			want: []finding{{at: p + ":5:15"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFindings(t, runRule(t, runCloseWithoutFence, tc.files), tc.want)
		})
	}
}

func TestCloseSwallowsFailure(t *testing.T) {
	const p = "resources_servers/s/app.py"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []finding
	}{
		{
			name: "log and pass",
			files: closeServer("", `    async def close_resources_session(self, body):
        sandbox = self.sandboxes.pop(body.resources_session_id, None)
        try:
            await sandbox.kill()
        except Exception:
            logger.exception("could not kill")
        self._fences.fence(body.resources_session_id, None)
`),
			want: []finding{{at: p + ":17:9", contains: []string{
				"S.close_resources_session catches the failure of releasing the session's state (sandbox.kill(...)) with except Exception and does not re-raise",
				"re-raise after logging",
			}, related: []string{p + ":16"}}},
		},
		{
			name: "corrected: re-raises after logging",
			files: closeServer("", `    async def close_resources_session(self, body):
        try:
            await self.sandboxes[body.resources_session_id].kill()
        except Exception:
            logger.exception("could not kill")
            raise
`),
		},
		{
			name: "look-alikes: only 'already gone' errors, raise after collecting, no release in the try",
			files: closeServer("", `    async def close_resources_session(self, body):
        try:
            await self.sandboxes[body.resources_session_id].stop()
        except (KeyError, ProcessLookupError):
            pass
        errors = []
        for s in self.others:
            try:
                await s.terminate()
            except Exception as e:
                errors.append(e)
        if errors:
            raise RuntimeError(errors)

    async def helper(self):
        try:
            x = compute()
        except Exception:
            return None
`),
		},
		{
			name: "bare except that returns, in a helper the close calls; suppress",
			files: closeServer("import contextlib\n", `    async def close_resources_session(self, body):
        await self._stop(body.resources_session_id)
        with contextlib.suppress(Exception):
            await self.pool.release(body.resources_session_id)

    async def _stop(self, sid):
        try:
            await self.containers[sid].shutdown()
        except:
            return
`),
			want: []finding{
				{at: p + ":16:14", contains: []string{"with contextlib.suppress(Exception)", "(self.pool.release(...))"}},
				{at: p + ":22:9", contains: []string{"(through S._stop) catches the failure of releasing the session's state (self.containers[sid].shutdown(...)) with a bare except"},
					related: []string{p + ":21", p + ":14"}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFindings(t, runRule(t, runCloseSwallowsFailure, tc.files), tc.want)
		})
	}
}

func TestCloseKeyedByCookie(t *testing.T) {
	const p = "resources_servers/s/app.py"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []finding
	}{
		{
			name: "cookie only",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        self.envs.pop(sid, None)
        self._fences.fence(sid, None)
`),
			want: []finding{{at: p + ":20:15", contains: []string{
				"S.close_resources_session finds the session through the session cookie only (request.session[SESSION_ID_KEY])",
				"release the state by body.resources_session_id",
			}, related: []string{p + ":16"}}},
		},
		{
			name: "cookie through .get in a helper",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, request: Request, body):
        self._drop(request)

    def _drop(self, request):
        self.envs.pop(request.session.get("session_id"), None)
`),
			want: []finding{{at: p + ":23:23", contains: []string{"(through S._drop) finds the session through the session cookie only (request.session.get(\"session_id\"))"}}},
		},
		{
			name: "corrected: body id, cookie as a cross-check",
			files: closeServer("", statefulSeed+`
    async def close_resources_session(self, request: Request, body):
        sid = body.resources_session_id
        assert request.session.get(SESSION_ID_KEY) in (None, sid)
        self.envs.pop(sid, None)
`),
		},
		{
			name: "no cookie at all",
			files: closeServer("", `    async def close_resources_session(self, body):
        self.envs.pop(body["id"], None)
`),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFindings(t, runRule(t, runCloseKeyedByCookie, tc.files), tc.want)
		})
	}
}
