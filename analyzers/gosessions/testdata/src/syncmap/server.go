// Package syncmap is a native server that keeps its sessions in a sync.Map,
// which needs no mutex but still owes the contract's answers.
package syncmap

import (
	"encoding/json"
	"net/http"
	"sync"
)

type episode struct{ steps int }

type verifyResponse struct {
	Reward     float64 `json:"reward"`
	MaskSample bool    `json:"mask_sample"`
}

// Server keeps its sessions in a sync.Map.
type Server struct {
	sessions sync.Map // id → *episode
}

// Register adds the routes.
func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /step", s.step)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /close_session", s.close)
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	s.sessions.Store(r.FormValue("id"), &episode{})
}

func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	v, ok := s.sessions.Load(r.FormValue("id"))
	if !ok {
		http.Error(w, "no session", http.StatusInternalServerError) // want `the tool handler answers a session it no longer holds with 500`
		return
	}
	v.(*episode).steps++
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	v, _ := s.sessions.Load(r.FormValue("id"))
	if v == nil {
		_ = json.NewEncoder(w).Encode(verifyResponse{}) // want `a reward that is not masked`
		return
	}
	_ = json.NewEncoder(w).Encode(verifyResponse{Reward: float64(v.(*episode).steps)})
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	s.sessions.Delete(r.FormValue("id")) // want `the close handler deletes the session state s.sessions\[r.FormValue\("id"\)\] but records no fence`
}
