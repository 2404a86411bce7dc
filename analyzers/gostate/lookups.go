package gostate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// LookupKind says how a lookup function reports an absent key.
type LookupKind int

const (
	LookupOK   LookupKind = iota + 1 // (T, bool): false when absent
	LookupNil                        // one nilable result: nil when absent
	LookupBool                       // one bool result: false when absent
)

// LookupFunc is a function of the package that looks a key up.
type LookupFunc struct {
	Func *types.Func
	Kind LookupKind
	// States are the containers it looks up.
	States []*State
}

// findLookupFuncs finds the lookup functions of the package (see the
// package documentation).
func (s *Server) findLookupFuncs() {
	info := s.res.pass.TypesInfo
	for _, f := range s.res.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			res := fn.Signature().Results()
			var kind LookupKind
			switch {
			case res.Len() == 2 && isBool(res.At(1).Type()):
				kind = LookupOK
			case res.Len() == 1 && nilable(res.At(0).Type()):
				kind = LookupNil
			case res.Len() == 1 && isBool(res.At(0).Type()):
				kind = LookupBool
			default:
				continue
			}
			var states []*State
			add := func(st *State) {
				for _, o := range states {
					if o == st {
						return
					}
				}
				states = append(states, st)
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return kind != LookupNil && !s.res.lits[n]
				case *ast.AssignStmt:
					// v, ok := m[k]
					if kind != LookupNil && len(n.Lhs) == 2 && len(n.Rhs) == 1 {
						for _, st := range s.indexed(n.Rhs[0]) {
							add(st)
						}
					}
				case *ast.ReturnStmt:
					// return m[k]: of any element for LookupNil, of bools for
					// LookupBool
					if kind != LookupOK && len(n.Results) == 1 {
						for _, st := range s.indexed(n.Results[0]) {
							if kind == LookupNil || isBool(info.TypeOf(n.Results[0])) {
								add(st)
							}
						}
					}
				}
				return true
			})
			if len(states) > 0 {
				s.LookupFuncs[fn] = &LookupFunc{Func: fn, Kind: kind, States: states}
			}
		}
	}
}

// indexed returns the map containers that e indexes (m[k]).
func (s *Server) indexed(e ast.Expr) []*State {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return nil
	}
	var out []*State
	for _, a := range s.at(ix) {
		if a.State.Kind == StateMap {
			out = append(out, a.State)
		}
	}
	return out
}

// at returns the server's accesses at a node.
func (s *Server) at(n ast.Node) []*Access { return s.nodes[n] }

// Presence says whether a key is absent from a container or present.
type Presence bool

const (
	Absent  Presence = false
	Present Presence = true
)

// Lookups are the lookups of some containers in a function body: the
// variables they assign, and how conditions over them depend on whether
// the key is there.
//
// A lookup is v, ok := m[k] and v, ok := m.Load(k) (ok is false when the
// key is absent; v, when nilable, is nil), v, ok := f(...) of a LookupOK
// function, v := m[k] with a nilable element and v := f(...) of a
// LookupNil function (v is nil when absent), b := m[k] of a map of bools
// and b := f(...) of a LookupBool function (b is false when absent), and,
// on a StateValue, b := x.M(k) with a bool result (false when absent) and
// err := x.M(k) with an error result (nil when absent). In a condition,
// m[k] of a map of bools, a call of a LookupBool function, a bool method of
// a StateValue, m[k] == nil, f(...) == nil of a LookupNil function and
// x.M(k) != nil of an error method test the key directly.
type Lookups struct {
	s       *Server
	keep    func(*State) bool
	present map[types.Object]bool // false when absent
	value   map[types.Object]bool // nil when absent
}

