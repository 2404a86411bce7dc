// Facts several rules ask, kept here rather than in one rule's file: what
// kind of verify response a class is, and which modules are the resources
// servers' own (GL308, GL314, GL315 and GL316 ask for them).

package sessions

import (
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// responseKind reports whether a class's method resolution order reaches
// the framework's BaseVerifyResponse (isResponse) and its
// BaseMultiRewardVerifyResponse (isMulti), through framework classes
// defined in the repository too. ok is false when the order is not known
// or has a base gymlint could not resolve or a library's (but for the
// standard library's and pydantic's).
func responseKind(v *gym.View, c gym.ClassRef) (isResponse, isMulti, ok bool) {
	mro, ok := v.MRO(c)
	if !ok {
		return false, false, false
	}
	for _, a := range mro {
		switch a.Kind {
		case gym.Unresolved:
			return false, false, false
		case gym.Foreign:
			// A library class could itself derive from the framework's
			// responses; those of the standard library and pydantic do not.
			if !knownForeign(a.Name) {
				return false, false, false
			}
		case gym.Framework, gym.FrameworkServer:
			r, mu := frameworkResponse(v, a, 0)
			isResponse, isMulti = isResponse || r, isMulti || mu
		}
	}
	return isResponse, isMulti, true
}

// knownForeign reports whether a foreign class is of a module that cannot
// derive from the framework (builtins, typing, abc, enum, pydantic).
func knownForeign(name string) bool {
	first, _, _ := strings.Cut(name, ".")
	switch first {
	case "builtins", "typing", "typing_extensions", "abc", "enum", "pydantic":
		return true
	}
	return false
}

// resourcesModules returns the repository modules of the resources
// servers, each once and without syntax errors: the entrypoints that
// start one, the modules they import (module-scope imports, transitively),
// and the modules that define the server classes and their repository
// ancestors. Framework modules are left out.
func resourcesModules(v *gym.View) []*pyscan.Module {
	return resourcesModulesHolding(v, "")
}

// resourcesModulesHolding is resourcesModules for a rule that looks in them
// only for what a module's text names as needle (a class attribute's
// name): when no module that the entrypoints' imports may reach, the
// entrypoints left aside, holds needle's bytes (gym.View.ClosureMayHold),
// the imported modules are not parsed, and only the entrypoints and the
// server classes' modules are returned. "" asks for every module.
func resourcesModulesHolding(v *gym.View, needle string) []*pyscan.Module {
	var out []*pyscan.Module
	seen := map[string]bool{}
	add := func(m *pyscan.Module) {
		if m == nil || seen[m.Path] || m.SyntaxError != nil || v.IsFrameworkModule(m.Name) {
			return
		}
		seen[m.Path] = true
		out = append(out, m)
	}
	servers := ResourcesServers(v)
	isRes := map[*pyscan.Class]bool{}
	for _, s := range servers {
		isRes[s.Class.Class] = true
	}
	var roots []*pyscan.Module
	for _, e := range v.Entrypoints {
		has := false
		for _, s := range e.Servers {
			if isRes[s.Class.Class] {
				has = true
			}
		}
		if has && e.Module != nil && e.Exemption == nil {
			roots = append(roots, e.Module)
		}
	}
	if needle != "" && !importsMayHold(v, roots, needle) {
		for _, r := range roots {
			add(r)
		}
	} else {
		graph := v.NewImportGraph()
		for _, r := range roots {
			for _, imp := range graph.Closure(r) {
				add(imp.Module)
			}
		}
	}
	for _, s := range servers {
		mro, _ := v.MRO(s.Class)
		for _, a := range mro {
			if a.Kind == gym.Own && a.Class.Module != nil {
				add(a.Class.Module)
			}
		}
	}
	return out
}

// importsMayHold reports whether a module that the roots' imports may reach,
// other than a root, holds needle's bytes (or the search could not tell).
func importsMayHold(v *gym.View, roots []*pyscan.Module, needle string) bool {
	files, ok := v.ClosureMayHold(roots, needle)
	if !ok {
		return true
	}
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r.Path] = true
	}
	for _, f := range files {
		if !isRoot[f] {
			return true
		}
	}
	return false
}

// frameworkResponse is responseKind for a framework class: by its name,
// else by its bases when the framework is in the repository.
func frameworkResponse(v *gym.View, a gym.Ancestor, depth int) (isResponse, isMulti bool) {
	name := a.Name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
	case contract.MultiRewardResponseClass:
		return true, true
	case contract.VerifyResponseClass:
		return true, false
	}
	if a.Class.Class == nil || depth > 16 {
		return false, false
	}
	for _, b := range v.Bases(a.Class) {
		if b.Kind == gym.Framework || b.Kind == gym.FrameworkServer {
			r, mu := frameworkResponse(v, b, depth+1)
			isResponse, isMulti = isResponse || r, isMulti || mu
		}
	}
	return isResponse, isMulti
}
