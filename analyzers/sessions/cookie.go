package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// CloseKeyedByCookie is rule GL305.
var CloseKeyedByCookie = &diag.Rule{
	Code: "GL305", Name: "close-keyed-by-cookie", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CloseSession},
	Summary: "A close_resources_session override finds the session through the session cookie only, not body.resources_session_id.",
	Doc:     ruleDoc("GL305"),
}

func runCloseKeyedByCookie(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.CloseMethod) {
		f := h.f
		reach := f.Reach(h.server.Class, h.fn)
		in := map[*facts.Func]bool{}
		for _, r := range reach {
			in[r.Func] = true
		}
		var byCookie []*facts.Access
		byBody, keyedByBody := false, false
		for _, c := range f.StateOf(h.server.Class).Containers {
			for _, a := range c.Accesses {
				if !in[a.Func] || a.KeyOf.Kind != facts.KeySession {
					continue
				}
				if a.KeyOf.From&facts.FromBody != 0 {
					keyedByBody = true
				}
				if !a.Kind.Releases() {
					continue
				}
				if a.KeyOf.From&facts.FromBody != 0 {
					byBody = true
				} else if a.KeyOf.From&facts.FromCookie != 0 {
					byCookie = append(byCookie, a)
				}
			}
		}
		if byBody || len(byCookie) == 0 && keyedByBody {
			continue
		}
		var first *cookieRead
		for _, r := range reach {
			if cr := firstCookieRead(f, h, r.Func); cr != nil {
				first = cr
				break
			}
		}
		if first == nil {
			continue
		}
		how := "and never uses body.resources_session_id"
		if len(byCookie) > 0 {
			a := byCookie[0]
			how = fmt.Sprintf("and releases its state by it (%s, line %d)", clip(a.Func.Module.Text(a.Node), 60), a.Func.Module.Line(a.Node.Range().Start))
		}
		msg := fmt.Sprintf(
			"%s.close_resources_session%s finds the session through the session cookie only (%s) %s",
			h.owner().Name, via(h, first.in), first.text, how)
		m := first.in.Module
		start, end := gym.Range(m, first.node.Range())
		d := CloseKeyedByCookie.New(m.Path, start, end, msg)
		d.Help = "release the state by body.resources_session_id, which a close without the cookie carries too"
		var cookieWrites []*facts.Access
		for _, sc := range f.SessionState(h.server.Class) {
			for _, w := range sc.Writes {
				if w.KeyOf.Kind == facts.KeySession && w.KeyOf.From&facts.FromBody == 0 {
					cookieWrites = append(cookieWrites, w)
				}
			}
		}
		d.Related = writesRelated(cookieWrites)
		out = append(out, d)
	}
	return out
}

// cookieRead is a read of the session cookie's id.
type cookieRead struct {
	in   *facts.Func
	node pyscan.Node
	text string
}

// firstCookieRead finds the first read of the session cookie's id in fn's
// own body: `<x>.session[SESSION_ID_KEY]` or `<x>.session.get(...)` with a
// session id key, where <x> is not the receiver.
func firstCookieRead(f *facts.Facts, h hook, fn *facts.Func) *cookieRead {
	var out *cookieRead
	m := fn.Module
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		if out != nil {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class:
			return false
		case *pyscan.Subscript, *pyscan.Call:
			e := n.(pyscan.Expr)
			k := f.KeyOf(h.server.Class, fn, e)
			if k.Kind != facts.KeySession || k.From != facts.FromCookie || !directCookie(e) {
				return true
			}
			text := oneLine(m.Text(e))
			if c, ok := e.(*pyscan.Call); ok {
				text = oneLine(m.Text(c.Func)) + "(" + oneLine(m.Text(c.Positional(0))) + ")"
			}
			out = &cookieRead{in: fn, node: n, text: text}
			return false
		}
		return true
	})
	return out
}

// directCookie reports whether e reads the cookie itself (x.session[k],
// x.session.get(k)), not through a local.
func directCookie(e pyscan.Expr) bool {
	switch e := e.(type) {
	case *pyscan.Subscript:
		a, ok := e.Value.(*pyscan.Attribute)
		return ok && a.Attr == "session"
	case *pyscan.Call:
		g, ok := e.Func.(*pyscan.Attribute)
		if !ok || g.Attr != "get" {
			return false
		}
		a, ok := g.Value.(*pyscan.Attribute)
		return ok && a.Attr == "session"
	}
	return false
}