// Lookups returns the lookups, in body (not in function literals), of the
// containers keep accepts.
func (s *Server) Lookups(body *ast.BlockStmt, keep func(*State) bool) *Lookups {
	info := s.res.pass.TypesInfo
	l := &Lookups{s: s, keep: keep, present: map[types.Object]bool{}, value: map[types.Object]bool{}}
	obj := func(e ast.Expr) types.Object {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name != "_" {
			return info.ObjectOf(id)
		}
		return nil
	}
	if body == nil {
		return l
	}
	InspectOwn(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		rhs := as.Rhs[0]
		isIndex := l.index(rhs)
		kind := l.call(rhs)
		if a := l.method(rhs); a != nil && a.State.Kind == StateSyncMap && a.Method == "Load" {
			isIndex = true // v, ok := s.sessions.Load(id)
		}
		switch len(as.Lhs) {
		case 2:
			if isIndex || kind == LookupOK {
				if o := obj(as.Lhs[1]); o != nil {
					l.present[o] = true
				}
				if t := info.TypeOf(as.Lhs[0]); t != nil && nilable(t) {
					if o := obj(as.Lhs[0]); o != nil {
						l.value[o] = true
					}
				}
			}
		case 1:
			o := obj(as.Lhs[0])
			if o == nil {
				break
			}
			t := info.TypeOf(rhs)
			switch {
			case (isIndex && t != nil && nilable(t)) || kind == LookupNil:
				l.value[o] = true
			case (isIndex && isBool(t)) || kind == LookupBool:
				l.present[o] = true
			}
			if a := l.method(rhs); a != nil && a.State.Kind == StateValue {
				switch {
				case isBool(t):
					l.present[o] = true
				case isError(t):
					l.value[o] = true
				}
			}
		}
		return true
	})
	return l
}

// index reports whether e is m[k] of a kept map.
func (l *Lookups) index(e ast.Expr) bool {
	for _, st := range l.s.indexed(e) {
		if l.keep(st) {
			return true
		}
	}
	return false
}

// call returns how a call looks a kept container up, or 0.
func (l *Lookups) call(e ast.Expr) LookupKind {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return 0
	}
	fn := typeutil.StaticCallee(l.s.res.pass.TypesInfo, call)
	if fn == nil {
		return 0
	}
	if lf := l.s.LookupFuncs[fn.Origin()]; lf != nil {
		for _, st := range lf.States {
			if l.keep(st) {
				return lf.Kind
			}
		}
	}
	return 0
}

// method returns the method call of a kept sync.Map or StateValue that e
// is, or nil.
func (l *Lookups) method(e ast.Expr) *Access {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	for _, a := range l.s.at(call) {
		if a.Op == OpCall && l.keep(a.State) {
			return a
		}
	}
	return nil
}

// Mentions reports whether e reads a lookup: a variable a lookup assigns,
// m[k] of a kept map, or a call of a lookup function of one.
func (l *Lookups) Mentions(e ast.Expr) bool {
	info := l.s.res.pass.TypesInfo
	mentions := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if o := info.ObjectOf(n); l.present[o] || l.value[o] {
				mentions = true
			}
		case *ast.IndexExpr:
			if l.index(n) {
				mentions = true
			}
		case *ast.CallExpr:
			if l.call(n) != 0 {
				mentions = true
			}
		}
		return !mentions
	})
	return mentions
}

// atom classifies a condition that tests a lookup: +1 when it is true
// exactly when the key is present, -1 when exactly when it is absent, 0
// when it says nothing about it.
func (l *Lookups) atom(e ast.Expr) int {
	info := l.s.res.pass.TypesInfo
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok && l.present[info.ObjectOf(id)] {
		return +1
	}
	if isBool(info.TypeOf(e)) {
		if l.index(e) || l.call(e) == LookupBool {
			return +1 // m[k] of a map of bools, isFenced(id)
		}
		if a := l.method(e); a != nil && a.State.Kind == StateValue {
			return +1 // s.fences.Contains(id)
		}
	}
	be, ok := e.(*ast.BinaryExpr)
	if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
		return 0
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	if !isNil(info, y) {
		return 0
	}
	absent := false
	if id, ok := x.(*ast.Ident); ok && l.value[info.ObjectOf(id)] {
		absent = true
	}
	if l.index(x) || l.call(x) == LookupNil {
		absent = true
	}
	if a := l.method(x); a != nil && a.State.Kind == StateValue {
		absent = true // s.fences.Check(id) == nil
	}
	if !absent {
		return 0
	}
	if be.Op == token.EQL {
		return -1
	}
	return +1
}

