package sessions

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// CloseSwallowsFailure is rule GL304.
var CloseSwallowsFailure = &diag.Rule{
	Code: "GL304", Name: "close-swallows-failure", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CloseSession},
	Summary: "A close_resources_session override catches the failure of releasing state and does not re-raise.",
	Doc:     ruleDoc("GL304"),
}

// goneErrors are exceptions that say that what a close releases is
// already gone.
var goneErrors = map[string]bool{
	"KeyError": true, "LookupError": true, "IndexError": true, "FileNotFoundError": true,
	"ProcessLookupError": true, "NotFound": true, "NotFoundError": true,
}

func runCloseSwallowsFailure(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[pyscan.Node]bool{}
	for _, h := range hooks(v, contract.CloseMethod) {
		f := h.f
		reach := f.Reach(h.server.Class, h.fn)
		var calls []release
		for _, r := range releases(h, reach) {
			if r.call != nil {
				calls = append(calls, r)
			}
		}
		if len(calls) == 0 {
			continue
		}
		for _, r := range reach {
			fn := r.Func
			var mine []release
			for _, c := range calls {
				if c.in == fn {
					mine = append(mine, c)
				}
			}
			if len(mine) == 0 {
				continue
			}
			out = append(out, swallowedIn(h, fn, mine, seen)...)
		}
		out = append(out, fencedFirst(h, reach, calls)...)
	}
	return out
}

// swallowedIn finds the handlers and suppress blocks of fn that swallow
// the failure of one of its release calls.
func swallowedIn(h hook, fn *facts.Func, calls []release, seen map[pyscan.Node]bool) []diag.Diagnostic {
	f := h.f
	m := fn.Module
	var out []diag.Diagnostic
	inBody := func(body pyscan.Span) *release {
		for i := range calls {
			if body.Contains(calls[i].node.Range()) {
				return &calls[i]
			}
		}
		return nil
	}
	raises := raiseStarts(fn)
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Try:
			rel := inBody(n.BodySpan)
			if rel == nil || raisesAfter(raises, n.Span) || sweep(h, fn, stack) {
				return true
			}
			for _, hd := range n.Handlers {
				if reraises(hd) || catchesOnlyGone(f, fn, hd.Types()) || seen[hd] {
					continue
				}
				seen[hd] = true
				kw := pyscan.Span{Start: hd.Start, End: hd.Start + int32(len("except"))}
				out = append(out, swallowDiag(h, fn, kw, "with "+handlerText(m, hd), rel, "re-raise after logging (`raise`), or let the exception propagate"))
			}
		case *pyscan.With:
			for _, it := range n.Items {
				c, ok := it.Context.(*pyscan.Call)
				if !ok || seen[n] || f.View().QualifiedName(m, c.Func) != "contextlib.suppress" || f.IsLocal(fn, rootOf(c.Func)) {
					continue
				}
				var args []pyscan.Expr
				for _, a := range c.Args {
					args = append(args, a.Value)
				}
				if catchesOnlyGone(f, fn, args) {
					continue
				}
				if rel := inBody(n.BodySpan); rel != nil && !sweep(h, fn, stack) {
					seen[n] = true
					out = append(out, swallowDiag(h, fn, c.Span, "with "+oneLine(m.Text(c)), rel, "take "+rel.what+" out of the "+oneLine(m.Text(c.Func))+" block and let its failure propagate"))
				}
			}
		}
		return true
	})
	return out
}

// fencedFirst reports a close that fences the session, in a function it
// reaches, before a call of that function that releases a resource.
func fencedFirst(h hook, reach []facts.Reached, calls []release) []diag.Diagnostic {
	f := h.f
	var out []diag.Diagnostic
	for _, fe := range f.Fences(h.server.Class, h.fn) {
		var in *facts.Func
		var at pyscan.Node
		var what string
		switch {
		case fe.Framework:
			in, at, what = fe.Call.In, fe.Call.Call, oneLine(fe.Call.In.Module.Text(fe.Call.Call.Func))+"(...)"
		case fe.Record != nil:
			in, at, what = fe.Record.Func, fe.Record.Node, "the record in "+fe.Record.Container.Name
		default:
			continue
		}
		for i := range calls {
			c := &calls[i]
			if c.in != in || c.node.Range().Start < at.Range().End {
				continue
			}
			m := in.Module
			start, end := gym.Range(m, at.Range())
			d := CloseSwallowsFailure.New(m.Path, start, end, fmt.Sprintf(
				"%s.close_resources_session%s fences the session (%s) before it releases the session's state (%s, line %d)",
				h.owner().Name, via(h, in), what, c.what, m.Line(c.node.Range().Start)))
			d.Help = "fence the session only after " + c.what + " succeeded"
			d.Related = []diag.Related{gym.Related(m, c.node.Range(), "the release that may fail")}
			out = append(out, d)
			break
		}
	}
	return out
}

