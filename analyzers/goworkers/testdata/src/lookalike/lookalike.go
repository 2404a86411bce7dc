// Package lookalike has code that looks like GL150 or GL151 but is not:
// no diagnostics.
package lookalike

import (
	"encoding/json"
	"net/http"
	"sync"
)

type envRequest struct {
	EnvID     string `json:"env_id"`
	SessionID string `json:"session_id"`
}

// Registry keys by a body field but is no server (no protocol routes).
type Registry struct{ envs map[string]int }

func (g *Registry) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", g.put)
	mux.HandleFunc("/step", g.get)
}

func (g *Registry) put(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	g.envs[req.EnvID] = 1
}

func (g *Registry) get(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	_ = g.envs[req.EnvID]
}

func (g *Registry) MultipleWorkersUnsupportedReason() string { return "" }

// Sessions keys one map by the session and also by the env id (an index of
// routed state): not reported. Its other state is a local map, a map in a
// request-scoped value, a map read by a constant key, and a per-route
// cache.
type Sessions struct {
	mu     sync.Mutex
	envs   map[string]int
	limits map[string]int
	cache  map[string]string
}

func (s *Sessions) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", s.seed)
	mux.HandleFunc("/close_session", s.close)
	mux.HandleFunc("/verify", s.verify)
}

func (s *Sessions) seed(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.envs[req.SessionID] = 1
	s.envs[req.EnvID] = 1
	local := map[string]int{}
	local[req.EnvID] = 1
	_ = s.limits["default"]
	if _, ok := s.cache[req.EnvID]; !ok {
		s.cache[req.EnvID] = "x"
	}
}

func (s *Sessions) close(w http.ResponseWriter, r *http.Request) {
	cookie, _ := r.Cookie("session")
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.envs, cookie.Value)
	s.limits["default"] = 2
}

func (s *Sessions) verify(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.envs[req.EnvID]
}

// Unregistered has the three paths on its router but keys nothing by the
// body: its maps are keyed by values the server makes itself.
type Unregistered struct {
	counts map[int]int
	n      int
}

func (u *Unregistered) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", u.seed)
	mux.HandleFunc("/close_session", u.seed)
	mux.HandleFunc("/verify", u.verify)
}

func (u *Unregistered) seed(w http.ResponseWriter, r *http.Request) {
	u.n++
	u.counts[u.n] = 1
}

func (u *Unregistered) verify(w http.ResponseWriter, r *http.Request) {
	var req envRequest
	json.NewDecoder(r.Body).Decode(&req)
	_ = u.counts[len(req.EnvID)]
}
