package sessions

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// LostSessionAsObservation is rule GL309.
var LostSessionAsObservation = &diag.Rule{
	Code: "GL309", Name: "lost-session-as-observation", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.SessionLostError},
	Summary: "A tool route answers a missing session with an observation or an HTTP 4xx other than 404 instead of raising ResourcesSessionLostError.",
	Doc:     ruleDoc("GL309"),
}

// notToolRoute reports whether a method is no tool route: a lifecycle
// method of the framework (contract.LifecycleMethods), a dunder, or one
// whose name says it starts or ends a session (the session-edge words,
// facts.Words).
func notToolRoute(f *facts.Facts, name string) bool {
	return slices.Contains(contract.LifecycleMethods, name) || f.Words().Has(facts.WordSessionEdge, name) || strings.HasPrefix(name, "__")
}

// toolFunc is a function that serves a tool route.
type toolFunc struct {
	fn      *facts.Func
	route   string      // the route function it is reached from ("" when it is one)
	factory *facts.Func // the factory that built it
}

func runLostSessionAsObservation(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	done := map[*facts.Func]bool{}
	for _, s := range ResourcesServers(v) {
		ss := sessionState(f, s.Class)
		if len(ss) == 0 {
			continue
		}
		closed := closedSets(f, s.Class)
		h := hook{f: f, server: s}
		made, inSeed := seedMade(f, s.Class)
		tfs := toolRoutes(f, s.Class)
		// The routes each helper serves, for a help that names them all.
		h.routesOf = map[*facts.Func][]string{}
		for _, tf := range tfs {
			if tf.route == "" {
				for _, r := range f.Reach(s.Class, tf.fn) {
					if r.Func != tf.fn && !slices.Contains(h.routesOf[r.Func], tf.fn.Fn.Name) {
						h.routesOf[r.Func] = append(h.routesOf[r.Func], tf.fn.Fn.Name)
					}
				}
			}
		}
		for _, tf := range tfs {
			if done[tf.fn] || tf.fn.Module.SyntaxError != nil || inSeed[tf.fn] {
				continue
			}
			done[tf.fn] = true
			ds := lostAsObservation(h, tf, ss, closed, made)
			out = append(out, ds...)
			rs := recreates(h, tf, made, len(ds) > 0)
			out = append(out, rs...)
			if len(ds) == 0 && len(rs) == 0 {
				out = append(out, bareSubscript(h, tf, ss)...)
			}
		}
	}
	return out
}

// closedSets returns the containers that record closed sessions: the
// records of the server's own fences, and receiver attributes that hold
// the framework's ResourcesSessionFences.
func closedSets(f *facts.Facts, server gym.ClassRef) map[*facts.Container]bool {
	set := map[*facts.Container]bool{}
	if cl := f.Override(server, contract.CloseMethod); cl != nil {
		for _, fe := range f.Fences(server, cl) {
			if fe.Record != nil {
				set[fe.Record.Container] = true
			}
		}
	}
	for _, c := range f.StateOf(server).Containers {
		for _, cls := range f.AttrClasses(server, c.Key) {
			if cls == contract.SessionFencesClass {
				set[c] = true
			}
		}
	}
	return set
}

