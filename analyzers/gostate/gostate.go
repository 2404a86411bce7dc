// Package gostate computes the session-keyed state of the native Go
// resources servers that package gonative recognises: which containers
// outlive a request, every access to them, what each access's key is, which
// containers hold the sessions, how handlers look sessions up, what a close
// leaves as a fence, and which mutexes there are. It reports nothing
// itself; its Analyzer's result, a *Result, is read by the Go rules
// (goworkers, gosessions), so that a question two rules ask ("is this key
// the routed session?", "does this close fence?") has one answer.
//
// # Handlers
//
// A server's handlers are its routes whose handler body is known (see
// gonative), in path order. A server that gonative knows only by its
// methods SeedSession, CloseSession and Verify (none of its protocol routes
// is registered) has every other exported method of its type as a handler
// too (Handler.Method), since an adapter of another package serves them.
//
// # State
//
// A container is a map or a sync.Map (or, for fences only, a value of
// another package's type or an interface, see below) held beyond one
// request. Its root is one of:
//
//   - a package-level variable (of any package);
//   - a variable that a route's function-literal handler captures from
//     outside itself (a local or parameter of the enclosing function);
//   - a receiver or parameter whose type is (a pointer to) the server type
//     or a named struct type of the package that the server type holds in a
//     field, transitively (s.store.tasks).
//
// and a container is the root itself, or a field reached from a root
// through fields and pointers (not through map or slice elements, not
// through calls). A local variable is long-lived only when it is assigned
// one (st := s.store): a local of the server type may be a fresh value of
// the request. Each container is a State, identified by its field or
// variable.
//
// # Accesses
//
// An access is m[k] (OpRead; OpLookup in v, ok := m[k]; OpWrite for
// m[k] = v, m[k] op= v and m[k]++), delete(m, k), clear(m), for ... range m,
// len(m), an assignment to the container itself (OpReplace), and a method
// call on a sync.Map (OpCall: Load, Store, LoadOrStore, LoadAndDelete,
// Delete, Swap, Range, ...). A method call on a long-lived field,
// package-level variable or captured variable (not the server itself) whose
// method has no body in the package (a type of another package, an
// interface), with a first argument of a basic type that is not a constant,
// is an access of that value too (OpCall on a StateValue): it may record or
// test an id (s.fences.Fence(id)).
//
// Accesses are found in two ways. Each handler is read with the functions
// and methods of the package it calls, to a depth of MaxDepth calls, each
// callee with what its call passes (the class of each argument, the
// container a map argument is): an access found this way has a Via for the
// handler, with the class of its key there. Then every function of the
// package is read without a call site, so that code no handler reaches
// within MaxDepth calls still has its accesses (without a Via): there, the
// roots above decide. Not read that way are a method of another server's
// types, and a function a handler read with its receiver and parameters of
// holder types bound to long-lived values (which found at least as much).
// Calls of functions that cannot touch a container (no map, sync.Map or
// method call of a field or package-level variable in them or in what they
// call) are not followed.
//
// # Keys
//
// Each Via classifies the access's key (KeyClass), traced through locals,
// and through parameters from the call:
//
//   - KeySession: the routed session. A field of the request body whose
//     name or JSON tag names the session (ResourcesSessionID,
//     `json:"resources_session_id"`), an element of a body map whose key
//     names it, the value of a cookie whose constant name names it
//     (r.Cookie("session_id")), or any key whose expression names
//     "session" or is the identifier sid.
//   - KeyBody: another field of the request body. The body is a struct, or
//     a map with string keys, that a call named like a decoder fills or
//     returns (Decode, Unmarshal, Bind, ReadJSON, ParseJSON, ReadBody,
//     ParseBody), or a handler parameter whose type is a struct of the
//     package when the handler has no *http.Request (a method API).
//   - KeyMinted: an id the server mints: a result of crypto/rand, math/rand
//     (and v2), or a package named uuid, xid, ulid, ksuid, shortuuid or
//     nanoid (a call with constant arguments only, a method of its result,
//     a buffer rand.Read fills; uuid.Parse(req.EnvID) keeps its argument's
//     class), or of a function of the package whose every return is one.
//   - KeyOther: traced to something else: a constant, a value read from a
//     container.
//   - KeyUnknown: not traced (a query parameter, a parameter no followed
//     call binds).
//
// Conversions, method calls on a key, concatenations, composite literals
// and calls of strings, strconv, fmt, path, path/filepath, encoding/hex,
// encoding/base64 and encoding/base32 keep the class of their parts: the
// session first, then the body, a minted id, unknown, and other only when
// every part is other.
//
// # Session maps and lookups
//
// The session maps (Server.SessionMaps) are the maps and sync.Maps that the
// seed handlers write (m[k] = v, Store, LoadOrStore, Swap) through what they
// reach; when they write none, those that the tool routes' handlers write.
//
// A lookup function (Server.LookupFuncs) is a function of the package that
// returns (T, bool) and makes a comma-ok lookup of a container
// (LookupOK), returns one nilable value m[k] (LookupNil), or returns one
// bool that is m[k] of a map of bools or follows a comma-ok lookup
// (LookupBool). Server.Lookups gives, for a function body, the variables
// that its lookups of the chosen containers assign, and decides which
// conditions and branches run when the key is absent or present (see
// Lookups).
//
// # Fences
//
// A close fences (Server.Fences) when a handler of /close_session records
// an id in a container and the seed then tests that container and refuses
// a recorded id, whatever the container is:
//
//   - a record is a write into a container in the close's reach: m[k] = v,
//     a sync.Map Store, LoadOrStore or Swap, or an OpCall on a StateValue
//     whose result is not a bool (a bool result is a check);
//   - a test is a read of the same container in the seed's reach (m[k],
//     a lookup, a Load, an OpCall) by a key of the record's class, or of a
//     class that is KeyUnknown on either side;
//   - a refusal is, in a function of the seed's reach that looks the
//     container up, a branch taken when the key is present that answers a
//     status from 400 to 599 or returns a non-nil error, or a write of a
//     session map that runs only when the key is absent.
//
// So a close that deletes the state by one key (an env id looked up from
// the session) and records the session id that the seed checks fences,
// and one that records an id the seed never checks does not.
// Server.Fenced says whether a close fences the session whose state a
// delete removes: a record into the very container the delete removes
// from is no fence.
//
// # Locks
//
// Server.Locks are the sync.Mutex and sync.RWMutex fields of the server's
// struct types and the package-level mutexes; a lock guards the map
// containers declared beside it (the fields of its struct, or the
// package-level maps) when it is the only mutex there. Result.LockOp
// classifies a call of a mutex method.
//
// # Answers
//
// Result.AnswerOf says which status a call answers: http.Error(w, msg,
// code), w.WriteHeader(code), http.NotFound(w, r), any call that passes the
// http.ResponseWriter and an integer constant between 200 and 599 (a
// helper such as writeJSON(w, http.StatusNotFound, v)), and a body written
// by the standard library (json.NewEncoder(w).Encode, w.Write, fmt.Fprint*,
// io.WriteString, io.Copy, html/template and text/template Execute*), whose
// status is 200.
package gostate

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/gymlint/gymlint/analyzers/gonative"
)

