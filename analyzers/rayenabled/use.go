package rayenabled

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// use is a place where a module uses Ray.
type use struct {
	path       string
	start, end diag.Pos
	what       string // "imports ray", "calls score.remote() (...)"
}

func newUse(m *pyscan.Module, s pyscan.Span, what string) *use {
	start, end := gym.Range(m, s)
	return &use{path: m.Path, start: start, end: end, what: what}
}

// scanner finds the first Ray use of modules, remembering each answer. It
// is shared by the searches of every server of a view.
type scanner struct {
	v     *gym.View
	facts *facts.Facts
	graph *gym.ImportGraph

	mu    sync.Mutex
	cache map[useKey]*moduleEntry

	modules sync.Map // absolute module name → in the repository (see inRepo)
	files   sync.Map // fileKey → file (see moduleFile)
	clean   sync.Map // file → true: no Ray can be reached from it (see beyondRoots)
}

type useKey struct {
	path   string
	script bool
}

func newScanner(v *gym.View) *scanner {
	return &scanner{v: v, facts: facts.Of(v), graph: v.NewImportGraph(),
		cache: map[useKey]*moduleEntry{}}
}

// search is the outcome of the search for Ray use of one server.
type search struct {
	use *use
	rec *gym.Imported // the module record the use is in
	// ancestor says which class's module each root other than the
	// entrypoint is ("ancestor class X", "server class X"), by path.
	ancestor map[string]string
	// complete: every module on the way was read and parsed, and the
	// ancestry resolved. A search asked not to find it out (see search)
	// leaves it false.
	complete bool
}

// search looks for Ray use of the server class cls of entrypoint m: in m,
// in the modules of cls and its repository ancestors, and in every
// repository module these load through module-scope imports
// (gym.ImportClosure, framework modules left out), in that order; the
// first module that uses Ray gives the use.
//
// The closure holds every repository module outside the framework whose
// functions facts.Calls can resolve a call to (it resolves names at module
// scope, through the same module-scope imports), so following the calls
// the server makes (facts.Reach) would find no module the closure lacks;
// and the search reads whole modules, as a module-scope import runs them.
//
// Without complete (the only rule that reads it, GL205, asks about a
// server that declares ray_enabled = True in its own body), the modules
// beyond the roots are not parsed when none of them can use Ray or bring
// it in (beyondRoots): the roots alone are searched, and complete is left
// false.
func (s *scanner) search(m *pyscan.Module, cls gym.ClassRef, complete bool) search {
	v := s.v
	res := search{ancestor: map[string]string{}, complete: true}
	roots := []*pyscan.Module{m}
	mro, ok := v.MRO(cls)
	if !ok {
		res.complete = false
	}
	for _, a := range mro {
		switch a.Kind {
		case gym.Own:
			if a.Class.Module != m {
				if _, dup := res.ancestor[a.Class.Module.Path]; !dup {
					what := "ancestor class "
					if a.Class.Class == cls.Class {
						what = "server class "
					}
					res.ancestor[a.Class.Module.Path] = what + a.Class.Class.Name
				}
				roots = append(roots, a.Class.Module)
			}
		case gym.Unresolved:
			res.complete = false
		}
	}
	var closure []*gym.Imported
	if !complete && s.beyondRoots(roots) {
		// ImportClosure's roots, in its order, and nothing else.
		res.complete = false
		closure = s.graph.Roots(roots...)
	} else {
		closure = s.graph.Closure(roots...)
	}
	for _, rec := range closure {
		if rec.Module == nil {
			res.complete = false
			continue
		}
		if rec.Module.SyntaxError != nil {
			res.complete = false
		}
		if res.use != nil {
			continue
		}
		if u := s.firstUse(rec.Module, rec.Module == m); u != nil {
			res.use, res.rec = u, rec
		}
	}
	return res
}

