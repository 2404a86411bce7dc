// The edits the suggested fixes of GL302, GL303, GL313 and GL317 share:
// the release of a server's per-session state by a key, written from its
// containers and its own release (remedyOf); the session fences a close
// records and a seed refuses on, found on the server (facts.AttrHolding)
// or built in model_post_init with the config's close retry window; the
// check that starts a seed; the parameter a hook takes the framework's
// request in. The rules decide from the facts; this file only writes
// what they decided, through package pyfix, and reports false for any
// shape the edits cannot keep.

package sessions

import (
	"slices"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// fencesAttr is the attribute a fix adds to hold the server's
// ResourcesSessionFences when it has none.
const fencesAttr = "_fences"

// editable reports whether a fix may edit class c: a repository class
// (not the framework's) of a module that parses.
func editable(v *gym.View, c gym.ClassRef) bool {
	return c.Module != nil && c.Class != nil && c.Module.SyntaxError == nil && !v.IsFrameworkModule(c.Module.Name)
}

// requestParam returns the parameter of fn, other than its receiver,
// annotated with the framework's request class cls or a repository
// subclass of it, alone (not in a union, which may bring another body):
// nil when there is none, or more than one.
func requestParam(f *facts.Facts, fn *facts.Func, cls string) *pyscan.Param {
	var found *pyscan.Param
	for i, p := range fn.Fn.Params {
		if i == 0 && fn.Recv != "" || p.Annotation == nil {
			continue
		}
		if isFrameworkClass(f.View(), fn.Module, p.Annotation, cls) {
			if found != nil {
				return nil
			}
			found = p
		}
	}
	return found
}

// isFrameworkClass reports whether e (an annotation, a callee) names the
// framework's class cls, or a repository class whose method resolution
// order reaches it; false for no expression.
func isFrameworkClass(v *gym.View, m *pyscan.Module, e pyscan.Expr, cls string) bool {
	if e == nil {
		return false
	}
	lastOf := func(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }
	sym := v.ResolveExpr(m, e)
	if n := v.SymbolFrameworkName(sym); n != "" {
		return lastOf(n) == cls
	}
	if sym.Kind != gym.RepoClass || sym.Class == nil {
		return false
	}
	mro, _ := v.MRO(gym.ClassRef{Module: sym.Module, Class: sym.Class})
	for _, a := range mro {
		if (a.Kind == gym.Framework || a.Kind == gym.FrameworkServer) && lastOf(a.Name) == cls {
			return true
		}
	}
	return false
}

// plainSessionKey reports whether a key that KeyOf says is the session's
// id is that id itself (`body.resources_session_id`, the cookie's
// `request.session[SESSION_ID_KEY]`, str() of one, a parameter, a local
// assigned one), not something made from it (an f-string, a tuple, a
// sum): popping the id releases only such a record. A local's minted
// fallback (`if not sid: sid = str(uuid4())`), which KeyOf looks past, is
// looked past here too: no id releases that record.
func plainSessionKey(f *facts.Facts, server gym.ClassRef, fn *facts.Func, e pyscan.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	switch e := e.(type) {
	case *pyscan.Attribute, *pyscan.Subscript:
		return true
	case *pyscan.Call:
		if a, ok := e.Func.(*pyscan.Attribute); ok && a.Attr == "get" {
			return true // request.session.get(SESSION_ID_KEY)
		}
		if n, ok := e.Func.(*pyscan.Name); ok && n.Id == "str" && len(e.Args) == 1 && !f.IsLocal(fn, "str") {
			return plainSessionKey(f, server, fn, e.Args[0].Value, depth+1)
		}
	case *pyscan.Name:
		plain := false
		for _, v := range f.Values(fn, e.Id) {
			switch {
			case v.Param != nil:
				plain = true
			case v.Expr != nil && !v.Aug && !v.Enter:
				if f.KeyOf(server, v.Func, v.Expr).Kind == facts.KeyMinted {
					continue
				}
				if !plainSessionKey(f, server, v.Func, v.Expr, depth+1) {
					return false
				}
				plain = true
			default:
				return false
			}
		}
		return plain
	}
	return false
}

// statePaths returns the receiver attribute paths (".envs") of the
// containers of a server's state, when each is an attribute the server
// reaches through its receiver and every per-session write of it is keyed
// by the session's id itself; false otherwise (a module-level map, a key
// made from the id or minted).
func statePaths(f *facts.Facts, server gym.ClassRef, state []facts.SessionContainer) ([]string, bool) {
	var out []string
	for _, sc := range state {
		if !strings.HasPrefix(sc.Container.Key, ".") {
			return nil, false
		}
		for _, w := range sc.Writes {
			if w.KeyOf.Kind != facts.KeySession || w.Key == nil || !plainSessionKey(f, server, w.Func, w.Key, 0) {
				return nil, false
			}
		}
		out = append(out, sc.Container.Key)
	}
	return out, len(out) > 0
}

// sameStateKeys reports whether every server keeps its state in the same
// containers (by key), so that one method written for the first releases
// the state of each, and names nothing one of them lacks.
func sameStateKeys(f *facts.Facts, servers []gym.Server) bool {
	keys := func(s gym.Server) []string {
		var out []string
		for _, sc := range keptState(f, s.Class) {
			out = append(out, sc.Container.Key)
		}
		slices.Sort(out)
		return out
	}
	first := keys(servers[0])
	for _, s := range servers[1:] {
		if !slices.Equal(keys(s), first) {
			return false
		}
	}
	return true
}

// releaseLines are the statements (block lines for pyfix.Lines, a tab a
// level) that release a server's per-session state by key, in a method
// whose receiver is self: the server's own release helper called with the
// key when it has one (unsafe: it runs the server's own stop code), else
// each container popped by the key; a pop of what the server stops
// elsewhere (a sandbox, a directory) is unsafe and says, in a TODO, what
// to stop first. false when the state is not keyed by the session's id
// itself: the release cannot be written from it.
func releaseLines(f *facts.Facts, s gym.Server, state []facts.SessionContainer, key string) (lines []string, app diag.Applicability, ok bool) {
	return releaseLinesOn(f, s, state, "self", key)
}

// releaseLinesOn is releaseLines in a method whose receiver is recv.
func releaseLinesOn(f *facts.Facts, s gym.Server, state []facts.SessionContainer, recv, key string) (lines []string, app diag.Applicability, ok bool) {
	r := remedyOf(f, s, state)
	if r.minted != "" || r.bodyKey != "" {
		return nil, "", false
	}
	paths, ok := statePaths(f, s.Class, state)
	if !ok {
		return nil, "", false
	}
	if r.releaser != "" {
		// The helper's call as remedyOf writes it, "[await ]self.m(session_id)",
		// on recv and key.
		call, cut := strings.CutSuffix(r.releaser, "(session_id)")
		aw, rest := "", call
		if a, ok := strings.CutPrefix(call, "await "); ok {
			aw, rest = "await ", a
		}
		rest, self := strings.CutPrefix(rest, "self.")
		if !cut || !self {
			return nil, "", false
		}
		return []string{aw + recv + "." + rest + "(" + key + ")"}, diag.Unsafe, true
	}
	app = diag.Safe
	if r.stop != "" {
		lines = append(lines, "# TODO: stop what the session holds before dropping it, as "+r.stopIn+" does ("+r.stop+")")
		app = diag.Unsafe
	}
	for _, p := range paths {
		lines = append(lines, recv+p+".pop("+key+", None)")
	}
	return lines, app, true
}

// attrUsed reports whether any class of the server's repository ancestry
// binds the attribute name in its body or uses it on a method's receiver.
func attrUsed(v *gym.View, server gym.ClassRef, name string) bool {
	mro, _ := v.MRO(server)
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Class == nil {
			continue
		}
		c := a.Class.Class
		if c.Attr(name) != nil || c.Method(name) != nil {
			return true
		}
		for _, meth := range c.Methods {
			recv := meth.Receiver()
			if recv == "" {
				continue
			}
			used := false
			pyscan.InspectBody(meth.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
				if at, ok := n.(*pyscan.Attribute); ok && at.Attr == name {
					if r, ok := at.Value.(*pyscan.Name); ok && r.Id == recv {
						used = true
					}
				}
				return !used
			})
			if used {
				return true
			}
		}
	}
	return false
}

