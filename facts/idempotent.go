package facts

import "github.com/gymlint/gymlint/pyscan"

// LockValue reports whether an expression of module m constructs a lock
// (asyncio.Lock(), threading.Lock(), ...): a value stored per session
// that serializes the session's requests rather than holding its state.
func (f *Facts) LockValue(m *pyscan.Module, e pyscan.Expr) bool { return f.lockValue(m, e) }
