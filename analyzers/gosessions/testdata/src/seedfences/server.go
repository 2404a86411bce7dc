// Package seedfences is a native server whose seed answers 500 in three
// branches that GL350 tells apart by what the close does, not by names:
// a hand-rolled set of closed ids that the close records and the seed
// refuses on (a conflict: 409), the same set's branch for ids never closed
// (no conflict), and a call whose name says fence but that reads nothing
// the close records (a failure a retry may fix).
package seedfences

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

type seedRequest struct {
	ID string `json:"resources_session_id"`
}

type server struct {
	mu       sync.Mutex
	sessions map[string]int
	closed   map[string]time.Time
}

func (s *server) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

// fenceWindow is named like a fence but only reads the clock.
func fenceWindow() time.Duration { return time.Duration(time.Now().Unix()%2) * time.Second }

func (s *server) seed(w http.ResponseWriter, r *http.Request) {
	var req seedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, gone := s.closed[req.ID]; gone {
		http.Error(w, "session closed", http.StatusInternalServerError) // want `a conflicting session with 500, which the Environment Server retries in vain help: answer 409 \(http.StatusConflict\)`
		return
	}
	if _, gone := s.closed[req.ID]; !gone && len(s.sessions) > 1000 {
		http.Error(w, "full", http.StatusInternalServerError)
		return
	}
	if fenceWindow() > time.Second {
		http.Error(w, "try again", http.StatusInternalServerError)
		return
	}
	s.sessions[req.ID] = 0
}

func (s *server) close(w http.ResponseWriter, r *http.Request) {
	var req seedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, req.ID)
	s.closed[req.ID] = time.Now()
}

func (s *server) verify(w http.ResponseWriter, r *http.Request) {}