// beyondRoots reports whether no module that the roots' module-scope
// imports may load, the roots left out, can use Ray or bring it in: none
// may hold the word ray nor the name of the framework's package, through
// which the framework may pass on its ray
// (gym.ImportGraph.ClosureMayHoldWords), and none may import a root.
// Every Ray use and every name that resolves to Ray needs one of these
// words in the module where it is, or in a module that module imports: an
// import of ray, a name imported from the framework, a @ray.remote. The
// modules the search reached are then remembered as clean, and the walks
// of the roots do not parse them to look up what they import from them
// (reexportedRay, importedSymbol): it cannot be Ray. A module that only a
// root's function imports is not reached, and is looked up as before.
func (s *scanner) beyondRoots(roots []*pyscan.Module) bool {
	r, ok := s.graph.ClosureMayHoldWords(roots, []string{"ray", s.v.FrameworkPackage()})
	if !ok || r.Back || len(r.Holding) > 0 { // Holding has no root
		return false
	}
	isRoot := map[string]bool{}
	for _, m := range roots {
		isRoot[m.Path] = true
	}
	for _, f := range r.Reached {
		if !isRoot[f] {
			s.clean.Store(f, true)
		}
	}
	return true
}

// isClean reports whether beyondRoots found that no Ray can be reached
// from file.
func (s *scanner) isClean(file string) bool {
	_, ok := s.clean.Load(file)
	return ok
}

// describe says where the use is: "resources_servers/x/app.py:3 imports
// ray" ("line 3 imports ray" in the entrypoint, where the finding is), and
// how the entrypoint reaches that module.
func (s search) describe(entry string) string {
	u := s.use
	out := fmt.Sprintf("%s:%d %s", u.path, u.start.Line, u.what)
	if u.path == entry {
		out = fmt.Sprintf("line %d %s", u.start.Line, u.what)
	}
	if s.rec == nil {
		return out
	}
	var hops []string
	r := s.rec
	for ; r.By != nil; r = r.By {
		hops = append([]string{fmt.Sprintf("%s:%d", r.By.Path, r.By.Module.Line(r.Import.Span.Start))}, hops...)
	}
	root := r.Path
	if name, ok := s.ancestor[root]; ok {
		if len(hops) == 0 && strings.HasPrefix(name, "server class ") {
			return out // the message names the module of the server class
		}
		if len(hops) == 0 {
			return out + fmt.Sprintf(", in the module of %s", name)
		}
		return out + fmt.Sprintf(", imported from the module of %s through %s", name, strings.Join(hops, ", "))
	}
	if len(hops) > 0 && root == entry {
		return out + ", imported through " + strings.Join(hops, ", ")
	}
	return out
}

func (s search) related() *diag.Related {
	if s.use == nil {
		return nil
	}
	return &diag.Related{Path: s.use.path, Start: s.use.start, End: s.use.end, Message: "Ray is used here: " + s.use.what}
}

// firstUse returns the first place (in source order) where m uses Ray, or
// nil. script is set for the module Python runs as __main__: code in the
// body of its `if __name__ == "__main__":` guard runs; in other modules it
// does not, so it is not searched there.
//
// Ray use in a module is:
//   - an import of ray or of a module of the ray package, at any scope
//     (`import ray`, `import ray.util as u`, `from ray.exceptions import
//     RayTaskError` inside a function);
//   - a from-import of the name ray, at any scope, from a module that binds
//     it to the ray module (`from nemo_gym.server_utils import ray`), and a
//     module-scope from-import of another name that a repository module
//     outside the framework binds to a Ray object (a helper's `from ray
//     import get as fetch`, imported from the helper);
//   - a `.remote(...)` call (also `.options(...).remote(...)`) on a name
//     that denotes a Ray remote function or actor class of the repository
//     (`@ray.remote` or `X = ray.remote(...)`), imported at any scope.
//     `.remote(...)` on anything else (a local object, a parameter, an
//     attribute of self) is not use: nothing says it came from Ray;
//   - a name or attribute chain that the view's resolver takes to a name of
//     the ray package (`ray.get` passed as a value, `@ray.remote`, through
//     a star import or a helper module's attribute), unless its first name
//     is a local of the function it is in. Every such name needs an import
//     that binds it, which usually comes first and is the use reported.
//
// A name `ray` that no import binds to the ray package (a variable, a
// parameter) is not Ray, and a docstring or comment never is: the search
// reads the syntax model, not the text.
func (s *scanner) firstUse(m *pyscan.Module, script bool) *use {
	return s.module(m, script).use
}

