// Package roots exercises which containers are held beyond a request: the
// fields of the server type and of the structs it holds, package-level
// variables, variables a handler literal captures, locals that alias them,
// and maps passed to helpers; and what code no handler reaches still
// accesses.
package roots

import (
	"encoding/json"
	"net/http"
	"sync"
)

var registry = map[string]int{} // want `^state registry map package session$`

type store struct {
	tasks map[string]int // want `^state tasks map field$`
}

type budget struct{ perTool map[string]int } // want `^state perTool map field$`

type Server struct {
	store    *store
	defaults budget
	results  sync.Map       // want `^state results syncmap field session$`
	counts   map[string]int // want `^state counts map field session$`
}

type request struct {
	ResourcesSessionID string `json:"resources_session_id"`
	Task               string `json:"task"`
}

func (s *Server) Register(mux *http.ServeMux) {
	seen := map[string]bool{} // want `^state seen map captured$`
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", func(w http.ResponseWriter, r *http.Request) {
		id := r.FormValue("id")
		seen[id] = true // want `^access seen write /close_session=unknown$`
		local := map[string]int{}
		local[id] = 1
		func() {
			_ = seen[id] // want `^access seen read /close_session=unknown$`
		}()
	})
	mux.HandleFunc("POST /verify", s.verify)
}

func bump(m map[string]int, k string) {
	m[k]++ // want `^access m write /seed_session=body$`
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req request
	_ = json.NewDecoder(r.Body).Decode(&req)
	registry[req.ResourcesSessionID] = 1 // want `^access registry write /seed_session=session$`
	st := s.store
	_ = st.tasks[req.Task] // want `^access st.tasks read /seed_session=body$`
	bump(s.counts, req.Task)
	s.results.Store(req.ResourcesSessionID, 1) // want `^access s.results call.Store /seed_session=session$`
	fresh := &Server{counts: map[string]int{}}
	fresh.counts["x"] = 1 // a request's own value: no container
	b := budget{perTool: map[string]int{}}
	b.perTool["walk"] = s.defaults.perTool["walk"] // want `^access s.defaults.perTool read /seed_session=other$`
	s.level1()
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	v, ok := s.results.Load(r.FormValue("id")) // want `^access s.results call.Load /verify=unknown$`
	_, _ = v, ok
	s.counts = map[string]int{} // want `^access s.counts replace /verify$`
}

// The handlers are read four calls deep: level5 is reached only without a
// call site.
func (s *Server) level1() { s.level2() }
func (s *Server) level2() { s.level3() }
func (s *Server) level3() { s.level4() }
func (s *Server) level4() { s.level5() }
func (s *Server) level5() {
	s.store.tasks["deep"] = 1 // want `^access s.store.tasks write$`
}

// unused is no handler and no handler calls it.
func (s *Server) unused(id string) {
	delete(s.counts, id) // want `^access s.counts delete$`
}

// Env is known by its methods; its other exported methods are handlers
// too.
type Env struct {
	mu    sync.Mutex        // want `^lock mu guards state$`
	state map[string]string // want `^state state map field session guard=mu$`
}

func (e *Env) SeedSession(id, v string) { e.state[id] = v }          // want `^access e.state write /seed_session=unknown guard=e.mu$`
func (e *Env) CloseSession(id string)   { delete(e.state, id) }      // want `^access e.state delete /close_session=unknown guard=e.mu$`
func (e *Env) Verify(id string) bool    { return e.state[id] != "" } // want `^access e.state read /verify=unknown guard=e.mu$`
func (e *Env) Step(id string) string    { return e.state[id] }       // want `^access e.state read Step\(\)=unknown guard=e.mu$`
