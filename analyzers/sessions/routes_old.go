//go:build ignore

package sessions

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: LostSessionAsObservation, Run: runLostSessionAsObservation})
}

// lifecycleMethods are the framework's session, scoring and set-up
// methods: never tool routes.
var lifecycleMethods = map[string]bool{
	SeedMethod: true, VerifyMethod: true, CloseMethod: true,
	"aggregate_metrics": true, "compute_metrics": true, "get_key_metrics": true, "compute_repeat_metrics": true,
	"setup_webserver": true, "register_protocol_routes": true, "create_resources_app": true,
	"setup_session_middleware": true, "setup_checkpoint_participant": true, "setup_resources_checkpoint": true,
	"model_post_init": true, "__init__": true, "multiple_workers_unsupported_reason": true,
	"mcp_tools": true, "mcp_allowed_tools_for_session": true, "normalize_tool_name": true,
	"export_session_states": true, "restore_session_states": true, "retire_session_state": true,
	"checkpoint_session_ended": true, "get_reverify_mode": true, "run_webserver": true,
}

// sessionEdge matches method names that start or end a session.
var sessionEdge = regexp.MustCompile(`(?:^|_)(?:seed|reset|init|close|end|discard|release|cleanup|teardown|shutdown)(?:_|$)`)

func notToolRoute(name string) bool {
	return lifecycleMethods[name] || sessionEdge.MatchString(name) || strings.HasPrefix(name, "__")
}

// routeRegistration matches the callee text of `app.post("/x")` and the like.
var routeRegistration = regexp.MustCompile(`^[A-Za-z_][\w.]*\.(?:post|get|put|patch|delete|api_route|websocket)\s*\(`)

// toolFunc is a function that serves a tool route.
type toolFunc struct {
	class gym.ClassRef
	fn    *pyscan.Function
	recv  string // the receiver of the method (of the enclosing method for a nested function)
	route string // the route method it is reached from ("" when it is one)
}

func runLostSessionAsObservation(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	done := map[*pyscan.Function]bool{}
	for _, s := range ResourcesServers(v) {
		states := States(v, s)
		if len(states) == 0 {
			continue
		}
		ss := newStateSet(states)
		for _, tf := range toolRoutes(v, s.Class) {
			if done[tf.fn] || tf.class.Module.SyntaxError != nil {
				continue
			}
			done[tf.fn] = true
			out = append(out, lostAsObservation(v, tf, ss)...)
		}
	}
	return out
}

// toolRoutes returns the functions that serve a server's tool routes:
// registered routes, methods nothing else refers to, and what they reach.
func toolRoutes(v *gym.View, server gym.ClassRef) []toolFunc {
	methods := Methods(v, server)
	byName := map[string]Method{}
	for _, m := range methods {
		byName[m.Func.Name] = m
	}
	referenced := map[string]bool{}
	var out []toolFunc
	seen := map[*pyscan.Function]bool{}
	addFn := func(tf toolFunc) bool {
		if seen[tf.fn] {
			return false
		}
		seen[tf.fn] = true
		out = append(out, tf)
		return true
	}
	var factories []toolFunc
	for _, m := range methods {
		recv := m.Func.Receiver()
		for _, name := range selfRefs(m.Func, recv) {
			if name != m.Func.Name {
				referenced[name] = true
			}
		}
		if recv == "" {
			continue
		}
		for _, reg := range registrations(m.Func) {
			name, factory, ok := endpointMethod(m.Func, recv, reg)
			if !ok {
				continue
			}
			t, ok := byName[name]
			if !ok || notToolRoute(name) {
				continue
			}
			if factory {
				factories = append(factories, toolFunc{class: t.Class, fn: t.Func, recv: t.Func.Receiver()})
				continue
			}
			addFn(toolFunc{class: t.Class, fn: t.Func, recv: t.Func.Receiver()})
		}
	}
	for _, m := range methods {
		if !referenced[m.Func.Name] && !notToolRoute(m.Func.Name) {
			addFn(toolFunc{class: m.Class, fn: m.Func, recv: m.Func.Receiver()})
		}
	}
	// Functions a factory builds: those nested in it that it returns.
	for _, f := range factories {
		for _, n := range f.fn.Nested {
			for _, r := range f.fn.Returns {
				if r.Value != nil && r.Value.Dotted == n.Name {
					addFn(toolFunc{class: f.class, fn: n, recv: f.recv, route: f.fn.Name})
					break
				}
			}
		}
	}
	// What the routes reach.
	for i := 0; i < len(out); i++ {
		cur := out[i]
		if cur.recv == "" {
			continue
		}
		route := cur.route
		if route == "" {
			route = cur.fn.Name
		}
		for _, name := range selfRefs(cur.fn, cur.recv) {
			t, ok := byName[name]
			if !ok || notToolRoute(name) {
				continue
			}
			addFn(toolFunc{class: t.Class, fn: t.Func, recv: t.Func.Receiver(), route: route})
		}
	}
	return out
}

