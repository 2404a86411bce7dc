// Package reach exercises how handlers are followed into what they call:
// a helper another handler read first, directly and through another,
// recursion, a helper that cannot touch a container, and the depth limit.
package reach

import "net/http"

type Server struct {
	m map[string]int // want `^state m map field session$`
	n map[string]int // want `^state n map field$`
}

func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

// close, read first (handlers are read in path order), calls f and h,
// which both call g.
func (s *Server) close(w http.ResponseWriter, r *http.Request) { // want `^handler /close_session reaches f h g answer$`
	id := r.FormValue("id")
	s.f(id)
	s.h(id)
}

// seed calls h, whose call of g close's reading of f read first.
func (s *Server) seed(w http.ResponseWriter, r *http.Request) { // want `^handler /seed_session reaches h loop d1 g d2 d3 d4$`
	id := r.FormValue("id")
	s.h(id)
	s.loop(id, 3)
	s.d1(id)
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) { // want `^handler /verify reaches$`
}

func (s *Server) f(id string) {
	s.g(id)
	answer()
}

func (s *Server) h(id string) { s.g(id) }

func (s *Server) g(id string) {
	s.m[id] = 1 // want `^access s.m write /close_session=unknown /seed_session=unknown$`
}

// answer touches no container: calls of it are not followed, but it is
// reached.
func answer() string { return "ok" }

func (s *Server) loop(id string, n int) {
	if n > 0 {
		s.loop(id, n-1)
	}
	delete(s.n, id) // want `^access s.n delete /seed_session=unknown$`
}

func (s *Server) d1(id string) { s.d2(id) }
func (s *Server) d2(id string) { s.d3(id) }
func (s *Server) d3(id string) { s.d4(id) }
func (s *Server) d4(id string) { s.d5(id) }
func (s *Server) d5(id string) {
	_ = s.n[id] // want `^access s.n read$`
}
