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
	Doc: `## What it does
Reports a resources server's ` + "`close_resources_session`" + ` override that releases the session's state (` + "`del`" + `,
` + "`pop`" + `, ` + "`discard`" + `, ... of a container of the server, in the close or in what it reaches, as in GL303) only
by the session cookie's id (` + "`request.session[SESSION_ID_KEY]`" + `, ` + "`request.session[\"session_id\"]`" + ` or
` + "`request.session.get(...)`" + `, directly or through a local or a helper's parameter) and never by
` + "`body.resources_session_id`" + `. A close that compares the cookie with the body's id, or fences the body's
id, but releases by the cookie is reported too: what counts is the key the state is released with. A
close that releases no keyed state but reads the cookie's id is reported when it uses the body's id as
no key at all. The finding is at the first read of the cookie's id.

## Why it matters
An Environment Server closes a session whose seed reply was lost too, and that close carries no
session cookie. An app built without session routing (under a TestClient) also gives the close a new
random id. Only ` + "`body.resources_session_id`" + ` names the session in every case, so a close keyed by the
cookie misses exactly the sessions most likely to leak.

## Example
` + "```python" + `
    async def close_resources_session(self, request: Request, body: ResourcesCloseSessionRequest):
        self.envs.pop(request.session[SESSION_ID_KEY], None)
        ...
` + "```" + `

## How to fix
Release by the body's id (it names the same session as the cookie when both are present):
` + "```python" + `
        self.envs.pop(body.resources_session_id, None)
` + "```",
}

func runCloseKeyedByCookie(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, CloseMethod) {
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
