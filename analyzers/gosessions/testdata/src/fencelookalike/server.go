// Package fencelookalike has native servers whose close records an id that
// looks like a fence, but not one the seed checks: a later seed of the
// session creates it again, so the close's deletes are reported (GL351).
package fencelookalike

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

func newEnvID(sid string) string { return "env-" + sid }

// Elsewhere records the closed env ids in a map its seed never reads.
type Elsewhere struct {
	mu         sync.Mutex
	envs       map[string]*env
	bySession  map[string]string
	closed     map[string]time.Time
	closedEnvs map[string]time.Time
}

func (s *Elsewhere) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Elsewhere) seed(w http.ResponseWriter, r *http.Request) {
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

func (s *Elsewhere) close(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	envID := s.bySession[req.ResourcesSessionID]
	delete(s.envs, envID)                       // want `deletes the session state s.envs\[envID\] but records no fence for envID`
	delete(s.bySession, req.ResourcesSessionID) // want `deletes the session state s.bySession\[req.ResourcesSessionID\]`
	s.closedEnvs[envID] = time.Now()
}

func (s *Elsewhere) verify(w http.ResponseWriter, r *http.Request) {}

// OtherKey records the env id in the map its seed checks by the session
// id: the seed never finds it.
type OtherKey struct {
	mu        sync.Mutex
	envs      map[string]*env
	bySession map[string]string
	closed    map[string]time.Time
}

func (s *OtherKey) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *OtherKey) seed(w http.ResponseWriter, r *http.Request) {
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

func (s *OtherKey) close(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	envID := s.bySession[req.ResourcesSessionID]
	delete(s.envs, envID)                       // want `deletes the session state s.envs\[envID\] but records no fence for envID`
	delete(s.bySession, req.ResourcesSessionID) // want `deletes the session state s.bySession\[req.ResourcesSessionID\]`
	s.closed[envID] = time.Now()
}

func (s *OtherKey) verify(w http.ResponseWriter, r *http.Request) {}

// Unrefused records the session id in a map its seed reads, but the seed
// creates the session whatever it finds there.
type Unrefused struct {
	mu       sync.Mutex
	sessions map[string]*env
	closed   map[string]time.Time
}

func (s *Unrefused) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Unrefused) seed(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if at, ok := s.closed[req.ResourcesSessionID]; ok {
		_ = json.NewEncoder(w).Encode(map[string]any{"closed_at": at})
	}
	s.sessions[req.ResourcesSessionID] = &env{}
}

func (s *Unrefused) close(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, req.ResourcesSessionID) // want `deletes the session state s.sessions\[req.ResourcesSessionID\]`
	s.closed[req.ResourcesSessionID] = time.Now()
}

func (s *Unrefused) verify(w http.ResponseWriter, r *http.Request) {}
