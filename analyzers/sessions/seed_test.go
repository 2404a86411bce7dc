//go:build ignore

package sessions

import "testing"

const mainS = `

if __name__ == "__main__":
    S.run_webserver()
`

// seedServer wraps a seed_session body (indented by 8) into server S.
func seedServer(pre, body string) map[string]string {
	return map[string]string{"resources_servers/s/app.py": header + pre + `

class S(SimpleResourcesServer):
    async def seed_session(self, request: Request, body):
` + body + mainS}
}

func TestPlainExceptionInSeed(t *testing.T) {
	const p = "resources_servers/s/app.py"
	// header is 9 lines; with pre == "" the seed's first body line is 14.
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []finding
	}{
		{
			name:  "ValueError",
			files: seedServer("", "        if body.x < 0:\n            raise ValueError(f\"bad {body.x}\")\n        return None"),
			want: []finding{{at: p + ":15:13", contains: []string{
				"S.seed_session raises ValueError for input no retry can fix",
				"HTTP 500", "ResourcesSeedRejectedError(detail) (422)", "ResourcesSessionConflictError(detail) (409)",
			}}},
		},
		{
			name:  "corrected: ResourcesSeedRejectedError",
			files: seedServer("", "        if body.x < 0:\n            raise ResourcesSeedRejectedError(\"bad\")\n        raise ResourcesSessionConflictError(\"taken\")"),
		},
		{
			name:  "retryable exceptions are fine",
			files: seedServer("", "        if body.x:\n            raise RuntimeError(\"no sandbox\")\n        if body.y:\n            raise ConnectionError()\n        if body.z:\n            raise TimeoutError\n        raise OSError(5)"),
		},
		{
			name:  "KeyError by name, TypeError, LookupError, assert",
			files: seedServer("", "        assert body.x\n        if body.a:\n            raise KeyError\n        if body.b:\n            raise TypeError(\"t\")\n        raise LookupError(\"l\")"),
			want: []finding{
				{at: p + ":14:9", contains: []string{"raises AssertionError (an assert statement)"}},
				{at: p + ":16:13", contains: []string{"raises KeyError"}},
				{at: p + ":18:13", contains: []string{"raises TypeError"}},
				{at: p + ":19:9", contains: []string{"raises LookupError"}},
			},
		},
		{
			name: "ValidationError re-raised, bare and by name",
			files: seedServer("from pydantic import ValidationError\nimport pydantic\n",
				"        try:\n            x = Model(**body.task_data)\n        except ValidationError:\n            raise\n        try:\n            y = 1\n        except pydantic.ValidationError as e:\n            logger.warning(e)\n            raise e\n        return None"),
			want: []finding{
				{at: p + ":19:13", contains: []string{"raises the ValidationError it catches (a re-raise)"}, related: []string{p + ":18"}},
				{at: p + ":24:13", contains: []string{"raises the pydantic.ValidationError it catches (a re-raise)"}, related: []string{p + ":22"}},
			},
		},
		{
			name: "ValidationError turned into a rejection is fine; except Exception: raise is fine",
			files: seedServer("from pydantic import ValidationError\n",
				"        try:\n            x = Model(**body.task_data)\n        except ValidationError as e:\n            raise ResourcesSeedRejectedError(str(e)) from e\n        try:\n            await self.start()\n        except Exception:\n            await self.stop()\n            raise\n        return None"),
		},
		{
			name:  "HTTPException 5xx, literal and status constant; 4xx, 502-504 and unknown are fine",
			files: seedServer("from fastapi import status\n", "        if body.a:\n            raise HTTPException(status_code=500, detail=\"x\")\n        if body.b:\n            raise HTTPException(status.HTTP_500_INTERNAL_SERVER_ERROR, \"y\")\n        if body.c:\n            raise HTTPException(status_code=400, detail=\"bad\")\n        if body.d:\n            raise HTTPException(status_code=503, detail=\"busy\")\n        raise HTTPException(status_code=code)"),
			want: []finding{
				{at: p + ":16:13", contains: []string{"raises HTTPException with status 500", "a 5xx, which the environment server retries"}},
				{at: p + ":18:13", contains: []string{"raises HTTPException with status 500"}},
			},
		},
		{
			name:  "a raise caught by a handler in the seed is left to it",
			files: seedServer("", "        try:\n            raise KeyError(\"k\")\n        except LookupError:\n            return None\n        try:\n            raise ValueError(\"v\")\n        except Exception:\n            return None\n        return None"),
		},
		{
			name:  "re-raise of a caught KeyError is reported",
			files: seedServer("", "        try:\n            x = self.tasks[body.i]\n        except (KeyError, IndexError):\n            logger.error(\"no task\")\n            raise\n        return x"),
			want:  []finding{{at: p + ":18:13", contains: []string{"raises the KeyError or IndexError it catches (a re-raise)"}}},
		},
		{
			name: "repository exception classes",
			files: seedServer(`

class BadTask(ValueError):
    pass


class Rejected(HTTPException, ValueError):
    pass


class Nope(RuntimeError):
    pass
`, "        if body.a:\n            raise BadTask(\"a\")\n        if body.b:\n            raise Rejected(422, \"b\")\n        raise Nope()"),
			want: []finding{{at: p + ":27:13", contains: []string{"raises BadTask (a ValueError)"}}},
		},
		{
			name: "a seed_session function outside a server class, and a non-resources server",
			files: map[string]string{
				p: header + `

async def seed_session(request, body):
    raise ValueError("not an override")


class Helper:
    async def seed_session(self, request, body):
        raise ValueError("not a server")


class S(SimpleResourcesServer):
    pass
` + mainS,
				"responses_api_agents/a/app.py": `from nemo_gym.server_utils import SimpleServer


class A(SimpleServer):
    async def seed_session(self, request, body):
        raise ValueError("an agent")


if __name__ == "__main__":
    A.run_webserver()
`,
			},
		},
		{
			name: "inherited seed is reported once, at the override, naming the server",
			files: map[string]string{
				"resources_servers/s/base.py": header + `

class Base(SimpleResourcesServer):
    async def seed_session(self, request, body):
        raise ValueError("bad")
`,
				"resources_servers/s/app.py": `from base import Base


class S(Base):
    pass


class T(Base):
    pass


if __name__ == "__main__":
    S.run_webserver()
`,
				"resources_servers/t/app.py": `from resources_servers.s.base import Base


class T2(Base):
    pass


if __name__ == "__main__":
    T2.run_webserver()
`,
			},
			want: []finding{{at: "resources_servers/s/base.py:14:9", contains: []string{"Base.seed_session raises ValueError"},
				related: []string{"resources_servers/s/app.py:4"}}},
		},
		{
			name:  "framework installed elsewhere with an alias",
			files: seedServer("from nemo_gym.base_resources_server import ResourcesSeedRejectedError as Rejected\n", "        raise Rejected(\"x\")"),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFindings(t, runRule(t, runPlainExceptionInSeed, tc.files), tc.want)
		})
	}
}
