// Package lockflow exercises the lock dataflow: branches, loops, switches,
// function literals and helpers whose callers disagree.
package lockflow

import (
	"net/http"
	"sync"
)

type server struct {
	mu       sync.Mutex
	sessions map[string]int
	fences   map[string]bool
}

func routes(s *server) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /a", s.a)
	mux.HandleFunc("POST /b", s.b)
	mux.HandleFunc("POST /c", s.c)
	return mux
}

func (s *server) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.fences[id] {
		s.sessions[id] = 0
	}
}

func (s *server) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.sessions, id)
		s.fences[id] = true
	}()
}

// bump is called with the lock from a and without it from b.
func (s *server) bump(id string) {
	s.sessions[id]++ // want `s.sessions is written without holding a lock`
}

func (s *server) a(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	if r.Method == "POST" {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	_ = s.sessions[id] // want `s.sessions is read without holding a lock`
	for i := 0; i < 3; i++ {
		s.mu.Lock()
		if s.sessions[id] > 10 {
			s.mu.Unlock()
			continue
		}
		s.bump(id)
		s.mu.Unlock()
	}
	switch r.FormValue("mode") {
	case "x":
		s.mu.Lock()
	default:
		s.mu.Lock()
	}
	for k := range s.sessions {
		_ = k
	}
	func() {
		_ = s.sessions[id]
	}()
	s.mu.Unlock()
	if len(s.sessions) > 0 { // want `s.sessions is read \(len\) without holding a lock`
		return
	}
}

func (s *server) b(w http.ResponseWriter, r *http.Request) {
	s.bump(r.FormValue("id"))
}

func (s *server) c(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	if id == "" {
		s.mu.Unlock()
		panic("no id")
	}
	n := s.sessions[id]
	s.mu.Unlock()
	if n < 0 {
		s.mu.Lock()
	}
	s.sessions[id] = n // want `s.sessions is written without holding a lock`
}

func (s *server) verify(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sessions[r.FormValue("id")]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
	}
}
