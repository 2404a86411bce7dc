// Package keys exercises the classification of keys: the routed session, a
// body field, an id the server mints, other values, and unknown ones,
// traced through locals and the parameters of what the handlers call.
package keys

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

type seedRequest struct {
	ResourcesSessionID string `json:"resources_session_id"`
	EnvID              string `json:"env_id"`
}

type stepRequest struct {
	ID   string `json:"resources_session_id"` // the tag names the session
	Task string `json:"task"`
	Env  struct {
		Name string `json:"name"`
	} `json:"env"`
}

type Server struct {
	envs  map[string]int // want `^state envs map field session$`
	names map[string]int // want `^state names map field session$`
	toks  map[string]int // want `^state toks map field$`
}

func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /close_session", s.close)
	mux.HandleFunc("POST /verify", s.verify)
	mux.HandleFunc("POST /step", s.step)
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) seed(w http.ResponseWriter, r *http.Request) {
	var req seedRequest
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.envs[req.ResourcesSessionID] = 1 // want `^access s.envs write /seed_session=session$`
	id := req.EnvID
	s.envs[id] = 2                                   // want `^access s.envs write /seed_session=body$`
	s.envs[uuid.NewString()] = 3                     // want `^access s.envs write /seed_session=minted$`
	s.envs[uuid.New().String()] = 4                  // want `^access s.envs write /seed_session=minted$`
	s.envs[newToken()] = 5                           // want `^access s.envs write /seed_session=minted$`
	s.envs[fmt.Sprintf("%s-%s", id, newToken())] = 6 // want `^access s.envs write /seed_session=body$`
	u, _ := uuid.Parse(req.EnvID)
	s.envs[u.String()] = 7       // want `^access s.envs write /seed_session=body$`
	s.envs["default"] = 8        // want `^access s.envs write /seed_session=other$`
	s.envs[r.FormValue("x")] = 9 // want `^access s.envs write /seed_session=unknown$`
	s.put(strings.ToLower(req.EnvID), 1)
	s.put(req.ResourcesSessionID, 2)
}

// put is reached from the seed with a body key and with the session.
func (s *Server) put(key string, v int) {
	s.names[key] = v // want `^access s.names write /seed_session=body /seed_session=session$`
}

func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	var req stepRequest
	_ = json.NewDecoder(r.Body).Decode(&req)
	_ = s.envs[req.ID]             // want `^access s.envs read /step=session$`
	_ = s.envs[req.Task]           // want `^access s.envs read /step=body$`
	_ = s.envs[req.Env.Name]       // want `^access s.envs read /step=body$`
	stored := s.names[req.Task]    // want `^access s.names read /step=body$`
	_ = s.toks[fmt.Sprint(stored)] // want `^access s.toks read /step=other$`
	c, err := r.Cookie("session_id")
	if err == nil {
		_ = s.toks[c.Value] // want `^access s.toks read /step=session$`
	}
	if c, err := r.Cookie("theme"); err == nil {
		_ = s.toks[c.Value] // want `^access s.toks read /step=unknown$`
	}
	sid := r.Header.Get("X-Session")
	_ = s.toks[sid] // want `^access s.toks read /step=session$`
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	sess, _ := body["resources_session_id"].(string)
	env, _ := body["env_id"].(string)
	delete(s.envs, sess)     // want `^access s.envs delete /close_session=session$`
	delete(s.envs, env)      // want `^access s.envs delete /close_session=body$`
	s.toks[sess+"/"+env] = 1 // want `^access s.toks write /close_session=session$`
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	for k := range s.envs { // want `^access s.envs range /verify$`
		_ = k
	}
	_ = len(s.toks) // want `^access s.toks len /verify$`
}
