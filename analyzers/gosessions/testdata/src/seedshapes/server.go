// Package seedshapes is a native server whose seed refuses input in several
// shapes, some with a 5xx. It imports net/http under another name.
package seedshapes

import (
	"encoding/json"
	"errors"
	"io"
	nethttp "net/http"
	"strconv"
	"strings"
	"sync"
)

type seedRequest struct {
	ID    string   `json:"resources_session_id"`
	Tools []string `json:"tools"`
	Count int      `json:"count"`
}

type server struct {
	mu       sync.Mutex
	sessions map[string]int
	fences   map[string]bool
	max      int
}

func (s *server) routes(mux *nethttp.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *server) isFenced(id string) bool { return s.fences[id] }

func (s *server) provision(id string) error {
	if id == "" {
		return errors.New("no capacity")
	}
	return nil
}

func (s *server) seed(w nethttp.ResponseWriter, r *nethttp.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		nethttp.Error(w, err.Error(), nethttp.StatusInternalServerError) // want `cannot decode or validate with 500`
		return
	}
	var req seedRequest
	if err := json.Unmarshal(body, &req); err == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
	} else {
		w.WriteHeader(nethttp.StatusInternalServerError) // want `cannot decode or validate with 500`
		return
	}
	level, err := strconv.Atoi(r.URL.Query().Get("level"))
	if err != nil {
		w.WriteHeader(503) // want `with 503, which the Environment Server retries in vain help: answer 422 \(nethttp.StatusUnprocessableEntity\)`
		return
	}
	switch {
	case strings.TrimSpace(req.ID) == "":
		nethttp.Error(w, "empty id", nethttp.StatusInternalServerError) // want `cannot decode or validate with 500`
		return
	case level < 0 || len(req.Tools) == 0:
		nethttp.Error(w, "bad level or tools", nethttp.StatusInternalServerError) // want `cannot decode or validate with 500`
		return
	}
	if s.isFenced(req.ID) {
		nethttp.Error(w, "closed", nethttp.StatusInternalServerError) // want `a conflicting session with 500, which the Environment Server retries in vain help: answer 409 \(nethttp.StatusConflict\)`
		return
	}
	// Not the input's fault: a retry may succeed, so these stay 5xx.
	if req.Count > s.max {
		nethttp.Error(w, "over the server's limit", nethttp.StatusServiceUnavailable)
		return
	}
	if err := s.provision(req.ID); err != nil {
		nethttp.Error(w, err.Error(), nethttp.StatusServiceUnavailable)
		return
	}
	s.sessions[req.ID] = level
}

func (s *server) close(w nethttp.ResponseWriter, r *nethttp.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, id)
	s.fences[id] = true
}

func (s *server) verify(w nethttp.ResponseWriter, r *nethttp.Request) {}