// moduleResult is what one walk of a module finds.
type moduleResult struct {
	use *use
	// sets are the runtime sets of ray_enabled (see runtimeSet), for the
	// module run as the script: the entrypoint, where the rules look for
	// them. The walk that looks for them sees every node, so it also
	// gives the first use.
	sets []runtimeSet
}

// module returns the walk's result for m, computing it once per view and
// script flag (a server that asks while another computes it waits).
func (s *scanner) module(m *pyscan.Module, script bool) *moduleResult {
	key := useKey{m.Path, script}
	s.mu.Lock()
	e := s.cache[key]
	if e == nil {
		e = &moduleEntry{}
		s.cache[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.r = s.compute(m, script) })
	return e.r
}

type moduleEntry struct {
	once sync.Once
	r    *moduleResult
}

func (s *scanner) compute(m *pyscan.Module, script bool) *moduleResult {
	var best *use
	// Nodes that start at or after limit cannot come first.
	limit := int32(m.Size + 1)
	for _, imp := range m.Imports { // in source order
		if imp.Where.InMainGuard && !script {
			continue
		}
		if u := s.importUse(m, imp); u != nil {
			best, limit = u, imp.Span.Start
			break
		}
	}
	w := &moduleWalk{s: s, m: m, limit: limit, roots: s.rootCandidates(m),
		rootSyms: map[string]gym.Symbol{}, scopes: s.newScopes(m)}
	if script {
		w.sets = newSetFinder(s.facts, m, w.scopes)
	}
	if !script && len(m.MainGuards) > 0 {
		w.guards = map[*pyscan.If]bool{}
		for _, g := range m.MainGuards {
			w.guards[g.If] = true
		}
	}
	pyscan.InspectBody(m.Body, w.visit)
	r := &moduleResult{use: best}
	if w.best != nil {
		r.use = w.best
	}
	if w.sets != nil {
		r.sets = w.sets.out
	}
	return r
}

// importUse says whether an import statement's name is Ray use.
func (s *scanner) importUse(m *pyscan.Module, imp *pyscan.Import) *use {
	if isRayModule(imp.Module, imp.Level) {
		return newUse(m, imp.Span, describeRayImport(imp))
	}
	if imp.IsFrom() && imp.Name != "*" {
		if d := s.reexportedRay(m, imp); d != "" {
			return newUse(m, imp.Span, fmt.Sprintf("imports %s from %s, which is %s", imp.Name, importedModuleName(imp), d))
		}
	}
	return nil
}

// isRayModule reports whether an absolute module name is ray or in it.
func isRayModule(name string, level int) bool {
	return level == 0 && (name == "ray" || strings.HasPrefix(name, "ray."))
}

func describeRayImport(imp *pyscan.Import) string {
	if !imp.IsFrom() {
		return "imports " + imp.Module
	}
	return fmt.Sprintf("imports %s from %s", imp.Name, imp.Module)
}

func importedModuleName(imp *pyscan.Import) string {
	return strings.Repeat(".", imp.Level) + imp.Module
}

// reexportedRay says what a from-import that does not name the ray package
// brings in when that is Ray ("the ray module", "ray.get"), or "". The
// source module is looked up in the repository (the framework's modules
// included, since this follows a name, it does not search the module); a
// framework module outside the repository is taken to export the ray module
// under the name ray, as the real framework's server_utils does.
func (s *scanner) reexportedRay(m *pyscan.Module, imp *pyscan.Import) string {
	v := s.v
	if file := s.moduleFile(m.Path, imp.Level, imp.Module); file != "" {
		if s.isClean(file) {
			return ""
		}
		// Another name than ray is looked up only where that costs no
		// parse of its own: in a repository module that a module-scope
		// import loads anyway (ImportClosure reads it), not in the
		// framework's modules nor in modules that a function imports.
		if imp.Name != "ray" {
			if name, _ := pyscan.ModuleName(file); !imp.ModuleScope || v.IsFrameworkModule(name) {
				return ""
			}
		}
		src, err := v.Module(file)
		if err != nil || src == nil {
			return ""
		}
		if r := s.rayName(v.Resolve(src, imp.Name)); r != "" {
			if r == "ray" {
				return "the ray module"
			}
			return r
		}
		return ""
	}
	if imp.Level == 0 && imp.Name == "ray" && v.IsFrameworkModule(imp.Module) {
		return "the ray module"
	}
	return ""
}

