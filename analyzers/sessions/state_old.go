//go:build ignore

package sessions

import (
	"regexp"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// KeyKind says where the key of a per-session container comes from.
type KeyKind int

// The kinds of key.
const (
	// KeySession: the session's id: the session cookie's
	// request.session[SESSION_ID_KEY] (or request.session["session_id"],
	// request.session.get(...)), or body.resources_session_id.
	KeySession KeyKind = iota
	// KeyBody: another field of the request body that names a session-like
	// thing (body.env_id), where body is a parameter of the method: a field
	// named id, or env/environment/episode/rollout/sandbox/instance/game/
	// conversation/trajectory/run/container/thread/chat/state/world
	// followed by id (env_id, envId), key or handle. A cache keyed by
	// another field (body.url, body.task_id) is not per-session state.
	KeyBody
	// KeyMinted: an id that the method mints (uuid4(), uuid.uuid4().hex,
	// secrets.token_hex()), as seeds do that hand the id back for the
	// client to send in later request bodies.
	KeyMinted
	// KeyOther: anything else, including a parameter of a helper method and
	// a local gymlint cannot trace.
	KeyOther
)

func (k KeyKind) String() string {
	switch k {
	case KeySession:
		return "session"
	case KeyBody:
		return "body"
	case KeyMinted:
		return "minted"
	}
	return "other"
}

// State is one write of per-session state.
type State struct {
	Attr   string           // "self._sessions": the container
	Store  *pyscan.Store    // one write of it
	Method *pyscan.Function // where
	Class  gym.ClassRef     // whose method
	Key    KeyKind
}

// Where describes the write for a message: "self._sessions[session_id] in
// EchoServer.seed_session".
func (s State) Where() string {
	key := ""
	if s.Store.Key != nil {
		key = oneLine(s.Store.Key.Text)
	}
	what := s.Attr + "[" + key + "]"
	switch s.Store.Op {
	case "setdefault", "__setitem__":
		what = s.Attr + "." + s.Store.Op + "(" + key + ", ...)"
	}
	return what + " in " + s.Class.Class.Name + "." + s.Method.Name
}

// Related is the write as a related position.
func (s State) Related() diag.Related {
	return RelatedAt(s.Class.Module, s.Store.Span, "per-session state "+s.Attr+" is written here, in "+s.Class.Class.Name+"."+s.Method.Name)
}

// States lists the per-session state a server keeps: containers written by
// subscript (`self.X[k] = v`, `self.X[k] += v`), by `self.X.setdefault(k,
// ...)` or by `self.X.__setitem__(k, v)`, keyed by the session id or a
// request-body field (KeySession, KeyBody) in any method of the server
// class or its repository ancestors outside the framework (the winning
// definitions), or by an id the seed mints (KeyMinted) in a seed_session
// override. `del self.X[k]` releases and does not count. A container is an
// attribute chain on the method's receiver (`self.X`, `cls.X`,
// `self.state.X`) or a name assigned at module scope. Writes in nested
// functions and keys gymlint cannot trace (a helper's parameter) are left
// out: an empty result means the server is not stateful as far as the
// code shows.
func States(v *gym.View, s gym.Server) []State {
	var out []State
	methods := Methods(v, s.Class)
	k := newKeyer(v, methods)
	for _, meth := range methods {
		fn, m := meth.Func, meth.Class.Module
		recv := fn.Receiver()
		for _, st := range writes(fn) {
			attr := st.Target.Dotted
			if !container(m, recv, attr) || st.Key == nil {
				continue
			}
			kind := k.text(meth, strings.TrimSpace(st.Key.Text), 0)
			switch {
			case kind == KeySession || kind == KeyBody:
			case kind == KeyMinted && fn.Name == SeedMethod:
			default:
				continue
			}
			out = append(out, State{Attr: attr, Store: st, Method: fn, Class: meth.Class, Key: kind})
		}
	}
	return out
}

// writes returns the stores of a function that write a subscript, and its
// setdefault/__setitem__ calls as stores.
func writes(fn *pyscan.Function) []*pyscan.Store {
	var out []*pyscan.Store
	for _, st := range fn.Stores {
		if st.Key != nil && st.Op != "del" {
			out = append(out, st)
		}
	}
	for _, c := range fn.Calls {
		d := c.Callee.Dotted
		for _, op := range []string{"setdefault", "__setitem__"} {
			if !strings.HasSuffix(d, "."+op) || len(c.Args) == 0 || strings.HasPrefix(c.Args[0].Text, "*") {
				continue
			}
			obj := strings.TrimSuffix(d, "."+op)
			st := &pyscan.Store{
				Target: pyscan.Expr{Text: obj, Dotted: obj, Span: c.Callee.Span},
				Key:    &c.Args[0],
				Op:     op,
				Span:   c.Span,
			}
			if len(c.Args) > 1 {
				st.Value = &c.Args[1]
			}
			out = append(out, st)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start.Offset < out[j].Span.Start.Offset })
	return out
}

// container reports whether a dotted target is an attribute chain on the
// receiver or a name assigned at module scope.
func container(m *pyscan.Module, recv, dotted string) bool {
	if dotted == "" {
		return false
	}
	if recv != "" && strings.HasPrefix(dotted, recv+".") {
		return true
	}
	first := dotted
	if i := strings.IndexByte(dotted, '.'); i >= 0 {
		first = dotted[:i]
	}
	if first == recv {
		return false
	}
	b := m.Binding(first)
	return b != nil && (b.Kind == pyscan.BindAssign || b.Kind == pyscan.BindAnnAssign)
}

// ClassifyKey says where a key expression used in fn (a method of a class
// of module m) comes from. A plain name is traced through its assignments
// in fn's own body (`session_id = request.session[SESSION_ID_KEY]`): every
// assignment must agree, except that a minted fallback
// (`if not session_id: session_id = str(uuid4())`) does not change a
// session id. `str(...)` and `int(...)` around a key are looked through.
// A parameter of fn is KeyOther; ServerKey traces it to fn's callers.
func ClassifyKey(v *gym.View, m *pyscan.Module, fn *pyscan.Function, key pyscan.Expr) KeyKind {
	k := newKeyer(v, nil)
	return k.text(Method{Class: gym.ClassRef{Module: m}, Func: fn}, strings.TrimSpace(key.Text), 0)
}

// ServerKey is ClassifyKey for a key in a method of a server, with
// parameters traced: a parameter of a method of the server takes the kind
// of the arguments that the server's own methods pass it in
// `self.method(...)` calls, when there is at least one such call and all
// agree (as the framework Gymnasium server's /reset route passes the
// session cookie's id to reset(metadata, session_id)).
func ServerKey(v *gym.View, server gym.ClassRef, meth Method, key pyscan.Expr) KeyKind {
	return newKeyer(v, Methods(v, server)).text(meth, strings.TrimSpace(key.Text), 0)
}

// keyer classifies keys, with the server's methods for parameter tracing.
type keyer struct {
	v       *gym.View
	methods []Method
	srcs    map[string][]byte
}

func newKeyer(v *gym.View, methods []Method) *keyer {
	return &keyer{v: v, methods: methods, srcs: map[string][]byte{}}
}

func (k *keyer) source(p string) []byte {
	if t, ok := k.srcs[p]; ok {
		return t
	}
	t, err := k.v.Source(p)
	if err != nil {
		t = nil
	}
	k.srcs[p] = t
	return t
}

var (
	reWrap       = regexp.MustCompile(`^(?:str|int)\(\s*(.*?)\s*\)$`)
	reCookie     = regexp.MustCompile(`^[A-Za-z_]\w*\.session\s*\[\s*(.+?)\s*\]$`)
	reCookieGet  = regexp.MustCompile(`^[A-Za-z_]\w*\.session\.get\(\s*([^,()]+?)\s*(?:,.*)?\)$`)
	reBodyID     = regexp.MustCompile(`^[A-Za-z_]\w*(?:\.\w+)*\.resources_session_id$`)
	reField      = regexp.MustCompile(`^([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)+$`)
	reIdent      = regexp.MustCompile(`^[A-Za-z_]\w*$`)
	reSessionish = regexp.MustCompile(`(?i)^(?:id|sid|eid|(?:session|env|environment|episode|rollout|sandbox|instance|game|conversation|trajectory|traj|run|container|thread|chat|state|world)_?(?:id|key|handle))$`)
	reMint       = regexp.MustCompile(`\buuid[14]\(|\bsecrets\.token_(?:hex|urlsafe)\(`)
	sessionLiter = map[string]bool{`"session_id"`: true, `'session_id'`: true}
)

// notBody are parameter names that are not request bodies.
var notBody = map[string]bool{"self": true, "cls": true, "request": true, "req": true, "response": true}

func (k *keyer) text(meth Method, t string, depth int) KeyKind {
	if depth > 4 {
		return KeyOther
	}
	v, m, fn := k.v, meth.Class.Module, meth.Func
	for strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if sm := reWrap.FindStringSubmatch(t); sm != nil {
		return k.text(meth, sm[1], depth+1)
	}
	if sm := reCookie.FindStringSubmatch(t); sm != nil {
		if sessionIDKey(v, m, sm[1]) {
			return KeySession
		}
		return KeyOther
	}
	if sm := reCookieGet.FindStringSubmatch(t); sm != nil {
		if sessionIDKey(v, m, sm[1]) {
			return KeySession
		}
		return KeyOther
	}
	if reBodyID.MatchString(t) {
		return KeySession
	}
	if sm := reField.FindStringSubmatch(t); sm != nil {
		field := t[strings.LastIndexByte(t, '.')+1:]
		if !notBody[sm[1]] && hasParam(fn, sm[1]) && reSessionish.MatchString(field) {
			return KeyBody
		}
		return KeyOther
	}
	if reMint.MatchString(t) {
		return KeyMinted
	}
	if !reIdent.MatchString(t) {
		return KeyOther
	}
	if hasParam(fn, t) {
		return k.param(meth, t, depth)
	}
	rhs := localValues(k.source(m.Path), fn, t)
	if len(rhs) == 0 {
		return KeyOther
	}
	var kinds []KeyKind
	for _, r := range rhs {
		kinds = append(kinds, k.text(meth, r, depth+1))
	}
	return agree(kinds, true)
}

// agree returns the kind all kinds share, or KeyOther; with fallback set,
// KeyMinted alongside KeySession counts as KeySession.
func agree(kinds []KeyKind, fallback bool) KeyKind {
	if len(kinds) == 0 {
		return KeyOther
	}
	session, minted := false, false
	for _, x := range kinds {
		session = session || x == KeySession
		minted = minted || x == KeyMinted
	}
	for _, x := range kinds {
		if x != kinds[0] {
			if fallback && session && minted && (x == KeySession || x == KeyMinted) {
				continue
			}
			return KeyOther
		}
	}
	if fallback && session {
		return KeySession
	}
	return kinds[0]
}

// param classifies a parameter of a method by the arguments the server's
// methods pass it.
func (k *keyer) param(meth Method, name string, depth int) KeyKind {
	fn := meth.Func
	recv := fn.Receiver()
	if recv == "" || name == recv || meth.Class.Class == nil {
		return KeyOther
	}
	idx := -1
	for i, p := range fn.Params[1:] {
		if p == name {
			idx = i
		}
	}
	var kinds []KeyKind
	for _, caller := range k.methods {
		crecv := caller.Func.Receiver()
		if crecv == "" {
			continue
		}
		for _, c := range caller.Func.Calls {
			if c.Callee.Dotted != crecv+"."+fn.Name {
				continue
			}
			var arg *pyscan.Expr
			for i := range c.Kwargs {
				if c.Kwargs[i].Name == name {
					arg = &c.Kwargs[i].Value
				}
			}
			if arg == nil && idx >= 0 && idx < len(c.Args) {
				for _, a := range c.Args[:idx+1] {
					if strings.HasPrefix(a.Text, "*") {
						return KeyOther
					}
				}
				arg = &c.Args[idx]
			}
			if arg == nil {
				return KeyOther // a default or a splat: cannot tell
			}
			kinds = append(kinds, k.text(caller, strings.TrimSpace(arg.Text), depth+1))
		}
	}
	return agree(kinds, false)
}

// sessionIDKey reports whether a cookie key is the framework's
// SESSION_ID_KEY or its value "session_id".
func sessionIDKey(v *gym.View, m *pyscan.Module, key string) bool {
	key = strings.TrimSpace(key)
	return sessionLiter[key] || Framework(v, m, key) == "SESSION_ID_KEY"
}

func hasParam(fn *pyscan.Function, name string) bool {
	for _, p := range fn.Params {
		if p == name {
			return true
		}
	}
	return false
}

// localValues returns the right-hand sides of the single-target
// assignments `name = value` and `name: T = value` in fn's own body (not
// in its nested functions), each to the end of its line. pyscan records
// no local variables, so this reads the function's source text.
func localValues(src []byte, fn *pyscan.Function, name string) []string {
	if src == nil || fn.Span.End.Offset > len(src) {
		return nil
	}
	re := regexp.MustCompile(`(?m)^[ \t]*` + regexp.QuoteMeta(name) + `[ \t]*(?::[^=\n]*)?=[ \t]*([^=\n].*)$`)
	body := src[fn.Span.Start.Offset:fn.Span.End.Offset]
	var out []string
	for _, loc := range re.FindAllSubmatchIndex(body, -1) {
		off := fn.Span.Start.Offset + loc[0]
		skip := false
		for _, n := range fn.Nested {
			if off >= n.Span.Start.Offset && off < n.Span.End.Offset {
				skip = true // a nested function's local
			}
		}
		for _, c := range fn.Calls {
			if off >= c.Span.Start.Offset && off < c.Span.End.Offset {
				skip = true // a keyword argument on its own line
			}
		}
		if skip {
			continue
		}
		rhs := strings.TrimSpace(string(body[loc[2]:loc[3]]))
		if i := strings.Index(rhs, " #"); i >= 0 {
			rhs = strings.TrimSpace(rhs[:i])
		}
		out = append(out, rhs)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
