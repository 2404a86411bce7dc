//go:build ignore

package sessions

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks,
		gym.Check{Rule: LostSessionScored, Run: runLostSessionScored},
		gym.Check{Rule: VerifyIgnoresLostSession, Run: runVerifyIgnoresLostSession},
	)
}

func runLostSessionScored(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	done := map[*pyscan.Function]bool{}
	for _, s := range ResourcesServers(v) {
		owner, fn, ok := Override(v, s.Class, VerifyMethod)
		if !ok || done[fn] || owner.Module.SyntaxError != nil {
			continue
		}
		states := States(v, s)
		if len(states) == 0 {
			continue
		}
		done[fn] = true
		out = append(out, lostSessionScored(v, s, owner, fn, newStateSet(states))...)
	}
	return out
}

// lostSessionScored returns the GL306 findings of one verify.
func lostSessionScored(v *gym.View, s gym.Server, owner gym.ClassRef, fn *pyscan.Function, ss *stateSet) []diag.Diagnostic {
	m := owner.Module
	lk := newLookups(v, m, fn, fn.Receiver(), ss)
	var out []diag.Diagnostic
	inherit := func(d *diag.Diagnostic) {
		if owner.Class != s.Class.Class {
			d.Related = append(d.Related, RelatedAt(s.Class.Module, s.Class.Class.NameSpan,
				"server "+s.Class.Class.Name+" inherits this verify"))
		}
	}
	for _, r := range fn.Returns {
		miss, ok := lk.missing(r.Guards, r.Span)
		if !ok || r.Value == nil || !carriesReward(r.Value.Text) || mentionsLostSession(v, owner, fn, r.Span) {
			continue
		}
		start, end := Span(r.Span)
		d := LostSessionScored.New(m.Path, start, end, fmt.Sprintf(
			"%s.verify returns a reward when %s: a session the server no longer holds is scored as if the policy had failed; answer it with a masked sample instead, `return %s`",
			owner.Class.Name, miss.describe(), lostFix(r.Value.Text)))
		d.Related = append(miss.related(m), ss.related(miss.states)...)
		inherit(&d)
		out = append(out, d)
	}
	for _, r := range fn.Raises {
		if r.Assert || inTry(fn, r.Span) {
			continue
		}
		miss, ok := lk.missing(r.Guards, r.Span)
		if !ok {
			continue
		}
		start, end := Span(r.Span)
		d := LostSessionScored.New(m.Path, start, end, fmt.Sprintf(
			"%s.verify raises %s when %s: an exception fails the verify (a 5xx dispatches the episode again) instead of masking the sample; return the request's fields merged with lost_session_verification(reason), as in `return BaseVerifyResponse(**(body.model_dump() | lost_session_verification(\"session is gone\")))`",
			owner.Class.Name, raiseWhat(v, m, fn, r), miss.describe()))
		d.Related = append(miss.related(m), ss.related(miss.states)...)
		inherit(&d)
		out = append(out, d)
	}
	// Helpers of the server that raise when the state is missing, called
	// from verify outside any try statement.
	recv := fn.Receiver()
	if recv == "" {
		return out
	}
	reported := map[string]bool{}
	for _, c := range fn.Calls {
		name, ok := strings.CutPrefix(c.Callee.Dotted, recv+".")
		if !ok || strings.Contains(name, ".") || reported[name] || inTry(fn, c.Span) {
			continue
		}
		hOwner, h, ok := Override(v, s.Class, name)
		if !ok || h == fn || hOwner.Module.SyntaxError != nil {
			continue
		}
		hl := newLookups(v, hOwner.Module, h, h.Receiver(), ss)
		for _, r := range h.Raises {
			if r.Assert {
				continue
			}
			miss, ok := hl.missing(r.Guards, r.Span)
			if !ok {
				continue
			}
			reported[name] = true
			start, end := Span(c.Span)
			d := LostSessionScored.New(m.Path, start, end, fmt.Sprintf(
				"%s.verify calls %s.%s, which raises %s when %s: the verify fails instead of masking the sample; in verify, test for the missing state first and return the request's fields merged with lost_session_verification(reason), as in `return BaseVerifyResponse(**(body.model_dump() | lost_session_verification(\"session is gone\")))`",
				owner.Class.Name, hOwner.Class.Name, name, raiseWhat(v, hOwner.Module, h, r), miss.describe()))
			d.Related = append([]diag.Related{RelatedAt(hOwner.Module, r.Span, hOwner.Class.Name+"."+name+" raises here")},
				miss.related(hOwner.Module)...)
			d.Related = append(d.Related, ss.related(miss.states)...)
			inherit(&d)
			out = append(out, d)
			break
		}
	}
	return out
}

