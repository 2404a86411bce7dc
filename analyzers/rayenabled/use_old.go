//go:build ignore

package rayenabled

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// use is a place where a module uses Ray.
type use struct {
	path string
	span pyscan.Span
	what string // "imports ray", "calls score.remote() ..."
}

// scanner finds the first Ray use of modules, remembering each answer.
type scanner struct {
	v     *gym.View
	graph *gym.ImportGraph // shared by the servers' searches
	mu    sync.Mutex
	cache map[string]*use // path + "\x00" + script flag → first use (nil: none)
	done  map[string]bool
}

func newScanner(v *gym.View) *scanner {
	return &scanner{v: v, graph: v.NewImportGraph(), cache: map[string]*use{}, done: map[string]bool{}}
}

// firstUse returns the first place (in source order) where m uses Ray, or
// nil. script is set for the module Python runs as __main__: code in the
// body of its `if __name__ == "__main__":` guard runs; in other modules it
// does not, so it is not searched there.
//
// Ray use in a module is:
//   - an import of ray or of a module of the ray package, at any scope
//     (`import ray`, `import ray.util as u`, `from ray.exceptions import
//     RayTaskError` inside a function): every other use of Ray by name
//     (`@ray.remote`, `ray.get(...)`, `ray.get` passed as a value,
//     `ray.wait`, `ray.util.placement_group`) needs the name bound by such
//     an import, so the import is the first use;
//   - a from-import of the name ray, at any scope, from a module that binds
//     it to the ray module (`from nemo_gym.server_utils import ray`), and a
//     module-scope from-import of another name that a repository module
//     outside the framework binds to a Ray object (a helper's `from ray
//     import get as fetch`, imported from the helper);
//   - a `.remote(...)` call (also `.options(...).remote(...)`) on a name
//     imported, at any scope, from a repository module that makes it a Ray
//     remote function or actor class (`@ray.remote` or `X = ray.remote(...)`).
//     `.remote(...)` on anything else (a local object, a parameter, an
//     attribute of self) is not use: nothing says it came from Ray.
//
// A name `ray` that no import binds to the ray package (a variable, a
// parameter) is not Ray, and a docstring or comment never is.
func (s *scanner) firstUse(m *pyscan.Module, script bool) *use {
	key := m.Path + "\x00" + fmt.Sprint(script)
	s.mu.Lock()
	if s.done[key] {
		u := s.cache[key]
		s.mu.Unlock()
		return u
	}
	s.mu.Unlock()
	u := s.compute(m, script)
	s.mu.Lock()
	s.done[key], s.cache[key] = true, u
	s.mu.Unlock()
	return u
}

func (s *scanner) compute(m *pyscan.Module, script bool) *use {
	var best *use
	consider := func(u *use) {
		if u != nil && (best == nil || u.span.Start.Offset < best.span.Start.Offset) {
			best = u
		}
	}
	for _, imp := range m.Imports { // in source order
		if best != nil {
			break
		}
		if imp.Where.InMainGuard && !script {
			continue
		}
		if isRayModule(imp.Module, imp.Level) {
			consider(&use{path: m.Path, span: imp.Span, what: describeRayImport(imp)})
			continue
		}
		if imp.IsFrom() && imp.Name != "*" {
			if d := s.reexportedRay(m, imp); d != "" {
				consider(&use{path: m.Path, span: imp.Span, what: fmt.Sprintf(
					"imports %s from %s, which is %s", imp.Name, importedModuleName(imp), d)})
			}
		}
	}
	s.eachCall(m, script, func(c *pyscan.Call, chain []*pyscan.Function) {
		if best != nil && c.Span.Start.Offset > best.span.Start.Offset {
			return
		}
		if w := s.remoteCall(m, c, chain); w != "" {
			consider(&use{path: m.Path, span: c.Span, what: w})
		}
	})
	return best
}

// isRayModule reports whether an absolute module name is ray or in it.
func isRayModule(name string, level int) bool {
	return level == 0 && (name == "ray" || strings.HasPrefix(name, "ray."))
}

func isRayDotted(d string) bool { return isRayModule(d, 0) }

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
	if file := v.ModuleFile(m.Path, imp.Level, imp.Module); file != "" {
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
		sym := v.Resolve(src, imp.Name)
		if sym.Kind == gym.External && isRayDotted(sym.Dotted) {
			if sym.Dotted == "ray" {
				return "the ray module"
			}
			return sym.Dotted
		}
		return ""
	}
	if imp.Level == 0 && imp.Name == "ray" && v.IsFrameworkModule(imp.Module) {
		return "the ray module"
	}
	return ""
}

