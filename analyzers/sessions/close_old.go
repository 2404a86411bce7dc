//go:build ignore

package sessions

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks,
		gym.Check{Rule: SeedWithoutClose, Run: runSeedWithoutClose},
		gym.Check{Rule: CloseWithoutFence, Run: runCloseWithoutFence},
		gym.Check{Rule: CloseSwallowsFailure, Run: runCloseSwallowsFailure},
		gym.Check{Rule: CloseKeyedByCookie, Run: runCloseKeyedByCookie},
	)
}

// adHocClose are method names that look like a close the Environment
// Server does not call.
var adHocClose = []string{"close_session", "close", "end_session", "cleanup_session", "delete_session", "release_session", "cleanup", "teardown"}

func runSeedWithoutClose(v *gym.View) []diag.Diagnostic {
	type group struct {
		owner   gym.ClassRef
		seed    *pyscan.Function
		states  []State
		servers []gym.Server
		notes   []string
		related []diag.Related
	}
	var order []*pyscan.Function
	groups := map[*pyscan.Function]*group{}
	for _, s := range ResourcesServers(v) {
		owner, seed, ok := Override(v, s.Class, SeedMethod)
		if !ok {
			continue
		}
		var seedStates []State
		for _, st := range States(v, s) {
			if st.Method == seed {
				seedStates = append(seedStates, st)
			}
		}
		if len(seedStates) == 0 {
			continue
		}
		d := v.Lookup(s.Class, CloseMethod)
		if d.Uncertain || d.Found() {
			continue
		}
		g := groups[seed]
		if g == nil {
			g = &group{owner: owner, seed: seed, states: seedStates}
			groups[seed] = g
			order = append(order, seed)
		}
		g.servers = append(g.servers, s)
		if d.Shadowed != nil && d.Shadowed.Method != nil {
			sh := d.Shadowed.Class
			note := fmt.Sprintf("the close_resources_session override on %s is shadowed by the framework's default, because %s comes before %s in %s's method resolution order (list %s first in the bases)",
				sh.Class.Name, d.ShadowedBy.Name, sh.Class.Name, s.Class.Class.Name, sh.Class.Name)
			if !slices.Contains(g.notes, note) {
				g.notes = append(g.notes, note)
				g.related = append(g.related, RelatedAt(sh.Module, d.Shadowed.Method.NameSpan, "close_resources_session on "+sh.Class.Name+" is shadowed by "+d.ShadowedBy.Name))
			}
		}
		for _, meth := range Methods(v, s.Class) {
			if slices.Contains(adHocClose, meth.Func.Name) {
				note := fmt.Sprintf("%s.%s is not called by the environment server: serve the close as close_resources_session", meth.Class.Class.Name, meth.Func.Name)
				if !slices.Contains(g.notes, note) {
					g.notes = append(g.notes, note)
					g.related = append(g.related, RelatedAt(meth.Class.Module, meth.Func.NameSpan, meth.Class.Class.Name+"."+meth.Func.Name+" looks like a close, but /close_session does not call it"))
				}
				break
			}
		}
	}
	var out []diag.Diagnostic
	for _, seed := range order {
		g := groups[seed]
		var names []string
		for _, s := range g.servers {
			names = append(names, s.Class.Class.Name)
		}
		who, keeps, has := g.owner.Class.Name, "keeps", "has"
		if len(g.servers) != 1 || g.servers[0].Class.Class != g.owner.Class {
			who = fmt.Sprintf("%s (seed_session of %s)", strings.Join(names, ", "), g.owner.Class.Name)
		}
		if len(g.servers) > 1 {
			keeps, has = "keep", "have"
		}
		msg := fmt.Sprintf(
			"%s %s per-session state in seed_session (%s) but %s no close_resources_session override, so /close_session keeps the framework's default, which releases nothing and fences nothing: override close_resources_session to release the state by body.resources_session_id, fence the session with ResourcesSessionFences.fence, and raise when releasing fails",
			who, keeps, g.states[0].Where(), has)
		if len(g.notes) > 0 {
			msg += "; " + strings.Join(g.notes, "; ")
		}
		start, end := Span(g.owner.Class.NameSpan)
		d := SeedWithoutClose.New(g.owner.Module.Path, start, end, msg)
		d.Related = append(d.Related, stateRelated(g.states)...)
		for _, s := range g.servers {
			if s.Class.Class != g.owner.Class && len(d.Related) < 2*maxRelated {
				d.Related = append(d.Related, RelatedAt(s.Class.Module, s.Class.Class.NameSpan, "server "+s.Class.Class.Name+" inherits this seed_session and has no close"))
			}
		}
		d.Related = append(d.Related, g.related...)
		out = append(out, d)
	}
	return out
}

