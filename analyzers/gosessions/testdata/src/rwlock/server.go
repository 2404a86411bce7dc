// Package rwlock is a native server that guards its sessions with a
// sync.RWMutex and looks them up through a helper.
package rwlock

import (
	"encoding/json"
	"net/http"
	"sync"
)

type session struct{ score float64 }

type server struct {
	mu       sync.RWMutex
	sessions map[string]*session
	fences   map[string]bool
}

type verifyResponse struct {
	Reward     float64 `json:"reward"`
	MaskSample bool    `json:"mask_sample"`
}

func newServer() *server {
	s := &server{sessions: map[string]*session{}, fences: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /score", s.score)
	mux.HandleFunc("POST /peek", s.peek)
	mux.HandleFunc("POST /poke", s.poke)
	return s
}

// get looks a session up; the caller holds s.mu.
func (s *server) get(id string) (*session, bool) {
	sess, ok := s.sessions[id]
	return sess, ok
}

func (s *server) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fences[id] {
		w.WriteHeader(http.StatusConflict)
		return
	}
	s.sessions[id] = &session{}
}

func (s *server) score(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.RLock()
	defer s.mu.RUnlock()
	sess, ok := s.get(id)
	switch {
	case !ok:
		w.WriteHeader(http.StatusGone) // want `the tool handler answers a session it no longer holds with 410, not 404 help: answer 404 \(http.StatusNotFound\), which ends the episode and masks its verify`
		return
	}
	sess.score++
	s.sessions[id] = sess // want `s.sessions is written while only a read lock is held`
}

func (s *server) peek(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.RLock()
	sess, ok := s.get(id)
	s.mu.RUnlock()
	if ok {
		_ = json.NewEncoder(w).Encode(sess.score)
		return
	}
	http.Error(w, "no session", http.StatusBadRequest) // want `with 400`
}

func (s *server) poke(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.RLock()
	_, ok := s.sessions[id]
	s.mu.RUnlock()
	if id == "" {
		http.Error(w, "no id", http.StatusBadRequest)
	} else if !ok {
		http.Error(w, "gone", http.StatusConflict) // want `with 409`
	}
}

func (s *server) verify(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.RLock()
	sess, ok := s.get(id)
	s.mu.RUnlock()
	if ok {
		_ = json.NewEncoder(w).Encode(verifyResponse{Reward: sess.score})
	} else {
		_ = json.NewEncoder(w).Encode(verifyResponse{Reward: 0, MaskSample: false}) // want `a reward that is not masked, which trains on it as a real score help: set mask_sample: true`
	}
}

func (s *server) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	delete(s.sessions, id)
	s.fences[id] = true
	s.mu.Unlock()
}