// Analyzer computes the state of the native servers of a package. Its
// result is a *Result; it reports no diagnostics.
var Analyzer = &analysis.Analyzer{
	Name:       "gostate",
	Doc:        "compute the session-keyed state of native Go NeMo Gym resources servers (containers held beyond a request, their accesses and keys, session maps, lookups, fences, locks); a result for other analyzers, no diagnostics",
	URL:        "https://pkg.go.dev/github.com/gymlint/gymlint/analyzers/gostate",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, gonative.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

// MaxDepth bounds how many calls deep a handler is read.
const MaxDepth = 4

// Result is what the Analyzer computes for one package.
type Result struct {
	// Servers are the package's servers, in the order of gonative's.
	Servers []*Server

	pass     *analysis.Pass
	native   *gonative.Result
	byNative map[*gonative.Server]*Server
	at       map[ast.Node][]*Access // by node, one per container, over every server
	holders  map[*types.Named]bool  // every server's struct types
	lits     map[*ast.FuncLit]bool  // every route's function literal
	lhs      map[ast.Expr]bool      // expressions assigned to (x = ..., x op= ..., x++)
	commaOK  map[ast.Expr]bool      // the right side of v, ok := x / var v, ok = x
	rangeX   map[ast.Expr]bool      // expressions ranged over
	minted   map[*types.Func]int    // 1 minted, 2 not, 3 being decided
	mints    map[*types.Package]bool
	decoders map[string]bool // callee names: whether they decode
	graph    *calls
	mutexes  []*types.Var // package-level, by name; nil until asked
}

// Server is the state of one recognised server.
type Server struct {
	Native *gonative.Server
	// Handlers in path order, then the extra methods (see the package
	// documentation).
	Handlers []*Handler
	// State lists the containers in the order their first access was
	// found.
	State []*State
	// Accesses in the order they were found: those the handlers reach,
	// handler by handler, then those found only without a call site.
	Accesses []*Access
	// SessionMaps are the maps and sync.Maps that hold the sessions, in
	// State order.
	SessionMaps []*State
	// LookupFuncs are the functions of the package that look a key up.
	LookupFuncs map[*types.Func]*LookupFunc
	// Fences are what the close handlers leave against a later seed.
	Fences []*Fence
	// Locks are the mutexes of the server's struct types and of the
	// package.
	Locks []*Lock

	res      *Result
	holders  map[*types.Named]bool
	lits     map[*ast.FuncLit]bool
	states   map[types.Object]*State
	byKey    map[accessKey]*Access
	nodes    map[ast.Node][]*Access
	sessions map[*State]bool
	covered  map[*ast.FuncDecl]bool // read by a handler as it is without a call site
	replays  map[string]*effects    // by the signature and depth of a call
	sigIDs   map[types.Object]int   // the containers in signatures
}

// Handler is an entry point of a server.
type Handler struct {
	Server *Server
	// Route is the route it handles; nil for an extra method.
	Route *gonative.Route
	// Method is the extra method it is, or nil for a route.
	Method *types.Func
	Node   ast.Node // *ast.FuncDecl or *ast.FuncLit
	Body   *ast.BlockStmt
	// Lit is the route's function literal when the handler is one; the
	// variables it captures are long-lived.
	Lit *ast.FuncLit
	// Reaches are the handler's function and the functions of the package
	// it calls (in function literals too), to MaxDepth calls, breadth
	// first.
	Reaches []ast.Node
}

// StateKind says what a container is.
type StateKind int

const (
	StateMap     StateKind = iota + 1 // a map
	StateSyncMap                      // a sync.Map
	StateValue                        // a value whose methods are another package's (fences only)
)

// Holder says how a container is held beyond a request.
type Holder int

const (
	HolderField    Holder = iota + 1 // a field of the server type or of a struct it holds
	HolderPackage                    // a package-level variable
	HolderCaptured                   // a variable a function-literal handler captures
)

// State is one container held beyond a request.
type State struct {
	// Var is the container's field or variable (its origin, for a field of
	// a generic type).
	Var    *types.Var
	Kind   StateKind
	Holder Holder
	// Accesses in the order they were found.
	Accesses []*Access
	// Guard is the one mutex declared beside it, or nil (see Lock).
	Guard *Lock
}

// Op says what an access does.
type Op int

const (
	OpRead    Op = iota + 1 // m[k]
	OpLookup                // v, ok := m[k]
	OpWrite                 // m[k] = v, m[k] op= v, m[k]++
	OpDelete                // delete(m, k)
	OpClear                 // clear(m)
	OpRange                 // for ... range m
	OpLen                   // len(m)
	OpReplace               // m = ...: the container itself assigned
	OpCall                  // a method call: of a sync.Map, or of a StateValue
)

var opNames = [...]string{"", "read", "lookup", "write", "delete", "clear", "range", "len", "replace", "call"}

func (op Op) String() string { return opNames[op] }

// Access is one access of a container.
type Access struct {
	State *State
	Op    Op
	// Method is the method an OpCall calls.
	Method string
	// Node is the access: the index expression, the call (of delete,
	// clear, len or the method), the ranged expression or the assigned
	// expression.
	Node ast.Node
	// X is the container's expression at the access (m in m[k]).
	X ast.Expr
	// Key is the key's expression; nil for clear, range, len, replace and
	// key-less methods.
	Key ast.Expr
	// Func is the innermost function the access is in (*ast.FuncDecl or
	// *ast.FuncLit).
	Func ast.Node
	// Via lists the handlers that reach the access, with its key there.
	Via []Via
}

// Writes reports whether the access writes an element: m[k] = v, or a
// sync.Map Store, LoadOrStore or Swap.
func (a *Access) Writes() bool {
	switch a.Op {
	case OpWrite:
		return true
	case OpCall:
		if a.State.Kind == StateSyncMap {
			switch a.Method {
			case "Store", "LoadOrStore", "Swap":
				return true
			}
		}
	}
	return false
}

// Deletes reports whether the access deletes an element: delete(m, k), or
// a sync.Map Delete or LoadAndDelete.
func (a *Access) Deletes() bool {
	switch a.Op {
	case OpDelete:
		return true
	case OpCall:
		return a.State.Kind == StateSyncMap && (a.Method == "Delete" || a.Method == "LoadAndDelete") && a.Key != nil
	}
	return false
}

// Reached reports whether h reaches the access.
func (a *Access) Reached(h *Handler) bool {
	for _, v := range a.Via {
		if v.Handler == h {
			return true
		}
	}
	return false
}

// Via is a handler that reaches an access.
type Via struct {
	Handler *Handler
	// Key is the class of the access's key there (KeyUnknown without a
	// key).
	Key KeyClass
	// Name is the container as that code names it: the expression at the
	// access, or for a container passed as an argument, the expression at
	// the call.
	Name string
}

// KeyClass says where a key comes from (see the package documentation).
type KeyClass int

const (
	KeyUnknown KeyClass = iota
	KeySession
	KeyBody
	KeyMinted
	KeyOther
)

var keyNames = [...]string{"unknown", "session", "body", "minted", "other"}

func (k KeyClass) String() string { return keyNames[k] }

// Of returns the state of a gonative server, or nil.
func (r *Result) Of(s *gonative.Server) *Server { return r.byNative[s] }

// At returns the accesses whose Node is n, over every server, one per
// container.
func (r *Result) At(n ast.Node) []*Access { return r.at[n] }

// IsSessionMap reports whether st holds the server's sessions.
func (s *Server) IsSessionMap(st *State) bool { return s.sessions[st] }

type accessKey struct {
	node ast.Node
	obj  types.Object
}

func run(pass *analysis.Pass) (any, error) {
	native := pass.ResultOf[gonative.Analyzer].(*gonative.Result)
	res := &Result{
		pass: pass, native: native,
		byNative: map[*gonative.Server]*Server{},
		at:       map[ast.Node][]*Access{},
		holders:  map[*types.Named]bool{},
		lits:     map[*ast.FuncLit]bool{},
		lhs:      map[ast.Expr]bool{},
		commaOK:  map[ast.Expr]bool{},
		rangeX:   map[ast.Expr]bool{},
		minted:   map[*types.Func]int{},
		mints:    map[*types.Package]bool{},
		decoders: map[string]bool{},
	}
	if len(native.Servers) == 0 {
		return res, nil
	}
	res.index(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector))
	for _, ns := range native.Servers {
		s := &Server{
			Native: ns, res: res,
			holders:     map[*types.Named]bool{},
			lits:        map[*ast.FuncLit]bool{},
			states:      map[types.Object]*State{},
			byKey:       map[accessKey]*Access{},
			nodes:       map[ast.Node][]*Access{},
			covered:     map[*ast.FuncDecl]bool{},
			replays:     map[string]*effects{},
			sigIDs:      map[types.Object]int{},
			sessions:    map[*State]bool{},
			LookupFuncs: map[*types.Func]*LookupFunc{},
		}
		if ns.Type != nil {
			s.addHolder(ns.Type)
		}
		for t := range s.holders {
			res.holders[t] = true
		}
		s.Handlers = handlers(native, ns, s)
		for _, h := range s.Handlers {
			if h.Lit != nil {
				s.lits[h.Lit] = true
				res.lits[h.Lit] = true
			}
		}
		res.Servers = append(res.Servers, s)
		res.byNative[ns] = s
	}
	for _, s := range res.Servers {
		s.scanHandlers()
		s.scanAll()
		s.findSessionMaps()
		s.findLookupFuncs()
		s.findLocks()
	}
	for _, s := range res.Servers {
		s.findFences()
	}
	return res, nil
}

