// Package fencebysession is a native server whose close releases the
// environment by an env id it looks up from the session, and fences the
// session id, which its seed checks and refuses with 409: the close fences,
// though the key it deletes by is not the key it records. No diagnostic.
package fencebysession

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

type env struct{ steps int }

type sessionRequest struct {
	ResourcesSessionID string `json:"resources_session_id"`
}

// Server keeps environments by env id, and the env id of each session.
type Server struct {
	mu        sync.Mutex
	envs      map[string]*env
	bySession map[string]string
	closed    map[string]time.Time
}

func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func newEnvID(sid string) string { return "env-" + sid }

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.closed[req.ResourcesSessionID]; ok {
		http.Error(w, "session was closed", http.StatusConflict)
		return
	}
	envID := newEnvID(req.ResourcesSessionID)
	s.envs[envID] = &env{}
	s.bySession[req.ResourcesSessionID] = envID
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	envID := s.bySession[req.ResourcesSessionID]
	delete(s.envs, envID)
	delete(s.bySession, req.ResourcesSessionID)
	s.closed[req.ResourcesSessionID] = time.Now()
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.envs[s.bySession[req.ResourcesSessionID]]
	if e == nil {
		_ = json.NewEncoder(w).Encode(map[string]any{"reward": 0.0, "mask_sample": true})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"reward": float64(e.steps)})
}
