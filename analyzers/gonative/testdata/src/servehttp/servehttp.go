// Package servehttp registers one value whose ServeHTTP dispatches every
// protocol route.
package servehttp

import "net/http"

type Dispatcher struct{ envs map[string]int } // want `server type=Dispatcher routes=3`

func (d *Dispatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

func Serve(d *Dispatcher) {
	mux := http.NewServeMux()
	mux.Handle("/seed_session", d)  // want `route /seed_session seed pattern="/seed_session" handler=ServeHTTP`
	mux.Handle("/close_session", d) // want `route /close_session close pattern="/close_session" handler=ServeHTTP`
	mux.Handle("/verify", d)        // want `route /verify verify pattern="/verify" handler=ServeHTTP`
}
