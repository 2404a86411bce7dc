//go:build ignore

package sessions

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// frameworkFiles is a small framework package exporting the contract's
// names, for overlays that put the framework inside the repository.
var frameworkFiles = map[string]string{
	"nemo_gym/__init__.py": `from nemo_gym.base_resources_server import ResourcesSessionLostError as ResourcesSessionLostError
SESSION_ID_KEY = "session_id"
`,
	"nemo_gym/server_utils.py": `SESSION_ID_KEY = "session_id"

class SimpleServer:
    pass
`,
	"nemo_gym/base_resources_server.py": `from fastapi import HTTPException
from nemo_gym.server_utils import SimpleServer, SESSION_ID_KEY


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


class ResourcesSessionLocks:
    def locked(self, resources_session_id):
        pass


def lost_session_verification(reason, failure_kind="session_lost"):
    return {}


class BaseResourcesServer:
    pass


class SimpleResourcesServer(BaseResourcesServer, SimpleServer):
    async def seed_session(self, body):
        return None

    async def close_resources_session(self, body):
        return None
`,
}

// header imports what the overlay servers use.
const header = `from fastapi import HTTPException, Request
from nemo_gym.base_resources_server import (
    ResourcesSeedRejectedError,
    ResourcesSessionConflictError,
    ResourcesSessionFences,
    ResourcesSessionLocks,
    SimpleResourcesServer,
)
from nemo_gym.server_utils import SESSION_ID_KEY
`

// build returns a view of an overlay repository; withFramework adds
// frameworkFiles.
func build(t *testing.T, files map[string]string, withFramework bool) *gym.View {
	t.Helper()
	overlay := map[string][]byte{}
	if withFramework {
		for p, c := range frameworkFiles {
			overlay[p] = []byte(c)
		}
	}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

func module(t *testing.T, v *gym.View, p string) *pyscan.Module {
	t.Helper()
	m, err := v.Module(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// server returns the single resources server of the view.
func server(t *testing.T, v *gym.View) gym.Server {
	t.Helper()
	ss := ResourcesServers(v)
	if len(ss) != 1 {
		t.Fatalf("want 1 resources server, got %d", len(ss))
	}
	return ss[0]
}

// finding is an expected diagnostic: "path:line:col", message fragments,
// and related positions as "path:line".
type finding struct {
	at       string
	contains []string
	related  []string
}

// runRule applies one check to an overlay repository (with the framework).
func runRule(t *testing.T, run func(*gym.View) []diag.Diagnostic, files map[string]string) []diag.Diagnostic {
	t.Helper()
	v := build(t, files, true)
	ds := run(v)
	diag.Sort(ds)
	return ds
}

func checkFindings(t *testing.T, ds []diag.Diagnostic, want []finding) {
	t.Helper()
	if len(ds) != len(want) {
		for _, d := range ds {
			t.Logf("got %s:%d:%d %s %s", d.Path, d.Start.Line, d.Start.Col, d.Code, d.Message)
		}
		t.Fatalf("got %d findings, want %d", len(ds), len(want))
	}
	for i, w := range want {
		d := ds[i]
		at := d.Path + ":" + itoa(d.Start.Line) + ":" + itoa(d.Start.Col)
		if at != w.at {
			t.Errorf("finding %d at %s, want %s (%s)", i, at, w.at, d.Message)
		}
		for _, c := range w.contains {
			if !strings.Contains(d.Message, c) {
				t.Errorf("finding %d: message %q lacks %q", i, d.Message, c)
			}
		}
		if w.related != nil {
			var got []string
			for _, r := range d.Related {
				got = append(got, r.Path+":"+itoa(r.Start.Line))
			}
			if strings.Join(got, " ") != strings.Join(w.related, " ") {
				t.Errorf("finding %d: related %v, want %v", i, got, w.related)
			}
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
