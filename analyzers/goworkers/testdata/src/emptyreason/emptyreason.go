// Package emptyreason has servers whose refusal method returns "" always
// (reported), and ones whose method refuses on some path (not reported).
package emptyreason

import "net/http"

type base struct{ mux *http.ServeMux }

func (b *base) seed(w http.ResponseWriter, r *http.Request)   {}
func (b *base) close(w http.ResponseWriter, r *http.Request)  {}
func (b *base) verify(w http.ResponseWriter, r *http.Request) {}

// Empty returns "" literally.
type Empty struct{ envs map[string]int }

func (e *Empty) seed(w http.ResponseWriter, r *http.Request)   {}
func (e *Empty) close(w http.ResponseWriter, r *http.Request)  {}
func (e *Empty) verify(w http.ResponseWriter, r *http.Request) {}

func (e *Empty) MultipleWorkersUnsupportedReason() string { // want `MultipleWorkersUnsupportedReason of Empty returns "" on every path, so it refuses nothing help: return the reason Empty cannot run with several workers, or delete the method if it can`
	return ""
}

func (e *Empty) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", e.seed)
	mux.HandleFunc("/close_session", e.close)
	mux.HandleFunc("/verify", e.verify)
}

const noReason = ""

// Const returns a constant "" on both paths, and a bare named result.
type Const struct{ debug bool }

func (c Const) seed(w http.ResponseWriter, r *http.Request)   {}
func (c Const) close(w http.ResponseWriter, r *http.Request)  {}
func (c Const) verify(w http.ResponseWriter, r *http.Request) {}

func (c Const) MultipleWorkersUnsupportedReason() (reason string) { // want `MultipleWorkersUnsupportedReason of Const returns ""`
	if c.debug {
		return noReason
	}
	defer func() { _ = "not a return of the method" }()
	return
}

func (c Const) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", c.seed)
	mux.HandleFunc("/close_session", c.close)
	mux.HandleFunc("/verify", c.verify)
}

// Conditional refuses with prometheus metrics: not reported.
type Conditional struct{ metrics string }

func (c *Conditional) seed(w http.ResponseWriter, r *http.Request)   {}
func (c *Conditional) close(w http.ResponseWriter, r *http.Request)  {}
func (c *Conditional) verify(w http.ResponseWriter, r *http.Request) {}

func (c *Conditional) MultipleWorkersUnsupportedReason() string {
	if c.metrics == "prometheus" {
		return "The metrics window starts from a snapshot in this process's memory."
	}
	return ""
}

func (c *Conditional) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", c.seed)
	mux.HandleFunc("/close_session", c.close)
	mux.HandleFunc("/verify", c.verify)
}

// Computed returns a variable, a named result it assigns, or panics: not
// reported.
type Computed struct{ reason string }

func (c *Computed) seed(w http.ResponseWriter, r *http.Request)   {}
func (c *Computed) close(w http.ResponseWriter, r *http.Request)  {}
func (c *Computed) verify(w http.ResponseWriter, r *http.Request) {}

func (c *Computed) MultipleWorkersUnsupportedReason() (reason string) {
	reason = c.reason
	return
}

func (c *Computed) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/seed_session", c.seed)
	mux.HandleFunc("/close_session", c.close)
	mux.HandleFunc("/verify", c.verify)
}

// NotAServer has an empty method but serves nothing: not reported.
type NotAServer struct{}

func (NotAServer) MultipleWorkersUnsupportedReason() string { return "" }
