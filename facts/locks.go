package facts

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// LockKind says what a lock serializes.
type LockKind uint8

// The kinds of lock.
const (
	// LockSession: the framework's ResourcesSessionLocks.locked(id), or a
	// lock kept per session in a container (`self._locks[sid]`,
	// `self._locks.setdefault(sid, asyncio.Lock())`).
	LockSession LockKind = iota
	// LockServer: one lock for the whole server (`self._lock`), which
	// serializes every session's requests.
	LockServer
)

// Lock is a with statement that holds a lock over its body.
type Lock struct {
	With *pyscan.With
	Item pyscan.WithItem
	Kind LockKind
	// Key is the session key of a per-session lock (nil for a
	// server-wide one, and when not known).
	Key pyscan.Expr
	// Framework is set for ResourcesSessionLocks.locked.
	Framework bool
}

// lockClasses are the lock types of the standard library and anyio, by
// qualified name.
var lockClasses = map[string]bool{
	"asyncio.Lock": true, "asyncio.locks.Lock": true, "asyncio.Semaphore": true, "asyncio.BoundedSemaphore": true,
	"threading.Lock": true, "threading.RLock": true, "anyio.Lock": true, "trio.Lock": true,
	"asyncio.Condition": true, "threading.Condition": true,
}

// Locks returns the with statements of fn's own body that hold a lock:
// the framework's ResourcesSessionLocks.locked(id) (on a receiver that
// holds one, or of a class that refers to the class, see
// IsFrameworkMethod); a lock of the server's state (an attribute or a
// container whose values are given a lock type's instance, as
// `self._lock = asyncio.Lock()` or `self._locks[sid] = asyncio.Lock()`);
// or, when what a receiver attribute holds is not known, an attribute,
// subscript or local whose name says it is a lock ("lock" in the name:
// a server-wide asyncio.Lock serializes too, so gymlint does not
// second-guess it).
func (f *Facts) Locks(server gym.ClassRef, fn *Func) []Lock {
	var out []Lock
	walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
		w, ok := n.(*pyscan.With)
		if !ok {
			return
		}
		for _, it := range w.Items {
			if l, ok := f.lockOf(server, fn, it.Context, 0); ok {
				l.With, l.Item = w, it
				out = append(out, l)
				break
			}
		}
	})
	return out
}

func (f *Facts) lockOf(server gym.ClassRef, fn *Func, e pyscan.Expr, depth int) (Lock, bool) {
	if depth > 3 {
		return Lock{}, false
	}
	switch e := e.(type) {
	case *pyscan.Call:
		if f.IsFrameworkMethod(server, fn, e, contract.LocksLocked) {
			return Lock{Kind: LockSession, Key: e.Positional(0), Framework: true}, true
		}
		if l, ok := f.lockHelper(server, fn, e, depth); ok {
			return l, true
		}
		a, ok := e.Func.(*pyscan.Attribute)
		if !ok {
			return Lock{}, false
		}
		switch a.Attr {
		case "setdefault", "get", "__getitem__":
			// self._locks.setdefault(sid, asyncio.Lock())
			if f.holdsLocks(server, fn, a.Value) {
				return Lock{Kind: LockSession, Key: e.Positional(0)}, true
			}
		case "acquire":
			return f.lockOf(server, fn, a.Value, depth+1)
		}
	case *pyscan.Subscript:
		if f.holdsLocks(server, fn, e.Value) {
			return Lock{Kind: LockSession, Key: e.Index}, true
		}
	case *pyscan.Attribute:
		if f.isLock(server, fn, e) {
			return Lock{Kind: LockServer}, true
		}
	case *pyscan.Name:
		for _, v := range f.Values(fn, e.Id) {
			if v.Expr != nil && !v.Aug && !v.Enter {
				if l, ok := f.lockOf(server, v.Func, v.Expr, depth+1); ok {
					return l, true
				}
			}
		}
		if f.lockName(e.Id) && f.isLocal(fn, e.Id) {
			return Lock{Kind: LockServer}, true
		}
	}
	return Lock{}, false
}