// index records the expressions assigned to, the right sides of comma-ok
// assignments, the expressions ranged over, and the call graph (see
// callGraph), in one pass.
func (r *Result) index(ins *inspector.Inspector) {
	info := r.pass.TypesInfo
	g := &calls{callees: map[*ast.FuncDecl][]*ast.FuncDecl{}, touch: map[*ast.FuncDecl]bool{}}
	var decls []*ast.FuncDecl
	var fd *ast.FuncDecl // the declaration the node is in, if any
	touch := func(n ast.Node, t bool) {
		if t && fd != nil && within(n.Pos(), fd) {
			g.touch[fd] = true
		}
	}
	for n := range ins.PreorderSeq((*ast.FuncDecl)(nil), (*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.RangeStmt)(nil),
		(*ast.ValueSpec)(nil), (*ast.IndexExpr)(nil), (*ast.CallExpr)(nil)) {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fd = nil
			if n.Body != nil {
				fd = n
				decls = append(decls, n)
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					r.lhs[ast.Unparen(l)] = true
					t := info.TypeOf(l)
					touch(n, isMap(t) || isSyncMap(t))
				}
			}
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				r.commaOK[ast.Unparen(n.Rhs[0])] = true
			}
		case *ast.IncDecStmt:
			r.lhs[ast.Unparen(n.X)] = true
		case *ast.RangeStmt:
			r.rangeX[ast.Unparen(n.X)] = true
			touch(n, isMap(info.TypeOf(n.X)))
		case *ast.ValueSpec:
			if len(n.Names) == 2 && len(n.Values) == 1 {
				r.commaOK[ast.Unparen(n.Values[0])] = true
			}
		case *ast.IndexExpr:
			touch(n, isMap(info.TypeOf(n.X)))
		case *ast.CallExpr:
			if fd == nil || !within(n.Pos(), fd) {
				continue
			}
			if fn := calleeFunc(info, n); fn != nil {
				if d := r.native.FuncDecl(fn); d != nil && d.Body != nil {
					if !slices.Contains(g.callees[fd], d) {
						g.callees[fd] = append(g.callees[fd], d)
					}
				} else if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
					touch(n, isSyncMap(info.TypeOf(sel.X)) || mayHold(info, sel.X))
				}
			} else if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if _, ok := info.Uses[id].(*types.Builtin); ok && len(n.Args) > 0 {
					touch(n, isMap(info.TypeOf(n.Args[0]))) // delete, clear, len
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			if g.touch[fd] {
				continue
			}
			for _, c := range g.callees[fd] {
				if g.touch[c] {
					g.touch[fd], changed = true, true
					break
				}
			}
		}
	}
	r.graph = g
}