// rayName returns the name of the ray package ("ray", "ray.get") that a
// resolved symbol is, or "": a name outside the repository whose dotted
// name is in the ray package, or one that a framework module outside the
// repository exports under the name ray (`nemo_gym.server_utils.ray.get`,
// reached through `from nemo_gym.server_utils import *`; see
// reexportedRay).
func (s *scanner) rayName(sym gym.Symbol) string {
	if sym.Kind != gym.External {
		return ""
	}
	if isRayModule(sym.Dotted, 0) {
		return sym.Dotted
	}
	parts := strings.Split(sym.Dotted, ".")
	if len(parts) < 2 || !s.v.IsFrameworkModule(parts[0]) {
		return ""
	}
	for i := 1; i < len(parts); i++ {
		if parts[i] == "ray" {
			if s.inRepo(strings.Join(parts[:i], ".")) {
				return "" // the framework's module is in the repository: the resolver read it
			}
			return strings.Join(parts[i:], ".")
		}
		if p := parts[i]; p == "" || p[0] != '_' && (p[0] < 'a' || p[0] > 'z') {
			return "" // not a module path: a class or a constant of the framework
		}
	}
	return ""
}

// rootCandidates returns the names whose module-scope binding in m may
// make a name or attribute chain resolve to Ray where no import statement
// of m says so: names imported from ray (an import that comes after the
// use), names imported from a framework module outside the repository
// (`su.ray.get` after `import nemo_gym.server_utils as su`; see rayName),
// `Alias = name` assignments and, with a star import, every name the
// module does not bind. Names bound to a def, a class or a computed value
// never lead to Ray. Nor are names imported from another library or from
// a module of the repository resolved: a repository module that m imports
// at module scope is searched itself (it is in the import closure), and
// its own import of ray is a use; the framework's modules are not searched
// (the framework uses Ray for every server). So the resolver is asked
// about few names, and never needs a file lookup of its own.
func (s *scanner) rootCandidates(m *pyscan.Module) func(string) bool {
	var cands, bound map[string]bool
	add := func(name string) {
		if cands == nil {
			cands = map[string]bool{}
		}
		cands[name] = true
	}
	star := false
	for _, imp := range m.Imports {
		switch {
		case !imp.ModuleScope:
		case imp.Name == "*":
			star = true
		case isRayModule(imp.Module, imp.Level):
			add(imp.Bound)
		case imp.Level == 0 && s.v.IsFrameworkModule(imp.Module) && !s.inRepo(imp.Module):
			add(imp.Bound)
		}
	}
	if star {
		bound = make(map[string]bool, len(m.Bindings))
	}
	for _, b := range m.Bindings {
		if star {
			bound[b.Name] = true
		}
		if (b.Kind == pyscan.BindAssign || b.Kind == pyscan.BindAnnAssign) && isChain(b.Value) {
			add(b.Name)
		}
	}
	return func(name string) bool { return cands[name] || star && !bound[name] }
}

// isChain reports whether e is a name or an attribute chain of names.
func isChain(e pyscan.Expr) bool { return chainRoot(e) != nil }

// moduleFile is View.ModuleFile, remembered: the answer depends only on
// the importing module's folder, the level and the name, and the names of
// one from-import (`from typing import Any, ClassVar`) ask it each.
func (s *scanner) moduleFile(from string, level int, dotted string) string {
	key := fileKey{path.Dir(from), level, dotted}
	if f, ok := s.files.Load(key); ok {
		return f.(string)
	}
	f := s.v.ModuleFile(from, level, dotted)
	s.files.Store(key, f)
	return f
}

type fileKey struct {
	dir    string
	level  int
	dotted string
}

