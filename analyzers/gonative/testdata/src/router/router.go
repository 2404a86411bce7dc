// Package router serves the protocol on a router of its own with the
// HandleFunc shape but not net/http's handler type; the handlers are
// methods of a generic type.
package router

type Ctx struct{ Body []byte }

type Router struct{ routes map[string]func(*Ctx) error }

func (r *Router) HandleFunc(path string, h func(*Ctx) error) { r.routes[path] = h }

type Game[T any] struct { // want `server type=Game routes=4`
	r     *Router
	state map[string]T
}

func (g *Game[T]) seed(c *Ctx) error   { return nil }
func (g *Game[T]) close(c *Ctx) error  { return nil }
func (g *Game[T]) verify(c *Ctx) error { return nil }
func (g *Game[T]) move(c *Ctx) error   { return nil }

const prefix = "/"

func (g *Game[T]) routes() {
	g.r.HandleFunc(prefix+"seed_session", g.seed) // want `route /seed_session seed pattern="/seed_session" handler=seed`
	g.r.HandleFunc("/verify", g.verify)           // want `route /verify verify pattern="/verify" handler=verify`
}

func (g *Game[T]) moreRoutes() {
	g.r.HandleFunc("/close_session", g.close) // want `route /close_session close pattern="/close_session" handler=close`
	g.r.HandleFunc("/move", g.move)           // want `route /move tool pattern="/move" handler=move`
}