// fencesNeeded reports whether the fixes must build the server's fences:
// no attribute of it holds a ResourcesSessionFences.
func fencesNeeded(f *facts.Facts, server gym.ClassRef) bool {
	return f.AttrHolding(server, contract.SessionFencesClass) == ""
}

// fenceSetup returns the path on the receiver (".\_fences") of the
// attribute that holds the server's ResourcesSessionFences: the one the
// server has, else one the fix builds for class cls (a class of the
// server's ancestry, the one the fix edits), `self._fences =
// ResourcesSessionFences(self.config.session_close_retry_window_seconds)`
// with the class written as name: first in cls's own model_post_init
// (after its super() call when that comes first), or in a new
// model_post_init returned as method for the caller to add to the class.
// false when the name is taken or the edit cannot be placed.
func fenceSetup(v *gym.View, f *facts.Facts, server gym.ClassRef, cls gym.ClassRef, name string) (path string, method []string, edits []diag.TextEdit, ok bool) {
	if p := f.AttrHolding(server, contract.SessionFencesClass); p != "" {
		return p, nil, nil, true
	}
	if name == "" || attrUsed(v, server, fencesAttr) {
		return "", nil, nil, false
	}
	m := cls.Module
	build := func(recv string) string {
		return recv + "." + fencesAttr + " = " + name + "(" + recv + ".config." + contract.CloseRetryWindowField + ")"
	}
	path = "." + fencesAttr
	pi := cls.Class.Method(contract.ModelPostInitMethod)
	if pi == nil {
		return path, []string{
			"def " + contract.ModelPostInitMethod + "(self, context):",
			"\tsuper()." + contract.ModelPostInitMethod + "(context)",
			"\t" + build("self"),
		}, nil, true
	}
	recv := pi.Receiver()
	outer, own := pyfix.IndentBefore(m, pi.Span.Start)
	if recv == "" || !own || len(pi.Body) == 0 {
		return "", nil, nil, false
	}
	body := pi.Body
	if pyfix.IsDocstring(body[0]) {
		body = body[1:]
	}
	var e diag.TextEdit
	if len(body) > 0 && isSuperCall(body[0], contract.ModelPostInitMethod) {
		e, ok = linesAfter(m, body, 0, []string{build(recv)})
	} else {
		e, ok = pyfix.InsertFirst(m, outer, pi.Body, []string{build(recv)})
	}
	if !ok {
		return "", nil, nil, false
	}
	return path, nil, []diag.TextEdit{e}, true
}

