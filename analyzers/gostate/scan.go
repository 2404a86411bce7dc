package gostate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/facts"
)

// class is what a variable or expression holds.
type class int

const (
	cNone  class = iota
	cBody        // a decoded request body
	cKey         // a key: its KeyClass in value.key
	cRoot        // a long-lived value that is not a container
	cState       // a long-lived container
)

// value is the class of a variable or expression: for cKey, the key's
// class; for cState (and cRoot when known), the field or variable and the
// expression that names it.
type value struct {
	class class
	key   KeyClass
	kind  StateKind
	obj   types.Object
	x     ast.Expr
}

func keyValue(k KeyClass) value {
	if k == KeyUnknown {
		return value{}
	}
	return value{class: cKey, key: k}
}

// scanner reads function bodies of one server, for one handler (h) or, in
// the pass without call sites, for none.
type scanner struct {
	s      *Server
	h      *Handler
	follow bool       // follow calls of the package's functions
	root   ast.Node   // the function being read
	funcs  []ast.Node // the functions (root, literals in it) around the node being read
	sigBuf []byte
	// skipLits leaves out the server's function-literal handlers, which
	// are read on their own.
	skipLits bool
	// collect are the effects of the calls being read, innermost last.
	collect []*effects
}

// effects are what reading a call finds for a handler: the accesses, with
// their keys and names there. Another handler's call with the same
// signature at the same depth finds the same, so it is replayed instead of
// read again.
type effects struct {
	vias []effect
}

type effect struct {
	a   *Access
	key KeyClass
	x   string
}

// scanHandlers reads every handler with what it calls.
func (s *Server) scanHandlers() {
	for _, h := range s.Handlers {
		sc := &scanner{s: s, h: h, follow: true}
		vars := map[*types.Var]value{}
		switch n := h.Node.(type) {
		case *ast.FuncDecl:
			sc.handlerParams(n.Recv, n.Type, vars)
		case *ast.FuncLit:
			sc.handlerParams(nil, n.Type, vars)
		}
		h.Reaches = s.res.reaches(h.Node)
		sc.scan(h.Node, vars, 0)
	}
}

// scanAll reads, without a call site, every function of the package that
// may touch a container, is not a method of another server's types, and
// that no handler read with its receiver and parameters of holder types
// bound. (Function-literal handlers were read as handlers, with the roots
// they have without a call site.)
func (s *Server) scanAll() {
	sc := &scanner{s: s, skipLits: true}
	info := s.res.pass.TypesInfo
	for _, f := range s.res.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				if n, ok := deref(info.TypeOf(fd.Recv.List[0].Type)).(*types.Named); ok && s.res.holders[n.Origin()] && !s.holders[n.Origin()] {
					continue
				}
			}
			if !s.covered[fd] && s.res.touches(fd) {
				sc.scan(fd, map[*types.Var]value{}, 0)
			}
		}
	}
}

// cover notes that a handler reads fd with every receiver and parameter of
// a holder type bound to long-lived state: what reading it without a call
// site would find, that reading found, so the former is not needed.
func (sc *scanner) cover(fd *ast.FuncDecl, vars map[*types.Var]value) {
	info := sc.s.res.pass.TypesInfo
	lists := []*ast.FieldList{fd.Recv, fd.Type.Params}
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			for _, id := range f.Names {
				v, ok := info.Defs[id].(*types.Var)
				if !ok {
					continue
				}
				if n, ok := deref(v.Type()).(*types.Named); ok && sc.s.holders[n.Origin()] {
					if c := vars[v].class; c != cRoot && c != cState {
						return
					}
				}
			}
		}
	}
	sc.s.covered[fd] = true
}

