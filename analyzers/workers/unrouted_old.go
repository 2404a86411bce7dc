//go:build ignore

package workers

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
	Checks = append(Checks, gym.Check{Rule: UnroutedSessionState, Run: runUnrouted})
}

// unroutedFrameworkRoutes are the methods the framework's setup_webserver
// serves by name.
var unroutedFrameworkRoutes = map[string]bool{
	"seed_session": true, "verify": true, "aggregate_metrics": true,
	"run": true, "responses": true, "chat_completions": true, "messages": true,
}

// unroutedStartup are methods that run once per worker at start-up.
var unroutedStartup = map[string]bool{"__init__": true, mwPostInit: true, "setup_webserver": true}

type unroutedFinding struct {
	path    string
	store   *unroutedAccess
	reads   []*unroutedAccess
	servers []string
	apps    []diag.Related
	attr    string
}

func runUnrouted(v *gym.View) []diag.Diagnostic {
	byKey := map[string]*unroutedFinding{}
	var order []string
	for _, e := range v.Entrypoints {
		if !mwUsable(e) {
			continue
		}
		app := gym.HasModuleApp(e.Module)
		if app == nil {
			continue
		}
		appRel := diag.Related{
			Path: e.Module.Path, Start: gym.PyPos(app.Span.Start), End: gym.PyPos(app.Span.End),
			Message: "module-level app of " + e.Module.Path + ": uvicorn may serve it with several workers",
		}
		for _, s := range e.Servers {
			// Only a server that accepts several workers: any refusal,
			// or an answer gymlint cannot read, keeps the rule silent.
			if r := Analyze(v, s); r.Uncertain || r.Kind != RefusesNever {
				continue
			}
			for _, f := range unroutedServer(v, s.Class) {
				k := fmt.Sprintf("%s\x00%d", f.path, f.store.span.Start.Offset)
				old := byKey[k]
				if old == nil {
					old = f
					byKey[k] = f
					order = append(order, k)
				}
				if !slices.Contains(old.servers, s.Class.Class.Name) {
					old.servers = append(old.servers, s.Class.Class.Name)
				}
				dup := false
				for _, a := range old.apps {
					if a.Path == appRel.Path {
						dup = true
					}
				}
				if !dup {
					old.apps = append(old.apps, appRel)
				}
			}
		}
	}
	var out []diag.Diagnostic
	for _, k := range order {
		out = append(out, unroutedDiag(byKey[k]))
	}
	return out
}

func unroutedDiag(f *unroutedFinding) diag.Diagnostic {
	w := f.store
	r := f.reads[0]
	where := fmt.Sprintf("line %d", r.span.Start.Line)
	if r.node.owner.Module.Path != f.path {
		where = fmt.Sprintf("%s:%d", r.node.owner.Module.Path, r.span.Start.Line)
	}
	subject, keeps := "server class "+f.servers[0], "keeps"
	if len(f.servers) > 1 {
		subject, keeps = "server classes "+strings.Join(f.servers, ", "), "keep"
	}
	var apps []string
	for _, a := range f.apps {
		apps = append(apps, a.Path)
	}
	has := "has"
	if len(apps) > 1 {
		has = "have"
	}
	bodyKey := r.keyText
	if w.kind == ukBody {
		bodyKey = w.keyText
	}
	msg := fmt.Sprintf(
		"%s %s per-episode state in %s in process memory keyed by %s, a request-body field that session routing does not follow: it is written here in %s (key %s) and read in %s at %s (key %s), a request that another worker may serve, since %s %s a module-level app; key the state by the session (request.session[SESSION_ID_KEY] or body.resources_session_id), or override %s() to refuse several workers",
		subject, keeps, f.attr, bodyKey, w.node.fn.Name, w.keyText, r.node.fn.Name, where, r.keyText, strings.Join(apps, " and "), has, Method)
	d := UnroutedSessionState.New(f.path, gym.PyPos(w.span.Start), gym.PyPos(w.span.End), msg)
	for i, rd := range f.reads {
		if i == unroutedMaxReads {
			break
		}
		d.Related = append(d.Related, diag.Related{
			Path: rd.node.owner.Module.Path, Start: gym.PyPos(rd.span.Start), End: gym.PyPos(rd.span.End),
			Message: fmt.Sprintf("%s is read here in %s under %s", f.attr, rd.node.fn.Name, rd.keyText),
		})
	}
	d.Related = append(d.Related, f.apps...)
	return d
}

// unroutedNode is a method of a server class's repository ancestry.
type unroutedNode struct {
	owner   gym.ClassRef
	fn      *pyscan.Function
	name    string
	edges   []*unroutedNode
	entries map[string]bool // the routes that reach it
	startup bool            // reached from start-up code
	assigns map[string]bool // dictionaries it assigns with =
}

type unroutedKeyKind int

const (
	ukOther unroutedKeyKind = iota
	ukLocal
	ukBody
	ukSession
)