// isSuperCall reports whether s is `super().name(...)` as a statement
// (its value awaited or returned or not).
func isSuperCall(s pyscan.Stmt, name string) bool {
	var e pyscan.Expr
	switch s := s.(type) {
	case *pyscan.ExprStmt:
		e = s.Value
	case *pyscan.Return:
		e = s.Value
	}
	if a, ok := e.(*pyscan.Await); ok {
		e = a.Value
	}
	c, ok := e.(*pyscan.Call)
	if !ok {
		return false
	}
	n, ok := pyscan.SuperAttr(c.Func)
	return ok && n == name
}

// linesAfter inserts block (pyfix.Lines) on the lines after statement i
// of body, at its indentation; false when it does not start its line or
// the next statement of the body starts on its last line (`a; b`).
func linesAfter(m *pyscan.Module, body []pyscan.Stmt, i int, block []string) (diag.TextEdit, bool) {
	sp := body[i].Range()
	indent, ok := pyfix.IndentBefore(m, sp.Start)
	if !ok || !endsLine(m, body, i) {
		return diag.TextEdit{}, false
	}
	at, prefix, nl := pyfix.LineAfter(m, sp.End)
	return pyfix.Insert(m, at, prefix+pyfix.Lines(block, indent, pyfix.IndentUnit(indent), nl)), true
}

// endsLine reports whether no statement of body after statement i starts
// on the line statement i ends on (a comment may follow it).
func endsLine(m *pyscan.Module, body []pyscan.Stmt, i int) bool {
	return i+1 >= len(body) || m.Line(body[i+1].Range().Start) > m.Line(body[i].Range().End)
}

// methodAfter inserts a method (its block lines) after method fn, a
// statement of a class body, a blank line before it, at fn's
// indentation; false when fn is not a statement of body itself (it is
// defined under an if or try there) or shares its last line.
func methodAfter(m *pyscan.Module, body []pyscan.Stmt, fn *pyscan.Function, block []string) (diag.TextEdit, bool) {
	i := slices.IndexFunc(body, func(s pyscan.Stmt) bool { return s == pyscan.Stmt(fn) })
	if i < 0 || !endsLine(m, body, i) {
		return diag.TextEdit{}, false
	}
	indent, ok := pyfix.IndentBefore(m, fn.Span.Start)
	if !ok {
		return diag.TextEdit{}, false
	}
	unit := pyfix.IndentUnit(indent)
	if len(fn.Body) > 0 {
		if _, u, ok := pyfix.BlockIndent(m, indent, fn.Body[0].Range().Start); ok {
			unit = u
		}
	}
	at, prefix, nl := pyfix.LineAfter(m, fn.Span.End)
	return pyfix.Insert(m, at, prefix+nl+pyfix.Lines(block, indent, unit, nl)), true
}