// registrations returns the calls of a function that register a route:
// `app.post("/x")(endpoint)` (the outer call) and
// `app.add_api_route("/x", endpoint, ...)`.
func registrations(fn *pyscan.Function) []*pyscan.Call {
	var out []*pyscan.Call
	var walk func(f *pyscan.Function)
	walk = func(f *pyscan.Function) {
		for _, c := range f.Calls {
			switch {
			case c.Callee.Call && c.Callee.Dotted == "" && routeRegistration.MatchString(c.Callee.Text):
				out = append(out, c)
			case strings.HasSuffix(c.Callee.Dotted, ".add_api_route"), strings.HasSuffix(c.Callee.Dotted, ".add_route"):
				out = append(out, c)
			}
		}
		for _, n := range f.Nested {
			walk(n)
		}
	}
	walk(fn)
	return out
}

// endpointMethod returns the method a registration serves: `self.m`
// (factory false), `self.m(...)` (a factory: factory true), or either
// inside one wrapping call, `wrap(self.m)`.
func endpointMethod(fn *pyscan.Function, recv string, reg *pyscan.Call) (name string, factory, ok bool) {
	var ep *pyscan.Expr
	if strings.HasSuffix(reg.Callee.Dotted, ".add_api_route") || strings.HasSuffix(reg.Callee.Dotted, ".add_route") {
		for i := range reg.Kwargs {
			if reg.Kwargs[i].Name == "endpoint" {
				ep = &reg.Kwargs[i].Value
			}
		}
		if ep == nil && len(reg.Args) > 1 {
			ep = &reg.Args[1]
		}
	} else if len(reg.Args) > 0 {
		ep = &reg.Args[0]
	}
	for depth := 0; ep != nil && depth < 3; depth++ {
		if !ep.Call {
			n, ok := strings.CutPrefix(ep.Dotted, recv+".")
			if !ok || strings.Contains(n, ".") {
				return "", false, false
			}
			return n, false, true
		}
		if n, ok := strings.CutPrefix(ep.Dotted, recv+"."); ok && !strings.Contains(n, ".") {
			return n, true, true
		}
		// A wrapper: look at its first argument.
		var inner *pyscan.Call
		for _, c := range allCalls(fn) {
			if c.Span == ep.Span {
				inner = c
			}
		}
		if inner == nil || len(inner.Args) == 0 {
			return "", false, false
		}
		ep = &inner.Args[0]
	}
	return "", false, false
}

func allCalls(fn *pyscan.Function) []*pyscan.Call {
	out := append([]*pyscan.Call(nil), fn.Calls...)
	for _, n := range fn.Nested {
		out = append(out, allCalls(n)...)
	}
	return out
}

