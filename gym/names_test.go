package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// frameworkStub is a small framework package exporting the contract's
// names, for repositories that carry the framework.
var frameworkStub = map[string]string{
	"nemo_gym/__init__.py": "from nemo_gym.base_resources_server import ResourcesSessionLostError as ResourcesSessionLostError\n" +
		"SESSION_ID_KEY = \"session_id\"\n",
	"nemo_gym/server_utils.py": "SESSION_ID_KEY = \"session_id\"\n\nclass SimpleServer:\n    pass\n",
	"nemo_gym/base_resources_server.py": "from fastapi import HTTPException\nfrom nemo_gym.server_utils import SimpleServer, SESSION_ID_KEY\n\n" +
		"class ResourcesSessionLostError(HTTPException):\n    pass\n\n" +
		"class ResourcesSessionFences:\n    def fence(self, resources_session_id, record):\n        pass\n\n" +
		"class ResourcesSessionLocks:\n    def locked(self, resources_session_id):\n        pass\n\n" +
		"def lost_session_verification(reason, failure_kind=\"session_lost\"):\n    return {}\n\n" +
		"class SimpleResourcesServer(SimpleServer):\n    pass\n",
}

func TestFrameworkName(t *testing.T) {
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
		all := map[string]string{}
		for p, c := range files {
			all[p] = c
		}
		if within {
			for p, c := range frameworkStub {
				all[p] = c
			}
		}
		v := build(t, writeRepo(t, all), gym.Options{})
		m := module(t, v, "resources_servers/a/app.py")
		for _, c := range cases {
			want := c.want
			if !within && c.dotted == "nothing_bound" {
				// The star import of an installed framework module is
				// taken to provide any name it is asked for.
				want = "nothing_bound"
			}
			if got := v.FrameworkName(m, c.dotted); got != want {
				t.Errorf("framework in repo %v: FrameworkName(%q) = %q, want %q", within, c.dotted, got, want)
			}
		}
	}
}

func TestQualifiedNames(t *testing.T) {
	v := build(t, writeRepo(t, map[string]string{
		"resources_servers/a/app.py": `from fastapi import HTTPException as HE
from pydantic import ValidationError
import pydantic_core
from starlette import exceptions
from util import helper

class Local:
    pass

def make():
    pass

LIMIT = 3
`,
		"resources_servers/a/util.py": `from fastapi import HTTPException as helper
`,
	}), gym.Options{})
	m := module(t, v, "resources_servers/a/app.py")
	for dotted, want := range map[string]struct {
		kind gym.SymbolKind
		name string
	}{
		"HE":                            {gym.External, "fastapi.HTTPException"},
		"ValidationError":               {gym.External, "pydantic.ValidationError"},
		"pydantic_core.ValidationError": {gym.External, "pydantic_core.ValidationError"},
		"exceptions.HTTPException":      {gym.External, "starlette.exceptions.HTTPException"},
		"ValueError":                    {gym.Builtin, "builtins.ValueError"},
		"Local":                         {gym.RepoClass, "resources_servers.a.app.Local"},
		"Local.method":                  {gym.Member, "resources_servers.a.app.Local.method"},
		"make":                          {gym.RepoFunction, "resources_servers.a.app.make"},
		"LIMIT":                         {gym.RepoValue, "resources_servers.a.app.LIMIT"},
		"helper":                        {gym.External, "fastapi.HTTPException"},
		"helper.status_code":            {gym.External, "fastapi.HTTPException.status_code"},
		"":                              {gym.Unknown, ""},
	} {
		if got := v.Resolve(m, dotted); got.Kind != want.kind || got.Dotted != want.name {
			t.Errorf("Resolve(%q) = kind %v %q, want kind %v %q", dotted, got.Kind, got.Dotted, want.kind, want.name)
		}
	}
}
