package sessions

import (
	"fmt"
	"slices"

	"github.com/gymlint/gymlint/analyzers/pyfix"
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
		d.Fixes = cookieFix(h, reach, byCookie, len(cookieWrites) > 0)
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

// cookieFix is GL305's fix: the close's state is released by
// `<body>.resources_session_id`, <body> being its parameter annotated as
// the framework's close request. When the close's own body never names a
// resources_session_id, every read of the cookie's id in it is replaced
// (`sid = request.session[SESSION_ID_KEY]` becomes `sid =
// body.resources_session_id`, so what sid keys follows); when it does (it
// compares the cookie with the body's id, or fences the body's id), only
// the keys of the releases by the cookie are, so the comparison stays. None
// when a function the close reaches reads the cookie itself, a release by
// the cookie's id is keyed by anything else than a read of it or a local,
// or the close writes or deletes the cookie's id.
//
// Safe when nothing is written under the cookie's id: under session
// routing the cookie carries the body's id, so the close releases what it
// did, and also when the cookie is missing, the bug. Unsafe when the seed
// (or another method) writes state under the cookie's id: without session
// routing (a TestClient app) the cookie's id is random and the close would
// no longer find that state until those writes use the body's id too.
func cookieFix(h hook, reach []facts.Reached, byCookie []*facts.Access, cookieWrites bool) []diag.Fix {
	f, fn := h.f, h.fn
	v, m := f.View(), fn.Module
	if m.SyntaxError != nil || len(byCookie) == 0 {
		return nil
	}
	body := ""
	for _, p := range fn.Fn.Params {
		if p.Name != fn.Recv && p.Kind != pyscan.ParamVarArgs && p.Kind != pyscan.ParamVarKwargs &&
			isFrameworkClass(v, m, p.Annotation, contract.CloseRequestClass) {
			body = p.Name
			break
		}
	}
	if body == "" {
		return nil
	}
	for _, r := range reach {
		if r.Func != fn && firstCookieRead(f, h, r.Func) != nil {
			return nil
		}
	}
	// The close's own reads of the cookie's id, and whether it names a
	// resources_session_id.
	var reads []pyscan.Expr
	names, stores := false, false
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class:
			return false
		case *pyscan.Attribute:
			if n.Attr == contract.SessionIDField {
				names = true
			}
		case *pyscan.Subscript, *pyscan.Call:
			e := n.(pyscan.Expr)
			if k := f.KeyOf(h.server.Class, fn, e); k.Kind != facts.KeySession || k.From != facts.FromCookie || !directCookie(e) {
				return true
			}
			if len(stack) >= 2 {
				switch p := stack[len(stack)-2].(type) {
				case *pyscan.Assign:
					for _, t := range p.Targets {
						if t == e {
							stores = true
						}
					}
				case *pyscan.AugAssign:
					stores = stores || p.Target == e
				case *pyscan.AnnAssign:
					stores = stores || p.Target == e
				case *pyscan.Delete:
					stores = true
				}
			}
			reads = append(reads, e)
			return false
		}
		return true
	})
	if stores {
		return nil
	}
	to := body + "." + contract.SessionIDField
	var edits []diag.TextEdit
	if !names {
		for _, e := range reads {
			edits = append(edits, pyfix.Replace(m, e.Range(), to))
		}
	} else {
		for _, a := range byCookie {
			if a.Func != fn || a.Key == nil {
				return nil
			}
			_, local := a.Key.(*pyscan.Name)
			if !local && !slices.Contains(reads, a.Key) {
				return nil
			}
			edits = append(edits, pyfix.Replace(m, a.Key.Range(), to))
		}
	}
	if len(edits) == 0 {
		return nil
	}
	app := diag.Safe
	if cookieWrites {
		app = diag.Unsafe
	}
	return []diag.Fix{{Message: "Release the state by " + to, Edits: edits, Applicability: app}}
}