// seedFenceCheck is the edit that starts a seed with the fence check,
// `self._fences.raise_if_fenced(body.resources_session_id)`, at the start
// of its body, or of the session lock's block when the seed starts by
// taking it; none when the seed checks these fences already
// (raise_if_fenced or get on the attribute). false when the
// seed takes no ResourcesSeedSessionRequest alone (a legacy body has no
// resources_session_id), when the edit cannot be placed, or when the
// check would open a race GL310 reports: the seed awaits between it and
// a write of the session's record, with no lock held across.
func seedFenceCheck(h hook, path string) ([]diag.TextEdit, bool) {
	f, seed := h.f, h.fn
	for _, c := range f.Calls(h.server.Class, seed) {
		a, ok := c.Call.Func.(*pyscan.Attribute)
		if ok && seed.Recv != "" && pyscan.Dotted(a.Value) == seed.Recv+path &&
			(f.IsFrameworkMethod(h.server.Class, seed, c.Call, contract.FencesRaiseIfFenced) || f.IsFrameworkMethod(h.server.Class, seed, c.Call, contract.FencesGet)) {
			return nil, true // it checks these fences already
		}
	}
	p := requestParam(f, seed, contract.SeedRequestClass)
	if p == nil || seed.Recv == "" || seed.Outer != nil {
		return nil, false
	}
	m := seed.Module
	outer, own := pyfix.IndentBefore(m, seed.Fn.Span.Start)
	if !own || len(seed.Fn.Body) == 0 {
		return nil, false
	}
	body := seed.Fn.Body
	first := body[0]
	if pyfix.IsDocstring(first) && len(body) > 1 {
		first = body[1]
	}
	if w, ok := first.(*pyscan.With); ok {
		for _, l := range f.Locks(h.server.Class, seed) {
			if l.With == w {
				if outer, own = pyfix.IndentBefore(m, w.Span.Start); !own {
					return nil, false
				}
				body = w.Body
				break
			}
		}
	}
	line := seed.Recv + path + ".raise_if_fenced(" + p.Name + "." + contract.SessionIDField + ")"
	e, ok := pyfix.InsertFirst(m, outer, body, []string{line})
	// The check runs where the statement it goes before starts.
	at := body[0].Range().Start
	if pyfix.IsDocstring(body[0]) {
		at = body[0].Range().End
		if len(body) > 1 {
			at = body[1].Range().Start
		}
	}
	if !ok || racesAfter(h, at) {
		return nil, false
	}
	return []diag.TextEdit{e}, true
}

// racesAfter reports whether a read of the session's record at offset at
// of the hook would start a race GL310 reports: an await after it, then
// a write of a record under the session's id, not held in one lock.
func racesAfter(h hook, at int32) bool {
	f, fn := h.f, h.fn
	_, writes := recordAccesses(h, sessionState(f, h.server.Class))
	var awaits []pyscan.Span
	walkAll(fn, func(n pyscan.Node) {
		if a, ok := n.(*pyscan.Await); ok {
			awaits = append(awaits, a.Span)
		}
	})
	var locks []pyscan.Span
	for _, l := range f.Locks(h.server.Class, fn) {
		locks = append(locks, l.With.BodySpan)
	}
	read := pyscan.Span{Start: at, End: at}
	for _, w := range writes {
		if w.at <= at || f.KeyOf(h.server.Class, fn, w.key).Kind != facts.KeySession {
			continue
		}
		for _, a := range awaits {
			if a.End > at && a.End <= w.at && !heldAcross(locks, read, a, w.span) {
				return true
			}
		}
	}
	return false
}

// joinInserts makes one edit of the insertions of a fix at one offset,
// in the order given (two insertions at one place would overlap).
func joinInserts(edits []diag.TextEdit) []diag.TextEdit {
	var out []diag.TextEdit
	for _, e := range edits {
		merged := false
		if e.Start == e.End {
			for i, o := range out {
				if o.Path == e.Path && o.Start == o.End && o.Start.Offset == e.Start.Offset {
					out[i].NewText += e.NewText
					merged = true
					break
				}
			}
		}
		if !merged {
			out = append(out, e)
		}
	}
	return out
}