// toolRoutes returns the functions that serve a server's tool routes:
// registered routes, methods nothing else refers to, and the methods they
// reach through the receiver.
func toolRoutes(f *facts.Facts, server gym.ClassRef) []toolFunc {
	methods := f.Methods(server)
	referenced := map[*facts.Func]bool{}
	for _, m := range methods {
		for _, x := range append([]*facts.Func{m}, nestedAll(f, m)...) {
			for _, c := range f.Calls(server, x) {
				if c.How == facts.CallSelf && c.Target != nil && c.Target != m {
					referenced[c.Target] = true
				}
			}
			for _, t := range f.MethodRefs(server, x) {
				if t != m {
					referenced[t] = true
				}
			}
		}
	}
	var out []toolFunc
	seen := map[*facts.Func]bool{}
	add := func(tf toolFunc) {
		if !seen[tf.fn] {
			seen[tf.fn] = true
			out = append(out, tf)
		}
	}
	for _, r := range f.Routes(server) {
		if r.Standard || r.Handler == nil {
			continue
		}
		if r.Handler.Outer == nil && notToolRoute(f, r.Handler.Fn.Name) {
			continue
		}
		add(toolFunc{fn: r.Handler, factory: r.Factory})
	}
	for _, m := range methods {
		if !referenced[m] && !notToolRoute(f, m.Fn.Name) {
			add(toolFunc{fn: m})
		}
	}
	// What the routes reach through the receiver.
	for i := 0; i < len(out); i++ {
		cur := out[i]
		route := cur.route
		if route == "" {
			route = cur.fn.Fn.Name
		}
		var next []*facts.Func
		for _, c := range f.Calls(server, cur.fn) {
			if (c.How == facts.CallSelf || c.How == facts.CallDelegate) && c.Target != nil {
				next = append(next, c.Target)
			}
		}
		next = append(next, f.MethodRefs(server, cur.fn)...)
		for _, t := range next {
			if notToolRoute(f, t.Fn.Name) {
				continue
			}
			add(toolFunc{fn: t, route: route})
		}
	}
	return out
}

// nestedAll returns the functions nested in fn, at any depth.
func nestedAll(f *facts.Facts, fn *facts.Func) []*facts.Func {
	var out []*facts.Func
	var walk func(x *facts.Func)
	walk = func(x *facts.Func) {
		pyscan.InspectBody(x.Fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
			switch n := n.(type) {
			case *pyscan.Function:
				nf := f.Nested(x, n)
				out = append(out, nf)
				walk(nf)
				return false
			case *pyscan.Class:
				return false
			}
			return true
		})
	}
	walk(fn)
	return out
}

