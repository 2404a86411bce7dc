// Package litserver is a native server whose handlers are function literals
// that share the maps they capture. Each handler breaks one rule.
package litserver

import (
	"encoding/json"
	"net/http"
	"sync"
)

type seedRequest struct {
	ID     string `json:"resources_session_id"`
	Target int    `json:"target"`
}

// Mux returns the server's routes.
func Mux() *http.ServeMux {
	var mu sync.Mutex
	sessions := map[string]int{} // target by session id
	steps := map[string]int{}    // steps by session id

	mux := http.NewServeMux()
	mux.HandleFunc("POST /seed_session", func(w http.ResponseWriter, r *http.Request) {
		var req seedRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError) // want `the seed handler answers a request it cannot decode or validate with 500`
			return
		}
		if req.Target < 0 || len(req.ID) > 128 {
			w.WriteHeader(599) // want `with 599`
			return
		}
		mu.Lock()
		defer mu.Unlock()
		sessions[req.ID] = req.Target
		steps[req.ID] = 0
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("POST /step", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		if _, ok := sessions[id]; !ok { // want `sessions is read without holding a lock, a data race with the handlers that write it help: guard it with a sync.Mutex`
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		steps[id]++
		mu.Unlock()
	})
	mux.HandleFunc("POST /verify", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		mu.Lock()
		target, ok := sessions[id]
		n := steps[id]
		mu.Unlock()
		if !ok {
			_ = json.NewEncoder(w).Encode(map[string]any{"reward": 0.0, "failure_kind": "session_lost"}) // want `a reward that is not masked.* help: set mask_sample: true`
			return
		}
		reward := 0.0
		if n == target {
			reward = 1
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"reward": reward})
	})
	mux.HandleFunc("POST /close_session", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		mu.Lock()
		delete(sessions, id) // want `the close handler deletes the session state sessions\[id\] but records no fence for id`
		delete(steps, id)    // want `deletes the session state steps\[id\]`
		mu.Unlock()
	})
	return mux
}