// addHolder marks t a holder, and the named struct types of the package
// that its fields hold (directly or through a pointer).
func (s *Server) addHolder(t *types.Named) {
	t = t.Origin()
	if s.holders[t] || t.Obj().Pkg() != s.res.pass.Pkg {
		return
	}
	s.holders[t] = true
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		if n, ok := deref(st.Field(i).Type()).(*types.Named); ok {
			if _, isStruct := n.Underlying().(*types.Struct); isStruct {
				s.addHolder(n)
			}
		}
	}
}

// handlers lists the handlers of a server (see the package documentation).
func handlers(native *gonative.Result, ns *gonative.Server, s *Server) []*Handler {
	var out []*Handler
	for _, r := range ns.SortedRoutes() {
		h := &Handler{Server: s, Route: r, Body: r.Body()}
		switch {
		case r.Handler != nil:
			h.Node = r.Handler
		case r.Lit != nil:
			h.Node, h.Lit = r.Lit, r.Lit
		}
		if h.Body != nil {
			out = append(out, h)
		}
	}
	if ns.Type == nil || ns.Seed().Reg != nil || ns.Close().Reg != nil || ns.Verify().Reg != nil {
		return out
	}
	handled := map[*ast.FuncDecl]bool{}
	for _, r := range ns.Routes {
		handled[r.Handler] = true
	}
	ms := types.NewMethodSet(types.NewPointer(ns.Type))
	for i := range ms.Len() {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !fn.Exported() {
			continue
		}
		d := native.FuncDecl(fn)
		if d == nil || d.Body == nil || handled[d] {
			continue
		}
		out = append(out, &Handler{Server: s, Method: fn, Node: d, Body: d.Body})
	}
	return out
}

