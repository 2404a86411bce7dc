package goworkers

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
)

// UnroutedState is rule GL150.
var UnroutedState = &diag.Rule{
	Code: "GL150", Name: "go-unrouted-state", Analyzer: "workers", Severity: diag.Error,
	Summary: "A native Go server keeps session state in process memory keyed by a request-body field, and does not declare MultipleWorkersUnsupportedReason().",
	Doc: `## What it does
Reports a native Go resources server that keeps session state in process memory, finds it by a
field of the request body, and does not declare ` + "`MultipleWorkersUnsupportedReason() string`" + ` on its
server type.

A **native server** is what package gonative recognises: handlers registered with
` + "`Handle`" + `/` + "`HandleFunc`" + ` for ` + "`/seed_session`" + `, ` + "`/close_session`" + ` and ` + "`/verify`" + ` (on a ` + "`net/http`" + `
` + "`ServeMux`" + `, with or without Go 1.22 method patterns such as ` + "`\"POST /seed_session\"`" + `, or on any router
of that shape), or a type with methods ` + "`SeedSession`" + `, ` + "`CloseSession`" + ` and ` + "`Verify`" + `. Its **server
type** is that type, or the receiver of the registered handler methods.

Each route's handler is read, with the functions and methods of the package it calls (to a
depth of four, following which arguments carry the body, a key or the state):

- **Session state** is a map or ` + "`sync.Map`" + ` held beyond one request: a field of the server type (or
  of a value it holds, ` + "`s.store.envs`" + `), a package-level variable, or a variable that a handler
  literal captures from the function that registers it.
- The **request body** is a struct, or a map with string keys, that a call named like a decoder
  fills or returns (` + "`Decode`" + `, ` + "`Unmarshal`" + `, ` + "`Bind`" + `, ` + "`ReadJSON`" + `, ...:
  ` + "`json.NewDecoder(r.Body).Decode(&req)`" + `, ` + "`json.Unmarshal(b, &req)`" + `, ` + "`req, err := decodeStep(r)`" + `), or, for a
  handler without an ` + "`*http.Request`" + ` parameter (a typed router or method API), a parameter whose
  type is a struct of the package. Query parameters, headers and cookies are not the body.
- A key **from the body** is a field of the body (` + "`req.EnvID`" + `, nested fields too), an element of a
  body map (` + "`body[\"env_id\"].(string)`" + `), a local variable or parameter assigned one, or a conversion,
  method call, ` + "`strings`" + `/` + "`strconv`" + `/` + "`fmt`" + `/` + "`path`" + ` call, concatenation or composite literal of one. A key whose expression, field name or JSON tag names the ` + "`session`" + ` (` + "`req.ResourcesSessionID`" + `,
  ` + "`sessionID`" + `), or is ` + "`sid`" + `, is **from the session**.
- An **access** is ` + "`m[k]`" + ` (read or write), ` + "`delete(m, k)`" + `, ` + "`range m`" + `, or a ` + "`sync.Map`" + ` method call.

A map is reported when one route accesses it by a key from the body and another route accesses
it too (state that outlives one request and is shared between requests, not a per-route cache),
and no access anywhere uses a key from the session. The finding is at the first access by a
body key; the other route's access and the map's declaration are related positions. A server
whose routes gonative cannot see (only the three methods) counts each exported method of its type
as a route.

## Why it matters
NeMo Gym can run several replicas of a server behind one address. Session routing sends every
request of a session to the replica that seeded it, following the session cookie and
` + "`resources_session_id`" + `; it knows nothing of other body fields. A request that finds its state by,
say, ` + "`env_id`" + ` reaches a replica that never saw that id, and the lookup fails: a 404, an empty
observation, a lost reward.

## Example
` + "```go" + `
type MazeServer struct {
	mu   sync.Mutex
	envs map[string]*Maze
}

func (s *MazeServer) seed(w http.ResponseWriter, r *http.Request) {
	id := newID()
	s.mu.Lock()
	s.envs[id] = NewMaze()
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]string{"env_id": id})
}

func (s *MazeServer) step(w http.ResponseWriter, r *http.Request) {
	var req struct {
		EnvID string ` + "`json:\"env_id\"`" + `
		Move  string ` + "`json:\"move\"`" + `
	}
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	maze := s.envs[req.EnvID] // GL150: found by a body field
	s.mu.Unlock()
	...
}
` + "```" + `

## How to fix
Key the state by the session, which routing follows:
` + "```go" + `
	var req struct {
		ResourcesSessionID string ` + "`json:\"resources_session_id\"`" + `
		Move               string ` + "`json:\"move\"`" + `
	}
	...
	maze := s.envs[req.ResourcesSessionID]
` + "```" + `
If the client cannot send the session, refuse several workers and say why:
` + "```go" + `
func (s *MazeServer) MultipleWorkersUnsupportedReason() string {
	return "Mazes are kept in this process's memory by the env_id in the request body."
}
` + "```" + `
(A server with no server type, whose handlers are plain functions, declares
` + "`func MultipleWorkersUnsupportedReason() string`" + ` at package level.)`,
}