// handlerParams classifies the receiver and parameters of a handler: the
// receiver is long-lived; without an *http.Request parameter, a parameter
// whose type is a struct of the package is the body.
func (sc *scanner) handlerParams(recv *ast.FieldList, ft *ast.FuncType, vars map[*types.Var]value) {
	info := sc.s.res.pass.TypesInfo
	if recv != nil {
		for _, f := range recv.List {
			for _, id := range f.Names {
				if v, ok := info.Defs[id].(*types.Var); ok {
					vars[v] = value{class: cRoot}
				}
			}
		}
	}
	if ft.Params == nil {
		return
	}
	for _, f := range ft.Params.List {
		if isHTTPRequest(info.TypeOf(f.Type)) {
			return
		}
	}
	for _, f := range ft.Params.List {
		if !sc.isBodyType(info.TypeOf(f.Type)) {
			continue
		}
		for _, id := range f.Names {
			if v, ok := info.Defs[id].(*types.Var); ok {
				vars[v] = value{class: cBody}
			}
		}
	}
}

func isHTTPRequest(t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Request"
}

// isBodyType reports whether t is (a pointer to) a struct type of the
// package other than the server type.
func (sc *scanner) isBodyType(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := deref(t).(*types.Named)
	if !ok || n.Obj().Pkg() != sc.s.res.pass.Pkg || (sc.s.Native.Type != nil && n.Origin() == sc.s.Native.Type) {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

// scan reads a function body with the given classes of its variables.
func (sc *scanner) scan(fn ast.Node, vars map[*types.Var]value, depth int) {
	body := funcBody(fn)
	if body == nil {
		return
	}
	if fd, ok := fn.(*ast.FuncDecl); ok && sc.h != nil {
		sc.cover(fd, vars)
	}
	savedRoot, savedFuncs := sc.root, sc.funcs
	sc.root, sc.funcs = fn, []ast.Node{fn}
	defer func() { sc.root, sc.funcs = savedRoot, savedFuncs }()

	info := sc.s.res.pass.TypesInfo
	ast.Inspect(body, func(n ast.Node) bool { return n == nil || sc.visit(n, vars, depth, info) })
}

// visit handles one node of a body; it returns whether to go on into its
// children.
func (sc *scanner) visit(n ast.Node, vars map[*types.Var]value, depth int, info *types.Info) bool {
	switch n := n.(type) {
	case *ast.FuncLit:
		if sc.skipLits && sc.s.lits[n] && n != sc.root {
			return false
		}
		sc.funcs = append(sc.funcs, n)
		ast.Inspect(n.Body, func(m ast.Node) bool { return sc.visit(m, vars, depth, info) })
		sc.funcs = sc.funcs[:len(sc.funcs)-1]
		return false
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i, l := range n.Lhs {
				v := sc.classOf(vars, n.Rhs[i])
				if call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok && v.class == cNone && sc.s.res.isDecodeCall(call) && isStructish(info.TypeOf(l)) {
					v = value{class: cBody}
				}
				if n.Tok != token.DEFINE {
					sc.replace(vars, l)
				}
				sc.bind(vars, l, v)
			}
		} else if len(n.Rhs) == 1 {
			switch rhs := ast.Unparen(n.Rhs[0]).(type) {
			case *ast.TypeAssertExpr, *ast.IndexExpr: // v, ok := x.(T) / m[k]
				sc.bind(vars, n.Lhs[0], sc.classOf(vars, rhs))
			case *ast.CallExpr:
				if sc.s.res.isDecodeCall(rhs) {
					for _, l := range n.Lhs {
						if isStructish(info.TypeOf(l)) {
							sc.bind(vars, l, value{class: cBody})
						}
					}
				} else if v := sc.classOf(vars, rhs); v.class == cKey {
					sc.bind(vars, n.Lhs[0], v) // c, err := r.Cookie("session_id")
				}
			}
		}
	case *ast.ValueSpec:
		for i, id := range n.Names {
			if i < len(n.Values) && len(n.Values) == len(n.Names) {
				sc.bind(vars, id, sc.classOf(vars, n.Values[i]))
			}
		}
	case *ast.RangeStmt:
		if st := sc.classOf(vars, n.X); st.class == cState && st.kind == StateMap {
			x := ast.Unparen(n.X)
			sc.record(vars, st, OpRange, "", x, x, nil)
		}
	case *ast.IndexExpr:
		if t := info.TypeOf(n.X); t != nil {
			if _, ok := t.Underlying().(*types.Map); ok {
				if st := sc.classOf(vars, n.X); st.class == cState {
					op := OpRead
					switch {
					case sc.s.res.lhs[n]:
						op = OpWrite
					case sc.s.res.commaOK[n]:
						op = OpLookup
					}
					sc.record(vars, st, op, "", n, n.X, n.Index)
				}
			}
		}
	case *ast.CallExpr:
		sc.call(vars, n, depth)
	}
	return true
}

// replace records an assignment to a container itself (s.sessions = ...),
// not to a local that holds one.
func (sc *scanner) replace(vars map[*types.Var]value, lhs ast.Expr) {
	lhs = ast.Unparen(lhs)
	if id, ok := lhs.(*ast.Ident); ok {
		if v, ok := sc.s.res.pass.TypesInfo.Uses[id].(*types.Var); !ok || hasVar(vars, v) {
			return
		}
	}
	if lv := sc.classOf(vars, lhs); lv.class == cState {
		sc.record(vars, lv, OpReplace, "", lhs, lhs, nil)
	}
}

func hasVar(vars map[*types.Var]value, v *types.Var) bool {
	_, ok := vars[v]
	return ok
}

// bind gives the variable on the left of an assignment the class of its
// right-hand side, when that class is worth tracking: a body, a body or
// session key or a container replace what the variable held; a long-lived
// value, a minted or other key only set a variable that holds nothing
// known yet.
func (sc *scanner) bind(vars map[*types.Var]value, lhs ast.Expr, v value) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return
	}
	obj, ok := sc.s.res.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return
	}
	switch {
	case v.class == cBody, v.class == cState, v.class == cKey && (v.key == KeySession || v.key == KeyBody):
		vars[obj] = v
	case v.class == cRoot, v.class == cKey:
		if old, ok := vars[obj]; !ok || old.class == cNone {
			vars[obj] = v
		}
	}
}