// lockHelper reports whether a call runs a repository function that
// returns a lock on every path (`def _lock(self, sid): return
// self._locks.setdefault(sid, asyncio.Lock())`, a lock dict of the
// server's behind a helper). A per-session lock keyed by a parameter of the
// helper is keyed by the call's argument for it.
func (f *Facts) lockHelper(server gym.ClassRef, fn *Func, e *pyscan.Call, depth int) (Lock, bool) {
	var target *Func
	for _, c := range f.Calls(server, fn) {
		if c.Call == e {
			target = c.Target
			break
		}
	}
	if target == nil || target == fn {
		return Lock{}, false
	}
	var found Lock
	n, bad := 0, false
	walkOwn(target.Fn, func(node pyscan.Node, stack []pyscan.Node) {
		r, ok := node.(*pyscan.Return)
		if !ok || bad || pyscan.ContextOf(stack).Deferred {
			return
		}
		l, ok := f.lockOf(server, target, r.Value, depth+1)
		if !ok {
			bad = true
			return
		}
		found, n = l, n+1
	})
	if bad || n == 0 {
		return Lock{}, false
	}
	if k, ok := found.Key.(*pyscan.Name); ok {
		found.Key = nil // a local of the helper: not known here
		params := target.Fn.Params
		if target.Recv != "" && len(params) > 0 {
			params = params[1:]
		}
		for i, p := range params {
			if p.Name == k.Id && p.Kind != pyscan.ParamKwOnly && p.Kind != pyscan.ParamVarArgs && p.Kind != pyscan.ParamVarKwargs {
				found.Key = e.Positional(i)
				break
			}
		}
	}
	return found, true
}

// isLock reports whether a receiver attribute holds a lock: it is given
// an instance of a lock type, or, when nothing says what it holds, its
// name says it is one.
func (f *Facts) isLock(server gym.ClassRef, fn *Func, a *pyscan.Attribute) bool {
	d := pyscan.Dotted(a)
	if d == "" || fn.Recv == "" || rootName(d) != fn.Recv || server.Class == nil {
		return false
	}
	vals := f.attrs(server)[d[len(fn.Recv):]]
	known := false
	for _, av := range vals {
		if av.Value == nil {
			continue
		}
		known = true
		if f.lockValue(av.Module, av.Value) {
			return true
		}
	}
	return !known && f.lockName(a.Attr)
}

// holdsLocks reports whether a container holds locks: its writes store a
// lock type's instance, it is a defaultdict of one, or, when nothing says
// what it holds, its name says so.
func (f *Facts) holdsLocks(server gym.ClassRef, fn *Func, obj pyscan.Expr) bool {
	if c := f.ContainerOf(server, fn, obj); c != nil {
		for _, a := range c.Accesses {
			if a.Value != nil && f.lockValue(a.Func.Module, a.Value) {
				return true
			}
		}
	}
	d := pyscan.Dotted(obj)
	if d != "" && fn.Recv != "" && rootName(d) == fn.Recv && server.Class != nil {
		for _, av := range f.attrs(server)[d[len(fn.Recv):]] {
			// defaultdict(asyncio.Lock)
			if c, ok := av.Value.(*pyscan.Call); ok && f.v.QualifiedName(av.Module, c.Func) == "collections.defaultdict" {
				if f.lockClass(av.Module, c.Positional(0)) {
					return true
				}
			}
		}
	}
	if a, ok := obj.(*pyscan.Attribute); ok {
		return f.lockName(a.Attr)
	}
	if n, ok := obj.(*pyscan.Name); ok {
		return f.lockName(n.Id)
	}
	return false
}

func (f *Facts) lockValue(m *pyscan.Module, e pyscan.Expr) bool {
	c, ok := e.(*pyscan.Call)
	return ok && f.lockClass(m, c.Func)
}

func (f *Facts) lockClass(m *pyscan.Module, e pyscan.Expr) bool {
	return e != nil && lockClasses[f.v.QualifiedName(m, e)]
}

// lockName reports whether an identifier says it names a lock (the lock
// words, Words).
func (f *Facts) lockName(name string) bool { return f.Words().Has(WordLock, name) }