func stateRelated(states []State) []diag.Related {
	var out []diag.Related
	for i, st := range states {
		if i == maxRelated {
			break
		}
		out = append(out, st.Related())
	}
	return out
}

// closeOverride is a server's close override with what it reaches.
type closeOverride struct {
	server gym.Server
	owner  gym.ClassRef
	fn     *pyscan.Function
	reach  []Method
}

// closeOverrides returns the close_resources_session override of each
// resources server, once per override.
func closeOverrides(v *gym.View) []closeOverride {
	var out []closeOverride
	done := map[*pyscan.Function]bool{}
	for _, s := range ResourcesServers(v) {
		owner, fn, ok := Override(v, s.Class, CloseMethod)
		if !ok || done[fn] || owner.Module.SyntaxError != nil {
			continue
		}
		done[fn] = true
		out = append(out, closeOverride{server: s, owner: owner, fn: fn, reach: Reach(v, s.Class, Method{Class: owner, Func: fn})})
	}
	return out
}

// Reach returns start and the functions it reaches through calls, breadth
// first: methods of the server called as `self.m(...)` (the definitions
// that win in the server's MRO), `super().m(...)` (the next definition in
// the repository after the calling class, until a framework server
// class), and functions of the repository's modules (outside the
// framework) called by name (their Class has a nil Class). Nested
// functions are not followed.
func Reach(v *gym.View, server gym.ClassRef, start Method) []Method {
	out := []Method{start}
	seen := map[*pyscan.Function]bool{start.Func: true}
	for i := 0; i < len(out) && len(out) < maxReach; i++ {
		cur := out[i]
		recv := ""
		if cur.Class.Class != nil {
			recv = cur.Func.Receiver()
		}
		for _, c := range cur.Func.Calls {
			var next Method
			d := c.Callee.Dotted
			switch {
			case recv != "" && strings.HasPrefix(d, recv+".") && strings.Count(d, ".") == 1:
				if def := v.Lookup(server, d[len(recv)+1:]); def.Found() && def.Method != nil {
					next = Method{Class: def.Class, Func: def.Method}
				}
			case cur.Class.Class != nil && strings.HasPrefix(strings.ReplaceAll(c.Callee.Text, " ", ""), "super()."):
				name := strings.TrimPrefix(strings.ReplaceAll(c.Callee.Text, " ", ""), "super().")
				next = nextDef(v, server, cur.Class.Class, name)
			case d != "" && !strings.Contains(d, "."):
				next = repoFunction(v, cur.Class.Module, d)
			}
			if next.Func == nil || seen[next.Func] {
				continue
			}
			seen[next.Func] = true
			out = append(out, next)
		}
	}
	return out
}

// nextDef finds the definition of name that super() reaches from class
// after in the server's MRO, or nothing when a framework server class
// comes first.
func nextDef(v *gym.View, server gym.ClassRef, after *pyscan.Class, name string) Method {
	mro, _ := v.MRO(server)
	passed := false
	for _, a := range mro {
		if !passed {
			passed = a.Class.Class == after
			continue
		}
		switch a.Kind {
		case gym.Own:
			if m := a.Class.Class.Method(name); m != nil {
				return Method{Class: a.Class, Func: m}
			}
		case gym.FrameworkServer, gym.Unresolved:
			return Method{}
		}
	}
	return Method{}
}