// call handles a call: decoders, builtins, sync.Map methods, methods of
// opaque long-lived values, and calls of functions of the package, which
// are read with the classes of their arguments.
func (sc *scanner) call(vars map[*types.Var]value, call *ast.CallExpr, depth int) {
	info := sc.s.res.pass.TypesInfo
	decode := sc.s.res.isDecodeCall(call)
	if decode {
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				a = u.X
			} else if _, ok := info.TypeOf(a).(*types.Pointer); !ok {
				continue
			}
			if isStructish(info.TypeOf(a)) {
				sc.bind(vars, a, value{class: cBody})
			}
		}
	}
	if fn := calleeFunc(info, call); fn != nil && sc.s.res.mintPackage(fn.Pkg()) && fn.Name() == "Read" && len(call.Args) == 1 {
		sc.bind(vars, call.Args[0], keyValue(KeyMinted)) // rand.Read(b)
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "delete":
				if len(call.Args) == 2 {
					if st := sc.classOf(vars, call.Args[0]); st.class == cState {
						sc.record(vars, st, OpDelete, "", call, call.Args[0], call.Args[1])
					}
				}
			case "clear", "len":
				if len(call.Args) == 1 {
					if st := sc.classOf(vars, call.Args[0]); st.class == cState && st.kind == StateMap {
						op := OpLen
						if b.Name() == "clear" {
							op = OpClear
						}
						sc.record(vars, st, op, "", call, call.Args[0], nil)
					}
				}
			}
			return
		}
	}
	var callee *types.Func
	var recvExpr ast.Expr
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		callee, _ = info.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		if s, ok := info.Selections[f]; ok && s.Kind() == types.MethodVal {
			callee, _ = s.Obj().(*types.Func)
			recvExpr = f.X
			if isSyncMap(info.TypeOf(f.X)) {
				if st := sc.classOf(vars, f.X); st.class == cState {
					var key ast.Expr
					if len(call.Args) > 0 && f.Sel.Name != "Range" && f.Sel.Name != "Clear" {
						key = call.Args[0]
					}
					sc.record(vars, st, OpCall, f.Sel.Name, call, f.X, key)
				}
				return
			}
			if d := sc.s.res.native.FuncDecl(callee); d == nil || d.Body == nil {
				sc.opaqueCall(vars, call, f)
			}
		} else {
			callee, _ = info.Uses[f.Sel].(*types.Func)
		}
	case *ast.IndexExpr: // generic instantiation f[T](...)
		if id, ok := ast.Unparen(f.X).(*ast.Ident); ok {
			callee, _ = info.Uses[id].(*types.Func)
		}
	}
	if callee == nil || !sc.follow || depth >= MaxDepth {
		return
	}
	decl := sc.s.res.native.FuncDecl(callee)
	if decl == nil || decl.Body == nil || !sc.s.res.touches(decl) {
		return
	}
	params := map[*types.Var]value{}
	sig := sc.sigBuf[:0]
	sig = append(strconv.AppendInt(sig, int64(decl.Pos()), 36), '|')
	if decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		if v, ok := info.Defs[decl.Recv.List[0].Names[0]].(*types.Var); ok {
			var rv value
			if recvExpr != nil {
				if rv = sc.classOf(vars, recvExpr); rv.class != cRoot && rv.class != cState {
					rv = value{}
				}
			}
			params[v] = rv
			sig = sc.sign(append(sig, 'r'), rv)
		}
	}
	var names []*ast.Ident
	for _, f := range decl.Type.Params.List {
		if len(f.Names) == 0 {
			names = append(names, nil)
		}
		names = append(names, f.Names...)
	}
	for i, id := range names {
		var av value
		if i < len(call.Args) {
			av = sc.classOf(vars, call.Args[i])
			sig = sc.sign(sig, av)
		}
		if id == nil {
			continue
		}
		if v, ok := info.Defs[id].(*types.Var); ok {
			params[v] = av
		}
	}
	sig = append(sig, '@', byte('0'+depth))
	sc.sigBuf = sig
	// A call being read is at a smaller depth than the calls in it, so a
	// signature is read in full before it is met again.
	key := string(sig)
	if e := sc.s.replays[key]; e != nil {
		// Read before, for this handler or another: the same again, also
		// for the calls being read around this one.
		sc.replay(e)
		return
	}
	e := &effects{}
	sc.collect = append(sc.collect, e)
	sc.scan(decl, params, depth+1)
	sc.collect = sc.collect[:len(sc.collect)-1]
	sc.s.replays[key] = e
}

