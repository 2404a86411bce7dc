// Facts several rules ask, kept here rather than in one rule's file: the
// tests a seed makes for a record that already exists, and the fence reads
// of a hook (GL310, GL311 and GL322 ask for them).

package sessions

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/pyscan"
)

// conflictTest finds, among the guards of a statement of fn, a comparison
// of the body's episode_id with a recorded one that holds where the
// statement runs when the episodes differ.
func conflictTest(f *facts.Facts, h hook, fn *facts.Func, state *facts.State, guards []pyscan.Guard) (pyscan.Expr, bool) {
	for _, g := range guards {
		var found pyscan.Expr
		pyscan.Inspect(g.Test, func(n pyscan.Node, stack []pyscan.Node) bool {
			c, ok := n.(*pyscan.Compare)
			if !ok || len(c.Ops) != 1 || found != nil {
				return found == nil
			}
			differ := c.Ops[0] == pyscan.NotEq || c.Ops[0] == pyscan.IsNot
			same := c.Ops[0] == pyscan.Eq || c.Ops[0] == pyscan.Is
			if !differ && !same {
				return true
			}
			// Which way the guard goes on the comparison: negations on the
			// way down (`not (a == b)`), and the else of the guard.
			neg := g.Negated
			for _, s := range stack[:len(stack)-1] {
				if u, ok := s.(*pyscan.UnaryOp); ok && u.Op == pyscan.Not {
					neg = !neg
				}
			}
			if differ == neg {
				return true
			}
			l, r := c.Left, c.Comparators[0]
			if bodyEpisode(f, fn, l) && recorded(f, h, fn, state, r, 0) || bodyEpisode(f, fn, r) && recorded(f, h, fn, state, l, 0) {
				found = c
			}
			return found == nil
		})
		if found != nil {
			return found, true
		}
	}
	return nil, false
}

// fenceReads returns the hook's fence checks:
// ResourcesSessionFences.raise_if_fenced(k) and .get(k).
func fenceReads(h hook) []recordAccess {
	var out []recordAccess
	m := h.fn.Module
	for _, c := range h.f.Calls(h.server.Class, h.fn) {
		key := c.Call.Positional(0)
		if key == nil {
			continue
		}
		if h.f.IsFrameworkMethod(h.server.Class, h.fn, c.Call, contract.FencesRaiseIfFenced) || h.f.IsFrameworkMethod(h.server.Class, h.fn, c.Call, contract.FencesGet) {
			out = append(out, recordAccess{key: key, span: c.Call.Span, at: c.Call.Start,
				what: "the fence, " + oneLine(m.Text(c.Call.Func)) + "(" + oneLine(m.Text(key)) + ")", fence: true})
		}
	}
	return out
}

// bodyEpisode reports whether e is `<param>.episode_id` of a request body
// parameter of fn.
func bodyEpisode(f *facts.Facts, fn *facts.Func, e pyscan.Expr) bool {
	a, ok := e.(*pyscan.Attribute)
	if !ok || a.Attr != "episode_id" {
		return false
	}
	n, ok := a.Value.(*pyscan.Name)
	if !ok || n.Id == fn.Recv {
		return false
	}
	for _, v := range f.Values(fn, n.Id) {
		if v.Param != nil && v.Func == fn {
			return true
		}
	}
	return false
}

// recorded reports whether e is something the server recorded: a read of
// a container of its state (subscript, get, pop), or a fence's record
// (ResourcesSessionFences.get), directly, through attributes of one, or
// through a local bound to one.
func recorded(f *facts.Facts, h hook, fn *facts.Func, state *facts.State, e pyscan.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	switch e := e.(type) {
	case *pyscan.Attribute:
		return recorded(f, h, fn, state, e.Value, depth+1)
	case *pyscan.Subscript:
		if f.ContainerOf(h.server.Class, fn, e.Value) != nil {
			return true
		}
		return recorded(f, h, fn, state, e.Value, depth+1)
	case *pyscan.Call:
		if a, ok := e.Func.(*pyscan.Attribute); ok && (a.Attr == "get" || a.Attr == "pop") {
			if f.ContainerOf(h.server.Class, fn, a.Value) != nil {
				return true
			}
			if f.IsFrameworkMethod(h.server.Class, fn, e, contract.FencesGet) {
				return true
			}
		}
	case *pyscan.Name:
		for _, v := range f.Values(fn, e.Id) {
			if v.Expr != nil && !v.Aug && !v.Enter && recorded(f, h, v.Func, state, v.Expr, depth+1) {
				return true
			}
		}
	}
	return false
}

// recordAccess is a read or a write of one record of a per-session
// container.
type recordAccess struct {
	c     *facts.Container // nil for a fence read
	key   pyscan.Expr
	span  pyscan.Span
	at    int32  // when the access happens: a store happens after its value
	what  string // "self.X[k]", for messages
	fence bool   // a read of the session's fence, which stands for every container
}