// lostAsObservation returns the GL309 findings of one tool function.
func lostAsObservation(h hook, tf toolFunc, ss, closed map[*facts.Container]bool, made map[*facts.Container]*facts.Func) []diag.Diagnostic {
	f := h.f
	fn := tf.fn
	m := fn.Module
	if lazyCreates(h, fn, ss, made) {
		return nil
	}
	owner := fn.Owner().Class
	name := fn.Name()
	if tf.factory != nil {
		name = fn.Fn.Name + " (built by " + tf.factory.Name() + ")"
	} else if fn.Outer != nil {
		name = fn.Fn.Name + " (in " + fn.Outer.Name() + ")"
	}
	reach := ""
	if tf.route != "" && fn.Class != nil {
		reach = " (reached from the tool route " + tf.route + ")"
	}
	_ = owner
	fix := lostFixFor(f.View())
	if tf.route != "" && reachedFromVerify(f, h.server.Class, fn) {
		// A helper verify shares: a 404 raised in it would answer verify
		// too, which must give a masked sample.
		routes := h.routesOf[fn]
		if len(routes) == 0 {
			routes = []string{tf.route}
		}
		where := "the tool route " + routes[0]
		if len(routes) > 1 {
			where = "the tool routes " + strings.Join(routes, ", ")
			if len(routes) > 3 {
				where = fmt.Sprintf("the tool routes %s and %d more", strings.Join(routes[:3], ", "), len(routes)-3)
			}
		}
		fix = "in " + where + ", when " + fn.Name() + " finds no state, " + fix + "; not in " + fn.Name() + " itself, which verify also calls and must answer with a masked sample"
	}
	var out []diag.Diagnostic
	walkBody(fn, func(n pyscan.Node, stack []pyscan.Node, ctx pyscan.Context) {
		var value pyscan.Expr
		switch n := n.(type) {
		case *pyscan.Raise:
			if n.Exc == nil {
				return
			}
		case *pyscan.Return:
			if n.Value == nil || pyscan.IsNone(n.Value) {
				return
			}
			value = n.Value
		default:
			return
		}
		miss, ok := missingAt(h, fn, ss, stack, ctx)
		when := ""
		if ok {
			if made[miss.look.Container] == nil && createsUnder(h, fn, ss, miss) {
				return
			}
			when = miss.describe(m)
		} else if l, present := f.Present(h.server.Class, fn, ctx.Guards, func(c *facts.Container) bool { return closed[c] }); present {
			miss = missing{look: l}
			for i := range ctx.Guards {
				if ctx.Guards[i].Test == l.Test {
					miss.guard = &ctx.Guards[i]
				}
			}
			when = fmt.Sprintf("the session was closed (`%s`)", clip(m.Text(l.Test), 80))
		} else {
			return
		}
		start, end := gym.Range(m, n.Range())
		var d diag.Diagnostic
		if r, ok := n.(*pyscan.Raise); ok {
			x := f.ExcOf(m, r.Exc)
			switch {
			case x.Framework != "" || x.Name == "":
				return
			case x.IsHTTP():
				c, isCall := r.Exc.(*pyscan.Call)
				if !isCall {
					return
				}
				code, ok := f.HTTPStatus(m, c)
				if !ok || code < 400 || code > 499 || code == 404 {
					return
				}
				d = LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
					"%s%s raises HTTP %d when %s, not the 404 (ResourcesSessionLostError) that harnesses and logs recognise as a lost session",
					name, reach, code, when))
				d.Help = fix
			case x.Status == 500:
				d = LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
					"%s%s raises %s when %s: FastAPI answers it with HTTP 500",
					name, reach, raiseWhat(f, fn, r), when))
				d.Help = fix
			default:
				return
			}
		} else {
			what := "an observation"
			if code, ok := returnedStatus(f, m, value); ok {
				if code == 404 {
					return
				}
				what = "HTTP " + strconv.Itoa(code)
			} else if _, ok := value.(*pyscan.Constant); ok && pyscan.IsConst(value, pyscan.ConstStr) {
				what = "the string " + clip(m.Text(value), 60)
			} else if _, ok := value.(*pyscan.FString); ok {
				what = "the string " + clip(m.Text(value), 60)
			}
			d = LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
				"%s%s answers with %s (`%s`) when %s, instead of a 404 (ResourcesSessionLostError) that harnesses and logs recognise as a lost session",
				name, reach, what, clip(m.Text(value), 60), when))
			d.Help = fix
		}
		d.Related = append(miss.related(m), stateRelated(h, miss.look.Container)...)
		d.Fixes = lostRaiseFix(h, tf, n.(pyscan.Stmt), ctx)
		out = append(out, d)
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Offset < out[j].Start.Offset })
	return out
}

// walkBody visits the nodes of fn's own body outside lambdas, with their
// stack from fn and their context.
func walkBody(fn *facts.Func, visit func(n pyscan.Node, stack []pyscan.Node, ctx pyscan.Context)) {
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, st []pyscan.Node) bool {
		switch n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Raise, *pyscan.Return:
			stack := append([]pyscan.Node{fn.Fn}, st...)
			visit(n, stack, pyscan.ContextOf(stack))
		}
		return true
	})
}

// lazyCreates reports whether a function creates per-session state with
// setdefault: a get-or-create, not a lookup that can miss. A container
// the seed already makes is not started lazily: re-creating it answers a
// lost session as a new one (recreates).
func lazyCreates(h hook, fn *facts.Func, ss map[*facts.Container]bool, made map[*facts.Container]*facts.Func) bool {
	for c := range ss {
		if made[c] != nil {
			continue
		}
		for _, a := range c.Accesses {
			if a.Func == fn && a.Kind == facts.SetDefault {
				return true
			}
		}
	}
	return false
}

// createsUnder reports whether the function writes the missing container
// under the same test: the branch starts the session instead of answering
// that it is gone.
func createsUnder(h hook, fn *facts.Func, ss map[*facts.Container]bool, miss missing) bool {
	if miss.guard == nil {
		return false
	}
	c := miss.look.Container
	for _, a := range c.Accesses {
		if a.Func != fn || a.Kind != facts.Write {
			continue
		}
		for _, g := range a.Ctx().Guards {
			if g.Test == miss.guard.Test && g.Negated == miss.guard.Negated {
				return true
			}
		}
	}
	return false
}

