package gosessions

import (
	"fmt"
	"go/ast"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
)

// CloseWithoutFence is rule GL351.
var CloseWithoutFence = &diag.Rule{
	Code: "GL351", Name: "go-close-without-fence", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go close handler deletes session state without recording a fence against a later seed of the same id.",
	Doc: `## What it does
Reports ` + "`delete(m, id)`" + ` of a session map (a shared map that the seed handler writes, see the package
documentation), or ` + "`m.Delete(id)`" + ` / ` + "`m.LoadAndDelete(id)`" + ` of a shared ` + "`sync.Map`" + ` that the seed stores
into, in a native Go server's ` + "`/close_session`" + ` handler, or in a function of the package it
calls, when the close leaves no fence for the session. The close and the seed are read together with
the functions of the package they call (four calls deep) and the function literals in them.

A **fence** is judged by what it does, not by its name: the close records the id in a container that
the seed then tests and refuses on, whatever the container is (a map of closed ids, a set
` + "`map[string]struct{}`" + `, a map of records with an expiry, a ` + "`sync.Map`" + `, a value of another package's type):

- the close **records** the id: ` + "`s.closed[id] = expiry`" + `, ` + "`s.closed.Store(id, now)`" + `, a method of the
  package that does so (` + "`s.markClosed(id)`" + `), or a method of another package's type that takes the id and
  does not return a ` + "`bool`" + ` (` + "`s.fences.Fence(id, ep)`" + `);
- the seed **tests** the same container by a key of the same kind: both the session
  (` + "`req.ResourcesSessionID`" + `, a field or JSON tag naming the session, the session cookie), both another
  field of the body, both a value read from state, or a key whose origin is not known (a query
  parameter) on either side. A close that deletes the state by one key (` + "`s.envs[envID]`" + `, where
  ` + "`envID := s.bySession[id]`" + `) and records the session id that the seed tests does fence;
- the seed **refuses** a recorded id: the branch taken when the id is in the container answers a status
  from 400 to 599 (409) or returns a non-nil error, or the seed writes the session only when the id is
  not in the container. The test may be made through a function of the package (` + "`s.isFenced(id)`" + `,
  ` + "`f, ok := s.fenceLocked(id)`" + `).

A write into the map the delete removes the session from is not a fence. Deletes from maps the seed does
not write (the fences themselves, caches) are not session state.

## Why it matters
A seed can arrive after the close: a retry of a seed whose reply was lost, or a reply that raced the
close. Without a fence the server creates the session again, and nothing will ever close it.
NeMo Gym's contract keeps a seed that arrives after the close from creating the session again for
the close retry window.

## Example
` + "```go" + `
func (s *Server) closeSession(w http.ResponseWriter, r *http.Request) {
	...
	s.mu.Lock()
	delete(s.sessions, req.ResourcesSessionID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, CloseResponse{ResourcesSessionID: req.ResourcesSessionID})
}
` + "```" + `

## How to fix
Record the closed id for the close retry window, and refuse a seed of a fenced id with 409:
` + "```go" + `
	s.mu.Lock()
	delete(s.sessions, id)
	s.fences[id] = time.Now().Add(s.closeRetryWindow)
	s.mu.Unlock()
` + "```" + `
and in the seed, under the same lock:
` + "```go" + `
	if until, ok := s.fences[id]; ok && time.Now().Before(until) {
		http.Error(w, "session was closed", http.StatusConflict)
		return
	}
` + "```",
}

func (c *checker) checkCloses() {
	for _, h := range c.handlersOf(gonative.RouteClose) {
		srv := h.Server
		for _, a := range srv.Accesses {
			if !a.Reached(h) || !a.Deletes() || !srv.IsSessionMap(a.State) || srv.Fenced(h, a) {
				continue
			}
			c.report(CloseWithoutFence, a.Node.Pos(), a.Node.End(),
				fmt.Sprintf("the close handler deletes the session state %s[%s] but records no fence for %s, so a late seed creates the session again",
					exprName(a.X), exprName(a.Key), exprName(a.Key)),
				fmt.Sprintf("record the closed id (for example %s) and refuse a seed of a fenced id with 409", suggestFence(a)), nil)
		}
	}
}

func suggestFence(d *gostate.Access) string {
	fences := "fences"
	if sel, ok := ast.Unparen(d.X).(*ast.SelectorExpr); ok {
		fences = exprName(sel.X) + ".fences"
	}
	return fences + "[" + exprName(d.Key) + "] = expiry"
}