// repoFunction finds the module-level function a name denotes in m, when
// it is defined in a repository module outside the framework.
func repoFunction(v *gym.View, m *pyscan.Module, name string) Method {
	abs := Absolute(v, m, name)
	i := strings.LastIndexByte(abs, '.')
	if i < 0 || strings.HasPrefix(abs, "builtins.") || v.IsFrameworkModule(abs) {
		return Method{}
	}
	file := v.ModuleFile("", 0, abs[:i])
	if file == "" {
		return Method{}
	}
	mod, err := v.Module(file)
	if err != nil || mod == nil || mod.SyntaxError != nil {
		return Method{}
	}
	var fn *pyscan.Function
	for _, f := range mod.Functions {
		if f.Name == abs[i+1:] {
			fn = f
		}
	}
	if fn == nil {
		return Method{}
	}
	return Method{Class: gym.ClassRef{Module: mod}, Func: fn}
}

// release is a place where a function releases state.
type release struct {
	in   Method
	span pyscan.Span
	what string
	call bool // a call that releases a resource (not a container removal)
}

var containerRemovals = map[string]bool{"pop": true, "popitem": true, "clear": true, "discard": true, "remove": true, "__delitem__": true}

// reReleaseVerb matches the last name of a call that releases a resource.
var reReleaseVerb = regexp.MustCompile(`(?i)(?:^|_)(?:a?close|stop|kill|terminate|shutdown|release|delete|destroy|cleanup|clean_up|teardown|tear_down|dispose)(?:_|$)`)

// releases lists where a function releases state: removals from a
// container of the server, and calls whose last name says they release a
// resource.
func releases(meth Method) []release {
	fn, m := meth.Func, meth.Class.Module
	recv := ""
	if meth.Class.Class != nil {
		recv = fn.Receiver()
	}
	var out []release
	for _, st := range fn.Stores {
		if st.Op == "del" && st.Key != nil && container(m, recv, st.Target.Dotted) {
			out = append(out, release{in: meth, span: st.Span, what: "del " + oneLine(st.Target.Text)})
		}
	}
	for _, c := range fn.Calls {
		d := c.Callee.Dotted
		last := d
		if i := strings.LastIndexByte(d, '.'); i >= 0 {
			last = d[i+1:]
		}
		if d == "" {
			t := c.Callee.Text
			if i := strings.LastIndexByte(t, '.'); i >= 0 {
				last = strings.TrimSpace(t[i+1:])
			}
		}
		if last == CloseMethod || last == SeedMethod || strings.HasPrefix(strings.ReplaceAll(c.Callee.Text, " ", ""), "super().") {
			continue // followed by Reach instead
		}
		switch {
		case d != "" && containerRemovals[last] && strings.Contains(d, ".") && container(m, recv, d[:len(d)-len(last)-1]):
			out = append(out, release{in: meth, span: c.Span, what: oneLine(d) + "(...)"})
		case reReleaseVerb.MatchString(last) && last != "remove" && !strings.HasPrefix(last, "pop"):
			out = append(out, release{in: meth, span: c.Span, what: oneLine(c.Callee.Text) + "(...)", call: true})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].span.Start.Offset < out[j].span.Start.Offset })
	return out
}

// fences returns the fence calls of the functions.
func fences(v *gym.View, ms []Method) []*pyscan.Call {
	var out []*pyscan.Call
	for _, meth := range ms {
		for _, c := range meth.Func.Calls {
			if FrameworkCall(v, meth.Class, c, "ResourcesSessionFences.fence") {
				out = append(out, c)
			}
		}
	}
	return out
}

// via names the function a finding is in when it is not the close itself.
func via(co closeOverride, in Method) string {
	if in.Func == co.fn {
		return ""
	}
	if in.Class.Class != nil {
		return " (through " + in.Class.Class.Name + "." + in.Func.Name + ")"
	}
	return " (through " + in.Func.Name + ")"
}