// returnedStatus returns the status_code= of a returned call.
func returnedStatus(f *facts.Facts, m *pyscan.Module, e pyscan.Expr) (int, bool) {
	c, ok := e.(*pyscan.Call)
	if !ok {
		return 0, false
	}
	arg := c.Keyword("status_code")
	if arg == nil {
		return 0, false
	}
	if x, ok := arg.(*pyscan.Constant); ok {
		n, ok := x.Int()
		return int(n), ok
	}
	return f.HTTPStatus(m, &pyscan.Call{Args: []pyscan.Arg{{Kind: pyscan.Keyword, Name: "status_code", Value: arg}}})
}

// seedMade returns the containers of per-session state that what starts a
// session writes, and the functions that start it: the seed and what it
// reaches, and every method whose name says it starts or ends a session
// (the session-edge words: `reset` of a Gymnasium protocol, which makes the
// session's record on its first step) with what it reaches. Only writes
// count, so a close among them makes nothing.
func seedMade(f *facts.Facts, server gym.ClassRef) (made map[*facts.Container]*facts.Func, reach map[*facts.Func]bool) {
	made, reach = map[*facts.Container]*facts.Func{}, map[*facts.Func]bool{}
	var starts []*facts.Func
	if seed := f.Override(server, contract.SeedMethod); seed != nil {
		starts = append(starts, seed)
	}
	for _, m := range f.Methods(server) {
		name := m.Fn.Name
		if name != contract.SeedMethod && name != contract.CloseMethod && name != contract.RetireMethod &&
			!slices.Contains(contract.LifecycleMethods, name) && f.Words().Has(facts.WordSessionEdge, name) {
			starts = append(starts, m)
		}
	}
	for _, st := range starts {
		for _, r := range f.Reach(server, st) {
			reach[r.Func] = true
		}
	}
	for _, sc := range f.SessionState(server) {
		for _, w := range sc.Writes {
			if reach[w.Func] && (w.Kind == facts.Write || w.Kind == facts.SetDefault) && made[sc.Container] == nil {
				made[sc.Container] = w.Func
			}
		}
	}
	return made, reach
}

// recreates returns the GL309 findings of a tool function that answers a
// lost session as a new one: under the session's id, it re-creates a
// record the seed made (`self.X.setdefault(sid, 0)`, a write under a test
// that shows the record missing) or reads it with a default
// (`self.X.get(sid, {})`) instead of raising ResourcesSessionLostError.
//
// With reported set, the function already has a finding for a lost
// session: a write under the test that finding names is the same branch,
// and only a setdefault or a defaulted get, a statement of its own, is
// reported.
func recreates(h hook, tf toolFunc, made map[*facts.Container]*facts.Func, reported bool) []diag.Diagnostic {
	f, fn := h.f, tf.fn
	m := fn.Module
	name := fn.Name()
	if tf.factory != nil {
		name = fn.Fn.Name + " (built by " + tf.factory.Name() + ")"
	} else if fn.Outer != nil {
		name = fn.Fn.Name + " (in " + fn.Outer.Name() + ")"
	}
	if tf.route != "" && fn.Class != nil {
		name += " (reached from the tool route " + tf.route + ")"
	}
	wanted := func(c *facts.Container) bool { return made[c] != nil }
	cs := make([]*facts.Container, 0, len(made))
	for c := range made {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	for _, c := range cs {
		for _, a := range c.Accesses {
			if a.Func != fn || a.Key == nil || a.KeyOf.Kind != facts.KeySession {
				continue
			}
			how := ""
			switch a.Kind {
			case facts.SetDefault:
				how = "re-creates it with " + access(a)
			case facts.Write:
				if _, ok := f.Missing(h.server.Class, fn, a.Ctx().Guards, wanted); ok && !reported {
					how = "re-creates it when it is missing (" + access(a) + ")"
				}
			case facts.Get:
				if call, ok := a.Node.(*pyscan.Call); ok {
					// A default built from the request (the step's own
					// data) rebuilds the record, which needs no session.
					if d := call.Arg(1, "default"); d != nil && !pyscan.IsNone(d) && !f.FromInput(fn, d) {
						how = "reads it with a default (" + clip(m.Text(call), 60) + ")"
					}
				}
			}
			if how == "" {
				continue
			}
			start, end := gym.Range(m, a.Node.Range())
			d := LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
				"%s answers a lost session as a new one: %s makes the session's record in %s, and this %s",
				name, made[c].Name(), c.Name, how))
			d.Help = lostFixFor(h.f.View()) + "; " + made[c].Name() + " already made the record, so a missing one means the session is gone"
			d.Related = stateRelated(h, c)
			return []diag.Diagnostic{d}
		}
	}
	return nil
}

