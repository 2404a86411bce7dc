package gosessions

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// UnlockedSessionMap is rule GL354.
var UnlockedSessionMap = &diag.Rule{
	Code: "GL354", Name: "go-unlocked-session-map", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go handler reads or writes a shared session map without holding a lock.",
	Doc:     ruleDoc("GL354"),
}

// lockState is the set of locks held at a point, each with whether it is
// held for writing. top is the state of code not reached yet (or reached
// in a way the analysis cannot follow): everything counts as held.
type lockState struct {
	top  bool
	held map[any]bool
}

func topState() lockState   { return lockState{top: true} }
func emptyState() lockState { return lockState{held: map[any]bool{}} }

func (s lockState) clone() lockState {
	if s.top {
		return s
	}
	h := make(map[any]bool, len(s.held))
	for k, v := range s.held {
		h[k] = v
	}
	return lockState{held: h}
}

func meet(a, b lockState) lockState {
	switch {
	case a.top:
		return b.clone()
	case b.top:
		return a.clone()
	}
	h := map[any]bool{}
	for k, w := range a.held {
		if w2, ok := b.held[k]; ok {
			h[k] = w && w2
		}
	}
	return lockState{held: h}
}

func (s lockState) equal(o lockState) bool {
	if s.top || o.top {
		return s.top == o.top
	}
	if len(s.held) != len(o.held) {
		return false
	}
	for k, w := range s.held {
		if w2, ok := o.held[k]; !ok || w != w2 {
			return false
		}
	}
	return true
}

// guards reports whether the state protects an access.
func (s lockState) guards(write bool) bool {
	if s.top {
		return true
	}
	for _, w := range s.held {
		if w || !write {
			return true
		}
	}
	return false
}

// unit is a function body the lock analysis follows.
type unit struct {
	node ast.Node // *ast.FuncDecl or *ast.FuncLit
	body *ast.BlockStmt
	lit  *ast.FuncLit // the handler literal whose captures are shared
	g    *cfg.CFG

	fixed  bool      // entry does not depend on call sites
	entry  lockState // locks held on entry
	unsure bool      // the analysis cannot judge this function

	accesses []mapAccess
	sum      summary
}

// mapAccess is one access of a shared map.
type mapAccess struct {
	node  ast.Node
	m     *types.Var
	mexpr ast.Expr // the map expression
	write bool
	verb  string
	state lockState
}

// callSite is a call of a unit from another, with the locks held there.
type callSite struct {
	caller *unit
	call   ast.Node
	state  lockState
}

type lockCheck struct {
	c     *checker
	units map[ast.Node]*unit
	order []*unit
	sites map[*unit][]callSite
	evs   map[ast.Node][]lockEvent // by CFG node
}

func (c *checker) checkLocks() {
	lc := &lockCheck{c: c, units: map[ast.Node]*unit{}, evs: map[ast.Node][]lockEvent{}}
	for _, h := range c.handlers {
		if lc.units[h.Node] != nil {
			continue
		}
		u := lc.unit(h.Node, h.Body, h.Lit)
		u.fixed, u.entry = true, c.handlerEntry(h)
		if h.Route.Reg == nil {
			// A method route (SeedSession): called from outside the
			// package, unless the package calls it itself.
			if d, ok := h.Node.(*ast.FuncDecl); ok {
				if fn, ok := c.pass.TypesInfo.Defs[d.Name].(*types.Func); ok && (c.calls[fn] > 0 || c.valueOf[fn]) {
					u.fixed, u.entry = c.valueOf[fn], topState()
				}
			}
		}
	}
	for i := 0; i < len(lc.order); i++ {
		lc.discover(lc.order[i])
	}
	if !lc.summarize() {
		return // no fixed point: say nothing
	}

	for round := 0; ; round++ {
		lc.sites = map[*unit][]callSite{}
		for _, u := range lc.order {
			u.accesses = nil
			if u.g != nil {
				lc.analyze(u)
			}
		}
		changed := false
		for _, u := range lc.order {
			if u.fixed {
				continue
			}
			e := topState()
			for _, s := range lc.sites[u] {
				e = meet(e, s.state)
			}
			if !e.equal(u.entry) {
				u.entry, changed = e, true
			}
		}
		if !changed {
			break
		}
		if round == 100 {
			return // no fixed point: say nothing
		}
	}
	lc.report()
}