func runCloseWithoutFence(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, co := range closeOverrides(v) {
		var rels []release
		for _, meth := range co.reach {
			rels = append(rels, releases(meth)...)
		}
		states := States(v, co.server)
		if len(rels) == 0 && len(states) == 0 {
			continue
		}
		if len(fences(v, co.reach)) > 0 {
			continue
		}
		var what string
		if len(rels) > 0 {
			what = "releases the session's state (" + rels[0].what + ")"
		} else {
			what = "belongs to a server that keeps per-session state (" + states[0].Where() + ")"
		}
		msg := fmt.Sprintf(
			"%s.close_resources_session %s but never fences the session, so a late or retried seed re-creates a session that was closed: after releasing, call fence(body.resources_session_id, record) on a ResourcesSessionFences built with the config's session_close_retry_window_seconds, and start seed_session with raise_if_fenced",
			co.owner.Class.Name, what)
		start, end := Span(co.fn.NameSpan)
		d := CloseWithoutFence.New(co.owner.Module.Path, start, end, msg)
		for i, r := range rels {
			if i == maxRelated {
				break
			}
			d.Related = append(d.Related, RelatedAt(r.in.Class.Module, r.span, "the state is released here"+via(co, r.in)))
		}
		d.Related = append(d.Related, stateRelated(states)...)
		out = append(out, d)
	}
	return out
}

// goneErrors are exceptions that say that what a close releases is
// already gone.
var goneErrors = map[string]bool{
	"KeyError": true, "LookupError": true, "IndexError": true, "FileNotFoundError": true,
	"ProcessLookupError": true, "NotFound": true, "NotFoundError": true,
}

func runCloseSwallowsFailure(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[pyscan.Span]bool{}
	for _, co := range closeOverrides(v) {
		for _, meth := range co.reach {
			fn, m := meth.Func, meth.Class.Module
			var calls []release
			for _, r := range releases(meth) {
				if r.call {
					calls = append(calls, r)
				}
			}
			if len(calls) == 0 {
				continue
			}
			for _, t := range fn.Tries {
				var inBody *release
				for i := range calls {
					if Within(calls[i].span, t.Body) {
						inBody = &calls[i]
						break
					}
				}
				if inBody == nil || raisesAfter(fn, t.Span) {
					continue
				}
				for _, h := range t.Handlers {
					if h.Reraises || catchesOnlyGone(v, m, h.Types) || seen[h.Span] {
						continue
					}
					seen[h.Span] = true
					kw := h.Span
					kw.End = kw.Start
					kw.End.Offset += len("except")
					kw.End.Col += len("except")
					out = append(out, swallowDiag(co, meth, kw, "with "+handlerText(h), inBody))
				}
			}
			for _, w := range fn.Withs {
				for _, it := range w.Items {
					if !it.Call || Absolute(v, m, it.Dotted) != "contextlib.suppress" || seen[w.Span] {
						continue
					}
					var args []pyscan.Expr
					for _, c := range fn.Calls {
						if c.Span == it.Span {
							args = c.Args
						}
					}
					if catchesOnlyGone(v, m, args) {
						continue
					}
					for i := range calls {
						if Within(calls[i].span, w.Body) {
							seen[w.Span] = true
							out = append(out, swallowDiag(co, meth, it.Span, "with "+oneLine(it.Text), &calls[i]))
							break
						}
					}
				}
			}
		}
	}
	return out
}

func swallowDiag(co closeOverride, in Method, at pyscan.Span, how string, r *release) diag.Diagnostic {
	msg := fmt.Sprintf(
		"%s.close_resources_session%s catches the failure of releasing the session's state (%s) %s and does not re-raise, so the caller records the session closed and never retries the close: re-raise after logging (`raise`), or let the exception propagate",
		co.owner.Class.Name, via(co, in), r.what, how)
	start, end := Span(at)
	d := CloseSwallowsFailure.New(in.Class.Module.Path, start, end, msg)
	d.Related = []diag.Related{RelatedAt(in.Class.Module, r.span, "the release that may fail")}
	if in.Func != co.fn {
		d.Related = append(d.Related, RelatedAt(co.owner.Module, co.fn.NameSpan, "close_resources_session reaches it"))
	}
	return d
}

// handlerText is how a message names an except clause.
func handlerText(h *pyscan.Handler) string {
	if len(h.Types) == 0 {
		return "a bare except"
	}
	var ts []string
	for _, t := range h.Types {
		ts = append(ts, oneLine(t.Text))
	}
	if len(ts) == 1 {
		return "except " + ts[0]
	}
	return "except (" + strings.Join(ts, ", ") + ")"
}

