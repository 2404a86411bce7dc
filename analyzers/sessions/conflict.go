package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// PlainExceptionInCloseConflict is rule GL311.
var PlainExceptionInCloseConflict = &diag.Rule{
	Code: "GL311", Name: "plain-exception-in-close-conflict", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CloseSession, contract.SessionConflictError},
	Summary: "A close_resources_session override answers a close that names another episode with a plain exception (HTTP 500) instead of ResourcesSessionConflictError (409).",
	Doc:     ruleDoc("GL311"),
}

func runPlainExceptionInCloseConflict(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.CloseMethod) {
		f := h.f
		state := f.StateOf(h.server.Class)
		for _, r := range f.Escapes(h.server.Class, h.fn) {
			if r.Missing != nil || r.Validation != nil {
				continue
			}
			x := r.Exc
			plain := r.Assert || x.Name != "" && x.Framework == "" && (x.Status == 500 || x.IsHTTP() && x.Status >= 500)
			if !plain {
				continue
			}
			test, ok := conflictTest(f, h, r.In, state, r.Ctx.Guards)
			if !ok {
				continue
			}
			m := r.In.Module
			what := "an assert statement (AssertionError)"
			if r.Raise != nil {
				what = raiseWhat(f, r.In, r.Raise)
			}
			node := r.Node
			hm := h.fn.Module
			if len(r.Via) > 0 {
				node = r.Via[0].Call
			}
			start, end := gym.Range(hm, node.Range())
			answer := ": FastAPI answers it with HTTP 500"
			if !r.Assert && x.IsHTTP() {
				answer = ""
			}
			d := PlainExceptionInCloseConflict.New(hm.Path, start, end, fmt.Sprintf(
				"%s.close_resources_session%s raises %s when the close names another episode than the one recorded (`%s`)%s",
				h.owner().Name, via(h, r.In), what, clip(m.Text(test), 80), answer))
			d.Help = "raise ResourcesSessionConflictError(detail) instead (HTTP 409, which is not retried)"
			d.Related = []diag.Related{gym.Related(m, test.Range(), "this test finds another episode")}
			if len(r.Via) > 0 {
				d.Related = append(d.Related, gym.Related(m, r.Node.Range(), r.In.Name()+" raises here"))
			}
			d.Related = append(d.Related, h.inherited(contract.CloseMethod)...)
			out = append(out, d)
		}
	}
	return out
}

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