// eachCall calls fn for every call of the module with the functions that
// enclose it (outermost first): module-level calls, calls in functions
// and nested functions, calls in methods.
func (s *scanner) eachCall(m *pyscan.Module, script bool, fn func(*pyscan.Call, []*pyscan.Function)) {
	for _, c := range m.Calls {
		if c.Where.InMainGuard && !script {
			continue
		}
		fn(c, nil)
	}
	var walk func(f *pyscan.Function, chain []*pyscan.Function)
	walk = func(f *pyscan.Function, chain []*pyscan.Function) {
		chain = append(chain[:len(chain):len(chain)], f)
		for _, c := range f.Calls {
			fn(c, chain)
		}
		for _, n := range f.Nested {
			walk(n, chain)
		}
	}
	for _, f := range m.Functions {
		walk(f, nil)
	}
	for _, c := range m.Classes {
		for _, f := range c.Methods {
			walk(f, nil)
		}
	}
}

// remoteCall describes a `.remote(...)` call on a Ray remote function or
// actor class imported from another module, or returns "".
func (s *scanner) remoteCall(m *pyscan.Module, c *pyscan.Call, chain []*pyscan.Function) string {
	if !strings.HasSuffix(strings.TrimSpace(c.Callee.Text), "remote") {
		return ""
	}
	callee := compact(c.Callee.Text)
	recv, ok := strings.CutSuffix(callee, ".remote")
	if !ok {
		return ""
	}
	// fn.options(num_cpus=1).remote(...) is fn's remote call.
	for strings.HasSuffix(recv, ")") {
		open := matchingOpen(recv)
		if open < 0 {
			return ""
		}
		head, ok := strings.CutSuffix(recv[:open], ".options")
		if !ok {
			return ""
		}
		recv = head
	}
	if !isDotted(recv) {
		return ""
	}
	parts := strings.Split(recv, ".")
	imp := bindingImport(m, parts[0], c.Span.Start.Offset, chain)
	if imp == nil {
		return ""
	}
	var where string
	if imp.IsFrom() {
		if imp.Name == "*" {
			return ""
		}
		where = s.remoteTarget(m, imp.Level, imp.Module, append([]string{imp.Name}, parts[1:]...), 0)
	} else {
		mod := imp.Module
		if imp.Bound != imp.Module {
			// `import a.b` binds a: a.b.fn is reached from a.
			if strings.HasPrefix(imp.Module, imp.Bound+".") && imp.Bound == parts[0] && !strings.Contains(imp.Bound, ".") {
				mod = imp.Bound
			}
		}
		where = s.remoteTarget(m, 0, mod, parts[1:], 0)
	}
	if where == "" {
		return ""
	}
	return fmt.Sprintf("calls %s.remote() (%s)", recv, where)
}

// bindingImport returns the import statement that binds name where the
// call at offset runs: an import in an enclosing function (innermost
// first, the last one before the call), else the module-scope import that
// is the name's module-level binding. Nil when a parameter of an enclosing
// function shadows the name, or when the name is bound by something else.
func bindingImport(m *pyscan.Module, name string, offset int, chain []*pyscan.Function) *pyscan.Import {
	for i := len(chain) - 1; i >= 0; i-- {
		f := chain[i]
		var found *pyscan.Import
		for _, imp := range m.Imports {
			if imp.ModuleScope || imp.Bound != name || imp.Span.Start.Offset > offset ||
				imp.Span.Start.Offset < f.Span.Start.Offset || imp.Span.End.Offset > f.Span.End.Offset {
				continue
			}
			if !directlyIn(imp, f) {
				continue
			}
			found = imp
		}
		if found != nil {
			return found
		}
		for _, p := range f.Params {
			if strings.TrimLeft(p, "*") == name {
				return nil
			}
		}
	}
	var last *pyscan.Binding
	for _, b := range m.Bindings {
		if b.Name == name {
			last = b
		}
	}
	if last == nil || last.Kind != pyscan.BindImport {
		return nil
	}
	for _, imp := range m.Imports {
		if imp.ModuleScope && imp.Bound == name && imp.Span == last.Span {
			return imp
		}
	}
	return nil
}

// directlyIn reports whether an import inside f's span is not inside one
// of f's nested functions (whose locals f does not see).
func directlyIn(imp *pyscan.Import, f *pyscan.Function) bool {
	for _, n := range f.Nested {
		if imp.Span.Start.Offset >= n.Span.Start.Offset && imp.Span.End.Offset <= n.Span.End.Offset {
			return false
		}
	}
	return true
}

