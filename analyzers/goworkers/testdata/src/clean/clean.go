// Package clean is a complete native resources server written with the
// standard library. It keeps its sessions by resources_session_id, which
// session routing follows, so it is safe with several workers: no
// diagnostics.
package clean

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

type game struct {
	target int
	moves  int
}

type Server struct {
	mu     sync.Mutex
	games  map[string]*game
	fences map[string]time.Time
}

func New() *Server {
	return &Server{games: map[string]*game{}, fences: map[string]time.Time{}}
}

type seedRequest struct {
	ResourcesSessionID string `json:"resources_session_id"`
	Target             int    `json:"target"`
}

type sessionRequest struct {
	ResourcesSessionID string `json:"resources_session_id"`
}

type guessRequest struct {
	ID    string `json:"resources_session_id"` // the tag names the session
	Guess int    `json:"guess"`
}

func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /guess", s.guess)
	return mux
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req seedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, fenced := s.fences[req.ResourcesSessionID]; fenced {
		http.Error(w, "closed", http.StatusConflict)
		return
	}
	s.games[req.ResourcesSessionID] = &game{target: req.Target}
	json.NewEncoder(w).Encode(map[string]string{"resources_session_id": req.ResourcesSessionID})
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.games, req.ResourcesSessionID)
	s.fences[req.ResourcesSessionID] = time.Now()
}

func (s *Server) guess(w http.ResponseWriter, r *http.Request) {
	var req guessRequest
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[req.ID]
	if !ok {
		http.Error(w, "no session", http.StatusNotFound)
		return
	}
	g.moves++
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	json.NewDecoder(r.Body).Decode(&req)
	sessionID := req.ResourcesSessionID
	s.mu.Lock()
	g := s.games[sessionID]
	s.mu.Unlock()
	if g == nil {
		json.NewEncoder(w).Encode(map[string]any{"reward": 0, "mask_sample": true})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"reward": 1})
}

// Declared is keyed by a body field but declares the refusal: no report.
type Declared struct {
	mu   sync.Mutex
	envs map[string]int
}

func (d *Declared) MultipleWorkersUnsupportedReason() string {
	return "Environments are kept in this process's memory by the env_id in the request body."
}

type envRequest struct {
	EnvID string `json:"env_id"`
}

func (d *Declared) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", d.seed)
	mux.HandleFunc("/close_session", d.seed)
	mux.HandleFunc("/verify", d.verify)
}

func (d *Declared) seed(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	d.envs[req.EnvID] = 1
}

func (d *Declared) verify(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	_ = d.envs[req.EnvID]
}
