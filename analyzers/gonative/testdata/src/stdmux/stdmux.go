// Package stdmux is a server on a net/http ServeMux with Go 1.22 patterns
// and method-value handlers.
package stdmux

import (
	"encoding/json"
	"net/http"
	"sync"
)

type Server struct { // want `server type=Server routes=5`
	mu    sync.Mutex
	games map[string]int
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request)   {}
func (s *Server) close(w http.ResponseWriter, r *http.Request)  {}
func (s *Server) verify(w http.ResponseWriter, r *http.Request) { json.NewEncoder(w).Encode(1) }
func (s *Server) step(w http.ResponseWriter, r *http.Request)   {}

func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)                                   // want `route /seed_session seed pattern="POST /seed_session" handler=seed`
	mux.HandleFunc("POST /close_session", s.close)                                 // want `route /close_session close pattern="POST /close_session" handler=close`
	mux.HandleFunc("POST /verify", s.verify)                                       // want `route /verify verify pattern="POST /verify" handler=verify`
	mux.HandleFunc("GET /verify", s.verify)                                        // a second registration of the same path: the first wins
	mux.HandleFunc("POST /step", s.step)                                           // want `route /step tool pattern="POST /step" handler=step`
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {}) // want `route /health other pattern="GET /health" handler=lit`
	return mux
}
