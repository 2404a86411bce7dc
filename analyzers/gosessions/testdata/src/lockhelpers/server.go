// Package lockhelpers is a native server that takes and releases its lock
// through helpers, and uses a channel as a semaphore.
package lockhelpers

import (
	"net/http"
	"sync"
)

type server struct {
	mu       sync.Mutex
	sessions map[string]int
	fences   map[string]bool
	sem      chan struct{}
	queue    map[string]int
}

func newServer() *http.ServeMux {
	s := &server{sessions: map[string]int{}, fences: map[string]bool{}, sem: make(chan struct{}, 1), queue: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /step", s.step)
	mux.HandleFunc("POST /enqueue", s.enqueue)
	return mux
}

// lock takes the lock and returns its release.
func (s *server) lock() func() {
	s.mu.Lock()
	return s.mu.Unlock
}

// acquire takes the lock and returns the session; the caller unlocks.
func (s *server) acquire(id string) (int, bool) {
	s.mu.Lock()
	n, ok := s.sessions[id]
	return n, ok
}

// release unlocks, whatever the caller does next.
func (s *server) release() {
	s.mu.Unlock()
}

func (s *server) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	defer s.lock()()
	if s.fences[id] {
		w.WriteHeader(http.StatusConflict)
		return
	}
	s.sessions[id] = 0
}

func (s *server) step(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	n, ok := s.acquire(id)
	if !ok {
		s.release()
		w.WriteHeader(http.StatusNotFound)
		return
	}
	s.sessions[id] = n + 1
	s.release()
	s.sessions[id]++ // want `s.sessions is written without holding a lock`
}

func (s *server) verify(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	unlock := s.lock()
	_, ok := s.sessions[id]
	unlock()
	if !ok {
		w.WriteHeader(http.StatusOK)
	}
}

func (s *server) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	unlock := s.lock()
	defer unlock()
	delete(s.sessions, id)
	s.fences[id] = true
}

// enqueue serializes through a channel: the analysis cannot judge it.
func (s *server) enqueue(w http.ResponseWriter, r *http.Request) {
	s.sem <- struct{}{}
	s.queue[r.FormValue("id")]++
	<-s.sem
}