// swallowDiag is the finding of a handler or suppress block (how) that
// swallows the failure of a release; help says how to let it out.
func swallowDiag(h hook, in *facts.Func, at pyscan.Span, how string, r *release, help string) diag.Diagnostic {
	msg := fmt.Sprintf(
		"%s.close_resources_session%s catches the failure of releasing the session's state (%s) %s and does not re-raise",
		h.owner().Name, via(h, in), r.what, how)
	start, end := gym.Range(in.Module, at)
	d := CloseSwallowsFailure.New(in.Module.Path, start, end, msg)
	d.Help = help
	d.Related = []diag.Related{gym.Related(in.Module, r.node.Range(), "the release that may fail")}
	if in != h.fn {
		d.Related = append(d.Related, gym.Related(h.fn.Module, h.fn.Fn.NameSpan, "close_resources_session reaches it"))
	}
	return d
}

// sweep reports whether a statement sits in a loop over the server's
// state: a close that goes over other sessions.
func sweep(h hook, fn *facts.Func, stack []pyscan.Node) bool {
	for _, n := range stack {
		loop, ok := n.(*pyscan.For)
		if !ok {
			continue
		}
		iter := loop.Iter
		if c, ok := iter.(*pyscan.Call); ok {
			// list(self.envs.items()), self.envs.values()
			if a, ok := c.Func.(*pyscan.Attribute); ok && (a.Attr == "items" || a.Attr == "values" || a.Attr == "keys") {
				iter = a.Value
			} else if inner := c.Positional(0); inner != nil {
				iter = inner
				if c2, ok := inner.(*pyscan.Call); ok {
					if a, ok := c2.Func.(*pyscan.Attribute); ok && (a.Attr == "items" || a.Attr == "values" || a.Attr == "keys") {
						iter = a.Value
					}
				}
			}
		}
		if h.f.ContainerOf(h.server.Class, fn, iter) != nil {
			return true
		}
	}
	return false
}

// handlerText is how a message names an except clause.
func handlerText(m *pyscan.Module, h *pyscan.Handler) string {
	ts := h.Types()
	if len(ts) == 0 {
		return "a bare except"
	}
	var out []string
	for _, t := range ts {
		out = append(out, oneLine(m.Text(t)))
	}
	if len(out) == 1 {
		return "except " + out[0]
	}
	return "except (" + strings.Join(out, ", ") + ")"
}

// catchesOnlyGone reports whether every exception type listed is an
// "already gone" error; false for none.
func catchesOnlyGone(f *facts.Facts, fn *facts.Func, types []pyscan.Expr) bool {
	if len(types) == 0 {
		return false
	}
	for _, t := range types {
		d := pyscan.Dotted(t)
		if d == "" {
			return false
		}
		abs := f.View().Resolve(fn.Module, d).Dotted
		if abs == "" {
			return false
		}
		if !goneErrors[abs[strings.LastIndexByte(abs, '.')+1:]] {
			return false
		}
	}
	return true
}

// reraises reports whether an except clause's own statements (not nested
// functions') contain a raise statement.
func reraises(h *pyscan.Handler) bool {
	found := false
	pyscan.InspectBody(h.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Raise:
			found = true
		}
		return !found
	})
	return found
}

// raiseStarts lists where the raise statements of fn's own body start.
func raiseStarts(fn *facts.Func) []int32 {
	var out []int32
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Raise:
			out = append(out, n.Start)
		}
		return true
	})
	return out
}

// raisesAfter reports whether a raise statement starts after the span.
func raisesAfter(raises []int32, s pyscan.Span) bool {
	for _, r := range raises {
		if r >= s.End {
			return true
		}
	}
	return false
}

// rootOf is the first name of a dotted callee, or "".
func rootOf(e pyscan.Expr) string {
	if r := pyscan.Root(e); r != nil {
		return r.Id
	}
	return ""
}
