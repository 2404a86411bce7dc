// Package partial serves parts of the resources protocol: none of it is a
// server, and GL014 says so where the parts are specific to NeMo Gym.
package partial

import (
	"encoding/json"
	"net/http"
)

// Env's handlers serve two of the three paths; the third is registered by
// a caller in another package.
type Env struct{ sessions map[string]int }

func (e *Env) seed(w http.ResponseWriter, r *http.Request)   {}
func (e *Env) verify(w http.ResponseWriter, r *http.Request) {}

func (e *Env) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", e.seed) // want `these routes serve /seed_session and /verify but not /close_session, so gymlint's Go rules do not check them as a resources server help: serve all three on one router in this package`
	mux.HandleFunc("POST /verify", e.verify)
	mux.HandleFunc("POST /step", e.verify)
}

// Plain function handlers on the default router: the position is the
// first protocol path in source order.
func register() {
	http.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {})
	http.HandleFunc("/close_session", func(w http.ResponseWriter, r *http.Request) {}) // want `these routes serve /close_session but not /seed_session or /verify`
}

// A lone /verify is a common path outside NeMo Gym: not reported.
func tokens() {
	mux := http.NewServeMux()
	mux.HandleFunc("/verify", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]bool{"ok": true})
	})
}

// Two routers, one path each that matters.
func split() {
	a, b := http.NewServeMux(), http.NewServeMux()
	a.HandleFunc("/seed_session", func(w http.ResponseWriter, r *http.Request) {}) // want `these routes serve /seed_session but not /close_session or /verify`
	b.HandleFunc("/verify", func(w http.ResponseWriter, r *http.Request) {})
}

// Methods without routes: SeedSession and Verify, no CloseSession.
type Half struct{} // want `type Half has SeedSession and Verify but not CloseSession, so gymlint's Go rules do not check it as a resources server help: give Half all three methods, or serve the three paths`

func (Half) SeedSession(w http.ResponseWriter, r *http.Request) {}
func (Half) Verify(w http.ResponseWriter, r *http.Request)      {}

// CloseSession and Verify without SeedSession are common method names
// (a token store): not reported.
type Store struct{}

func (Store) CloseSession(id string) error { return nil }
func (Store) Verify(token string) bool     { return false }