// replay gives the handler what another handler's call with the same
// signature found.
func (sc *scanner) replay(e *effects) {
	for _, ef := range e.vias {
		sc.via(ef.a, Via{Handler: sc.h, Key: ef.key, Name: ef.x})
	}
}

// via adds a handler's Via to an access.
func (sc *scanner) via(a *Access, v Via) {
	for _, e := range sc.collect {
		e.vias = append(e.vias, effect{a: a, key: v.Key, x: v.Name})
	}
	for _, w := range a.Via {
		if w == v {
			return
		}
	}
	a.Via = append(a.Via, v)
}

// sign appends what tells a call's argument apart to a call's signature:
// its class, its key's class, and the container it is.
func (sc *scanner) sign(sig []byte, v value) []byte {
	sig = append(sig, ',', byte('0'+v.class), byte('0'+v.key))
	if v.class == cState {
		ids := sc.s.sigIDs
		id, ok := ids[v.obj]
		if !ok {
			id = len(ids)
			ids[v.obj] = id
		}
		sig = strconv.AppendInt(sig, int64(id), 36)
	}
	return sig
}

// opaqueCall records a method call of a long-lived value whose method has
// no body in the package, when its first argument may be a key.
func (sc *scanner) opaqueCall(vars map[*types.Var]value, call *ast.CallExpr, sel *ast.SelectorExpr) {
	if len(call.Args) == 0 {
		return
	}
	info := sc.s.res.pass.TypesInfo
	rv := sc.classOf(vars, sel.X)
	if rv.class != cRoot || rv.obj == nil || isSyncType(info.TypeOf(sel.X)) {
		return
	}
	if v, ok := rv.obj.(*types.Var); !ok || !(v.IsField() || v.Kind() == types.PackageVar || v.Kind() == types.LocalVar) {
		return
	}
	arg := call.Args[0]
	if tv, ok := info.Types[arg]; !ok || tv.Value != nil {
		return
	}
	if _, ok := info.TypeOf(arg).Underlying().(*types.Basic); !ok {
		return
	}
	sc.record(vars, value{class: cState, kind: StateValue, obj: rv.obj, x: rv.x}, OpCall, sel.Sel.Name, call, sel.X, arg)
}