// state returns the State of a container, making it on first use.
func (s *Server) state(obj types.Object, kind StateKind) *State {
	if st := s.states[obj]; st != nil {
		return st
	}
	v, _ := obj.(*types.Var)
	st := &State{Var: v, Kind: kind}
	switch {
	case v.IsField():
		st.Holder = HolderField
	case v.Kind() == types.PackageVar:
		st.Holder = HolderPackage
	default:
		st.Holder = HolderCaptured
	}
	s.states[obj] = st
	s.State = append(s.State, st)
	return st
}

// access returns the access of obj at node, making it on first use.
func (s *Server) access(obj types.Object, kind StateKind, op Op, method string, node ast.Node, x, key ast.Expr, fn ast.Node) *Access {
	k := accessKey{node, obj}
	if a := s.byKey[k]; a != nil {
		return a
	}
	st := s.state(obj, kind)
	a := &Access{State: st, Op: op, Method: method, Node: node, X: x, Key: key, Func: fn}
	s.byKey[k] = a
	s.nodes[node] = append(s.nodes[node], a)
	st.Accesses = append(st.Accesses, a)
	s.Accesses = append(s.Accesses, a)
	dup := false
	for _, b := range s.res.at[node] {
		if b.State.Var == st.Var {
			dup = true
		}
	}
	if !dup {
		s.res.at[node] = append(s.res.at[node], a)
	}
	return a
}

// findSessionMaps finds the maps the seed handlers write, else those the
// tool routes' handlers write.
func (s *Server) findSessionMaps() {
	for _, kind := range []gonative.RouteKind{gonative.RouteSeed, gonative.RouteTool} {
		for _, a := range s.Accesses {
			if !a.Writes() {
				continue
			}
			for _, v := range a.Via {
				if v.Handler.Route != nil && v.Handler.Route.Kind == kind {
					s.sessions[a.State] = true
				}
			}
		}
		if len(s.sessions) > 0 {
			break
		}
	}
	for _, st := range s.State {
		if s.sessions[st] {
			s.SessionMaps = append(s.SessionMaps, st)
		}
	}
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// within reports whether pos lies in n.
func within(pos token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}

// funcBody is the body of a *ast.FuncDecl or *ast.FuncLit.
func funcBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}
