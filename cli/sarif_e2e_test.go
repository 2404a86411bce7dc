package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The SARIF end-to-end test validates gymlint's SARIF with Microsoft's SARIF
// Multitool (npm package @microsoft/sarif-multitool), running both the SARIF
// schema rules and GitHub code scanning's ingestion rules. It skips when the
// Multitool is not installed; .ci/run installs it under /opt/sarif-multitool.

// sarifMultitool returns the Multitool binary: $SARIF_MULTITOOL, or
// node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool under
// $SARIF_MULTITOOL_DIR (default /opt/sarif-multitool).
func sarifMultitool(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SARIF_MULTITOOL"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("SARIF Multitool not installed: SARIF_MULTITOOL=%s: %v", p, err)
		}
		return p
	}
	dir := os.Getenv("SARIF_MULTITOOL_DIR")
	if dir == "" {
		dir = "/opt/sarif-multitool"
	}
	p := filepath.Join(dir, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	fi, err := os.Stat(p)
	if err != nil {
		t.Skipf("SARIF Multitool not installed (no %s); install with: cd %s && npm install @microsoft/sarif-multitool, or set SARIF_MULTITOOL", p, dir)
	}
	if fi.Mode()&0o111 == 0 {
		t.Skipf("SARIF Multitool %s is not executable; chmod u+x it", p)
	}
	return p
}

const e2eRayServer = `import ray

from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


@ray.remote
def work(x):
    return x


class RayUserServer(SimpleResourcesServer):
    async def verify(self, body):
        return ray.get(work.remote(body))


if __name__ == "__main__":
    RayUserServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = RayUserServer.run_webserver()
`

const e2eSeedServer = `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class SeedyServer(SimpleResourcesServer):
    async def seed_session(self, request, body):
        if not body.task_data:
            raise ValueError("empty task data")
        return None

    async def verify(self, body):
        return body


if __name__ == "__main__":
    SeedyServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = SeedyServer.run_webserver()
`

// e2eGoServer is a native stdlib server that finds session state by a field
// of the request body and does not declare MultipleWorkersUnsupportedReason.
const e2eGoServer = "// Package srv is a native server that finds session state by the body.\n" + `package srv

import (
	"encoding/json"
	"net/http"
	"sync"
)

type maze struct{ pos int }

// MazeServer creates an env_id in seed and finds it by the body in step.
type MazeServer struct {
	mu   sync.Mutex
	envs map[string]*maze
}

type stepRequest struct {
	EnvID string ` + "`json:\"env_id\"`" + `
	Move  int    ` + "`json:\"move\"`" + `
}

func newID() string { return "x" }

func (s *MazeServer) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /step", s.step)
}

func (s *MazeServer) seed(w http.ResponseWriter, r *http.Request) {
	id := newID()
	s.mu.Lock()
	s.envs[id] = &maze{}
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]string{"env_id": id})
}

func (s *MazeServer) step(w http.ResponseWriter, r *http.Request) {
	var req stepRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return
	}
	s.mu.Lock()
	m := s.envs[req.EnvID]
	s.mu.Unlock()
	m.pos += req.Move
}

func (s *MazeServer) verify(w http.ResponseWriter, r *http.Request) {}

func (s *MazeServer) close(w http.ResponseWriter, r *http.Request) {
	var req stepRequest
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	delete(s.envs, req.EnvID)
	s.mu.Unlock()
}
`

// TestSARIFMultitool runs gymlint --format sarif on a repository with
// findings of every analyzer family, from Python, YAML and Go files, and
// validates the log with the SARIF Multitool's SARIF and GitHub rules.
func TestSARIFMultitool(t *testing.T) {
	tool := sarifMultitool(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command: the Go part of the fixture needs go list")
	}
	oldEnv := goEnv
	goEnv = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local"}
	t.Cleanup(func() { goEnv = oldEnv })

	root := writeTree(t, map[string]string{
		// GL101: a server without a module-level app.
		"resources_servers/plain/app.py": plainServer,
		// GL005: a config naming a missing entrypoint.
		"resources_servers/plain/configs/plain.yaml": "plain:\n  resources_servers:\n    plain:\n      entrypoint: missing.py\n",
		// GL201: a Ray user that does not declare ray_enabled.
		"resources_servers/rayuser/app.py": e2eRayServer,
		// GL301: a seed_session raising ValueError.
		"resources_servers/seedy/app.py": e2eSeedServer,
		// GL150: a native Go server with a body-keyed map.
		"native/go.mod":     "module example.com/native\n\ngo 1.22\n",
		"native/srv/srv.go": e2eGoServer,
	})
	out, errOut, code := run(t, "--format", "sarif", root)
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	sarifPath := filepath.Join(t.TempDir(), "gymlint.sarif")
	if err := os.WriteFile(sarifPath, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}

	// What the log holds: the findings of every family, from each language.
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("gymlint's SARIF does not parse: %v", err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	codes := map[string]bool{}
	exts := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		codes[r.RuleID] = true
		for _, l := range r.Locations {
			exts[filepath.Ext(l.PhysicalLocation.ArtifactLocation.URI)] = true
		}
	}
	for _, c := range []string{"GL101", "GL201", "GL301", "GL005", "GL150"} {
		if !codes[c] {
			t.Errorf("no %s result in the SARIF (results: %v)", c, codes)
		}
	}
	for _, e := range []string{".py", ".yaml", ".go"} {
		if !exts[e] {
			t.Errorf("no result in a %s file (extensions: %v)", e, exts)
		}
	}

	// The Multitool's verdict. Arguments go to the binary directly: the npm
	// wrapper passes them through a shell, which splits "Gh;Sarif".
	valPath := filepath.Join(t.TempDir(), "validation.sarif")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, "validate", sarifPath, "--rule-kind", "Gh;Sarif", "--output", valPath)
	// Lets the .NET binary start on a machine without libicu.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	tout, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("running %s: %v\n%s", tool, err, tout)
	}
	data, rerr := os.ReadFile(valPath)
	if rerr != nil {
		t.Fatalf("the Multitool wrote no validation log (%v; exit %v):\n%s", rerr, err, tout)
	}
	var val struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &val); err != nil {
		t.Fatalf("the validation log does not parse: %v\n%s", err, data)
	}
	if len(val.Runs) == 0 {
		t.Fatalf("the validation log has no run:\n%s", data)
	}
	for _, run := range val.Runs {
		for _, inv := range run.Invocations {
			for _, n := range inv.ToolExecutionNotifications {
				if n.Level == "error" {
					t.Errorf("Multitool execution error: %s", n.Message.Text)
				}
			}
		}
		for _, r := range run.Results {
			// A result without a level is a warning (SARIF §3.27.10).
			if r.Level == "error" {
				t.Errorf("%s (error): %s", r.RuleID, r.Message.Text)
			} else {
				t.Logf("%s (%s): %s", r.RuleID, r.Level, r.Message.Text)
			}
		}
	}
	if err != nil && !t.Failed() {
		t.Errorf("the Multitool exited with %v and no error result:\n%s", err, tout)
	}
	if t.Failed() {
		t.Logf("Multitool output:\n%s\nSARIF:\n%s", strings.TrimSpace(string(tout)), out)
	}
}