// record notes an access.
func (sc *scanner) record(vars map[*types.Var]value, st value, op Op, method string, node ast.Node, x, key ast.Expr) {
	if st.obj == nil {
		return
	}
	a := sc.s.access(st.obj, st.kind, op, method, node, x, key, sc.funcs[len(sc.funcs)-1])
	if sc.h == nil {
		return
	}
	v := Via{Handler: sc.h, Name: types.ExprString(st.x)}
	if key != nil {
		if kv := sc.classOf(vars, key); kv.class == cKey {
			v.Key = kv.key
		}
		if mentionsSession(key) {
			v.Key = KeySession
		}
	}
	sc.via(a, v)
}

// classOf says what an expression holds.
func (sc *scanner) classOf(vars map[*types.Var]value, e ast.Expr) value {
	info := sc.s.res.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return keyValue(KeyOther) // a constant
	case *ast.Ident:
		obj, ok := info.Uses[e].(*types.Var)
		if !ok {
			if _, isConst := info.Uses[e].(*types.Const); isConst {
				return keyValue(KeyOther)
			}
			return value{}
		}
		if v, ok := vars[obj]; ok {
			return v
		}
		if sc.s.rootVar(obj, sc.root) {
			v := rootValue(obj, obj.Type(), e)
			if v.class == cRoot && (obj.Kind() == types.RecvVar || obj.Kind() == types.ParamVar) {
				v.obj = nil // the server itself, or a value it holds, is no container
			}
			return v
		}
	case *ast.SelectorExpr:
		sel, ok := info.Selections[e]
		if !ok {
			// A qualified identifier: a package-level variable of another
			// package, or a constant.
			switch obj := info.Uses[e.Sel].(type) {
			case *types.Var:
				if obj.Kind() == types.PackageVar {
					return rootValue(obj, obj.Type(), e)
				}
			case *types.Const:
				return keyValue(KeyOther)
			}
			return value{}
		}
		field, _ := sel.Obj().(*types.Var)
		if sel.Kind() != types.FieldVal || field == nil {
			return value{} // a method value or expression: see the CallExpr case
		}
		base := sc.classOf(vars, e.X)
		switch base.class {
		case cBody:
			if fieldNamesSession(sel, field) {
				return keyValue(KeySession)
			}
			if _, isStruct := derefUnderlying(field.Type()).(*types.Struct); isStruct {
				return value{class: cBody}
			}
			return keyValue(KeyBody)
		case cKey:
			return base
		case cRoot:
			return rootValue(field.Origin(), field.Type(), e)
		}
	case *ast.IndexExpr:
		switch base := sc.classOf(vars, e.X); base.class {
		case cBody: // body["env_id"] of a body decoded into a map
			if mentionsSession(e.Index) {
				return keyValue(KeySession)
			}
			return keyValue(KeyBody)
		case cKey:
			return base
		case cState:
			return keyValue(KeyOther) // a value read from a container
		}
	case *ast.TypeAssertExpr:
		return keyOnly(sc.classOf(vars, e.X))
	case *ast.StarExpr:
		return sc.classOf(vars, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return sc.classOf(vars, e.X)
		}
	case *ast.BinaryExpr:
		return keyJoin(sc.classOf(vars, e.X), sc.classOf(vars, e.Y))
	case *ast.CompositeLit:
		var v value
		for i, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if i == 0 {
				v = keyOnly(sc.classOf(vars, el))
			} else {
				v = keyJoin(v, sc.classOf(vars, el))
			}
		}
		return v
	case *ast.CallExpr:
		return sc.callClass(vars, e)
	}
	return value{}
}

