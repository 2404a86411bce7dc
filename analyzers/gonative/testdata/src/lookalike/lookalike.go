// Package lookalike has calls and types that look like a server but are
// not one: no diagnostics.
package lookalike

import (
	"net/http"
	"strings"
)

// Only two of the three protocol paths.
func partial() {
	mux := http.NewServeMux()
	mux.HandleFunc("/seed_session", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/verify", func(w http.ResponseWriter, r *http.Request) {})
}

// Three paths on three different routers with function handlers: three
// partial groups, none a server.
func split() {
	a, b, c := http.NewServeMux(), http.NewServeMux(), http.NewServeMux()
	a.HandleFunc("/seed_session", func(w http.ResponseWriter, r *http.Request) {})
	b.HandleFunc("/close_session", func(w http.ResponseWriter, r *http.Request) {})
	c.HandleFunc("/verify", func(w http.ResponseWriter, r *http.Request) {})
}

type registry struct{}

func (registry) Handle(name string, v int)            {}
func (registry) HandleFunc(name, other string)        {}
func (registry) Register(path string, h http.Handler) {}

func notHandlers(path string) {
	var reg registry
	reg.Handle("/seed_session", 1)                  // second argument is no handler
	reg.HandleFunc("/close_session", "x")           // second argument is no handler
	reg.Register("/verify", http.NotFoundHandler()) // not Handle/HandleFunc
	mux := http.NewServeMux()
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {})           // not a constant
	mux.HandleFunc("seed_session", func(w http.ResponseWriter, r *http.Request) {}) // no "/"
	mux.HandleFunc("/close_session", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/verify", func(w http.ResponseWriter, r *http.Request) {})
	_ = strings.ToUpper("/seed_session")
}

// Methods with other names.
type Client struct{}

func (Client) Seed()             {}
func (Client) CloseSessions()    {}
func (Client) Verify()           {}
func (Client) SeedSessionAsync() {}
