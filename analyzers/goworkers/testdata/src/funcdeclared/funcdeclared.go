// Package funcdeclared is a server of plain functions that keeps a
// package-level map by a body field and declares the package-level
// refusal: no diagnostics.
package funcdeclared

import (
	"encoding/json"
	"net/http"
)

var groups = map[string][]float64{}

// MultipleWorkersUnsupportedReason says why the server needs one worker.
func MultipleWorkersUnsupportedReason() string {
	return "Scores wait in this process's memory for every row of a group, keyed by the group in the request body."
}

func seed(w http.ResponseWriter, r *http.Request) {
	var req struct{ Group string }
	json.NewDecoder(r.Body).Decode(&req)
	groups[req.Group] = nil
}

func verify(w http.ResponseWriter, r *http.Request) {
	var req struct{ Group string }
	json.NewDecoder(r.Body).Decode(&req)
	groups[req.Group] = append(groups[req.Group], 1)
}

func Serve(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", seed)
	mux.HandleFunc("/close_session", seed)
	mux.HandleFunc("/verify", verify)
}