// callClass says what a call returns.
func (sc *scanner) callClass(vars map[*types.Var]value, e *ast.CallExpr) value {
	info := sc.s.res.pass.TypesInfo
	if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
		return keyOnly(sc.classOf(vars, e.Args[0])) // a conversion
	}
	fn := calleeFunc(info, e)
	var recv ast.Expr // of a method value
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal {
			recv = sel.X
		}
	}
	args := func() value {
		var v value
		for i, a := range e.Args {
			if i == 0 {
				v = keyOnly(sc.classOf(vars, a))
			} else {
				v = keyJoin(v, sc.classOf(vars, a))
			}
		}
		return v
	}
	if fn != nil && sc.s.res.mintPackage(fn.Pkg()) {
		// uuid.NewString(), rand.Int63(), uuid.New().String() mint an id;
		// uuid.Parse(req.EnvID) and id.String() keep their key's class.
		if recv != nil {
			if rv := keyOnly(sc.classOf(vars, recv)); rv.class == cKey {
				return rv
			}
		}
		if v := args(); v.class == cKey && v.key != KeyOther {
			return v
		}
		for _, a := range e.Args {
			if tv, ok := info.Types[a]; !ok || tv.Value == nil {
				return value{}
			}
		}
		return keyValue(KeyMinted)
	}
	if fn != nil && fn.Pkg() != nil && joinPackages[fn.Pkg().Path()] && (recv == nil || strings.HasPrefix(fn.Pkg().Path(), "encoding/")) {
		return args()
	}
	if recv != nil {
		s := info.Selections[ast.Unparen(e.Fun).(*ast.SelectorExpr)]
		name := fn.Name()
		if isHTTPRequest(s.Recv()) && name == "Cookie" && len(e.Args) == 1 {
			if tv, ok := info.Types[e.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String && namesSession(constant.StringVal(tv.Value)) {
				return keyValue(KeySession) // the session cookie
			}
		}
		if isSyncMap(s.Recv()) {
			switch name {
			case "Load", "LoadOrStore", "LoadAndDelete", "Swap":
				if sc.classOf(vars, recv).class == cState {
					return keyValue(KeyOther) // a value read from a container
				}
			}
		}
		return keyOnly(sc.classOf(vars, recv)) // req.ID.String(), a method of a key
	}
	if fn != nil && fn.Pkg() == sc.s.res.pass.Pkg && sc.s.res.mintedFunc(sc.s, fn) {
		return keyValue(KeyMinted)
	}
	return value{}
}

// joinPackages are the packages whose functions give a key the class of
// their arguments (and, for encoding/*, whose methods do).
var joinPackages = map[string]bool{
	"strings": true, "strconv": true, "fmt": true, "path": true, "path/filepath": true,
	"encoding/hex": true, "encoding/base64": true, "encoding/base32": true,
}

// rootValue is a long-lived variable or field: a container when it is a
// map or a sync.Map.
func rootValue(obj types.Object, t types.Type, x ast.Expr) value {
	switch {
	case isMap(t):
		return value{class: cState, kind: StateMap, obj: obj, x: x}
	case isSyncMap(t):
		return value{class: cState, kind: StateSyncMap, obj: obj, x: x}
	}
	return value{class: cRoot, obj: obj, x: x}
}

// rootVar reports whether a variable is a root (see the package
// documentation) of the server in fn.
func (s *Server) rootVar(v *types.Var, fn ast.Node) bool {
	lit, _ := fn.(*ast.FuncLit)
	return s.res.rootVar(v, lit, s.lits, s.holders)
}

// rootVar reports whether a variable is a root: a package-level variable,
// a variable that lit, one of lits, captures, or a receiver or parameter of
// one of the holder types.
func (r *Result) rootVar(v *types.Var, lit *ast.FuncLit, lits map[*ast.FuncLit]bool, holders map[*types.Named]bool) bool {
	if v.Kind() == types.PackageVar {
		return true
	}
	if lit != nil && lits[lit] && v.Pkg() == r.pass.Pkg && !v.IsField() && !within(v.Pos(), lit) {
		return true
	}
	if k := v.Kind(); k == types.RecvVar || k == types.ParamVar {
		if n, ok := deref(v.Type()).(*types.Named); ok && holders[n.Origin()] {
			return true
		}
	}
	return false
}

