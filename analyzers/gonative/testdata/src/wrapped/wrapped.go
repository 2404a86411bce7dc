// Package wrapped registers handlers through middleware and conversions,
// on a ServeMux held in a field, and fills a missing route from the type's
// Verify method.
package wrapped

import (
	"log"
	"net/http"
)

func logged(name string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { log.Print(name); h(w, r) }
}

type App struct { // want `server type=App routes=5`
	mux *http.ServeMux
}

func (a *App) SeedSession(w http.ResponseWriter, r *http.Request)  {}
func (a *App) CloseSession(w http.ResponseWriter, r *http.Request) {}
func (a *App) Verify(w http.ResponseWriter, r *http.Request)       {} // want `route /verify verify pattern="" handler=Verify`
func (a *App) tool(w http.ResponseWriter, r *http.Request)         {}

func New() *App {
	a := &App{mux: http.NewServeMux()}
	a.mux.Handle("POST /seed_session", logged("seed", a.SeedSession))                        // want `route /seed_session seed pattern="POST /seed_session" handler=SeedSession`
	a.mux.Handle("POST /close_session", http.HandlerFunc(a.CloseSession))                    // want `route /close_session close pattern="POST /close_session" handler=CloseSession`
	a.mux.Handle("POST /tools/{name}", http.StripPrefix("/tools", http.HandlerFunc(a.tool))) // want `route /tools/{name} tool pattern="POST /tools/{name}" handler=tool`
	a.mux.HandleFunc("POST /reset", a.handleReset())                                         // want `route /reset tool pattern="POST /reset" handler=lit`
	return a
}

func (a *App) handleReset() http.HandlerFunc {
	n := 0
	return func(w http.ResponseWriter, r *http.Request) { n++ }
}
