// Package bodykey has servers that find process-local state by a field of
// the request body and do not declare the refusal.
package bodykey

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
	EnvID string `json:"env_id"`
	Move  int    `json:"move"`
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
	m := s.envs[req.EnvID] // want `s\.envs is session state in process memory, found here in /step by req\.EnvID from the request body and used by /seed_session too, which session routing does not follow help: .*declare MultipleWorkersUnsupportedReason\(\) string on MazeServer`
	s.mu.Unlock()
	m.pos += req.Move
}

func (s *MazeServer) close(w http.ResponseWriter, r *http.Request) {
	var req stepRequest
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	delete(s.envs, req.EnvID)
	s.mu.Unlock()
}

func (s *MazeServer) verify(w http.ResponseWriter, r *http.Request) {}

// TaskServer reaches its state through a local key, a helper method, a
// nested store and a sync.Map; each map is reported once.
type TaskServer struct {
	store   *store
	results sync.Map
}

type store struct {
	mu    sync.Mutex
	tasks map[string]int
}

type taskRequest struct {
	Task   string `json:"task"`
	Repeat int    `json:"repeat"`
}

func (t *TaskServer) Register(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", t.seed)
	mux.HandleFunc("/close_session", t.close)
	mux.HandleFunc("/verify", t.verify)
}

func (st *store) put(key string, v int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.tasks[key] = v // want `st\.tasks is session state in process memory, found here in /seed_session by key from the request body and used by /verify too`
}

func (st *store) get(key string) int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.tasks[key]
}

func (t *TaskServer) seed(w http.ResponseWriter, r *http.Request) {
	var req taskRequest
	json.NewDecoder(r.Body).Decode(&req)
	key := req.Task + "/" + string(rune(req.Repeat))
	t.store.put(key, 1)
	t.results.Store(req.Task, 0) // want `t\.results is session state in process memory, found here in /seed_session by req\.Task from the request body and used by /verify too`
}

func (t *TaskServer) close(w http.ResponseWriter, r *http.Request) {}

func (t *TaskServer) verify(w http.ResponseWriter, r *http.Request) {
	req := &taskRequest{}
	json.NewDecoder(r.Body).Decode(req)
	_ = t.store.get(req.Task)
	v, _ := t.results.Load(req.Task)
	_ = v
}

// WrongSig has the method with another signature: it does not count.
type WrongSig struct {
	envs map[string]int
}

func (WrongSig) MultipleWorkersUnsupportedReason() *string { return nil }

func (ws *WrongSig) Register(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", ws.seed)
	mux.HandleFunc("/close_session", ws.seed)
	mux.HandleFunc("/verify", ws.verify)
}

func (ws *WrongSig) seed(w http.ResponseWriter, r *http.Request) {
	var req struct{ EnvID string }
	json.NewDecoder(r.Body).Decode(&req)
	ws.envs[req.EnvID] = 1 // want `ws\.envs is session state .* not func\(\) string\)`
}

func (ws *WrongSig) verify(w http.ResponseWriter, r *http.Request) {
	_ = len(ws.envs)
	for range ws.envs {
	}
}