// handlerEntry is the lock state a route's handler starts in: none, unless
// it is registered through a wrapper that may lock.
func (c *checker) handlerEntry(h *gostate.Handler) lockState {
	if h.Route.Reg == nil || len(h.Route.Reg.Args) < 2 {
		return emptyState()
	}
	ok := true
	ast.Inspect(h.Route.Reg.Args[1], func(n ast.Node) bool {
		if _, isLit := n.(*ast.FuncLit); isLit {
			return false
		}
		call, isCall := n.(*ast.CallExpr)
		if !ok || !isCall {
			return ok
		}
		if tv, isType := c.pass.TypesInfo.Types[call.Fun]; isType && tv.IsType() {
			return true // a conversion: http.HandlerFunc(f)
		}
		fn := c.staticFunc(call)
		switch {
		case fn == nil:
			ok = false
		case fn.Pkg() != nil && fn.Pkg().Path() == "net/http":
			// StripPrefix, TimeoutHandler, MaxBytesHandler lock nothing.
		case c.native.FuncDecl(fn) != nil && c.native.FuncDecl(fn).Body != nil && !c.locks(c.native.FuncDecl(fn).Body):
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return topState()
	}
	return emptyState()
}

// locks reports whether n takes any lock, in function literals too.
func (c *checker) locks(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if _, op, ok := c.state.LockOp(call); ok && op != gostate.Release {
				found = true
			}
		}
		return !found
	})
	return found
}

// unit returns the unit of a function body, making it on first use.
func (lc *lockCheck) unit(node ast.Node, body *ast.BlockStmt, lit *ast.FuncLit) *unit {
	if u := lc.units[node]; u != nil {
		return u
	}
	u := &unit{node: node, body: body, lit: lit, entry: topState()}
	switch n := node.(type) {
	case *ast.FuncDecl:
		u.g = lc.c.cfgs.FuncDecl(n)
	case *ast.FuncLit:
		u.g = lc.c.cfgs.FuncLit(n)
	}
	lc.units[node] = u
	lc.order = append(lc.order, u)
	return u
}

// helper returns the unit of a function of the package that a unit calls.
func (lc *lockCheck) helper(d *ast.FuncDecl) *unit {
	known := lc.units[d] != nil
	u := lc.unit(d, d.Body, nil)
	if !known {
		if fn, ok := lc.c.pass.TypesInfo.Defs[d.Name].(*types.Func); ok && lc.c.valueOf[fn] {
			u.fixed = true // who else calls it is unknown
		}
	}
	return u
}

// discover adds the units that u calls. A function that sends or receives
// on a shared channel may use it as a lock (a semaphore): it is unsure.
func (lc *lockCheck) discover(u *unit) {
	c := lc.c
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			if call, ok := ast.Unparen(n.Call.Fun).(*ast.CallExpr); ok {
				ast.Inspect(call, visit) // defer s.lock()()
			}
			for _, a := range n.Call.Args {
				ast.Inspect(a, visit)
			}
			return false
		case *ast.GoStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				v := lc.unit(lit, lit.Body, u.lit)
				v.fixed, v.entry = true, emptyState()
			} else if d := c.staticDecl(n.Call); d != nil {
				lc.helper(d)
			}
			return false
		case *ast.SendStmt:
			if c.state.LongLived(n.Chan, u.lit) {
				u.unsure = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && c.state.LongLived(n.X, u.lit) {
				u.unsure = true
			}
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				lc.unit(lit, lit.Body, u.lit)
			} else if d := c.staticDecl(n); d != nil {
				lc.helper(d)
			}
		}
		return true
	}
	ast.Inspect(u.body, visit)
}