// inRepo reports whether an absolute module name is a module of the
// repository, remembering each answer.
func (s *scanner) inRepo(abs string) bool {
	if in, ok := s.modules.Load(abs); ok {
		return in.(bool)
	}
	in := s.v.ModuleFile("", 0, abs) != ""
	s.modules.Store(abs, in)
	return in
}

// nodeStart is where a node's source starts: for a decorated def or
// class, at its first decorator.
func nodeStart(n pyscan.Node) int32 {
	start := n.Range().Start
	var decos []pyscan.Expr
	switch n := n.(type) {
	case *pyscan.Function:
		decos = n.Decorators
	case *pyscan.Class:
		decos = n.Decorators
	}
	if len(decos) > 0 && decos[0].Range().Start < start {
		start = decos[0].Range().Start
	}
	return start
}

// moduleWalk is one walk of a module's syntax in search of a Ray use
// that comes before limit.
type moduleWalk struct {
	s     *scanner
	m     *pyscan.Module
	limit int32
	best  *use
	roots func(string) bool
	// rootSyms memoises what candidate roots resolve to at module scope.
	rootSyms map[string]gym.Symbol
	*scopes
	// guards are the module's __main__ guards whose body does not run
	// (in a module other than the script).
	guards map[*pyscan.If]bool
	// sets collects the runtime sets of ray_enabled of the script.
	sets *setFinder
}

func (w *moduleWalk) found(u *use) {
	if u != nil && int32(u.start.Offset) < w.limit {
		w.best, w.limit = u, int32(u.start.Offset)
	}
}

func (w *moduleWalk) visit(n pyscan.Node, stack []pyscan.Node) bool {
	if w.sets != nil {
		w.sets.visit(n, stack)
	} else if w.limit <= int32(w.m.Size) && nodeStart(n) >= w.limit {
		return false // nothing here can come first
	}
	switch n := n.(type) {
	case *pyscan.If:
		if w.guards[n] {
			// The guard's body does not run; its test and its elif and
			// else branches do. (Guards are at module scope: the walk
			// of those parts needs no enclosing function.)
			pyscan.Inspect(n.Test, w.visit)
			pyscan.InspectBody(n.Else, w.visit)
			return false
		}
	case *pyscan.Call:
		w.found(w.remoteCall(n, stack))
	case *pyscan.Name, *pyscan.Attribute:
		root := chainRoot(n.(pyscan.Expr))
		if root == nil {
			return true // an attribute of a call or a subscript
		}
		if w.roots(root.Id) {
			w.found(w.rayReference(n.(pyscan.Expr), pyscan.Dotted(n.(pyscan.Expr)), stack))
		}
		return false
	}
	return true
}

// chainRoot returns the first name of a name or attribute chain of names,
// or nil for anything else.
func chainRoot(e pyscan.Expr) *pyscan.Name {
	for {
		switch x := e.(type) {
		case *pyscan.Name:
			return x
		case *pyscan.Attribute:
			e = x.Value
		default:
			return nil
		}
	}
}

// scopes gives the facts of the functions a walk of a module meets, from
// Inspect's stack.
type scopes struct {
	facts *facts.Facts
	m     *pyscan.Module
}

func (s *scanner) newScopes(m *pyscan.Module) *scopes {
	return &scopes{facts: s.facts, m: m}
}

// enclosing returns the facts of the function whose own body holds the
// last node of stack, or nil at module scope and in a class body.
func (sc *scopes) enclosing(stack []pyscan.Node) *facts.Func {
	for j := len(stack) - 2; j >= 0; j-- {
		if _, body := stack[j+1].(pyscan.Stmt); !body {
			continue // a header: decorators, defaults, bases run outside
		}
		switch fn := stack[j].(type) {
		case *pyscan.Function:
			return sc.facts.FuncOf(sc.m, fn)
		case *pyscan.Class:
			return nil
		}
	}
	return nil
}