// Implies reports whether, for every key that is absent (or present, by
// p), cond evaluates to val.
func (l *Lookups) Implies(cond ast.Expr, val bool, p Presence) bool {
	return l.cond(cond, val, true, p)
}

// Only reports whether cond evaluates to val only for a key that is
// absent (or present, by p).
func (l *Lookups) Only(cond ast.Expr, val bool, p Presence) bool {
	return l.cond(cond, val, false, p)
}

// Takes reports whether a branch taken when cond is val is taken for keys
// that are absent (or present): every such key takes it, or only such
// keys do.
func (l *Lookups) Takes(cond ast.Expr, val bool, p Presence) bool {
	return l.Implies(cond, val, p) || l.Only(cond, val, p)
}

// cond decides Implies (every) and Only (!every), which are duals: a
// conjunction is val when both sides are, so "every such key makes it val"
// needs both sides to when val is true and either side to when val is
// false, and "only such keys make it val" the other way round; a
// disjunction the opposite.
func (l *Lookups) cond(cond ast.Expr, val, every bool, p Presence) bool {
	cond = ast.Unparen(cond)
	switch e := cond.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return l.cond(e.X, !val, every, p)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, y := l.cond(e.X, val, every, p), l.cond(e.Y, val, every, p)
			if (e.Op == token.LAND) == (val == every) {
				return x && y
			}
			return x || y
		}
	}
	a := l.atom(cond)
	if p == Present {
		a = -a
	}
	switch a {
	case +1:
		return !val
	case -1:
		return val
	}
	return false
}

// Branches returns the statement lists of body that run for a key that is
// absent (or present, by p): the branches of an if statement, or of a case
// of a tagless switch, that Takes says such keys take, and the statements
// after if cond {...; return} when every such key skips it.
func (l *Lookups) Branches(body *ast.BlockStmt, p Presence) [][]ast.Stmt {
	var out [][]ast.Stmt
	rest := func(list []ast.Stmt) {
		for i, s := range list {
			if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && terminates(is.Body) && l.Implies(is.Cond, false, p) {
				out = append(out, list[i+1:])
			}
		}
	}
	InspectOwn(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if l.Takes(n.Cond, true, p) {
				out = append(out, n.Body.List)
			}
			if n.Else != nil && l.Takes(n.Cond, false, p) {
				switch e := n.Else.(type) {
				case *ast.BlockStmt:
					out = append(out, e.List)
				case *ast.IfStmt:
					out = append(out, []ast.Stmt{e})
				}
			}
		case *ast.SwitchStmt:
			if n.Tag == nil {
				for _, cc := range n.Body.List {
					cc := cc.(*ast.CaseClause)
					if len(cc.List) == 1 && l.Takes(cc.List[0], true, p) {
						out = append(out, cc.Body)
					}
				}
			}
		case *ast.BlockStmt:
			rest(n.List)
		case *ast.CaseClause:
			rest(n.Body)
		case *ast.CommClause:
			rest(n.Body)
		}
		return true
	})
	return out
}

// onlyAt reports whether the code at pos in body runs only for a key that
// is absent (or present, by p): it is in the branch of an if statement, or
// of a case of a tagless switch, that only such keys take.
func (l *Lookups) onlyAt(body *ast.BlockStmt, pos token.Pos, p Presence) bool {
	found := false
	InspectOwn(body, func(n ast.Node) bool {
		if found || !within(pos, n) {
			return false
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			if within(pos, n.Body) && l.Only(n.Cond, true, p) || n.Else != nil && within(pos, n.Else) && l.Only(n.Cond, false, p) {
				found = true
			}
		case *ast.SwitchStmt:
			if n.Tag == nil {
				for _, cc := range n.Body.List {
					cc := cc.(*ast.CaseClause)
					if len(cc.List) == 1 && within(pos, cc) && pos >= cc.Colon && l.Only(cc.List[0], true, p) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// terminates reports whether a block ends in a return or a panic.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BranchStmt:
		return s.Tok == token.GOTO
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// nilable reports whether a value of type t can be nil.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Interface, *types.Chan, *types.Signature:
		return true
	}
	return false
}

func isBool(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, errorType)
}