// unroutedAccess is a write or read of self.X[key].
type unroutedAccess struct {
	node    *unroutedNode
	attr    string // "self.X"
	kind    unroutedKeyKind
	keyText string
	write   bool // = or augmented
	read    bool // a lookup: subscript, get/pop/setdefault, del, augmented
	span    pyscan.Span
}

var unroutedSelfRef = regexp.MustCompile(`\bself\.([A-Za-z_]\w*)\b`)

// unroutedNodes collects the methods of a server's repository ancestry:
// the winning definition of each name, and the ones super() calls reach.
func unroutedNodes(v *gym.View, server gym.ClassRef) ([]*unroutedNode, bool) {
	mro, ok := v.MRO(server)
	if !ok {
		return nil, false
	}
	win := map[string]*unroutedNode{}
	byFn := map[*pyscan.Function]*unroutedNode{}
	var all []*unroutedNode
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Module.SyntaxError != nil {
			continue
		}
		for _, fn := range a.Class.Class.Methods {
			n := &unroutedNode{owner: a.Class, fn: fn, name: fn.Name, entries: map[string]bool{}, assigns: map[string]bool{}}
			byFn[fn] = n
			all = append(all, n)
			if win[fn.Name] == nil {
				win[fn.Name] = n
			} else if win[fn.Name].owner.Class == a.Class.Class {
				win[fn.Name] = n // a later def in the same class body wins
			}
		}
	}
	// Edges: self.m(...) and self.m as a value reach the winning m;
	// super().m(...) reaches the next definition up the MRO.
	var routes []*unroutedNode
	isRoute := map[*unroutedNode]bool{}
	addRoute := func(n *unroutedNode) {
		if n != nil && !isRoute[n] {
			isRoute[n] = true
			routes = append(routes, n)
		}
	}
	for name := range unroutedFrameworkRoutes {
		if n := win[name]; n != nil {
			addRoute(n)
		}
	}
	for _, n := range all {
		for _, c := range unroutedCalls(n.fn) {
			if strings.HasPrefix(c.Callee.Dotted, "self.") {
				if m := win[strings.TrimPrefix(c.Callee.Dotted, "self.")]; m != nil {
					n.edges = append(n.edges, m)
				}
			}
			if mwIsSuperCall(c, n.name) {
				if _, pfn, _ := mwNextDef(v, server, n.owner.Class, n.name); pfn != nil && byFn[pfn] != nil {
					n.edges = append(n.edges, byFn[pfn])
				}
			}
			registers := (c.Callee.Call && c.Callee.Dotted == "") || unroutedRegistrar(c.Callee.Dotted)
			vals := append([]pyscan.Expr(nil), c.Args...)
			for _, k := range c.Kwargs {
				vals = append(vals, k.Value)
			}
			for _, a := range vals {
				if strings.HasPrefix(a.Dotted, "self.") && !a.Call {
					if m := win[strings.TrimPrefix(a.Dotted, "self.")]; m != nil {
						n.edges = append(n.edges, m)
					}
				}
				if registers {
					for _, sm := range unroutedSelfRef.FindAllStringSubmatch(a.Text, -1) {
						addRoute(win[sm[1]])
					}
				}
			}
		}
	}
	sort.SliceStable(routes, func(i, j int) bool { return routes[i].name < routes[j].name })
	for _, r := range routes {
		unroutedWalk(r, func(n *unroutedNode) bool {
			if n.entries[r.name] {
				return false
			}
			n.entries[r.name] = true
			return true
		})
	}
	for _, n := range all {
		if unroutedStartup[n.name] {
			unroutedWalk(n, func(m *unroutedNode) bool {
				if m.startup {
					return false
				}
				m.startup = true
				return true
			})
		}
	}
	for _, n := range all {
		if len(n.entries) == 0 && !n.startup {
			n.entries[n.name] = true
		}
	}
	return all, true
}

func unroutedWalk(n *unroutedNode, visit func(*unroutedNode) bool) {
	if !visit(n) {
		return
	}
	for _, m := range n.edges {
		unroutedWalk(m, visit)
	}
}

// unroutedRegistrar reports whether a callee registers a route handler
// given as an argument.
func unroutedRegistrar(d string) bool {
	for _, s := range []string{".add_api_route", ".api_route", ".add_route", ".add_api_websocket_route"} {
		if strings.HasSuffix(d, s) {
			return true
		}
	}
	return false
}

// unroutedCalls are a method's calls, nested functions' included.
func unroutedCalls(fn *pyscan.Function) []*pyscan.Call {
	out := append([]*pyscan.Call(nil), fn.Calls...)
	for _, n := range fn.Nested {
		out = append(out, unroutedCalls(n)...)
	}
	return out
}

var unroutedWrapped = regexp.MustCompile(`^(?:str|int)\(\s*([A-Za-z_][\w.]*)\s*\)$`)

