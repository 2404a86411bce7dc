// Package funcserver serves the protocol with plain functions and handler
// literals on the default ServeMux, with a package-level map and a map the
// literals capture.
package funcserver

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

var (
	mu       sync.Mutex
	episodes = map[string]int{}
)

type verifyRequest struct {
	EpisodeID string `json:"episode_id"`
}

func readJSON(r *http.Request, v any) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func seed(w http.ResponseWriter, r *http.Request) {
	var req verifyRequest
	if err := readJSON(r, &req); err != nil {
		return
	}
	mu.Lock()
	episodes[req.EpisodeID] = 0 // want `episodes is session state .* in /seed_session by req\.EpisodeID from the request body and used by /verify too, which session routing does not follow help: .*declare MultipleWorkersUnsupportedReason\(\) string as a package-level function`
	mu.Unlock()
}

func verify(w http.ResponseWriter, r *http.Request) {
	var req verifyRequest
	readJSON(r, &req)
	mu.Lock()
	score, ok := episodes[req.EpisodeID]
	mu.Unlock()
	_, _ = score, ok
}

func Main() {
	scores := map[int]float64{}
	http.HandleFunc("/seed_session", seed)
	http.HandleFunc("/verify", verify)
	http.HandleFunc("/close_session", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Group int `json:"group"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		delete(scores, req.Group) // want `scores is session state .* found here in /close_session by req\.Group from the request body and used by /step too`
	})
	http.HandleFunc("/step", func(w http.ResponseWriter, r *http.Request) {
		scores[len(scores)] = 1
	})
	http.ListenAndServe(":8080", nil)
}