// catchesOnlyGone reports whether every exception type listed is an
// "already gone" error; false for none.
func catchesOnlyGone(v *gym.View, m *pyscan.Module, types []pyscan.Expr) bool {
	if len(types) == 0 {
		return false
	}
	for _, t := range types {
		abs := Absolute(v, m, t.Dotted)
		if t.Dotted == "" || abs == "" {
			return false
		}
		last := abs[strings.LastIndexByte(abs, '.')+1:]
		if !goneErrors[last] {
			return false
		}
	}
	return true
}

// raisesAfter reports whether fn has a raise statement after the span.
func raisesAfter(fn *pyscan.Function, s pyscan.Span) bool {
	for _, r := range fn.Raises {
		if !r.Assert && r.Span.Start.Offset >= s.End.Offset {
			return true
		}
	}
	return false
}

func runCloseKeyedByCookie(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, co := range closeOverrides(v) {
		var first *pyscan.Span
		var firstIn Method
		var firstText string
		mentions := false
		for _, meth := range co.reach {
			if mentionsBodyID(v, meth) {
				mentions = true
				break
			}
			if sp, text, ok := cookieRead(v, meth); ok && first == nil {
				first, firstIn, firstText = &sp, meth, text
			}
		}
		if mentions || first == nil {
			continue
		}
		msg := fmt.Sprintf(
			"%s.close_resources_session%s finds the session through the session cookie only (%s) and never uses body.resources_session_id; a close whose seed reply was lost carries no cookie, so its session is never released: release the state by body.resources_session_id",
			co.owner.Class.Name, via(co, firstIn), firstText)
		start, end := Span(*first)
		d := CloseKeyedByCookie.New(firstIn.Class.Module.Path, start, end, msg)
		var cookieStates []State
		for _, st := range States(v, co.server) {
			if st.Key == KeySession {
				cookieStates = append(cookieStates, st)
			}
		}
		d.Related = stateRelated(cookieStates)
		out = append(out, d)
	}
	return out
}

// cookieRead finds the first read of the session cookie's id in a
// function: `<x>.session[SESSION_ID_KEY]` or `<x>.session.get(...)` with a
// session id key, where <x> is not the receiver.
func cookieRead(v *gym.View, meth Method) (pyscan.Span, string, bool) {
	fn, m := meth.Func, meth.Class.Module
	recv := fn.Receiver()
	isCookie := func(obj string) bool {
		i := strings.IndexByte(obj, '.')
		return i > 0 && obj[i:] == ".session" && obj[:i] != recv
	}
	type hit struct {
		span pyscan.Span
		text string
	}
	var hits []hit
	for _, s := range fn.Subscripts {
		if isCookie(s.Object.Dotted) && sessionIDKey(v, m, s.Key.Text) {
			hits = append(hits, hit{s.Span, oneLine(s.Object.Text + "[" + s.Key.Text + "]")})
		}
	}
	for _, c := range fn.Calls {
		d := c.Callee.Dotted
		if strings.HasSuffix(d, ".get") && isCookie(strings.TrimSuffix(d, ".get")) && len(c.Args) > 0 && sessionIDKey(v, m, c.Args[0].Text) {
			hits = append(hits, hit{c.Span, oneLine(d + "(" + c.Args[0].Text + ")")})
		}
	}
	if len(hits) == 0 {
		return pyscan.Span{}, "", false
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].span.Start.Offset < hits[j].span.Start.Offset })
	return hits[0].span, hits[0].text, true
}

// reBodyIDUse is a use of the body's id in source text: an attribute or a
// string key (`body.resources_session_id`, `body["resources_session_id"]`,
// `getattr(body, "resources_session_id")`), not a keyword argument of a
// response (`ResourcesCloseSessionResponse(resources_session_id=sid)`).
var reBodyIDUse = regexp.MustCompile(`\.\s*resources_session_id\b|["']resources_session_id["']`)

// mentionsBodyID reports whether a function uses resources_session_id.
func mentionsBodyID(v *gym.View, meth Method) bool {
	for _, r := range meth.Func.Refs {
		if strings.HasSuffix(r.Dotted, ".resources_session_id") {
			return true
		}
	}
	src, err := v.Source(meth.Class.Module.Path)
	if err != nil || meth.Func.Span.End.Offset > len(src) {
		return true // cannot tell: say nothing
	}
	return reBodyIDUse.Match(src[meth.Func.Span.Start.Offset:meth.Func.Span.End.Offset])
}
