// Package funcs registers plain functions and literals on the default
// ServeMux: the server has no type.
package funcs

import "net/http"

var envs = map[string]int{}

func seed(w http.ResponseWriter, r *http.Request) {}

func main() {
	closeFn := func(w http.ResponseWriter, r *http.Request) { delete(envs, "x") }
	http.HandleFunc("/seed_session", seed)                                                    // want `server type=<nil> routes=4` `route /seed_session seed pattern="/seed_session" handler=seed`
	http.HandleFunc("/close_session", closeFn)                                                // want `route /close_session close pattern="/close_session" handler=lit`
	http.Handle("/verify", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})) // want `route /verify verify pattern="/verify" handler=lit`
	http.Handle("/step", stepper{})                                                           // want `route /step tool pattern="/step" handler=ServeHTTP`
	http.ListenAndServe(":8080", nil)
}

type stepper struct{}

func (stepper) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