// rayReference is a use when the name or attribute chain e (dotted d),
// whose first name is a candidate (see rootCandidates), resolves to a name
// of the ray package. The resolver is asked about the first name once per
// module, and about the whole chain only when the first name is a
// framework module outside the repository.
func (w *moduleWalk) rayReference(e pyscan.Expr, d string, stack []pyscan.Node) *use {
	root, rest, _ := strings.Cut(d, ".")
	sym, ok := w.rootSyms[root]
	if !ok {
		sym = w.s.v.Resolve(w.m, root)
		w.rootSyms[root] = sym
	}
	r := w.s.rayName(sym)
	switch {
	case r != "":
		if rest != "" {
			r += "." + rest
		}
	case rest != "" && sym.Kind == gym.External && w.s.v.IsFrameworkModule(sym.Dotted):
		// su.ray.get, su a framework module outside the repository
	default:
		return nil
	}
	if w.isLocal(root, stack) {
		return nil
	}
	if r == "" {
		if r = w.s.rayName(w.s.v.Resolve(w.m, d)); r == "" {
			return nil
		}
	}
	if r == d {
		return newUse(w.m, e.Range(), "uses "+d)
	}
	return newUse(w.m, e.Range(), fmt.Sprintf("uses %s, which is %s", d, r))
}

// isLocal reports whether a name used where stack ends is not the
// module's: a parameter or local of the enclosing function (or of a
// function enclosing it), of a lambda or of a comprehension around it.
func (w *moduleWalk) isLocal(name string, stack []pyscan.Node) bool {
	if boundInExpr(name, stack) {
		return true
	}
	fn := w.enclosing(stack)
	return fn != nil && w.s.facts.IsLocal(fn, name)
}

// boundInExpr reports whether a lambda's parameter or a comprehension's
// target on the stack binds name (scopes of their own, which facts' locals
// do not cover).
func boundInExpr(name string, stack []pyscan.Node) bool {
	for _, n := range stack {
		switch n := n.(type) {
		case *pyscan.Lambda:
			for _, p := range n.Params {
				if p.Name == name {
					return true
				}
			}
		case *pyscan.Comprehension:
			for _, g := range n.Generators {
				if targetBinds(g.Target, name) {
					return true
				}
			}
		}
	}
	return false
}

// targetBinds reports whether an assignment target binds name.
func targetBinds(t pyscan.Expr, name string) bool {
	var elts []pyscan.Expr
	switch t := t.(type) {
	case *pyscan.Name:
		return t.Id == name
	case *pyscan.Starred:
		return targetBinds(t.Value, name)
	case *pyscan.Tuple:
		elts = t.Elts
	case *pyscan.List:
		elts = t.Elts
	}
	for _, e := range elts {
		if targetBinds(e, name) {
			return true
		}
	}
	return false
}

// remoteCall describes a `.remote(...)` call on a Ray remote function or
// actor class of the repository, or returns nil.
func (w *moduleWalk) remoteCall(c *pyscan.Call, stack []pyscan.Node) *use {
	a, ok := c.Func.(*pyscan.Attribute)
	if !ok || a.Attr != "remote" {
		return nil
	}
	// fn.options(num_cpus=1).remote(...) is fn's remote call.
	recv := a.Value
	for {
		oc, ok := recv.(*pyscan.Call)
		if !ok {
			break
		}
		oa, ok := oc.Func.(*pyscan.Attribute)
		if !ok || oa.Attr != "options" {
			return nil
		}
		recv = oa.Value
	}
	d := pyscan.Dotted(recv)
	if d == "" {
		return nil
	}
	sym, ok := w.target(d, c.Start, stack)
	if !ok {
		return nil
	}
	where := w.s.remoteKind(sym)
	if where == "" {
		return nil
	}
	return newUse(w.m, c.Span, fmt.Sprintf("calls %s.remote() (%s)", d, where))
}

