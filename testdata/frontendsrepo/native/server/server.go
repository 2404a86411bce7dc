// Package server is a native resources server that breaks the session
// contract, for the front-end consistency test (see .gymlint.yaml).
package server

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
	Goal int `json:"goal"`
}

type request struct {
	EnvID string `json:"env_id"`
	Move  int    `json:"move"`
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
		//gymlint:ignore GL353 the step client treats 400 as a lost session
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
	//gymlint:ignore GL354 GL354 is disabled in .gymlint.yaml: not reported unused
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
