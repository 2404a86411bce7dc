//go:build ignore

package sessions

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func TestFramework(t *testing.T) {
	files := map[string]string{
		"resources_servers/a/app.py": `import nemo_gym.base_resources_server as brs
import nemo_gym
from nemo_gym.base_resources_server import ResourcesSessionLostError as Lost, lost_session_verification
from nemo_gym import SESSION_ID_KEY
from nemo_gym.base_resources_server import *
from .helpers import Gone, lsv
from fastapi import HTTPException
import pydantic

Alias = brs.ResourcesSessionFences

def lost_session_verification_local():
    pass
`,
		"resources_servers/a/__init__.py": "",
		"resources_servers/__init__.py":   "",
		"resources_servers/a/helpers.py": `from nemo_gym.base_resources_server import ResourcesSessionLostError as Gone
from nemo_gym import base_resources_server as b
lsv = b.lost_session_verification
`,
	}
	cases := []struct{ dotted, want string }{
		{"Lost", "ResourcesSessionLostError"},
		{"lost_session_verification", "lost_session_verification"},
		{"brs.lost_session_verification", "lost_session_verification"},
		{"brs.ResourcesSessionFences", "ResourcesSessionFences"},
		{"brs.ResourcesSessionFences.fence", "ResourcesSessionFences.fence"},
		{"Alias", "ResourcesSessionFences"},
		{"Alias.fence", "ResourcesSessionFences.fence"},
		{"SESSION_ID_KEY", "SESSION_ID_KEY"},
		{"nemo_gym.ResourcesSessionLostError", "ResourcesSessionLostError"}, // re-exported by the package
		{"Gone", "ResourcesSessionLostError"},                               // through a repository module
		{"lsv", "lost_session_verification"},
		{"ResourcesSessionLocks", "ResourcesSessionLocks"}, // the star import
		{"brs", ""},
		{"nemo_gym", ""},
		{"HTTPException", ""},
		{"pydantic.ValidationError", ""},
		{"ValueError", ""},
		{"lost_session_verification_local", ""},
		{"nothing_bound", ""},
	}
	for _, within := range []bool{true, false} {
		v := build(t, files, within)
		m := module(t, v, "resources_servers/a/app.py")
		for _, c := range cases {
			want := c.want
			if !within && c.dotted == "nothing_bound" {
				// The star import of an installed framework module is
				// assumed to provide any name it is asked for.
				want = "nothing_bound"
			}
			if got := Framework(v, m, c.dotted); got != want {
				t.Errorf("framework in repo %v: Framework(%q) = %q, want %q", within, c.dotted, got, want)
			}
		}
	}
}

func TestAbsolute(t *testing.T) {
	v := build(t, map[string]string{
		"resources_servers/a/app.py": `from fastapi import HTTPException as HE
from pydantic import ValidationError
import pydantic_core
from starlette import exceptions
from util import helper

class Local:
    pass
`,
		"resources_servers/a/util.py": `from fastapi import HTTPException as helper
`,
	}, false)
	m := module(t, v, "resources_servers/a/app.py")
	for dotted, want := range map[string]string{
		"HE":                            "fastapi.HTTPException",
		"ValidationError":               "pydantic.ValidationError",
		"pydantic_core.ValidationError": "pydantic_core.ValidationError",
		"exceptions.HTTPException":      "starlette.exceptions.HTTPException",
		"ValueError":                    "builtins.ValueError",
		"Local":                         "resources_servers.a.app.Local",
		"helper":                        "fastapi.HTTPException",
		"helper.status_code":            "fastapi.HTTPException.status_code",
		"":                              "",
	} {
		if got := Absolute(v, m, dotted); got != want {
			t.Errorf("Absolute(%q) = %q, want %q", dotted, got, want)
		}
	}
}

func TestFrameworkCallee(t *testing.T) {
	files := map[string]string{
		"resources_servers/a/app.py": header + `
from nemo_gym.base_resources_server import lost_session_verification as lsv


class A(SimpleResourcesServer):
    _fences: ResourcesSessionFences[str]

    async def close_resources_session(self, body):
        self._fences.fence(body.resources_session_id, None)
        lsv("x")


if __name__ == "__main__":
    A.run_webserver()
`,
		"resources_servers/b/app.py": `from nemo_gym.base_resources_server import SimpleResourcesServer


class B(SimpleResourcesServer):
    async def close_resources_session(self, body):
        self._fences.fence(body.resources_session_id, None)


if __name__ == "__main__":
    B.run_webserver()
`,
		"resources_servers/c/base.py": `from nemo_gym.base_resources_server import SimpleResourcesServer, ResourcesSessionFences


class Base(SimpleResourcesServer):
    def model_post_init(self, ctx):
        self._fences = ResourcesSessionFences(60)
`,
		"resources_servers/c/app.py": `from base import Base


class C(Base):
    async def close_resources_session(self, body):
        self._fences.fence(body.resources_session_id, None)


if __name__ == "__main__":
    C.run_webserver()
`,
	}
	v := build(t, files, true)
	calls := func(p string) (gym.ClassRef, []*pyscan.Call) {
		m := module(t, v, p)
		c := m.Classes[len(m.Classes)-1]
		return gym.ClassRef{Module: m, Class: c}, c.Method("close_resources_session").Calls
	}
	a, ac := calls("resources_servers/a/app.py")
	if !FrameworkCall(v, a, ac[0], "ResourcesSessionFences.fence") {
		t.Error("A: self._fences.fence is not the framework's fence")
	}
	if !FrameworkCall(v, a, ac[1], "lost_session_verification") {
		t.Error("A: lsv is not lost_session_verification")
	}
	if FrameworkCall(v, a, ac[0], "ResourcesSessionLocks.locked") {
		t.Error("A: fence taken for locked")
	}
	b, bc := calls("resources_servers/b/app.py")
	if FrameworkCall(v, b, bc[0], "ResourcesSessionFences.fence") {
		t.Error("B never refers to ResourcesSessionFences, but its fence call matched")
	}
	c, cc := calls("resources_servers/c/app.py")
	if !FrameworkCall(v, c, cc[0], "ResourcesSessionFences.fence") {
		t.Error("C: the repository ancestor constructs the fences, but the call did not match")
	}
}

func TestIsResourcesServer(t *testing.T) {
	v := build(t, map[string]string{
		"resources_servers/a/app.py": header + `
class A(SimpleResourcesServer):
    pass
`,
		"responses_api_agents/b/app.py": `from nemo_gym.server_utils import SimpleServer

class B(SimpleServer):
    pass
`,
		"nemo_gym/gymnasium.py": `from nemo_gym.base_resources_server import SimpleResourcesServer

class GymnasiumServer(SimpleResourcesServer):
    pass
`,
		"resources_servers/c/app.py": `from nemo_gym.gymnasium import GymnasiumServer

class C(GymnasiumServer):
    pass
`,
	}, true)
	got := map[string]bool{}
	for _, s := range ResourcesServers(v) {
		got[s.Class.Class.Name] = true
	}
	if !got["A"] || got["B"] || !got["C"] || len(got) != 2 {
		t.Errorf("resources servers %v, want A and C", got)
	}
}
