// Package factory builds its handlers with methods that return literals
// (the handler-factory style), decodes bodies into maps and through a
// generic helper.
package factory

import (
	"encoding/json"
	"net/http"
	"sync"
)

type Server struct {
	mu sync.Mutex
}

func decodeBody[T any](r *http.Request) (T, error) {
	var v T
	err := json.NewDecoder(r.Body).Decode(&v)
	return v, err
}

type stepBody struct {
	Rollout struct {
		ID string `json:"id"`
	} `json:"rollout"`
}

func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.handleSeed())
	mux.HandleFunc("POST /close_session", s.handleSeed())
	mux.HandleFunc("POST /verify", s.handleVerify())
}

func (s *Server) handleSeed() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		id, _ := body["rollout_id"].(string)
		s.mu.Lock()
		rollouts[id] = true // want `rollouts is session state in process memory, found here in /close_session by id from the request body and used by /seed_session too`
		s.mu.Unlock()
	}
}

var rollouts = map[string]bool{}

func (s *Server) handleVerify() http.HandlerFunc {
	seen := map[string]int{}
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := decodeBody[stepBody](r)
		if err != nil {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		seen[b.Rollout.ID]++ // a map only this route uses: a cache, not reported
	}
}
