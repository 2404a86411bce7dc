// Package locks exercises the mutexes of a server and the maps they guard.
package locks

import (
	"net/http"
	"sync"
)

var (
	mu      sync.Mutex              // want `^lock mu guards journal totals$`
	totals  = map[string]int{}      // want `^state totals map package guard=mu$`
	journal = map[string][]string{} // want `^state journal map package session guard=mu$`
)

// inner has its own lock.
type inner struct {
	sync.RWMutex                // want `^lock RWMutex rw guards cache$`
	cache        map[string]int // want `^state cache map field guard=RWMutex$`
}

// pair has two locks: neither guards its map alone.
type pair struct {
	a, b  sync.Mutex     // want `^lock a$` `^lock b$`
	items map[string]int // want `^state items map field session$`
}

type Server struct {
	mu       sync.Mutex     // want `^lock mu guards sessions$`
	sessions map[string]int // want `^state sessions map field session guard=mu$`
	in       *inner
	p        pair
}

func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()        // want `^acquire mu$`
	s.sessions[id] = 1 // want `^access s.sessions write /seed_session=unknown guard=s.mu$`
	s.mu.Unlock()      // want `^release mu$`
	s.in.RLock()       // want `^acquire-read RWMutex$`
	_ = s.in.cache[id] // want `^access s.in.cache read /seed_session=unknown guard=s.in$`
	s.in.RUnlock()     // want `^release RWMutex$`
	s.p.a.Lock()       // want `^acquire a$`
	s.p.items[id]++    // want `^access s.p.items write /seed_session=unknown$`
	s.p.a.Unlock()     // want `^release a$`
	if mu.TryLock() {  // want `^try mu$`
		journal[id] = append(journal[id], "seed") // want `^access journal write /seed_session=unknown guard=mu$` `^access journal read /seed_session=unknown guard=mu$`
		mu.Unlock()                               // want `^release mu$`
	}
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	var l sync.Locker = &s.mu
	l.Lock()                              // want `^acquire l$`
	delete(s.sessions, r.FormValue("id")) // want `^access s.sessions delete /close_session=unknown guard=s.mu$`
	l.Unlock()                            // want `^release l$`
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	mu.Lock()                     // want `^acquire mu$`
	defer mu.Unlock()             // want `^release mu$`
	_ = totals[r.FormValue("id")] // want `^access totals read /verify=unknown guard=mu$`
}
