package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/goanalysis"
)

// offline keeps every go command of the test from fetching anything.
var offline = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local"}

// buildGymlint builds the gymlint command into a temporary directory.
func buildGymlint(t *testing.T, tags string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gymlint and runs go vet; skipped in -short mode")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "gymlint")
	args := []string{"build", "-o", bin}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gocmd, append(args, ".")...)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs a command in dir, offline, and returns its output and exit
// status.
func run(t *testing.T, dir string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), offline...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return o.String(), e.String(), code
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// vetFindings reads `go vet -json` output (package -> analyzer -> list of
// diagnostics) as sorted "path:line:col: category message" lines, with
// paths relative to dir.
func vetFindings(t *testing.T, dir, out string) []string {
	t.Helper()
	var lines []string
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("go vet -json output: %v\n%s", err, out)
		}
		for _, byAnalyzer := range tree {
			for name, raw := range byAnalyzer {
				var ds []struct {
					Posn     string `json:"posn"`
					Category string `json:"category"`
					Message  string `json:"message"`
				}
				if err := json.Unmarshal(raw, &ds); err != nil {
					t.Fatalf("analyzer %s: %s", name, raw)
				}
				for _, d := range ds {
					posn := strings.TrimPrefix(filepath.ToSlash(d.Posn), filepath.ToSlash(dir)+"/")
					// Under go vet each message starts with its code, for
					// go vet's plain output.
					msg, ok := strings.CutPrefix(d.Message, d.Category+" ")
					if !ok {
						t.Errorf("%s: message %q does not start with its code %s", posn, d.Message, d.Category)
					}
					lines = append(lines, posn+": "+d.Category+" "+msg)
				}
			}
		}
	}
	sort.Strings(lines)
	return lines
}