// LongLived reports whether x denotes state that outlives a request, for
// any server: a root (see the package documentation), or a field reached
// from one through fields and pointers. lit is the function-literal
// handler the code is in, or nil. Unlike the reading of handlers, it does
// not follow local variables.
func (r *Result) LongLived(x ast.Expr, lit *ast.FuncLit) bool {
	info := r.pass.TypesInfo
	switch x := ast.Unparen(x).(type) {
	case *ast.StarExpr:
		return r.LongLived(x.X, lit)
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && r.rootVar(v, lit, r.lits, r.holders)
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			return r.LongLived(x.X, lit)
		}
		// A package-level variable of another package.
		v, ok := info.Uses[x.Sel].(*types.Var)
		return ok && v.Kind() == types.PackageVar
	}
	return false
}

// keyOnly keeps the class of a key, and drops any other.
func keyOnly(v value) value {
	switch v.class {
	case cKey:
		return v
	case cBody:
		return keyValue(KeyBody)
	}
	return value{}
}

// keyRank orders key classes for keyJoin.
var keyRank = [...]int{KeyUnknown: 1, KeySession: 4, KeyBody: 3, KeyMinted: 2, KeyOther: 0}

// keyJoin combines the classes of the parts of a key: the session wins,
// then the body, a minted id, an unknown part; other only when both parts
// are.
func keyJoin(a, b value) value {
	ka, kb := keyOnly(a).key, keyOnly(b).key
	if keyRank[kb] > keyRank[ka] {
		ka = kb
	}
	return keyValue(ka)
}

// isStructish reports whether t is a struct, a map with string keys, or a
// pointer to one: what a request body is decoded into.
func isStructish(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return true
	case *types.Map:
		b, ok := u.Key().Underlying().(*types.Basic)
		return ok && b.Kind() == types.String
	}
	return false
}

func derefUnderlying(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return t.Underlying()
}

func isMap(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

func isSyncMap(t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Map"
}

// isSyncType reports whether t is (a pointer to) a type of package sync:
// its methods lock or wait, they record no id.
func isSyncType(t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync"
}

// calleeFunc returns the function or method a call calls, when it is known
// statically (a method of an interface included), or nil.
func calleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if s, ok := info.Selections[f]; ok {
			fn, _ := s.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		if id, ok := ast.Unparen(f.X).(*ast.Ident); ok {
			fn, _ := info.Uses[id].(*types.Func)
			return fn
		}
	}
	return nil
}

// mintNames are the last elements of the import paths of id packages.
var mintNames = map[string]bool{"uuid": true, "go.uuid": true, "xid": true, "ulid": true, "ksuid": true, "shortuuid": true, "nanoid": true, "go-nanoid": true}

// mintPackage reports whether p mints ids: crypto/rand, math/rand (and
// v2), or an id package (see mintNames; a major-version suffix such as
// /v5 is skipped).
func (r *Result) mintPackage(p *types.Package) bool {
	if p == nil {
		return false
	}
	is, ok := r.mints[p]
	if !ok {
		is = mintPath(p.Path())
		r.mints[p] = is
	}
	return is
}

func mintPath(p string) bool {
	switch p {
	case "crypto/rand", "math/rand", "math/rand/v2":
		return true
	}
	dir, last := path.Split(p)
	if len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" && dir != "" {
		last = path.Base(dir)
	}
	return mintNames[last] && strings.Contains(p, "/")
}

// mintedFunc reports whether every return of a function of the package
// gives a minted id (func newID() string { return uuid.NewString() }).
func (r *Result) mintedFunc(s *Server, fn *types.Func) bool {
	fn = fn.Origin()
	switch r.minted[fn] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	r.minted[fn] = 3
	d := r.native.FuncDecl(fn)
	ok := d != nil && d.Body != nil && fn.Signature().Results().Len() > 0
	if ok {
		sc := &scanner{s: s, root: d, funcs: []ast.Node{d}}
		vars := map[*types.Var]value{}
		returns := 0
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt, *ast.ValueSpec:
				sc.bindOnly(vars, n)
			case *ast.CallExpr:
				if f := calleeFunc(r.pass.TypesInfo, n); f != nil && r.mintPackage(f.Pkg()) && f.Name() == "Read" && len(n.Args) == 1 {
					sc.bind(vars, n.Args[0], keyValue(KeyMinted))
				}
			case *ast.ReturnStmt:
				returns++
				if len(n.Results) == 0 {
					ok = false
				} else if v := sc.classOf(vars, n.Results[0]); v.class != cKey || v.key != KeyMinted {
					ok = false
				}
			}
			return ok
		})
		ok = ok && returns > 0
	}
	r.minted[fn] = 2
	if ok {
		r.minted[fn] = 1
	}
	return ok
}