func runVerifyIgnoresLostSession(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	done := map[*pyscan.Function]bool{}
	for _, s := range ResourcesServers(v) {
		owner, fn, ok := Override(v, s.Class, VerifyMethod)
		if !ok || done[fn] || owner.Module.SyntaxError != nil || alwaysNotImplemented(v, owner.Module, fn) {
			continue
		}
		all := States(v, s)
		var states []State
		for _, st := range all {
			if st.Method != fn {
				states = append(states, st)
			}
		}
		if len(states) == 0 {
			continue
		}
		done[fn] = true
		if len(lostSessionScored(v, s, owner, fn, newStateSet(all))) > 0 {
			continue // GL306 reports this verify
		}
		ss := newStateSet(states)
		reach := reachable(v, s.Class, owner, fn)
		var read []State
		var readAt *reached
		refers := false
		for i := range reach {
			r := &reach[i]
			if refersToLostSession(v, r.class, r.fn) {
				refers = true
				break
			}
			if read == nil && (r.fn == fn || !sessionEdge.MatchString(r.fn.Name)) {
				if sts := readsState(r.fn, r.recv, ss, r.fn != fn, source(v, r.class.Module)); len(sts) > 0 {
					read, readAt = sts, r
				}
			}
		}
		if refers || read == nil {
			continue
		}
		start, end := Span(fn.NameSpan)
		via := ""
		if readAt.fn != fn {
			via = " (through " + readAt.class.Class.Name + "." + readAt.fn.Name + ")"
		}
		d := VerifyIgnoresLostSession.New(owner.Module.Path, start, end, fmt.Sprintf(
			"%s.verify reads the per-session state %s%s, written in %s, but never refers to lost_session_verification: when the session is gone (never seeded, closed, lost) it fails or scores what is left; test for the missing state and return the request's fields merged with lost_session_verification(reason), a masked sample",
			owner.Class.Name, read[0].Attr, via, read[0].Class.Class.Name+"."+read[0].Method.Name))
		d.Related = ss.related(read)
		if owner.Class != s.Class.Class {
			d.Related = append(d.Related, RelatedAt(s.Class.Module, s.Class.Class.NameSpan,
				"server "+s.Class.Class.Name+" inherits this verify"))
		}
		out = append(out, d)
	}
	return out
}

// rewardRe finds a reward in a returned expression: a reward= keyword or
// a "reward": key.
var rewardRe = regexp.MustCompile(`(?:\breward\s*=[^=])|(?:["']reward["']\s*:)`)

func carriesReward(text string) bool { return rewardRe.MatchString(text) }

// mentionsLostSession reports whether a call inside span of fn is the
// framework's lost_session_verification.
func mentionsLostSession(v *gym.View, c gym.ClassRef, fn *pyscan.Function, span pyscan.Span) bool {
	for _, call := range fn.Calls {
		if Within(call.Span, span) && FrameworkCall(v, c, call, lostSessionName) {
			return true
		}
	}
	return false
}

// refersToLostSession reports whether a function (or a function nested in
// it) calls or names lost_session_verification.
func refersToLostSession(v *gym.View, c gym.ClassRef, fn *pyscan.Function) bool {
	for _, call := range fn.Calls {
		if FrameworkCall(v, c, call, lostSessionName) {
			return true
		}
		for _, a := range call.Args {
			if a.Dotted != "" && Framework(v, c.Module, a.Dotted) == lostSessionName {
				return true
			}
		}
	}
	for _, r := range fn.Refs {
		if Framework(v, c.Module, r.Dotted) == lostSessionName {
			return true
		}
	}
	for _, n := range fn.Nested {
		if refersToLostSession(v, c, n) {
			return true
		}
	}
	return false
}

