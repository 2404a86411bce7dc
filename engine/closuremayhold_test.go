package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// A repository whose framework has BaseMultiRewardVerifyResponse (so the
// default contract applies GL314) and none of the session contract's other
// parts (so no other rule reads the entrypoints' imports), with a server
// that imports a helper module that is not there yet.
var mayHoldTree = map[string]string{
	"nemo_gym/__init__.py": "",
	"nemo_gym/base_resources_server.py": `from pydantic import BaseModel


class BaseVerifyResponse(BaseModel):
    reward: float


class BaseMultiRewardVerifyResponse(BaseVerifyResponse):
    reward_components: dict[str, float] = {}


class SimpleResourcesServer(BaseModel):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return None

    async def verify(self, body) -> BaseVerifyResponse: ...
`,
	"resources_servers/calc/configs/calc.yaml": "calc:\n  resources_servers:\n    calc:\n      entrypoint: app.py\n",
	"resources_servers/calc/requirements.txt":  "",
	"resources_servers/calc/app.py": `from nemo_gym.base_resources_server import SimpleResourcesServer

import grading_setup  # noqa: F401  (registers the graders)
from grading import CalcResponse


class CalcServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "keeps sessions in memory"

    async def verify(self, body) -> CalcResponse:
        return CalcResponse(reward=1.0)


if __name__ == "__main__":
    CalcServer.run_webserver()
`,
}

// The modules an entrypoint's imports may reach are looked at from their
// bytes (gym.View.ClosureMayHold) and, when none holds reward_components,
// not parsed; a warm scan still sees a module that appears later where an
// import looks for it, because the search lists the directories it looks
// in as dependencies.
func TestClosureMayHoldKeepsTheCacheRight(t *testing.T) {
	root := writeTree(t, mayHoldTree)
	past(t, root)
	time.Sleep(1100 * time.Millisecond) // past the racy second of the writes
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := sameAsUncached(t, root, cache, "no grading module")
	if strings.Contains(findings(res), "GL314") {
		t.Fatalf("GL314 without a hand-rolled response:\n%s", findings(res))
	}
	// The entrypoint and the framework module, nothing the imports
	// reach.
	if res.Modules > 2 {
		t.Errorf("%d modules parsed, want the entrypoint's and the framework's", res.Modules)
	}

	// A module that only the import statement names appears, with a
	// hand-rolled response: only the listing of its directory, which the
	// search recorded, tells the cache that the closure changed.
	writeFile(t, root, "resources_servers/calc/grading_setup.py", `from nemo_gym.base_resources_server import BaseVerifyResponse


class SetupResponse(BaseVerifyResponse):
    reward_components: dict[str, float] = {}
`)
	res = sameAsUncached(t, root, cache, "grading_setup module created")
	if !strings.Contains(findings(res), "GL314 resources_servers/calc/grading_setup.py") {
		t.Fatalf("no GL314 in the new module:\n%s", findings(res))
	}

	// A module no import can name (no word of the entrypoint's is its
	// name) holds the field: the imports' modules need no parse.
	if err := os.Remove(filepath.Join(root, "resources_servers/calc/grading_setup.py")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "resources_servers/calc/scratch/notes.py", "reward_components = {}\n")
	res = sameAsUncached(t, root, cache, "an unreachable module holds the name")
	if strings.Contains(findings(res), "GL314") {
		t.Fatalf("GL314 with no hand-rolled response reachable:\n%s", findings(res))
	}
}

func findings(res *Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		b.WriteString(d.Code + " " + d.Path + " " + d.Message + "\n")
	}
	return b.String()
}