// remoteTarget follows names (a dotted path) from the module that `level`
// dots and modDotted name, seen from `from`, to a Ray remote function or
// actor class, and says where it is defined ("score is a Ray remote
// function of resources_servers/x/jobs.py"), or returns "".
func (s *scanner) remoteTarget(from *pyscan.Module, level int, modDotted string, names []string, depth int) string {
	v := s.v
	if depth > maxRemoteDepth || len(names) == 0 {
		return ""
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "." + b
	}
	// Leading names that are submodules belong to the module path.
	for len(names) > 1 && v.ModuleFile(from.Path, level, join(modDotted, names[0])) != "" {
		modDotted = join(modDotted, names[0])
		names = names[1:]
	}
	if len(names) != 1 {
		return ""
	}
	file := v.ModuleFile(from.Path, level, modDotted)
	if file == "" {
		return ""
	}
	mod, err := v.Module(file)
	if err != nil || mod == nil {
		return ""
	}
	return s.remoteName(mod, names[0], depth)
}

// remoteName says whether name, at module scope of mod, is a Ray remote
// function or actor class.
func (s *scanner) remoteName(mod *pyscan.Module, name string, depth int) string {
	var b *pyscan.Binding
	for _, x := range mod.Bindings {
		if x.Name == name && !x.Where.InMainGuard {
			b = x
		}
	}
	if b == nil {
		return ""
	}
	switch b.Kind {
	case pyscan.BindDef:
		for _, f := range mod.Functions {
			if f.NameSpan == b.Span && remoteDecorated(mod, f.Decorators) {
				return fmt.Sprintf("%s is a Ray remote function of %s:%d", name, mod.Path, f.NameSpan.Start.Line)
			}
		}
	case pyscan.BindClass:
		for _, c := range mod.Classes {
			if c.NameSpan == b.Span && remoteDecorated(mod, c.Decorators) {
				return fmt.Sprintf("%s is a Ray actor class of %s:%d", name, mod.Path, c.NameSpan.Start.Line)
			}
		}
	case pyscan.BindAssign, pyscan.BindAnnAssign:
		if b.Value != nil && b.Value.Call {
			t := compact(b.Value.Text)
			if i := strings.IndexByte(t, '('); i > 0 && rayName(mod, t[:i]) == "ray.remote" {
				return fmt.Sprintf("%s is made a Ray remote object at %s:%d", name, mod.Path, b.Span.Start.Line)
			}
		}
	case pyscan.BindImport:
		for _, imp := range mod.Imports {
			if imp.ModuleScope && imp.Span == b.Span && imp.Bound == name && imp.IsFrom() && imp.Name != "*" {
				return s.remoteTarget(mod, imp.Level, imp.Module, []string{imp.Name}, depth+1)
			}
		}
	}
	return ""
}

// remoteDecorated reports whether a decorator list holds @ray.remote or
// @ray.remote(...) (under whatever name the module imports it).
func remoteDecorated(mod *pyscan.Module, decos []pyscan.Expr) bool {
	for _, d := range decos {
		if d.Dotted != "" && rayName(mod, d.Dotted) == "ray.remote" {
			return true
		}
	}
	return false
}

// rayName returns the absolute Ray name ("ray.remote") that a dotted name
// denotes at module scope of mod through a module-scope import of the ray
// package, or "".
func rayName(mod *pyscan.Module, dotted string) string {
	root, rest, _ := strings.Cut(dotted, ".")
	for i := len(mod.Imports) - 1; i >= 0; i-- {
		imp := mod.Imports[i]
		if !imp.ModuleScope || imp.Bound != root || !isRayModule(imp.Module, imp.Level) {
			continue
		}
		base := imp.Module
		switch {
		case imp.IsFrom():
			base = imp.Module + "." + imp.Name
		case imp.Bound != imp.Module && strings.HasPrefix(imp.Module, imp.Bound+"."):
			base = imp.Bound // import ray.util binds ray
		}
		if rest != "" {
			return base + "." + rest
		}
		return base
	}
	return ""
}

// compact drops white space, line continuations and comments from an
// expression's text ("fn .options(\n  x=1)" gives "fn.options(x=1)").
func compact(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 && !strings.ContainsAny(line[:i], `"'`) {
			line = line[:i]
		}
		for _, r := range line {
			switch r {
			case ' ', '\t', '\f', '\r', '\\':
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// matchingOpen returns the index of the '(' that the final ')' of s closes,
// or -1.
func matchingOpen(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				if s[i] == '(' {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// isDotted reports whether s is a name or an attribute chain of names.
func isDotted(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
				return false
			}
		}
	}
	return true
}