// target resolves a dotted name used at offset at the place stack ends:
// through the import that binds its first name in the enclosing function
// (the last one before offset), or at module scope. ok is false when a
// local binds it to something else, or nothing does before offset.
func (w *moduleWalk) target(d string, offset int32, stack []pyscan.Node) (gym.Symbol, bool) {
	parts := strings.Split(d, ".")
	if boundInExpr(parts[0], stack) {
		return gym.Symbol{}, false
	}
	fn := w.enclosing(stack)
	if fn == nil || !w.s.facts.IsLocal(fn, parts[0]) {
		return w.s.v.Resolve(w.m, d), true
	}
	var imp *pyscan.Import
	for _, val := range w.s.facts.Values(fn, parts[0]) {
		st, ok := val.At.(*pyscan.ImportStmt)
		if !ok {
			return gym.Symbol{}, false // a parameter, an assignment: not an import's name
		}
		if st.Start > offset {
			continue
		}
		for _, x := range st.Names {
			if x.Bound == parts[0] {
				imp = x
			}
		}
	}
	if imp == nil {
		return gym.Symbol{}, false
	}
	return w.s.importedSymbol(w.m, imp, parts[1:]), true
}

// importedSymbol resolves names (an attribute chain) after the name that
// import statement imp of m binds, in the module imp loads: what a
// function's own import gives, which the module-scope resolver does not
// see.
func (s *scanner) importedSymbol(m *pyscan.Module, imp *pyscan.Import, rest []string) gym.Symbol {
	v := s.v
	mod := imp.Module
	var names []string
	switch {
	case imp.Name == "*":
		return gym.Symbol{}
	case imp.IsFrom():
		names = append([]string{imp.Name}, rest...)
	default:
		// `import a.b` binds a: a.b.fn is reached from a.
		if imp.Bound != imp.Module && strings.HasPrefix(imp.Module, imp.Bound+".") {
			mod = imp.Bound
		}
		names = rest
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "." + b
	}
	// Leading names that are submodules belong to the module path.
	for len(names) > 1 && s.moduleFile(m.Path, imp.Level, join(mod, names[0])) != "" {
		mod = join(mod, names[0])
		names = names[1:]
	}
	if len(names) == 0 {
		return gym.Symbol{}
	}
	file := s.moduleFile(m.Path, imp.Level, mod)
	if file == "" || s.isClean(file) {
		// A clean module's names are no Ray remote object (beyondRoots).
		return gym.Symbol{}
	}
	target, err := v.Module(file)
	if err != nil || target == nil {
		return gym.Symbol{}
	}
	return v.Resolve(target, strings.Join(names, "."))
}

// remoteKind says where a symbol is made a Ray remote function or actor
// class ("score is a Ray remote function of resources_servers/x/jobs.py:5"),
// or returns "".
func (s *scanner) remoteKind(sym gym.Symbol) string {
	switch sym.Kind {
	case gym.RepoFunction:
		if s.remoteDecorated(sym.Module, sym.Function.Decorators) {
			return fmt.Sprintf("%s is a Ray remote function of %s:%d", sym.Function.Name, sym.Module.Path, sym.Module.Line(sym.Function.NameSpan.Start))
		}
	case gym.RepoClass:
		if s.remoteDecorated(sym.Module, sym.Class.Decorators) {
			return fmt.Sprintf("%s is a Ray actor class of %s:%d", sym.Class.Name, sym.Module.Path, sym.Module.Line(sym.Class.NameSpan.Start))
		}
	case gym.RepoValue:
		// X = ray.remote(f), X = ray.remote(num_cpus=1)(f)
		c, ok := sym.Binding.Value.(*pyscan.Call)
		if !ok {
			return ""
		}
		e := c.Func
		for {
			inner, ok := e.(*pyscan.Call)
			if !ok {
				break
			}
			e = inner.Func
		}
		if s.rayName(s.v.ResolveExpr(sym.Module, e)) == "ray.remote" {
			return fmt.Sprintf("%s is made a Ray remote object at %s:%d", sym.Binding.Name, sym.Module.Path, sym.Module.Line(sym.Binding.Span.Start))
		}
	}
	return ""
}

// remoteDecorated reports whether a decorator list of a module-scope def
// or class of mod holds @ray.remote or @ray.remote(...), under whatever
// name mod binds it.
func (s *scanner) remoteDecorated(mod *pyscan.Module, decos []pyscan.Expr) bool {
	for _, d := range decos {
		if c, ok := d.(*pyscan.Call); ok {
			d = c.Func
		}
		if s.rayName(s.v.ResolveExpr(mod, d)) == "ray.remote" {
			return true
		}
	}
	return false
}