// unroutedKey classifies a key expression in a function with these params.
func unroutedKey(k pyscan.Expr, params []string) unroutedKeyKind {
	t := strings.TrimSpace(k.Text)
	if strings.Contains(strings.ToLower(t), "session") || t == "sid" {
		return ukSession
	}
	dotted := k.Dotted
	if k.Call {
		dotted = ""
		if m := unroutedWrapped.FindStringSubmatch(t); m != nil {
			dotted = m[1]
		}
	} else if len(k.Args) > 0 || t != k.Dotted {
		dotted = ""
	}
	if dotted == "" {
		return ukOther
	}
	if strings.HasPrefix(dotted, "body.") {
		for _, p := range params {
			if p == "body" {
				return ukBody
			}
		}
		return ukOther
	}
	if !strings.Contains(dotted, ".") && dotted != "self" && dotted != "None" && dotted != "True" && dotted != "False" {
		return ukLocal
	}
	return ukOther
}

// unroutedAccesses lists a method's writes and reads of self.X[key], its
// nested functions' included, in source order.
func unroutedAccesses(n *unroutedNode) []*unroutedAccess {
	var out []*unroutedAccess
	var walk func(fn *pyscan.Function)
	walk = func(fn *pyscan.Function) {
		for _, s := range fn.Stores {
			if s.Key == nil || !strings.HasPrefix(s.Target.Dotted, "self.") {
				continue
			}
			a := &unroutedAccess{node: n, attr: s.Target.Dotted, kind: unroutedKey(*s.Key, fn.Params), keyText: s.Key.Text, span: s.Span}
			switch s.Op {
			case "del":
				a.read = true
			case "=":
				a.write = true
				n.assigns[a.attr] = true
			default:
				a.write, a.read = true, true
			}
			out = append(out, a)
		}
		for _, s := range fn.Subscripts {
			o := s.Object
			if !strings.HasPrefix(o.Dotted, "self.") || o.Call || o.Text != o.Dotted {
				continue
			}
			out = append(out, &unroutedAccess{node: n, attr: o.Dotted, kind: unroutedKey(s.Key, fn.Params), keyText: s.Key.Text, read: true, span: s.Span})
		}
		for _, c := range fn.Calls {
			d := c.Callee.Dotted
			i := strings.LastIndexByte(d, '.')
			if i < 0 || !strings.HasPrefix(d, "self.") || len(c.Args) == 0 || strings.HasPrefix(c.Args[0].Text, "*") {
				continue
			}
			switch d[i+1:] {
			case "get", "pop", "setdefault":
			default:
				continue
			}
			attr := d[:i]
			if attr == "self" {
				continue // self.get(k): a method of the server
			}
			out = append(out, &unroutedAccess{node: n, attr: attr, kind: unroutedKey(c.Args[0], fn.Params), keyText: c.Args[0].Text, read: true, span: c.Span})
		}
		for _, nf := range fn.Nested {
			walk(nf)
		}
	}
	walk(n.fn)
	sort.SliceStable(out, func(i, j int) bool { return out[i].span.Start.Offset < out[j].span.Start.Offset })
	return out
}

// unroutedServer finds the body-keyed state of one server class.
func unroutedServer(v *gym.View, server gym.ClassRef) []*unroutedFinding {
	nodes, ok := unroutedNodes(v, server)
	if !ok {
		return nil
	}
	var accesses []*unroutedAccess
	for _, n := range nodes {
		accesses = append(accesses, unroutedAccesses(n)...)
	}
	session := map[string]bool{}
	var attrs []string
	byAttr := map[string][]*unroutedAccess{}
	for _, a := range accesses {
		if a.kind == ukSession {
			session[a.attr] = true
		}
		if byAttr[a.attr] == nil {
			attrs = append(attrs, a.attr)
		}
		byAttr[a.attr] = append(byAttr[a.attr], a)
	}
	var out []*unroutedFinding
	for _, attr := range attrs {
		if session[attr] {
			continue
		}
		for _, w := range byAttr[attr] {
			if !w.write || len(w.node.entries) == 0 || (w.kind != ukBody && w.kind != ukLocal) {
				continue
			}
			var reads []*unroutedAccess
			for _, r := range byAttr[attr] {
				if !r.read || r.node == w.node || len(r.node.entries) == 0 || r.node.assigns[attr] {
					continue
				}
				if r.kind != ukBody && r.kind != ukLocal || (w.kind != ukBody && r.kind != ukBody) {
					continue
				}
				if !unroutedDiffer(w.node.entries, r.node.entries) {
					continue
				}
				reads = append(reads, r)
			}
			if len(reads) > 0 {
				// Prefer a read whose key is from the body first.
				sort.SliceStable(reads, func(i, j int) bool { return reads[i].kind == ukBody && reads[j].kind != ukBody })
				out = append(out, &unroutedFinding{path: w.node.owner.Module.Path, store: w, reads: reads, attr: attr})
				break
			}
		}
	}
	return out
}

// unroutedDiffer reports whether some route in a differs from some route in b.
func unroutedDiffer(a, b map[string]bool) bool {
	for x := range a {
		for y := range b {
			if x != y {
				return true
			}
		}
	}
	return false
}