// bindOnly binds the variables an assignment or declaration sets, without
// recording anything.
func (sc *scanner) bindOnly(vars map[*types.Var]value, n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i, l := range n.Lhs {
				sc.bind(vars, l, sc.classOf(vars, n.Rhs[i]))
			}
		}
	case *ast.ValueSpec:
		for i, id := range n.Names {
			if i < len(n.Values) && len(n.Values) == len(n.Names) {
				sc.bind(vars, id, sc.classOf(vars, n.Values[i]))
			}
		}
	}
}

// CalleeName is the name a call calls: f in f(), pkg.f(), x.f() and their
// instantiations f[T]() and pkg.f[T]().
func CalleeName(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr:
		switch g := ast.Unparen(f.X).(type) {
		case *ast.Ident:
			return g.Name
		case *ast.SelectorExpr:
			return g.Sel.Name
		}
	}
	return ""
}

// NamedDecoder reports whether call's callee is named like a decoder of
// the request body (Decode, Unmarshal, Bind, ReadJSON, ...): the one
// answer gostate's state and the session rules use.
func NamedDecoder(call *ast.CallExpr) bool {
	return facts.DefaultWords.Has(facts.WordGoDecode, CalleeName(call))
}

// purePackages are the standard-library packages whose functions compute
// from their arguments alone: string, byte and rune helpers, regular
// expressions, numbers, slices and maps.
var purePackages = map[string]bool{
	"strings": true, "bytes": true, "unicode": true, "unicode/utf8": true, "regexp": true,
	"math": true, "slices": true, "maps": true, "strconv": true,
}

// PureFunc reports whether fn is a function of purePackages: a call of it
// reads nothing but its arguments, so a condition that calls it over the
// request is still a condition over the request only.
func PureFunc(fn *types.Func) bool { return fn.Pkg() != nil && purePackages[fn.Pkg().Path()] }

// NamedInputCheck reports whether call's callee is named like a function
// that decodes, parses or validates input (decode, unmarshal, parse,
// valid in its name).
func NamedInputCheck(call *ast.CallExpr) bool {
	return facts.DefaultWords.Has(facts.WordGoInput, CalleeName(call))
}

// isDecodeCall is NamedDecoder, remembered by callee name for the scan.
func (r *Result) isDecodeCall(call *ast.CallExpr) bool {
	name := CalleeName(call)
	is, ok := r.decoders[name]
	if !ok {
		is = facts.DefaultWords.Has(facts.WordGoDecode, name)
		r.decoders[name] = is
	}
	return is
}

// fieldNamesSession reports whether a body field names the session, by its
// name or its JSON tag.
func fieldNamesSession(sel *types.Selection, field *types.Var) bool {
	if namesSession(field.Name()) {
		return true
	}
	st, ok := derefUnderlying(sel.Recv()).(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == field || st.Field(i) == field.Origin() {
			return namesSession(st.Tag(i))
		}
	}
	return false
}

func namesSession(s string) bool { return facts.DefaultWords.Has(facts.WordGoSession, s) }

// mentionsSession reports whether a key expression names the session
// anywhere, or is itself the session id (the go-session-id words: sid).
func mentionsSession(e ast.Expr) bool {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && facts.DefaultWords.Has(facts.WordGoSessionID, id.Name) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || namesSession(n.Name)
		case *ast.BasicLit:
			found = found || (n.Kind == token.STRING && namesSession(n.Value))
		}
		return !found
	})
	return found
}