// flow runs the lock dataflow over u's control-flow graph from entry and
// returns the state at the start and at the end of each block.
func (lc *lockCheck) flow(u *unit, entry lockState) (in, out []lockState) {
	blocks := u.g.Blocks
	preds := make([][]int32, len(blocks))
	for _, b := range blocks {
		if !b.Live {
			continue
		}
		for _, s := range b.Succs {
			preds[s.Index] = append(preds[s.Index], b.Index)
		}
	}
	in = make([]lockState, len(blocks))
	out = make([]lockState, len(blocks))
	for i := range blocks {
		in[i], out[i] = topState(), topState()
	}
	for changed, iter := true, 0; changed && iter < 1000; iter++ {
		changed = false
		for _, b := range blocks {
			if !b.Live {
				continue
			}
			st := topState()
			if b.Index == 0 {
				st = entry.clone()
			}
			for _, p := range preds[b.Index] {
				st = meet(st, out[p])
			}
			in[b.Index] = st
			o := st.clone()
			for _, n := range b.Nodes {
				lc.events(u, n, &o, false)
			}
			if !o.equal(out[b.Index]) {
				out[b.Index], changed = o, true
			}
		}
	}
	return in, out
}

// analyze runs the lock dataflow over u from its entry, then records its
// accesses and the states at its calls.
func (lc *lockCheck) analyze(u *unit) {
	in, _ := lc.flow(u, u.entry)
	for _, b := range u.g.Blocks {
		if !b.Live {
			continue
		}
		st := in[b.Index].clone()
		for _, n := range b.Nodes {
			lc.events(u, n, &st, true)
		}
	}
}

// summary is what calling a function does to its caller's locks: the
// locks it may release (kill) and those it returns holding (gen), as in
// func (s *Server) lock() func() { s.mu.Lock(); return s.mu.Unlock }.
type summary struct {
	gen  map[any]bool
	kill map[any]bool
}

func (s summary) equal(o summary) bool {
	return lockState{held: s.gen}.equal(lockState{held: o.gen}) && lockState{held: s.kill}.equal(lockState{held: o.kill})
}

// exit is the state at u's returns when it starts in entry; top when it
// never returns.
func (lc *lockCheck) exit(u *unit, entry lockState) lockState {
	_, out := lc.flow(u, entry)
	st := topState()
	for _, b := range u.g.Blocks {
		if b.Live && len(b.Succs) == 0 {
			st = meet(st, out[b.Index])
		}
	}
	return st
}

// summarize computes the summaries of the declared functions the analysis
// follows, to a fixed point over the calls between them.
func (lc *lockCheck) summarize() bool {
	for round := 0; round < 50; round++ {
		changed := false
		for _, u := range lc.order {
			if _, ok := u.node.(*ast.FuncDecl); !ok || u.g == nil {
				continue
			}
			var sum summary
			if ex := lc.exit(u, emptyState()); !ex.top {
				sum.gen = ex.held
			}
			all := lockState{held: map[any]bool{}}
			for k := range lc.keys(u) {
				all.held[k] = true
			}
			if ex := lc.exit(u, all); !ex.top {
				sum.kill = map[any]bool{}
				for k := range all.held {
					if _, ok := ex.held[k]; !ok {
						sum.kill[k] = true
					}
				}
			}
			if !sum.equal(u.sum) {
				u.sum, changed = sum, true
			}
		}
		if !changed {
			return true
		}
	}
	return false
}

// keys returns the mutexes u locks or unlocks, itself or through the
// summaries of what it calls.
func (lc *lockCheck) keys(u *unit) map[any]bool {
	keys := map[any]bool{}
	ast.Inspect(u.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if k, _, ok := lc.c.state.LockOp(n); ok {
				keys[k] = true
			} else if d := lc.c.staticDecl(n); d != nil {
				if cu := lc.units[d]; cu != nil {
					for k := range cu.sum.gen {
						keys[k] = true
					}
					for k := range cu.sum.kill {
						keys[k] = true
					}
				}
			}
		}
		return true
	})
	return keys
}