// gymlintFindings reads `gymlint --format json` output the same way.
func gymlintFindings(t *testing.T, out string) []string {
	t.Helper()
	var ds []struct {
		Path    string `json:"path"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("gymlint --format json: %v\n%s", err, out)
	}
	var lines []string
	for _, d := range ds {
		lines = append(lines, d.Path+":"+itoa(d.Line)+":"+itoa(d.Column)+": "+d.Code+" "+d.Message)
	}
	sort.Strings(lines)
	return lines
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestGoVetProtocol builds gymlint with a test-only analyzer (see
// e2e_analyzer.go) and drives it with go vet: plain, -json, -fix -diff and
// -fix. gymlint's own driver must report the same findings.
func TestGoVetProtocol(t *testing.T) {
	bin := buildGymlint(t, "gymlint_e2etest")
	src := "package srv\n\nfunc badSeed() {}\n\nfunc goodVerify() {}\n"
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/fixture\n\ngo 1.26\n",
		"srv/srv.go": src,
	})

	// The handshake.
	if out, errOut, code := run(t, dir, bin, "-V=full"); code != 0 || !strings.Contains(out, " version ") {
		t.Errorf("-V=full: exit %d, %q %q", code, out, errOut)
	}
	out, _, code := run(t, dir, bin, "-flags")
	var flags []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &flags); code != 0 || err != nil {
		t.Fatalf("-flags: exit %d, %v: %q", code, err, out)
	}
	names := map[string]bool{}
	for _, f := range flags {
		names[f.Name] = true
	}
	if !names["e2ebadname"] || !names["json"] || !names["diff"] {
		t.Errorf("-flags lacks the analyzer's or unitchecker's flags: %q", out)
	}
	// Anything else is gymlint's own command line.
	if out, _, code := run(t, dir, bin, "--version"); code != 0 || !strings.HasPrefix(out, "gymlint ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}

	// go vet prints the finding on stderr and fails.
	_, errOut, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code != 1 || !strings.Contains(errOut, "srv/srv.go:3:6: GL999 function badSeed is badly named") {
		t.Errorf("go vet: exit %d, stderr:\n%s", code, errOut)
	}
	// go vet -json and gymlint --format json agree.
	out, errOut, code = run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	if code != 0 {
		t.Errorf("go vet -json: exit %d\n%s", code, errOut)
	}
	vet := vetFindings(t, dir, errOut+out) // go vet -json writes to stderr
	want := []string{"srv/srv.go:3:6: GL999 function badSeed is badly named"}
	if strings.Join(vet, "\n") != strings.Join(want, "\n") {
		t.Errorf("go vet -json findings = %q, want %q", vet, want)
	}
	out, errOut, code = run(t, dir, bin, "--format", "json", "--quiet", ".")
	if code != 1 {
		t.Errorf("gymlint: exit %d, stderr %q", code, errOut)
	}
	if got := gymlintFindings(t, out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("gymlint findings = %q, want %q (as go vet)", got, want)
	}

	// go vet -fix -diff shows the fix; go vet -fix applies it.
	out, errOut, _ = run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "-diff", "./...")
	if !strings.Contains(out, "-func badSeed() {}") || !strings.Contains(out, "+func goodSeed() {}") {
		t.Errorf("go vet -fix -diff: stdout %q stderr %q", out, errOut)
	}
	if _, errOut, code := run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "./..."); code != 0 {
		t.Errorf("go vet -fix: exit %d\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "srv", "srv.go")); string(b) != strings.Replace(src, "badSeed", "goodSeed", 1) {
		t.Errorf("after go vet -fix:\n%s", b)
	}
	if _, errOut, code := run(t, dir, "go", "vet", "-vettool="+bin, "./..."); code != 0 {
		t.Errorf("go vet after the fix: exit %d\n%s", code, errOut)
	}
}

// brokenServer is a native resources server written with the standard
// library that breaks the contract: per-session state in a map of the
// server, found by a field of the request body, without
// MultipleWorkersUnsupportedReason; a 500 for a seed body it cannot decode;
// a close without a fence; a tool route that answers a missing session with
// 400; a verify that reads the map without the lock and scores a missing
// session without mask_sample.
const brokenServer = `package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

type maze struct{ pos, goal int }

type Server struct {
	mu   sync.Mutex
	next int
	envs map[string]*maze
}

type seedRequest struct {
	Goal int ` + "`json:\"goal\"`" + `
}

type request struct {
	EnvID string ` + "`json:\"env_id\"`" + `
	Move  int    ` + "`json:\"move\"`" + `
}

func New() *Server { return &Server{envs: map[string]*maze{}} }

func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /step", s.step)
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req seedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	s.next++
	id := strconv.Itoa(s.next)
	s.envs[id] = &maze{goal: req.Goal}
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]string{"env_id": id})
}

func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.envs[req.EnvID]
	if !ok {
		http.Error(w, "no such session", http.StatusBadRequest)
		return
	}
	m.pos += req.Move
	json.NewEncoder(w).Encode(map[string]int{"pos": m.pos})
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	delete(s.envs, req.EnvID)
	s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	m, ok := s.envs[req.EnvID]
	if !ok {
		json.NewEncoder(w).Encode(map[string]any{"reward": 0.0})
		return
	}
	reward := 0.0
	if m.pos == m.goal {
		reward = 1.0
	}
	json.NewEncoder(w).Encode(map[string]any{"reward": reward})
}
`

// TestGoVetRegistered runs go vet with the real, registered analyzers on a
// broken native server, and checks that gymlint's own driver reports the
// same findings.
func TestGoVetRegistered(t *testing.T) {
	if len(goanalysis.Analyzers) == 0 {
		t.Skip("goanalysis.Analyzers is empty: no Go analyzer is registered yet (see goanalysis/registry.go)")
	}
	bin := buildGymlint(t, "")
	dir := writeModule(t, map[string]string{
		"go.mod":           "module example.com/native\n\ngo 1.26\n",
		"server/server.go": brokenServer,
	})
	_, errOut, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	t.Logf("go vet -vettool=gymlint ./...: exit %d\n%s", code, errOut)
	if code != 1 || !strings.Contains(errOut, "server/server.go:") {
		t.Errorf("go vet: exit %d, want 1 with findings in server/server.go", code)
	}
	out, errOut, _ := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	vet := vetFindings(t, dir, errOut+out)
	if len(vet) == 0 {
		t.Fatal("go vet -json: no findings")
	}
	for _, f := range vet {
		if !strings.Contains(f, ": GL") {
			t.Errorf("finding without a GL rule code in its category: %s", f)
		}
	}
	out, errOut, code = run(t, dir, bin, "--format", "json", "--quiet", ".")
	if code != 1 {
		t.Errorf("gymlint: exit %d, stderr %q", code, errOut)
	}
	if got := gymlintFindings(t, out); strings.Join(got, "\n") != strings.Join(vet, "\n") {
		t.Errorf("gymlint and go vet disagree:\ngymlint:\n%s\ngo vet:\n%s", strings.Join(got, "\n"), strings.Join(vet, "\n"))
	}
}

// selectServer is a native resources server with one finding of each
// analyzer that can be selected: GL150 (goworkers: session state found by
// the body's env_id, no MultipleWorkersUnsupportedReason), GL350
// (gosessions: a seed that answers 500 to a body it cannot decode); its
// package partial has GL014 (goprotocol: a router that serves
// /seed_session alone), and an unused suppression (GL010, which no
// analyzer owns).
const selectServer = `package server

import (
	"encoding/json"
	"net/http"
	"sync"
)

type Server struct {
	mu   sync.Mutex
	envs map[string]int
}

type request struct {
	EnvID string ` + "`json:\"env_id\"`" + `
}

func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	s.envs[req.EnvID] = 0
	s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	//gymlint:ignore GL351 nothing here reports it
	w.WriteHeader(http.StatusOK)
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	_, ok := s.envs[req.EnvID]
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"reward": 0.0, "mask_sample": !ok})
}
`

const selectPartial = `package partial

import "net/http"

func Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", func(w http.ResponseWriter, r *http.Request) {})
}
`

// TestGoVetSelectsAnalyzers runs go vet with each of the -NAME flags that
// select gymlint's Go analyzers, one given false, and none: each must print
// the findings of the analyzers it selects and no other's; the
// suppressions' own findings go with the first analyzer selected. With
// -json, each finding is filed under the analyzer whose rule it is. (Each
// set of flags is a new go vet run over the standard library, seconds
// each on a cold cache: the cases are few.)
func TestGoVetSelectsAnalyzers(t *testing.T) {
	bin := buildGymlint(t, "")
	dir := writeModule(t, map[string]string{
		"go.mod":             "module example.com/native\n\ngo 1.26\n",
		"server/server.go":   selectServer,
		"partial/partial.go": selectPartial,
	})
	const (
		workers  = "server/server.go:31:2: GL150"
		sessions = "server/server.go:27:30: GL350"
		protocol = "partial/partial.go:6:2: GL014"
		unused   = "server/server.go:37:2: GL010"
	)
	for _, tc := range []struct {
		flags []string
		want  []string // the findings' starts
	}{
		{nil, []string{workers, sessions, protocol, unused}},
		{[]string{"-goworkers"}, []string{workers, unused}},
		{[]string{"-gosessions"}, []string{sessions, unused}},
		{[]string{"-goprotocol"}, []string{protocol, unused}},
		{[]string{"-goworkers=false"}, []string{sessions, protocol, unused}},
	} {
		args := append(append([]string{"vet", "-vettool=" + bin}, tc.flags...), "./...")
		_, errOut, code := run(t, dir, "go", args...)
		var got []string
		for _, line := range strings.Split(errOut, "\n") {
			if i := strings.Index(line, ": GL"); i >= 0 {
				got = append(got, line[:i+len(": GL")+3])
			}
		}
		sort.Strings(got)
		sort.Strings(tc.want)
		if code != 1 || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("go vet %s: exit %d, findings:\n%s\nwant (exit 1):\n%s\nstderr:\n%s",
				strings.Join(tc.flags, " "), code, strings.Join(got, "\n"), strings.Join(tc.want, "\n"), errOut)
		}
	}

	// -json: each finding under its analyzer.
	out, errOut, _ := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	got := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(errOut + out))
	for dec.More() {
		var tree map[string]map[string][]struct {
			Posn     string `json:"posn"`
			Category string `json:"category"`
		}
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("go vet -json: %v\n%s", err, errOut+out)
		}
		for _, analyzers := range tree {
			for a, ds := range analyzers {
				for _, d := range ds {
					posn := strings.TrimPrefix(filepath.ToSlash(d.Posn), filepath.ToSlash(dir)+"/")
					got[a] = append(got[a], posn+": "+d.Category)
				}
			}
		}
	}
	for a := range got {
		sort.Strings(got[a])
	}
	want := map[string][]string{"goworkers": {workers, unused}, "gosessions": {sessions}, "goprotocol": {protocol}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("go vet -json: findings by analyzer %q, want %q", got, want)
	}
}
