// Package fences exercises what fences: a close that records an id which
// the seed tests and refuses, whatever the container and however the seed
// looks it up; and what does not.
package fences

import (
	"encoding/json"
	"errors"
	"fencelib"
	"net/http"
)

type request struct {
	ResourcesSessionID string `json:"resources_session_id"`
}

func decode(r *http.Request) request {
	var req request
	_ = json.NewDecoder(r.Body).Decode(&req)
	return req
}

// Direct tests its fences in the seed with a comma-ok lookup.
type Direct struct {
	sessions map[string]int  // want `^state sessions map field session$`
	fences   map[string]bool // want `^state fences map field$`
}

func (s *Direct) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Direct) seed(w http.ResponseWriter, r *http.Request) {
	var req request
	_ = json.NewDecoder(r.Body).Decode(&req)
	if _, ok := s.fences[req.ResourcesSessionID]; ok { // want `^access s.fences lookup /seed_session=session$` `^test fences$`
		http.Error(w, "closed", http.StatusConflict) // want `^refusal fences$`
		return
	}
	s.sessions[req.ResourcesSessionID] = 1 // want `^access s.sessions write /seed_session=session$`
}

func (s *Direct) close(w http.ResponseWriter, r *http.Request) {
	var req request
	_ = json.NewDecoder(r.Body).Decode(&req)
	delete(s.sessions, req.ResourcesSessionID) // want `^access s.sessions delete /close_session=session$`
	s.fences[req.ResourcesSessionID] = true    // want `^access s.fences write /close_session=session$` `^fence fences$`
}

func (s *Direct) verify(w http.ResponseWriter, r *http.Request) {}

// Helper looks its fences up through a function of the package and refuses
// in another one.
type Helper struct {
	sessions map[string]int  // want `^state sessions map field session$`
	closed   map[string]bool // want `^state closed map field$`
}

func (s *Helper) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Helper) wasClosed(id string) bool { // want `^lookup bool closed$`
	return s.closed[id] // want `^access s.closed read /seed_session=unknown$` `^test closed$`
}

func (s *Helper) refuseClosed(w http.ResponseWriter, id string) bool {
	if s.wasClosed(id) {
		w.WriteHeader(http.StatusConflict) // want `^refusal closed$`
		return true
	}
	return false
}

func (s *Helper) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	if s.refuseClosed(w, id) {
		return
	}
	s.sessions[id] = 1 // want `^access s.sessions write /seed_session=unknown$`
}

func (s *Helper) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	delete(s.sessions, id) // want `^access s.sessions delete /close_session=unknown$`
	s.markClosed(id)
}

func (s *Helper) markClosed(id string) {
	s.closed[id] = true // want `^access s.closed write /close_session=unknown$` `^fence closed$`
}

func (s *Helper) verify(w http.ResponseWriter, r *http.Request) {}

// Guarded creates the session only when the id is not fenced.
type Guarded struct {
	sessions map[string]int  // want `^state sessions map field session$`
	fences   map[string]bool // want `^state fences map field$`
}

func (s *Guarded) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Guarded) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	if !s.fences[id] { // want `^access s.fences read /seed_session=unknown$` `^test fences$`
		s.sessions[id] = 1 // want `^access s.sessions write /seed_session=unknown$` `^refusal fences$`
	}
}

func (s *Guarded) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	delete(s.sessions, id) // want `^access s.sessions delete /close_session=unknown$`
	s.fences[id] = true    // want `^access s.fences write /close_session=unknown$` `^fence fences$`
}

func (s *Guarded) verify(w http.ResponseWriter, r *http.Request) {}

// Library fences with a type of another package: Fence records, Contains
// and Check test.
type Library struct {
	sessions map[string]int // want `^state sessions map field session$`
	fences   *fencelib.Set  // want `^state fences value field$`
	closed   fencelib.Set   // want `^state closed value field$`
}

func (s *Library) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Library) seed(w http.ResponseWriter, r *http.Request) {
	req := decode(r)
	if s.fences.Contains(req.ResourcesSessionID) { // want `^access s.fences call.Contains /seed_session=session$` `^test fences$`
		http.Error(w, "closed", http.StatusConflict) // want `^refusal fences$`
		return
	}
	if err := s.closed.Check(req.ResourcesSessionID); err != nil { // want `^access s.closed call.Check /seed_session=session$` `^test closed$`
		http.Error(w, err.Error(), http.StatusConflict) // want `^refusal closed$`
		return
	}
	s.sessions[req.ResourcesSessionID] = 1 // want `^access s.sessions write /seed_session=session$`
}

func (s *Library) close(w http.ResponseWriter, r *http.Request) {
	req := decode(r)
	delete(s.sessions, req.ResourcesSessionID) // want `^access s.sessions delete /close_session=session$`
	s.fences.Fence(req.ResourcesSessionID)     // want `^access s.fences call.Fence /close_session=session$` `^fence fences$`
	s.closed.Fence(req.ResourcesSessionID)     // want `^access s.closed call.Fence /close_session=session$` `^fence closed$`
}

func (s *Library) verify(w http.ResponseWriter, r *http.Request) {}

// Unrefused records the id, and its seed reads it but creates the session
// all the same: no fence.
type Unrefused struct {
	sessions map[string]int  // want `^state sessions map field session$`
	fences   map[string]bool // want `^state fences map field$`
}

func (s *Unrefused) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Unrefused) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	if s.fences[id] { // want `^access s.fences read /seed_session=unknown$`
		_ = json.NewEncoder(w).Encode("closed before")
	}
	s.sessions[id] = 1 // want `^access s.sessions write /seed_session=unknown$`
}

func (s *Unrefused) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	delete(s.sessions, id) // want `^access s.sessions delete /close_session=unknown$`
	s.fences[id] = true    // want `^access s.fences write /close_session=unknown$`
}

func (s *Unrefused) verify(w http.ResponseWriter, r *http.Request) {}

// OtherID records a value read from its state where the seed tests the
// session id: no fence.
type OtherID struct {
	sessions map[string]string // want `^state sessions map field session$`
	fences   map[string]bool   // want `^state fences map field$`
}

func (s *OtherID) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

var errFenced = errors.New("fenced")

func (s *OtherID) seed(w http.ResponseWriter, r *http.Request) {
	req := decode(r)
	if err := s.check(req.ResourcesSessionID); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	s.sessions[req.ResourcesSessionID] = "env" // want `^access s.sessions write /seed_session=session$`
}

func (s *OtherID) check(id string) error {
	if _, ok := s.fences[id]; ok { // want `^access s.fences lookup /seed_session=session$`
		return errFenced
	}
	return nil
}

func (s *OtherID) close(w http.ResponseWriter, r *http.Request) {
	var req request
	_ = json.NewDecoder(r.Body).Decode(&req)
	env := s.sessions[req.ResourcesSessionID]  // want `^access s.sessions read /close_session=session$`
	delete(s.sessions, req.ResourcesSessionID) // want `^access s.sessions delete /close_session=session$`
	s.fences[env] = true                       // want `^access s.fences write /close_session=other$`
}

func (s *OtherID) verify(w http.ResponseWriter, r *http.Request) {}