// lockEvent is what a CFG node does to the locks, in the order it does it:
// a map access (recorded with the locks held), a lock operation, a call of
// a unit (recorded as a call site, then its summary applied).
type lockEvent struct {
	kind   eventKind
	key    any // evLock
	op     gostate.LockOp
	callee *unit // evSite, evSummary
	call   ast.Node
	empty  bool      // evSite: the call starts with no lock held (a go statement)
	access mapAccess // evAccess, without its state
}

type eventKind uint8

const (
	evAccess eventKind = iota
	evLock
	evSite
	evSummary
)

// events applies the lock operations of one CFG node to st in order and,
// when emit is set, records its map accesses and calls.
func (lc *lockCheck) events(u *unit, node ast.Node, st *lockState, emit bool) {
	for _, e := range lc.eventsOf(u, node) {
		switch e.kind {
		case evAccess:
			if emit {
				a := e.access
				a.state = st.clone()
				u.accesses = append(u.accesses, a)
			}
		case evLock:
			st.apply(e.key, e.op)
		case evSite:
			if emit {
				state := *st
				if e.empty {
					state = emptyState()
				}
				lc.sites[e.callee] = append(lc.sites[e.callee], callSite{caller: u, call: e.call, state: state.clone()})
			}
		case evSummary:
			st.applySummary(e.callee.sum)
		}
	}
}

// eventsOf returns the events of a CFG node of u, computed on first use:
// they do not change while the dataflow runs.
func (lc *lockCheck) eventsOf(u *unit, node ast.Node) []lockEvent {
	if evs, ok := lc.evs[node]; ok {
		return evs
	}
	c := lc.c
	var evs []lockEvent
	record := func(n ast.Node, mexpr ast.Expr, m *types.Var, write bool, verb string) {
		evs = append(evs, lockEvent{kind: evAccess, access: mapAccess{node: n, m: m, mexpr: mexpr, write: write, verb: verb}})
	}
	site := func(callee *unit, call ast.Node, empty bool) {
		if callee != nil {
			evs = append(evs, lockEvent{kind: evSite, callee: callee, call: call, empty: empty})
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		for _, a := range c.mapAccesses(n, gostate.OpRange) {
			record(n, a.X, a.State.Var, false, "ranged over")
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			// The deferred call runs at return, but its function value and
			// arguments are evaluated now: defer s.lock()().
			if _, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); !ok {
				if sel, ok := ast.Unparen(n.Call.Fun).(*ast.SelectorExpr); ok {
					ast.Inspect(sel.X, visit)
				} else {
					ast.Inspect(n.Call.Fun, visit)
				}
			}
			for _, a := range n.Call.Args {
				ast.Inspect(a, visit)
			}
			return false
		case *ast.GoStmt:
			if d := c.staticDecl(n.Call); d != nil {
				site(lc.units[d], n, true)
			}
			return false
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				for _, a := range n.Args {
					ast.Inspect(a, visit)
				}
				site(lc.units[lit], n, false)
				return false
			}
			if key, op, ok := c.state.LockOp(n); ok {
				evs = append(evs, lockEvent{kind: evLock, key: key, op: op})
				if op == gostate.TryAcquire {
					u.unsure = true
				}
				return false
			}
			switch c.builtinCall(n) {
			case "delete", "clear":
				if as := c.mapAccesses(n, gostate.OpDelete, gostate.OpClear); len(as) > 0 {
					for _, a := range as {
						verb := "deleted from"
						if a.Op == gostate.OpClear {
							verb = "cleared"
						}
						record(n, a.X, a.State.Var, true, verb)
					}
					for _, a := range n.Args[1:] {
						ast.Inspect(a, visit)
					}
					return false
				}
			case "len":
				if as := c.mapAccesses(n, gostate.OpLen); len(as) > 0 {
					for _, a := range as {
						record(n, a.X, a.State.Var, false, "read (len)")
					}
					return false
				}
			}
			if d := c.staticDecl(n); d != nil {
				ast.Inspect(n.Fun, visit)
				for _, a := range n.Args {
					ast.Inspect(a, visit)
				}
				if cu := lc.units[d]; cu != nil {
					site(cu, n, false)
					evs = append(evs, lockEvent{kind: evSummary, callee: cu})
				}
				return false
			}
		case *ast.IndexExpr:
			for _, a := range c.mapAccesses(n, gostate.OpRead, gostate.OpLookup, gostate.OpWrite) {
				if a.Op == gostate.OpWrite {
					record(n, a.X, a.State.Var, true, "written")
				} else {
					record(n, a.X, a.State.Var, false, "read")
				}
			}
		case *ast.SelectorExpr, *ast.Ident:
			for _, a := range c.mapAccesses(n, gostate.OpReplace) {
				record(n, a.X, a.State.Var, true, "replaced")
			}
		}
		return true
	}
	ast.Inspect(node, visit)
	lc.evs[node] = evs
	return evs
}