// lostFixFor is GL309's help: raise the framework's 404, or an
// HTTPException(404) when the repository's framework has none.
func lostFixFor(v *gym.View) string {
	if fw := lacks(v, contract.SessionLostError); fw != "" {
		return "raise HTTPException(status_code=404, detail=...) instead (" + fw + " has no ResourcesSessionLostError), which harnesses record as a failed tool call"
	}
	return "raise ResourcesSessionLostError(detail) instead (HTTP 404 with failure_kind session_lost), which harnesses record as a failed tool call and the verify answers with a masked sample"
}

// bareSubscript returns the GL309 finding of a tool function that reads
// the session's record by subscript with no test before it, so that a
// lost session's KeyError leaves the route (through any `except
// Exception: ...; raise` on the way) and FastAPI answers HTTP 500.
func bareSubscript(h hook, tf toolFunc, ss map[*facts.Container]bool) []diag.Diagnostic {
	f, fn := h.f, tf.fn
	if tf.route != "" {
		return nil // a helper: what its callers catch is theirs to say
	}
	for _, r := range f.Escapes(h.server.Class, fn) {
		if r.Missing == nil || !ss[r.Missing] {
			continue
		}
		sub, ok := r.Node.(*pyscan.Subscript)
		if !ok {
			continue
		}
		if key := f.KeyOf(h.server.Class, r.In, sub.Index); key.Kind != facts.KeySession && !f.SessionLike(key) {
			continue
		}
		if checkedBefore(r.Missing, r.In, sub.Span.Start) {
			continue
		}
		// A route (or a helper on the way) that looked the record up
		// before the call that reaches the subscript has answered a
		// missing one already.
		if slices.ContainsFunc(r.Via, func(c *facts.Call) bool { return checkedBefore(r.Missing, c.In, c.Call.Span.Start) }) {
			continue
		}
		m := r.In.Module
		name := fn.Name()
		if r.In != fn {
			name = r.In.Name() + " (reached from the tool route " + fn.Fn.Name + ")"
		}
		start, end := gym.Range(m, sub.Span)
		d := LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
			"%s reads the session's record with %s, which raises KeyError when the session's state is missing: FastAPI answers it with HTTP 500",
			name, clip(m.Text(sub), 60)))
		d.Help = "test for the record first (" + r.Missing.Name + ".get(...)) and " + lostFixFor(f.View())
		for i, t := range r.Through {
			d.Related = append(d.Related, gym.Related(r.ThroughIn[i].Module, t.Span, "the KeyError is caught here and raised again"))
		}
		d.Related = append(d.Related, stateRelated(h, r.Missing)...)
		return []diag.Diagnostic{d}
	}
	return nil
}

// checkedBefore reports whether the function looks the container up
// before offset at, a subscript or a call that reaches one (`if sid not in
// self.X: raise ...` then `self.X[sid]`): the subscript then runs only
// for a present record.
func checkedBefore(c *facts.Container, fn *facts.Func, at int32) bool {
	for _, a := range c.Accesses {
		if a.Func != fn || a.Node.Range().Start >= at {
			continue
		}
		switch a.Kind {
		case facts.Contains, facts.Get, facts.Pop, facts.SetDefault, facts.Read:
			return true
		}
	}
	return false
}

