// Package fenceshapes has native servers whose fences are containers of
// other shapes: records with an expiry, a set, a struct type of the package
// with methods, each checked by the seed through a helper. No diagnostic.
package fenceshapes

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

type sessionRequest struct {
	ResourcesSessionID string `json:"resources_session_id"`
	EpisodeID          string `json:"episode_id"`
}

// closeRecord is what a close leaves: its episode, and when it expires.
type closeRecord struct {
	episodeID string
	expires   time.Time
}

// Expiring fences with records that expire after the close retry window.
type Expiring struct {
	mu       sync.Mutex
	window   time.Duration
	sessions map[string]int
	fences   map[string]closeRecord
}

func (s *Expiring) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

// fenced reports whether id was closed within the window; the caller holds
// s.mu.
func (s *Expiring) fenced(id string) (closeRecord, bool) {
	f, ok := s.fences[id]
	if ok && time.Now().After(f.expires) {
		delete(s.fences, id)
		return closeRecord{}, false
	}
	return f, ok
}

func (s *Expiring) seed(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.fenced(req.ResourcesSessionID); ok && f.episodeID != "" {
		http.Error(w, "closed by episode "+f.episodeID, http.StatusConflict)
		return
	}
	s.sessions[req.ResourcesSessionID] = 0
}

func (s *Expiring) close(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, req.ResourcesSessionID)
	s.fences[req.ResourcesSessionID] = closeRecord{episodeID: req.EpisodeID, expires: time.Now().Add(s.window)}
}

func (s *Expiring) verify(w http.ResponseWriter, r *http.Request) {}

// Set fences with a set of closed ids, in a server known by its methods:
// the seed refuses with an error.
type Set struct {
	mu       sync.Mutex
	sessions map[string]string
	closed   map[string]struct{}
}

var errClosed = errors.New("session was closed")

func (s *Set) isClosed(id string) bool {
	_, ok := s.closed[id]
	return ok
}

func (s *Set) SeedSession(ctx context.Context, id, task string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed(id) {
		return errClosed
	}
	s.sessions[id] = task
	return nil
}

func (s *Set) CloseSession(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, id)
	s.closed[id] = struct{}{}
	return nil
}

func (s *Set) Verify(ctx context.Context, id string) (float64, error) { return 0, nil }

// fenceBook is a fence type of the package: the closed ids, and how long
// they stay closed.
type fenceBook struct {
	until map[string]time.Time
	ttl   time.Duration
}

func (b *fenceBook) add(id string) { b.until[id] = time.Now().Add(b.ttl) }

func (b *fenceBook) has(id string) bool {
	t, ok := b.until[id]
	return ok && time.Now().Before(t)
}

// Book fences with a fenceBook; its seed writes the session only when the
// id is not in it.
type Book struct {
	mu       sync.Mutex
	sessions map[string]int
	book     fenceBook
}

func (s *Book) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
}

func (s *Book) seed(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.has(id) {
		s.sessions[id] = 0
	}
}

func (s *Book) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, id)
	s.book.add(id)
}

func (s *Book) verify(w http.ResponseWriter, r *http.Request) {}
