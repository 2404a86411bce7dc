// Package quiet is a native server written in shapes that keep the contract
// or that the analyzer cannot judge. It must produce no diagnostic.
package quiet

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

type session struct {
	sandbox string
	reward  float64
}

// closedSet is a set of closed session ids.
type closedSet struct{ ids map[string]time.Time }

func (c *closedSet) add(id string) { c.ids[id] = time.Now() }

type verifyResponse struct {
	Reward        float64 `json:"reward"`
	MaskSample    bool    `json:"mask_sample"`
	FailureReason string  `json:"failure_reason,omitempty"`
}

// budget is a per-step budget; the server holds its defaults, and a request
// builds its own.
type budget struct{ perTool map[string]int }

// Server is embedded-mutex guarded.
type Server struct {
	defaults budget
	sync.Mutex
	sessions   map[string]*session
	limits     map[string]int // filled by New, only read while serving
	closed     closedSet
	fenceMap   sync.Map
	lostStatus int
	cache      map[string]string
}

// New builds the server and its routes.
func New() (*Server, *http.ServeMux) {
	s := &Server{sessions: map[string]*session{}, limits: map[string]int{"steps": 10}, closed: closedSet{ids: map[string]time.Time{}}, lostStatus: http.StatusNotFound, cache: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("/close_session/legacy", s.closeLegacy)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /step", s.serialized(s.step))
	mux.HandleFunc("POST /poke", s.poke)
	mux.HandleFunc("POST /look", s.look)
	mux.HandleFunc("POST /walk", s.walk)
	return s, mux
}

// serialized runs h holding the server's lock.
func (s *Server) serialized(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.Lock()
		defer s.Unlock()
		h(w, r)
	}
}

func (s *Server) withLock(f func()) {
	s.Lock()
	defer s.Unlock()
	f()
}

var errNoSandbox = errors.New("no sandbox available")

func startSandbox(id string) (string, error) {
	if id == "" {
		return "", errNoSandbox
	}
	return "sbx-" + id, nil
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID string `json:"resources_session_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	// Starting a sandbox may succeed on a retry: a 5xx is right.
	sbx, err := startSandbox(req.ID)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	if len(sbx) > s.limits["steps"] {
		http.Error(w, "over capacity", http.StatusInternalServerError)
		return
	}
	s.Lock()
	defer s.Unlock()
	if _, ok := s.closed.ids[req.ID]; ok {
		http.Error(w, "closed", http.StatusConflict)
		return
	}
	if _, ok := s.fenceMap.Load(req.ID); ok {
		http.Error(w, "closed", http.StatusConflict)
		return
	}
	for k := range s.sessions {
		if k == req.ID {
			http.Error(w, "exists", http.StatusConflict)
			return
		}
	}
	s.sessions[req.ID] = &session{sandbox: sbx}
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.Lock()
	delete(s.sessions, id)
	s.closed.add(id)
	delete(s.cache, id) // not session state: the seed never writes it
	s.Unlock()
}

func (s *Server) closeLegacy(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.withLock(func() {
		delete(s.sessions, id)
	})
	s.fenceMap.Store(id, time.Now())
}

// lostVerification is the masked answer for a session the server lost.
func lostVerification(reason string) verifyResponse {
	return verifyResponse{Reward: 0, MaskSample: true, FailureReason: reason}
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	s.Lock()
	sess := s.sessions[id]
	var reward float64
	if sess != nil {
		reward = sess.reward
	}
	s.Unlock()
	resp := verifyResponse{Reward: reward}
	if sess == nil {
		_ = json.NewEncoder(w).Encode(lostVerification("session lost"))
		return
	}
	if reward < 0 {
		resp = verifyResponse{Reward: 0}
		resp.MaskSample = true
	}
	_ = json.NewEncoder(w).Encode(resp)
}

func (s *Server) verifyLater(w http.ResponseWriter, id string) {
	s.Lock()
	_, ok := s.sessions[id]
	s.Unlock()
	if !ok {
		r := verifyResponse{Reward: 0}
		r.MaskSample = true
		_ = json.NewEncoder(w).Encode(r)
	}
}

// step runs under the lock that serialized takes.
func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	sess, ok := s.sessions[id]
	if !ok {
		w.WriteHeader(s.lostStatus)
		return
	}
	sess.reward++
	s.sessions[id] = sess
}

// poke cannot be judged: TryLock.
func (s *Server) poke(w http.ResponseWriter, r *http.Request) {
	if !s.TryLock() {
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	s.sessions[r.FormValue("id")] = &session{}
	s.Unlock()
}

func (s *Server) look(w http.ResponseWriter, r *http.Request) {
	id := r.FormValue("id")
	var sess *session
	s.withLock(func() {
		sess = s.sessions[id]
	})
	if sess == nil {
		http.Error(w, "lost", http.StatusNotFound)
		return
	}
	for i := 0; i < s.limits["steps"]; i++ {
		s.Lock()
		s.sessions[id].reward += 0.1
		s.Unlock()
	}
	s.verifyLater(w, id)
}

func (s *Server) walk(w http.ResponseWriter, r *http.Request) {
	// A budget of the request: a fresh value, not shared state.
	b := budget{perTool: map[string]int{}}
	b.perTool["walk"] = s.defaults.perTool["walk"]
	s.Lock()
	n := len(s.sessions)
	for id, sess := range s.sessions {
		if sess == nil {
			delete(s.sessions, id)
		}
	}
	s.Unlock()
	_ = json.NewEncoder(w).Encode(n)
}
