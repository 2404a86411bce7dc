// Package whole has complete servers, by routes and by methods: GL014
// reports nothing.
package whole

import "net/http"

type Server struct{}

func (s *Server) seed(w http.ResponseWriter, r *http.Request)   {}
func (s *Server) close(w http.ResponseWriter, r *http.Request)  {}
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {}

func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	return mux
}

// Methods only.
type Methods struct{}

func (Methods) SeedSession(w http.ResponseWriter, r *http.Request)  {}
func (Methods) CloseSession(w http.ResponseWriter, r *http.Request) {}
func (Methods) Verify(w http.ResponseWriter, r *http.Request)       {}

// A server type with a SeedSession method whose routes are registered:
// complete through the routes.
type Routed struct{}

func (Routed) SeedSession(w http.ResponseWriter, r *http.Request) {}
func (Routed) close(w http.ResponseWriter, r *http.Request)       {}
func (Routed) verify(w http.ResponseWriter, r *http.Request)      {}

func routed(mux *http.ServeMux) {
	var s Routed
	mux.HandleFunc("/seed_session", s.SeedSession)
	mux.HandleFunc("/close_session", s.close)
	mux.HandleFunc("/verify", s.verify)
}