func (s *lockState) applySummary(sum summary) {
	if s.top {
		return
	}
	for k := range sum.kill {
		delete(s.held, k)
	}
	for k, w := range sum.gen {
		s.held[k] = w || s.held[k]
	}
}

func (s *lockState) apply(key any, op gostate.LockOp) {
	if s.top {
		return
	}
	switch op {
	case gostate.Acquire:
		s.held[key] = true
	case gostate.AcquireRead:
		if _, ok := s.held[key]; !ok {
			s.held[key] = false
		}
	case gostate.Release:
		delete(s.held, key)
	}
}

func (lc *lockCheck) report() {
	c := lc.c
	written := map[*types.Var]ast.Node{}
	for _, u := range lc.order {
		for _, a := range u.accesses {
			if a.write && written[a.m] == nil {
				written[a.m] = a.node
			}
		}
	}
	for _, u := range lc.order {
		if u.unsure || u.g == nil || u.entry.top && !u.fixed {
			continue
		}
		accesses := append([]mapAccess(nil), u.accesses...)
		sort.Slice(accesses, func(i, j int) bool { return accesses[i].node.Pos() < accesses[j].node.Pos() })
		for _, a := range accesses {
			w := written[a.m]
			if w == nil || a.state.guards(a.write) {
				continue
			}
			name := exprName(a.mexpr)
			var msg, help string
			if a.write && len(a.state.held) > 0 {
				msg = fmt.Sprintf("%s is %s while only a read lock is held, a data race with the other holders of the read lock", name, a.verb)
				help = "take the write lock (Lock) around it"
			} else {
				help = "guard it with a sync.Mutex held around every access"
				if g := c.state.GuardName(a.mexpr); g != "" {
					help = fmt.Sprintf("take %s.Lock() before it and %s.Unlock() after", g, g)
				}
				msg = fmt.Sprintf("%s is %s without holding a lock, a data race with the handlers that write it", name, a.verb)
			}
			var related []analysis.RelatedInformation
			if w != a.node {
				related = append(related, analysis.RelatedInformation{Pos: w.Pos(), End: w.End(), Message: "the map is written here"})
			}
			if !u.fixed {
				for _, s := range lc.sites[u] {
					if !s.state.guards(a.write) {
						related = append(related, analysis.RelatedInformation{Pos: s.call.Pos(), End: s.call.End(), Message: "called here without the lock"})
						break
					}
				}
			}
			c.report(UnlockedSessionMap, a.node.Pos(), a.node.End(), msg, help, nil, related...)
		}
	}
}

// mapAccesses returns the accesses of shared maps at n (see package
// gostate) that do one of ops.
func (c *checker) mapAccesses(n ast.Node, ops ...gostate.Op) []*gostate.Access {
	var out []*gostate.Access
	for _, a := range c.state.At(n) {
		if a.State.Kind == gostate.StateMap && slices.Contains(ops, a.Op) {
			out = append(out, a)
		}
	}
	return out
}