// reachedFromVerify reports whether the server's verify reaches fn.
func reachedFromVerify(f *facts.Facts, server gym.ClassRef, fn *facts.Func) bool {
	vf := f.Override(server, contract.VerifyMethod)
	if vf == nil {
		return false
	}
	for _, r := range f.Reach(server, vf) {
		if r.Func == fn {
			return true
		}
	}
	return false
}

// lostRaiseFix is GL309's fix of st, a raise or a return of a tool
// function that answers a lost session: raise the framework's
// ResourcesSessionLostError with the message the answer carried (else
// lostReason), or, on a framework without it, an HTTPException with 404.
// None where the 404 would not reach the caller as the answer's did: in a
// helper verify also calls, in a try statement, or (for a return or a
// raise of a plain exception) in a helper called inside a try or handed
// on without a call; nor for an HTTPException with more than a status and
// a detail.
func lostRaiseFix(h hook, tf toolFunc, st pyscan.Stmt, ctx pyscan.Context) []diag.Fix {
	f, fn := h.f, tf.fn
	v, m := f.View(), fn.Module
	if m.SyntaxError != nil || len(ctx.Tries) > 0 || reachedFromVerify(f, h.server.Class, fn) {
		return nil
	}
	var answer pyscan.Expr // the raised exception or the returned value
	var http *pyscan.Call  // a raised HTTPException(...)
	switch st := st.(type) {
	case *pyscan.Raise:
		answer = st.Exc
		if c, ok := st.Exc.(*pyscan.Call); ok && f.ExcOf(m, c).IsHTTP() {
			for i, a := range c.Args {
				if a.Kind != pyscan.Positional && a.Kind != pyscan.Keyword || a.Kind == pyscan.Positional && i > 1 ||
					a.Kind == pyscan.Keyword && a.Name != "status_code" && a.Name != "detail" {
					return nil
				}
			}
			http = c
		}
	case *pyscan.Return:
		answer = st.Value
	}
	if answer == nil || http == nil && tf.route != "" && !callersOutsideTry(f, h.server.Class, fn) {
		return nil
	}
	msg := messageOf(f, m, answer)
	if msg == "" {
		msg = pyfix.String(m, lostReason)
	}
	span := st.Range()
	var edits []diag.TextEdit
	var text, title string
	if lacks(v, contract.SessionLostError) == "" {
		name, imp, ok := pyfix.ImportFramework(v, m, contract.SessionLostErrorClass, span.Start)
		if !ok {
			return nil
		}
		edits, text, title = imp, name+"("+msg+")", "Raise "+contract.SessionLostErrorClass+" for the lost session"
	} else {
		title = "Answer the lost session with HTTP 404"
		if http != nil {
			// Keep the HTTPException; only its status changes.
			code := http.Arg(0, "status_code")
			if code == nil {
				return nil
			}
			to := "404"
			if a, ok := code.(*pyscan.Attribute); ok && strings.HasPrefix(a.Attr, "HTTP_") {
				to = m.Text(a.Value) + ".HTTP_404_NOT_FOUND"
			}
			if m.HasComment(code.Range()) {
				return nil
			}
			return []diag.Fix{{Message: title, Edits: []diag.TextEdit{pyfix.Replace(m, code.Range(), to)}, Applicability: diag.Unsafe}}
		}
		name, imp, ok := pyfix.Import(v, m, "fastapi", "HTTPException", span.Start)
		if !ok {
			return nil
		}
		edits, text = imp, name+"(status_code=404, detail="+msg+")"
	}
	// What the fix replaces must hold no comment, which it would drop.
	if r, ok := st.(*pyscan.Raise); ok {
		if m.HasComment(r.Exc.Range()) {
			return nil
		}
		edits = append(edits, pyfix.Replace(m, r.Exc.Range(), text))
	} else {
		if m.HasComment(span) {
			return nil
		}
		edits = append(edits, pyfix.Replace(m, span, "raise "+text))
	}
	return []diag.Fix{{Message: title, Edits: edits, Applicability: diag.Unsafe}}
}