// lostFix suggests the masked-sample form of a returned response: for
// `Resp(**x, reward=0.0)` it gives `Resp(**(x | lost_session_verification("session is gone")))`.
func lostFix(ret string) string {
	const lsv = `lost_session_verification("session is gone")`
	ret = strings.TrimSpace(ret)
	if i := strings.Index(ret, "(**"); i > 0 && strings.HasSuffix(ret, ")") && plainName.MatchString(ret[:i]) {
		inner := ret[i+3:]
		if j := topComma(inner); j > 0 {
			return ret[:i] + "(**(" + strings.TrimSpace(inner[:j]) + " | " + lsv + "))"
		}
	}
	return "BaseVerifyResponse(**(body.model_dump() | " + lsv + "))"
}

var plainName = regexp.MustCompile(`^[A-Za-z_][\w.]*$`)

// topComma returns the offset of the first comma at bracket depth 0
// outside strings, or -1.
func topComma(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\'', '"':
			i = skipString(s, i) - 1
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// raiseWhat describes a raised exception: "HTTPException(400)",
// "KeyError", "the exception it caught (a re-raise)".
func raiseWhat(v *gym.View, m *pyscan.Module, fn *pyscan.Function, r *pyscan.Raise) string {
	if r.Exc == nil {
		return "the exception it caught (a re-raise)"
	}
	name := r.Exc.Dotted
	if name == "" {
		return "`" + oneLine(clip(r.Exc.Text, 60)) + "`"
	}
	if r.Exc.Call && isHTTPException(v, m, name) {
		if code, ok := httpStatus(fn, r.Exc); ok {
			return fmt.Sprintf("%s(%d)", name, code)
		}
	}
	return name
}

// isHTTPException reports whether a dotted name is FastAPI's or
// Starlette's HTTPException.
func isHTTPException(v *gym.View, m *pyscan.Module, dotted string) bool {
	switch Absolute(v, m, dotted) {
	case "fastapi.HTTPException", "fastapi.exceptions.HTTPException", "starlette.exceptions.HTTPException":
		return true
	}
	return false
}

// alwaysNotImplemented reports whether a function raises
// NotImplementedError unconditionally (outside any if and try).
func alwaysNotImplemented(v *gym.View, m *pyscan.Module, fn *pyscan.Function) bool {
	for _, r := range fn.Raises {
		if r.Assert || r.Exc == nil || len(r.Guards) > 0 || inTry(fn, r.Span) {
			continue
		}
		if Absolute(v, m, r.Exc.Dotted) == "builtins.NotImplementedError" {
			return true
		}
	}
	return false
}

// inTry reports whether a span lies in the body of a try statement of fn
// (not in its handlers), whatever the handlers catch.
func inTry(fn *pyscan.Function, span pyscan.Span) bool {
	for _, t := range fn.Tries {
		if Within(span, t.Body) && len(t.Handlers) > 0 {
			return true
		}
	}
	return false
}

// source returns a module's text, or nil.
func source(v *gym.View, m *pyscan.Module) []byte {
	src, err := v.Source(m.Path)
	if err != nil {
		return nil
	}
	return src
}

func clip(s string, n int) string {
	s = oneLine(s)
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// reached is a function a verify reaches: verify itself, or a method of
// the server it calls through its receiver.
type reached struct {
	class gym.ClassRef
	fn    *pyscan.Function
	recv  string
}

// reachable returns fn and the server's methods it reaches through
// `self.m(...)` calls and `self.m` references, transitively.
func reachable(v *gym.View, server, owner gym.ClassRef, fn *pyscan.Function) []reached {
	out := []reached{{class: owner, fn: fn, recv: fn.Receiver()}}
	seen := map[*pyscan.Function]bool{fn: true}
	for i := 0; i < len(out); i++ {
		r := out[i]
		if r.recv == "" {
			continue
		}
		for _, name := range selfRefs(r.fn, r.recv) {
			o, f, ok := Override(v, server, name)
			if !ok || seen[f] {
				continue
			}
			seen[f] = true
			out = append(out, reached{class: o, fn: f, recv: f.Receiver()})
		}
	}
	return out
}

// selfRefs returns the method names a function (and the functions nested
// in it) refers to through the receiver: `self.m(...)` and `self.m`.
func selfRefs(fn *pyscan.Function, recv string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		name, ok := strings.CutPrefix(d, recv+".")
		if !ok {
			return
		}
		if i := strings.IndexByte(name, '.'); i >= 0 {
			return // self.x.y: an attribute's method, not the server's
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	var walk func(f *pyscan.Function)
	walk = func(f *pyscan.Function) {
		for _, c := range f.Calls {
			add(c.Callee.Dotted)
		}
		for _, r := range f.Refs {
			add(r.Dotted)
		}
		for _, n := range f.Nested {
			walk(n)
		}
	}
	walk(fn)
	return out
}

// readsState returns the states a function reads: a reference to the
// container (`self.X[k]`, `k in self.X`, `self.X` passed on) or a call of
// its get, __getitem__, __contains__, items, values or keys, outside the
// targets of its stores. A pop or a del alone only releases the state,
// but in verify itself a pop whose value is used (`s = self.X.pop(k,
// None)`: something precedes it on its line) reads it. With helper set, a
// function that pops or deletes a container is taken to release it, and
// its reads of that container do not count.
func readsState(fn *pyscan.Function, recv string, ss *stateSet, helper bool, src []byte) []State {
	if !helper {
		for _, c := range fn.Calls {
			obj, ok := strings.CutSuffix(c.Callee.Dotted, ".pop")
			if !ok || c.Span.Start.Offset > len(src) {
				continue
			}
			sts := ss.lookup(recv, obj)
			if len(sts) == 0 {
				continue
			}
			line := src[:c.Span.Start.Offset]
			if i := strings.LastIndexByte(string(line), '\n'); i >= 0 {
				line = line[i+1:]
			}
			if strings.TrimSpace(string(line)) != "" {
				return sts
			}
		}
	}
	released := map[string]bool{}
	if helper {
		for _, st := range fn.Stores {
			if st.Op == "del" {
				released[attrKey(recv, st.Target.Dotted)] = true
			}
		}
		for _, c := range fn.Calls {
			if obj, ok := strings.CutSuffix(c.Callee.Dotted, ".pop"); ok {
				released[attrKey(recv, obj)] = true
			}
		}
	}
	for _, r := range fn.Refs {
		if storeTarget(fn, r.Span) {
			continue
		}
		d := r.Dotted
		if i := strings.LastIndexByte(d, '.'); i >= 0 {
			switch d[i+1:] {
			case "get", "__getitem__", "__contains__", "items", "values", "keys":
				d = d[:i]
			}
		}
		if released[attrKey(recv, d)] {
			continue
		}
		if sts := ss.lookup(recv, d); len(sts) > 0 {
			return sts
		}
	}
	return nil
}

// storeTarget reports whether a span lies in the target of one of fn's
// stores.
func storeTarget(fn *pyscan.Function, span pyscan.Span) bool {
	for _, st := range fn.Stores {
		if Within(span, st.Span) {
			return true
		}
	}
	return false
}

// stateSet indexes the containers of a server's per-session state by how
// a method refers to them.
type stateSet struct {
	all    []State
	byAttr map[string][]State // "._sessions" for self._sessions; "SESSIONS" for a module-level name
}

func newStateSet(states []State) *stateSet {
	ss := &stateSet{all: states, byAttr: map[string][]State{}}
	for _, st := range states {
		ss.byAttr[attrKey(st.Method.Receiver(), st.Attr)] = append(ss.byAttr[attrKey(st.Method.Receiver(), st.Attr)], st)
	}
	return ss
}

// attrKey is a container's name without the receiver of the method that
// names it.
func attrKey(recv, attr string) string {
	if recv != "" && strings.HasPrefix(attr, recv+".") {
		return attr[len(recv):]
	}
	return attr
}

// lookup returns the states of the container that `text` names in a
// function whose receiver is recv (white space ignored).
func (ss *stateSet) lookup(recv, text string) []State {
	text = strings.Join(strings.Fields(text), "")
	if text == "" {
		return nil
	}
	if recv != "" && strings.HasPrefix(text, recv+".") {
		return ss.byAttr[text[len(recv):]]
	}
	if strings.HasPrefix(text, ".") {
		return nil
	}
	return ss.byAttr[text]
}

// related lists where the states are written, at most maxStateRelated.
func (ss *stateSet) related(states []State) []diag.Related {
	var out []diag.Related
	seen := map[*pyscan.Store]bool{}
	for _, st := range states {
		if len(out) == maxStateRelated {
			break
		}
		if seen[st.Store] {
			continue
		}
		seen[st.Store] = true
		out = append(out, st.Related())
	}
	return out
}

// A missingState is what shows that a statement runs when the session's
// state is missing: an if/elif test (or its else), or an except KeyError
// handler around a read of the container.
type missingState struct {
	states  []State
	cond    *pyscan.Expr    // the test, or nil
	negated bool            // the statement is in the test's else
	handler *pyscan.Handler // the except KeyError handler, or nil
}

// describe says when the statement runs: "the session's state
// self._sessions is missing (`sid not in self._sessions`)".
func (ms missingState) describe() string {
	attr := ms.states[0].Attr
	switch {
	case ms.cond != nil && ms.negated:
		return fmt.Sprintf("the session's state %s is missing (the else of `%s`)", attr, clip(ms.cond.Text, 80))
	case ms.cond != nil:
		return fmt.Sprintf("the session's state %s is missing (`%s`)", attr, clip(ms.cond.Text, 80))
	}
	return fmt.Sprintf("the session's state %s is missing (a KeyError reading it)", attr)
}

// related is the test or the handler as a related position.
func (ms missingState) related(m *pyscan.Module) []diag.Related {
	switch {
	case ms.cond != nil:
		return []diag.Related{RelatedAt(m, ms.cond.Span, "this test finds the session's state missing")}
	case ms.handler != nil:
		return []diag.Related{RelatedAt(m, ms.handler.Span, "this handler runs when the session's state is missing")}
	}
	return nil
}

// lookups decides, for one function, which statements run when the
// session's state is missing.
type lookups struct {
	v    *gym.View
	m    *pyscan.Module
	fn   *pyscan.Function
	recv string
	ss   *stateSet
	src  []byte
}

func newLookups(v *gym.View, m *pyscan.Module, fn *pyscan.Function, recv string, ss *stateSet) *lookups {
	src, err := v.Source(m.Path)
	if err != nil {
		src = nil
	}
	return &lookups{v: v, m: m, fn: fn, recv: recv, ss: ss, src: src}
}

// missing reports whether a statement with these guards (at span) runs
// when the session's state is missing. A statement under a test that
// shows the state present is not.
func (lk *lookups) missing(guards []pyscan.Guard, span pyscan.Span) (missingState, bool) {
	var found *missingState
	for i := range guards {
		g := &guards[i]
		if sts := lk.absent(g.Cond.Text, !g.Negated); len(sts) > 0 {
			if found == nil {
				found = &missingState{states: sts, cond: &g.Cond, negated: g.Negated}
			}
			continue
		}
		if sts := lk.absent(g.Cond.Text, g.Negated); len(sts) > 0 {
			return missingState{}, false // the state is present here
		}
	}
	if found != nil {
		return *found, true
	}
	// except KeyError around a read of the container.
	for _, t := range lk.fn.Tries {
		for _, h := range t.Handlers {
			if !Within(span, h.Body) || !lk.catchesKeyError(h) {
				continue
			}
			if sts := lk.onlyStateSubscripts(t.Body); len(sts) > 0 {
				return missingState{states: sts, handler: h}, true
			}
		}
	}
	return missingState{}, false
}

func (lk *lookups) catchesKeyError(h *pyscan.Handler) bool {
	if len(h.Types) != 1 {
		return false
	}
	return Absolute(lk.v, lk.m, h.Types[0].Dotted) == "builtins.KeyError"
}

// onlyStateSubscripts returns the states read by subscript in a try body
// when every subscript read there is of a per-session container (or
// inside the key of one: self.X[request.session[SESSION_ID_KEY]]).
func (lk *lookups) onlyStateSubscripts(body pyscan.Span) []State {
	var out []State
	var reads []pyscan.Span
	for _, s := range lk.fn.Subscripts {
		if !Within(s.Span, body) {
			continue
		}
		if sts := lk.ss.lookup(lk.recv, s.Object.Dotted); len(sts) > 0 {
			reads = append(reads, s.Span)
			if out == nil {
				out = sts
			}
		}
	}
	for _, s := range lk.fn.Subscripts {
		if !Within(s.Span, body) {
			continue
		}
		inside := false
		for _, r := range reads {
			if Within(s.Span, r) {
				inside = true
			}
		}
		if !inside {
			return nil
		}
	}
	return out
}

// absent returns the states that a condition shows missing when it holds
// (want true), or when it fails (want false); nil if it shows neither.
// Python's precedence is followed: or, and, not, then comparisons. A test
// joined by or/and to others counts when one of its parts counts: the
// statement then runs when the state is missing (and the rest holds).
func (lk *lookups) absent(cond string, want bool) []State {
	if len(cond) > maxCondLen {
		return nil // not a test gymlint can read with confidence; and bounded work
	}
	cond = stripParens(strings.TrimSpace(cond))
	for _, op := range []string{"or", "and"} {
		if parts := splitKeyword(cond, op); len(parts) > 1 {
			for _, p := range parts {
				if sts := lk.absent(p, want); len(sts) > 0 {
					return sts
				}
			}
			return nil
		}
	}
	if rest, ok := cutKeywordPrefix(cond, "not"); ok {
		return lk.absent(rest, !want)
	}
	// k not in X / k in X
	if l, r, ok := cutComparison(cond, "not in"); ok && l != "" {
		if sts := lk.container(r); len(sts) > 0 && want {
			return sts
		}
		return nil
	}
	if l, r, ok := cutComparison(cond, "in"); ok && l != "" {
		if sts := lk.container(r); len(sts) > 0 && !want {
			return sts
		}
		return nil
	}
	// E is None / E is not None / E == None / E != None
	for _, c := range []struct {
		op   string
		none bool // the comparison holds when E is None
	}{{"is not", false}, {"is", true}, {"!=", false}, {"==", true}} {
		if l, r, ok := cutComparison(cond, c.op); ok {
			if strings.TrimSpace(r) != "None" {
				return nil
			}
			if sts := lk.lookupValue(l); len(sts) > 0 && want == c.none {
				return sts
			}
			return nil
		}
	}
	// A bare lookup: truthy when the state is present.
	if sts := lk.lookupValue(cond); len(sts) > 0 && !want {
		return sts
	}
	return nil
}

// container returns the states of a container expression: `self.X` or
// `self.X.keys()`.
func (lk *lookups) container(text string) []State {
	text = stripParens(strings.TrimSpace(text))
	text = strings.TrimSuffix(text, ".keys()")
	return lk.ss.lookup(lk.recv, text)
}

// lookupValue returns the states an expression looks up, None when the
// entry is missing: `self.X.get(k)`, `self.X.get(k, None)`, a walrus
// `(s := self.X.get(k))`, or a local every assignment of which (in the
// function's own body) is such a lookup.
func (lk *lookups) lookupValue(e string) []State {
	e = stripParens(strings.TrimSpace(e))
	if i := topIndex(e, ":="); i > 0 {
		e = stripParens(strings.TrimSpace(e[i+2:]))
	}
	if sts := lk.getCall(e); len(sts) > 0 {
		return sts
	}
	if !reIdent.MatchString(e) || hasParam(lk.fn, e) {
		return nil
	}
	rhs := localValues(lk.src, lk.fn, e)
	if len(rhs) == 0 {
		return nil
	}
	var out []State
	for _, r := range rhs {
		sts := lk.getCall(stripParens(r))
		if len(sts) == 0 {
			return nil
		}
		if out == nil {
			out = sts
		}
	}
	return out
}

// getCall returns the states of `X.get(k)` or `X.get(k, None)`.
func (lk *lookups) getCall(e string) []State {
	if !strings.HasSuffix(e, ")") {
		return nil
	}
	open := matchingOpen(e, len(e)-1)
	if open <= 0 {
		return nil
	}
	callee, args := e[:open], e[open+1:len(e)-1]
	obj, ok := strings.CutSuffix(strings.TrimSpace(callee), ".get")
	if !ok {
		return nil
	}
	parts := splitTopComma(args)
	switch len(parts) {
	case 1:
	case 2:
		if strings.TrimSpace(parts[1]) != "None" {
			return nil
		}
	default:
		return nil
	}
	if strings.TrimSpace(parts[0]) == "" {
		return nil
	}
	return lk.ss.lookup(lk.recv, obj)
}

// skipString returns the offset just after the string literal that starts
// at s[i] (a quote), triple quotes included.
func skipString(s string, i int) int {
	q := s[i]
	if i+2 < len(s) && s[i+1] == q && s[i+2] == q {
		end := strings.Index(s[i+3:], string([]byte{q, q, q}))
		if end < 0 {
			return len(s)
		}
		return i + 3 + end + 3
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

// scanTop calls visit for each offset of s at bracket depth 0 outside
// strings; visit returns false to stop.
func scanTop(s string, visit func(i int) bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			depth--
			continue
		case '\'', '"':
			i = skipString(s, i) - 1
			continue
		}
		if depth == 0 && !visit(i) {
			return
		}
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// keywordAt reports whether the keyword kw (one word, or "not in", "is
// not") starts at s[i] as a whole token, and returns its end.
func keywordAt(s string, i int, kw string) (int, bool) {
	if i > 0 && isIdentByte(s[i-1]) {
		return 0, false
	}
	j := i
	for k, w := range strings.Fields(kw) {
		if k > 0 {
			n := j
			for n < len(s) && (s[n] == ' ' || s[n] == '\t' || s[n] == '\n' || s[n] == '\r' || s[n] == '\\') {
				n++
			}
			if n == j {
				return 0, false
			}
			j = n
		}
		if !strings.HasPrefix(s[j:], w) {
			return 0, false
		}
		j += len(w)
		if j < len(s) && isIdentByte(s[j]) {
			return 0, false
		}
	}
	return j, true
}

// splitKeyword splits s at the top-level occurrences of a boolean keyword
// ("or", "and"); a single part when there is none.
func splitKeyword(s, kw string) []string {
	var parts []string
	last := 0
	scanTop(s, func(i int) bool {
		if end, ok := keywordAt(s, i, kw); ok {
			parts = append(parts, s[last:i])
			last = end
		}
		return true
	})
	return append(parts, s[last:])
}

// cutKeywordPrefix returns what follows a leading keyword.
func cutKeywordPrefix(s, kw string) (string, bool) {
	if end, ok := keywordAt(s, 0, kw); ok {
		return strings.TrimSpace(s[end:]), true
	}
	return "", false
}

// cutComparison splits s at its first top-level comparison operator op
// ("not in", "in", "is not", "is", "==", "!="); `in` does not match the
// `in` of `not in`, nor `is` that of `is not`.
func cutComparison(s, op string) (left, right string, ok bool) {
	scanTop(s, func(i int) bool {
		var end int
		var hit bool
		if isIdentByte(op[0]) {
			end, hit = keywordAt(s, i, op)
			if hit && op == "in" {
				// not the in of `not in`
				if before := strings.TrimRight(s[:i], " \t\\\n\r"); strings.HasSuffix(before, "not") {
					if _, isNot := keywordAt(before, len(before)-3, "not"); isNot {
						hit = false
					}
				}
			}
			if hit && op == "is" {
				if _, isNot := keywordAt(s, i, "is not"); isNot {
					hit = false
				}
			}
		} else {
			hit = strings.HasPrefix(s[i:], op)
			end = i + len(op)
		}
		if hit {
			left, right, ok = strings.TrimSpace(s[:i]), strings.TrimSpace(s[end:]), true
			return false
		}
		return true
	})
	return
}

// topIndex returns the offset of the first top-level occurrence of sub,
// or -1.
func topIndex(s, sub string) int {
	at := -1
	scanTop(s, func(i int) bool {
		if strings.HasPrefix(s[i:], sub) {
			at = i
			return false
		}
		return true
	})
	return at
}

// stripParens removes parentheses that wrap the whole expression.
func stripParens(s string) string {
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && matchingOpen(s, len(s)-1) == 0 {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// matchingOpen returns the offset of the bracket that the closing bracket
// at s[close] matches, or -1.
func matchingOpen(s string, close int) int {
	var stack []int
	for i := 0; i <= close && i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if len(stack) == 0 {
				return -1
			}
			if i == close {
				return stack[len(stack)-1]
			}
			stack = stack[:len(stack)-1]
		case '\'', '"':
			i = skipString(s, i) - 1
		}
	}
	return -1
}

// splitTopComma splits an argument list at its top-level commas.
func splitTopComma(s string) []string {
	var parts []string
	last := 0
	scanTop(s, func(i int) bool {
		if s[i] == ',' {
			parts = append(parts, s[last:i])
			last = i + 1
		}
		return true
	})
	parts = append(parts, s[last:])
	if len(parts) > 1 && strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1] // a trailing comma
	}
	return parts
}