// lostAsObservation returns the GL309 findings of one tool function.
func lostAsObservation(v *gym.View, tf toolFunc, ss *stateSet) []diag.Diagnostic {
	m := tf.class.Module
	fn := tf.fn
	lk := newLookups(v, m, fn, tf.recv, ss)
	if lazyCreates(fn, tf.recv, ss) {
		return nil
	}
	name := tf.class.Class.Name + "." + fn.Name
	if fn.Name != "" && tf.route != "" && !isMethodOf(tf.class, fn) {
		name = fn.Name + " (built by " + tf.class.Class.Name + "." + tf.route + ")"
	}
	reach := ""
	if tf.route != "" && isMethodOf(tf.class, fn) {
		reach = " (reached from the tool route " + tf.route + ")"
	}
	const fix = "raise ResourcesSessionLostError(detail) instead (HTTP 404 with failure_kind session_lost), which harnesses record as a failed tool call and the verify answers with a masked sample"
	var out []diag.Diagnostic
	for _, r := range fn.Raises {
		if r.Assert || r.Exc == nil || !r.Exc.Call || r.Exc.Dotted == "" {
			continue
		}
		miss, ok := lk.missing(r.Guards, r.Span)
		if !ok || createsUnder(fn, tf.recv, ss, miss) {
			continue
		}
		if !isHTTPException(v, m, r.Exc.Dotted) {
			continue
		}
		code, ok := httpStatus(fn, r.Exc)
		if !ok || code < 400 || code > 499 || code == 404 {
			continue
		}
		start, end := Span(r.Span)
		d := LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
			"%s%s raises HTTP %d when %s: a harness passes a 4xx other than 404 to the model as an ordinary tool result and the episode goes on; %s",
			name, reach, code, miss.describe(), fix))
		d.Related = append(miss.related(m), ss.related(miss.states)...)
		out = append(out, d)
	}
	for _, r := range fn.Returns {
		if r.Value == nil || strings.TrimSpace(r.Value.Text) == "None" {
			continue
		}
		miss, ok := lk.missing(r.Guards, r.Span)
		if !ok || createsUnder(fn, tf.recv, ss, miss) {
			continue
		}
		what := "an observation"
		if code, ok := returnedStatus(fn, r.Value); ok {
			if code == 404 {
				continue
			}
			what = "HTTP " + strconv.Itoa(code)
		} else if isStringLiteral(r.Value.Text) {
			what = "the string " + clip(r.Value.Text, 60)
		}
		start, end := Span(r.Span)
		d := LostSessionAsObservation.New(m.Path, start, end, fmt.Sprintf(
			"%s%s answers with %s (`%s`) when %s: the model reads it as an ordinary tool result and the episode goes on; %s",
			name, reach, what, clip(r.Value.Text, 60), miss.describe(), fix))
		d.Related = append(miss.related(m), ss.related(miss.states)...)
		out = append(out, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Offset < out[j].Start.Offset })
	return out
}

func isMethodOf(c gym.ClassRef, fn *pyscan.Function) bool {
	for _, m := range c.Class.Methods {
		if m == fn {
			return true
		}
	}
	return false
}

// lazyCreates reports whether a function creates per-session state with
// setdefault: a get-or-create, not a lookup that can miss.
func lazyCreates(fn *pyscan.Function, recv string, ss *stateSet) bool {
	for _, c := range fn.Calls {
		if obj, ok := strings.CutSuffix(c.Callee.Dotted, ".setdefault"); ok && len(ss.lookup(recv, obj)) > 0 {
			return true
		}
	}
	return false
}

// createsUnder reports whether the function writes the missing container
// under the same test: the branch starts the session instead of
// answering that it is gone.
func createsUnder(fn *pyscan.Function, recv string, ss *stateSet, miss missingState) bool {
	if miss.cond == nil {
		return false
	}
	for _, st := range fn.Stores {
		if st.Op == "del" || st.Key == nil || len(ss.lookup(recv, st.Target.Dotted)) == 0 {
			continue
		}
		for _, g := range st.Guards {
			if g.Cond.Span == miss.cond.Span && g.Negated == miss.negated {
				return true
			}
		}
	}
	return false
}

// returnedStatus returns the status_code= of a returned call.
func returnedStatus(fn *pyscan.Function, e *pyscan.Expr) (int, bool) {
	if !e.Call {
		return 0, false
	}
	for _, c := range fn.Calls {
		if c.Span != e.Span {
			continue
		}
		for _, kw := range c.Kwargs {
			if kw.Name == "status_code" {
				if n, err := strconv.Atoi(strings.TrimSpace(kw.Value.Text)); err == nil {
					return n, true
				}
				if code, ok := httpStatus(fn, e); ok {
					return code, true
				}
			}
		}
	}
	return 0, false
}

var stringLiteral = regexp.MustCompile(`^[rRbBfFuU]{0,2}["']`)

func isStringLiteral(s string) bool { return stringLiteral.MatchString(strings.TrimSpace(s)) }
