package facts

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Fence is how a close keeps a late or retried seed from creating the
// session again.
type Fence struct {
	// Call is a call of the framework's ResourcesSessionFences.fence in
	// the close or what it reaches (Framework set).
	Call      *Call
	Framework bool
	// Record is, for a fence of the server's own, the close's record of
	// the session's id in a container (a write, add or setdefault keyed by
	// the session), and Check the seed's test of that container for the
	// id (nil when the test goes through a getter), under which it refuses
	// (Refusal: a raise, or a return of an error response).
	Record  *Access
	Check   *Access
	Refusal pyscan.Node
}

// Fences returns the fences of a close: calls of the framework's
// ResourcesSessionFences.fence in it or in what it reaches, and fences of
// the server's own: a container the close (or what it reaches) records
// the session's id in, and that the seed (or what it reaches) tests for
// that id and refuses on (a raise, or a return of a response with a 4xx
// status) when the id is there. A record without such a check is no
// fence: nothing keeps the seed from re-creating the session.
func (f *Facts) Fences(server gym.ClassRef, close *Func) []Fence {
	var out []Fence
	closeReach := map[*Func]bool{}
	for _, r := range f.Reach(server, close) {
		closeReach[r.Func] = true
		for _, c := range f.Calls(server, r.Func) {
			if f.IsFrameworkMethod(server, r.Func, c.Call, contract.FencesFence) {
				out = append(out, Fence{Call: c, Framework: true})
			}
		}
	}
	seed := f.Override(server, contract.SeedMethod)
	if seed == nil {
		return out
	}
	var seedReach []*Func
	for _, r := range f.Reach(server, seed) {
		seedReach = append(seedReach, r.Func)
	}
	for _, c := range f.StateOf(server).Containers {
		var record *Access
		for _, a := range c.Accesses {
			if closeReach[a.Func] && a.Kind.Writes() && a.KeyOf.Kind == KeySession {
				record = a
				break
			}
		}
		if record == nil {
			continue
		}
		check, refusal := f.refusesOn(server, c, seedReach)
		if refusal != nil {
			out = append(out, Fence{Record: record, Check: check, Refusal: refusal})
		}
	}
	return out
}

// refusesOn finds, in the seed's reach, a test of c for the session's id
// under which the seed refuses: a raise, or a return of a call with a 4xx
// status_code, that runs when the id is in c.
func (f *Facts) refusesOn(server gym.ClassRef, c *Container, seedReach []*Func) (*Access, pyscan.Node) {
	wanted := func(x *Container) bool { return x == c }
	for _, fn := range seedReach {
		var check *Access
		var refusal pyscan.Node
		walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
			if refusal != nil {
				return
			}
			ctx := pyscan.ContextOf(stack)
			refuses := false
			switch n := n.(type) {
			case *pyscan.Raise:
				refuses = n.Exc != nil
			case *pyscan.Return:
				if call, ok := n.Value.(*pyscan.Call); ok {
					if st, ok := f.statusOf(fn.Module, call.Keyword("status_code")); ok && st >= 400 && st < 500 {
						refuses = true
					}
				}
			}
			if !refuses {
				return
			}
			l, ok := f.Present(server, fn, ctx.Guards, wanted)
			if !ok || f.KeyOf(server, fn, l.Key).Kind != KeySession {
				return
			}
			for _, a := range c.Accesses {
				if a.Func == fn && l.Test != nil && l.Test.Range().Contains(a.Node.Range()) {
					check = a
				}
			}
			refusal = n
		})
		if refusal != nil {
			return check, refusal
		}
	}
	return nil, nil
}