// use is one access of a container by a handler, as GL150 counts it: m[k]
// (read or write), delete(m, k), range m, or a sync.Map method call.
type use struct {
	a *gostate.Access
	v gostate.Via
}

func (u *use) body() bool    { return u.v.Key == gostate.KeyBody }
func (u *use) session() bool { return u.v.Key == gostate.KeySession }
func (u *use) route() string { return handlerPath(u.v.Handler) }

// counted reports whether GL150 counts an access.
func counted(a *gostate.Access) bool {
	switch a.State.Kind {
	case gostate.StateMap:
		switch a.Op {
		case gostate.OpRead, gostate.OpLookup, gostate.OpWrite, gostate.OpDelete, gostate.OpRange:
			return true
		}
	case gostate.StateSyncMap:
		return a.Op == gostate.OpCall
	}
	return false
}

func checkUnrouted(pass *analysis.Pass, helps *gohelp.Helps, st *gostate.Server, s *gonative.Server, ref refusal) {
	byState := map[*gostate.State][]*use{}
	var order []*gostate.State
	for _, a := range st.Accesses {
		if !counted(a) {
			continue
		}
		for _, v := range a.Via {
			if v.Handler.Method != nil && v.Handler.Method.Name() == Method {
				continue // the refusal itself is no route
			}
			if _, ok := byState[a.State]; !ok {
				order = append(order, a.State)
			}
			byState[a.State] = append(byState[a.State], &use{a: a, v: v})
		}
	}
	for _, state := range order {
		us := byState[state]
		sort.SliceStable(us, func(i, j int) bool { return us[i].a.Node.Pos() < us[j].a.Node.Pos() })
		if anySession(us) {
			continue
		}
		var first, other *use
		for _, a := range us {
			if !a.body() {
				continue
			}
			// Prefer another route's access at another place: the same
			// handler may serve two routes.
			for _, b := range us {
				if b.route() != a.route() && (other == nil || other.a.Node == a.a.Node && b.a.Node != a.a.Node) {
					first, other = a, b
				}
			}
			if first != nil {
				break
			}
		}
		if first == nil {
			continue
		}
		reportUnrouted(pass, helps, s, ref, first, other)
	}
}

func anySession(us []*use) bool {
	for _, u := range us {
		if u.session() {
			return true
		}
	}
	return false
}

func reportUnrouted(pass *analysis.Pass, helps *gohelp.Helps, s *gonative.Server, ref refusal, first, other *use) {
	owner := "on " + serverName(s)
	if s.Type == nil {
		owner = "as a package-level function"
	}
	hint := ""
	if ref.wrong != nil {
		hint = fmt.Sprintf(" (the %s it has is %s, not func() string)", Method, types.TypeString(ref.wrong.Type(), types.RelativeTo(pass.Pkg)))
	}
	name, decl := first.v.Name, first.a.State.Var
	d := diagnostic(UnroutedState, first.a.Node, fmt.Sprintf(
		"%s is session state in process memory, found here in %s by %s from the request body and used by %s too, which session routing does not follow",
		name, routeName(first.v.Handler), types.ExprString(first.a.Key), routeName(other.v.Handler)))
	help := fmt.Sprintf("key it by the session (resources_session_id), or declare %s() string %s that returns why several workers are unsupported%s", Method, owner, hint)
	d.Related = append(d.Related, analysis.RelatedInformation{
		Pos: other.a.Node.Pos(), End: other.a.Node.End(),
		Message: fmt.Sprintf("%s used by %s", name, routeName(other.v.Handler)),
	})
	if decl.Pkg() == pass.Pkg && decl.Pos().IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{
			Pos: decl.Pos(), End: decl.Pos() + token.Pos(len(decl.Name())),
			Message: fmt.Sprintf("%s is declared here", decl.Name()),
		})
	}
	helps.Report(pass, d, help)
}

// handlerPath tells the routes of accesses apart: the route's path, or for
// an exported method of a server known by its methods, "method NAME".
func handlerPath(h *gostate.Handler) string {
	if h.Method != nil {
		return "method " + h.Method.Name()
	}
	return h.Route.Path
}

// routeName names a handler in messages: its path, or NAME().
func routeName(h *gostate.Handler) string {
	if h.Method != nil {
		return h.Method.Name() + "()"
	}
	return h.Route.Path
}
