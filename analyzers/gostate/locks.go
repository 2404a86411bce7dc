package gostate

import (
	"go/ast"
	"go/types"
	"sort"
)

// Lock is a sync.Mutex or sync.RWMutex of a server.
type Lock struct {
	// Var is its field (of the server type or a struct it holds) or
	// package-level variable.
	Var      *types.Var
	RW       bool // a sync.RWMutex
	Embedded bool // an embedded field: s.Lock()
	// Guards are the map containers declared beside it (the fields of its
	// struct, or the package-level maps) when it is the only mutex there.
	Guards []*State
}

// LockOp says what a call does to a mutex.
type LockOp int

const (
	Acquire     LockOp = iota + 1 // Lock
	AcquireRead                   // RLock
	Release                       // Unlock, RUnlock
	TryAcquire                    // TryLock, TryRLock
)

// findLocks lists the mutexes of the server's struct types and of the
// package, and the containers each guards.
func (s *Server) findLocks() {
	var holders []*types.Named
	for t := range s.holders {
		holders = append(holders, t)
	}
	sort.Slice(holders, func(i, j int) bool { return holders[i].Obj().Pos() < holders[j].Obj().Pos() })
	var structs []*types.Struct
	for _, t := range holders {
		if str, ok := t.Underlying().(*types.Struct); ok {
			structs = append(structs, str)
		}
	}
	for _, str := range structs {
		var locks []*Lock
		for i := range str.NumFields() {
			f := str.Field(i)
			if isMutex(f.Type()) {
				locks = append(locks, &Lock{Var: f, RW: isRWMutex(f.Type()), Embedded: f.Embedded()})
			}
		}
		if len(locks) == 1 {
			for _, st := range s.State {
				if st.Kind == StateMap && st.Var.IsField() && declares(str, st.Var) {
					locks[0].Guards = append(locks[0].Guards, st)
					st.Guard = locks[0]
				}
			}
		}
		s.Locks = append(s.Locks, locks...)
	}
	var pkgLocks []*Lock
	for _, v := range s.res.packageMutexes() {
		pkgLocks = append(pkgLocks, &Lock{Var: v, RW: isRWMutex(v.Type())})
	}
	if len(pkgLocks) == 1 {
		for _, st := range s.State {
			if st.Kind == StateMap && st.Holder == HolderPackage && st.Var.Pkg() == s.res.pass.Pkg {
				pkgLocks[0].Guards = append(pkgLocks[0].Guards, st)
				st.Guard = pkgLocks[0]
			}
		}
	}
	s.Locks = append(s.Locks, pkgLocks...)
}

// packageMutexes returns the package-level mutexes, by name.
func (r *Result) packageMutexes() []*types.Var {
	if r.mutexes == nil {
		r.mutexes = []*types.Var{}
		scope := r.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			if v, ok := scope.Lookup(name).(*types.Var); ok && isMutex(v.Type()) {
				r.mutexes = append(r.mutexes, v)
			}
		}
	}
	return r.mutexes
}

func declares(str *types.Struct, v *types.Var) bool {
	for i := range str.NumFields() {
		if str.Field(i) == v {
			return true
		}
	}
	return false
}

// LockOp classifies a call of a sync.Mutex, sync.RWMutex or sync.Locker
// method, and returns the key of the mutex: its field or variable, so that
// s.mu in a handler and in the helper it calls is the same key (the
// expression's text for a mutex reached otherwise).
func (r *Result) LockOp(call *ast.CallExpr) (key any, op LockOp, ok bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, 0, false
	}
	fn, ok := r.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || fn.Signature().Recv() == nil {
		return nil, 0, false
	}
	recv, ok := deref(fn.Signature().Recv().Type()).(*types.Named)
	if !ok {
		return nil, 0, false
	}
	switch recv.Obj().Name() {
	case "Mutex", "RWMutex", "Locker":
	default:
		return nil, 0, false
	}
	switch fn.Name() {
	case "Lock":
		op = Acquire
	case "RLock":
		op = AcquireRead
	case "Unlock", "RUnlock":
		op = Release
	case "TryLock", "TryRLock":
		op = TryAcquire
	default:
		return nil, 0, false
	}
	return r.lockKey(sel), op, true
}

// lockKey identifies the mutex of a method selection.
func (r *Result) lockKey(sel *ast.SelectorExpr) any {
	info := r.pass.TypesInfo
	if s, ok := info.Selections[sel]; ok && len(s.Index()) > 1 {
		// A method promoted from an embedded mutex: s.Lock().
		t := deref(s.Recv())
		var field *types.Var
		for _, i := range s.Index()[:len(s.Index())-1] {
			st, ok := t.Underlying().(*types.Struct)
			if !ok || i >= st.NumFields() {
				field = nil
				break
			}
			field = st.Field(i)
			t = deref(field.Type())
		}
		if field != nil {
			return field.Origin()
		}
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.SelectorExpr:
		if s, ok := info.Selections[x]; ok && s.Kind() == types.FieldVal {
			return s.Obj().(*types.Var).Origin()
		}
		if v, ok := info.Uses[x.Sel].(*types.Var); ok {
			return v
		}
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok {
			return v
		}
	}
	return types.ExprString(sel.X)
}

// GuardName names, where the map expression x is, the one mutex that
// guards it: "s.mu" for the only sync.Mutex or sync.RWMutex field of the
// struct x is a field of ("s" for an embedded one), "mu" for the only
// package-level mutex when x is a variable; "" when there is not exactly
// one.
func (r *Result) GuardName(x ast.Expr) string {
	info := r.pass.TypesInfo
	var found []string
	switch e := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if st, ok := deref(info.TypeOf(e.X)).Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				if isMutex(st.Field(i).Type()) {
					if st.Field(i).Embedded() {
						found = append(found, types.ExprString(e.X))
					} else {
						found = append(found, types.ExprString(e.X)+"."+st.Field(i).Name())
					}
				}
			}
		}
	case *ast.Ident:
		for _, v := range r.packageMutexes() {
			found = append(found, v.Name())
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

func isMutex(t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

func isRWMutex(t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	return ok && isMutex(t) && n.Obj().Name() == "RWMutex"
}
