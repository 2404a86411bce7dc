//go:build ignore

package sessions

import "testing"

func TestUnserializedSeedClose(t *testing.T) {
	runCases(t, runUnserializedSeedClose, "GL310", []ruleCase{
		{
			name: "a seed that checks, awaits, then stores; a close that reads, awaits, then deletes",
			files: app("", `    async def seed_session(self, body):
        sid = body.resources_session_id
        if sid in self.sandboxes:  # <- read
            return None
        sandbox = await self.provider.create(body.task_data)  # <- a
        self.sandboxes[sid] = sandbox  # <- write
        return None

    async def close_resources_session(self, body):
        sandbox = self.sandboxes.get(body.resources_session_id)  # <- read2
        if sandbox is not None:
            await sandbox.close()  # <- b
        del self.sandboxes[body.resources_session_id]  # <- write2
        return None
`),
			want: []marked{
				{marker: "# <- a", col: "await", contains: []string{
					"S.seed_session reads sid in self.sandboxes (line ", "), awaits here, then writes self.sandboxes[sid] (line ", ") without holding the session's lock",
					"hold `async with self._session_locks.locked(sid):` (a ResourcesSessionLocks)",
				}, related: []string{"# <- read", "# <- write"}},
				{marker: "# <- b", col: "await", contains: []string{
					"S.close_resources_session reads self.sandboxes.get(body.resources_session_id)", "then writes del self.sandboxes[body.resources_session_id]",
				}, related: []string{"# <- read2", "# <- write2", "# <- write"}},
			},
		},
		{
			name: "the await in the stored value, a pop that takes the record, the fence, inherited",
			files: map[string]string{
				"resources_servers/s/base.py": header + `

class Base(SimpleResourcesServer):
    _locks: ResourcesSessionLocks = ResourcesSessionLocks()
    _fences: ResourcesSessionFences = None

    async def seed_session(self, request: Request, body):
        session_id = request.session[SESSION_ID_KEY]
        previous = self.games.pop(session_id, None)  # <- read
        if previous is not None:
            await previous.stop()  # <- a
        self.games[session_id] = await self.start(body)  # <- write

    async def close_resources_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)  # <- read2
        self.games[body.resources_session_id] = await self.final(body)  # <- b
`,
				appPath: `from resources_servers.s.base import Base


class S(Base):  # <- server
    pass
` + mainS,
			},
			want: []marked{
				{path: "resources_servers/s/base.py", marker: "# <- a", col: "await", contains: []string{
					"Base.seed_session reads self.games.pop(session_id)", "hold `async with self._locks.locked(session_id):`",
				}, related: []string{"resources_servers/s/base.py@# <- read", "resources_servers/s/base.py@# <- write", "resources_servers/s/base.py@# <- b", appPath + "@# <- server"}},
				{path: "resources_servers/s/base.py", marker: "# <- b", col: "await", contains: []string{
					"reads the fence, self._fences.raise_if_fenced(body.resources_session_id)",
				}},
			},
		},
		{
			name: "corrected: under ResourcesSessionLocks.locked, and under another lock",
			files: app("import asyncio\n", `    _locks: ResourcesSessionLocks = ResourcesSessionLocks()
    _lock = asyncio.Lock()

    async def seed_session(self, body):
        sid = body.resources_session_id
        async with self._locks.locked(sid):
            if sid in self.sandboxes:
                return None
            self.sandboxes[sid] = await self.provider.create(body.task_data)
        return None

    async def close_resources_session(self, body):
        async with self._lock:
            sandbox = self.sandboxes.get(body.resources_session_id)
            await sandbox.close()
            del self.sandboxes[body.resources_session_id]
`),
		},
		{
			name: "the close shape that takes the record first; await before the read",
			files: app("", `    async def seed_session(self, body):
        sid = body.resources_session_id
        sandbox = await self.provider.create(body.task_data)
        if sid in self.sandboxes:
            return None
        self.sandboxes[sid] = sandbox

    async def close_resources_session(self, body):
        sandbox = self.sandboxes.pop(body.resources_session_id, None)
        if sandbox is not None:
            await sandbox.close()
        self.fences.fence(body.resources_session_id, body.episode_id)
`),
		},
		{
			name: "a read and a write of different records",
			files: app("", `    async def seed_session(self, body):
        template = self.sandboxes.get(body.task_id)
        copy = await template.clone()
        self.sandboxes[body.resources_session_id] = copy
`),
		},
		{
			name: "the cookie id and body.resources_session_id are the same session",
			files: app("", `    async def seed_session(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid in self.sandboxes:  # <- read
            return None
        sandbox = await self.provider.create(body.task_data)  # <- a
        self.sandboxes[body.resources_session_id] = sandbox  # <- write
`),
			want: []marked{{marker: "# <- a", col: "await", related: []string{"# <- read", "# <- write"}}},
		},
	})
}
