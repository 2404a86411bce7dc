package gym

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/pyscan"
)

// StartsNoServer says why an entrypoint that configs name starts no
// server, "" when it may start one (or gymlint cannot tell, or no config
// names it). NeMo Gym starts an entrypoint with
// the server's interpreter (`python app.py`) or has uvicorn import its
// module-level app, so a module starts no server when
//
//   - it binds no module-level app,
//   - no code of it names `run_webserver` (a call, or a reference, in a
//     function, a class body or at module scope) nor calls uvicorn, and
//   - what its `__main__` guard and its module-level statements call
//     cannot start one: a builtin, a name
//     from outside the repository and its framework (argparse, fire), or a
//     function of the repository whose own calls are such, to a few
//     calls deep. A call of the framework, of a class of the repository or
//     of anything gymlint cannot resolve may start a server: undecided.
//
// Such a module is a base-class module or a library that configs name
// (the seed's "Gymnasium base class module and the local SEC search
// library, which configs name but which start no server"). The workers
// rules do not hold it to GL101 (GL016 says so), and `gymlint servers`
// lists it as starting no server.
func (v *View) StartsNoServer(e *Entrypoint) string {
	m := e.Module
	if m == nil || m.SyntaxError != nil || len(e.Configs) == 0 || len(e.Undecided) > 0 || HasModuleApp(m) != nil {
		// A server directory's app.py that no config names is held to
		// GL101 as it is: it is there to start the directory's server.
		return ""
	}
	if mayStart(m) {
		return ""
	}
	guarded := false
	guards := map[*pyscan.If]bool{}
	for _, g := range m.MainGuards {
		guarded = true
		guards[g.If] = true
		if !v.callsCannotStart(m, g.If.Body, 0) {
			return ""
		}
	}
	// What runs at import (`python app.py` runs it too): the module's
	// statements other than definitions and the guard, the decorators of
	// its definitions (each is called with what it decorates), and the
	// repository modules it imports (a module that names run_webserver may
	// start a server when imported; the framework's do not).
	for _, imp := range m.Imports {
		if !imp.ModuleScope {
			continue
		}
		if s := v.Resolve(m, imp.Bound); s.Module != nil && s.Module != m && !v.IsFrameworkModule(s.Module.Name) && mayStart(s.Module) {
			return ""
		}
		// `import a.b.c` binds a but runs a.b.c.
		if !imp.IsFrom() && !v.IsFrameworkModule(imp.Module) {
			if p := v.ModuleFile(m.Path, imp.Level, imp.Module); p != "" {
				if im, err := v.Module(p); err == nil && im != nil && im != m && mayStart(im) {
					return ""
				}
			}
		}
	}
	for _, st := range m.Body {
		var decorators []pyscan.Expr
		switch st := st.(type) {
		case *pyscan.Function:
			decorators = st.Decorators
		case *pyscan.Class:
			decorators = st.Decorators
		}
		for _, d := range decorators {
			if c, isCall := d.(*pyscan.Call); isCall {
				d = c.Func
				if !v.callsCannotStart(m, []pyscan.Stmt{&pyscan.ExprStmt{Value: c}}, 0) {
					return ""
				}
			}
			if name := pyscan.Dotted(d); name == "" || !v.calleeCannotStart(m, name, 0) {
				return ""
			}
		}
		switch st := st.(type) {
		case *pyscan.Function, *pyscan.Class:
			continue
		case *pyscan.If:
			if guards[st] {
				continue
			}
		}
		if !v.callsCannotStart(m, []pyscan.Stmt{st}, 0) {
			return ""
		}
	}
	what := "defines no server class"
	if len(e.Servers) > 0 {
		names := make([]string, 0, len(e.Servers))
		for _, s := range e.Servers {
			names = append(names, s.Class.Class.Name)
		}
		what = "defines " + strings.Join(names, ", ") + " but runs none of them"
	}
	if guarded {
		return what + ", and its __main__ guard starts no server"
	}
	return what + ", has no __main__ guard and no module-level app"
}

// mayStart reports whether some code of m names run_webserver or calls
// uvicorn's run. The imports are asked first and then the __main__
// guards, where a server most often starts, so that most servers' answer
// needs no walk of the whole module.
func mayStart(m *pyscan.Module) bool {
	for _, im := range m.Imports {
		if im.Module == "uvicorn" || strings.HasPrefix(im.Module, "uvicorn.") {
			return true
		}
	}
	for _, g := range m.MainGuards {
		if namesStart([]pyscan.Stmt{g.If}) {
			return true
		}
	}
	return namesStart(m.Body)
}

// namesStart reports whether some code of body names run_webserver or
// calls uvicorn's run.
func namesStart(body []pyscan.Stmt) bool {
	found := false
	pyscan.InspectBody(body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Attribute:
			if n.Attr == contract.RunWebserverMethod {
				found = true
			}
		case *pyscan.Name:
			if n.Id == contract.RunWebserverMethod {
				found = true
			}
		case *pyscan.Call:
			if d := pyscan.Dotted(n.Func); d == "uvicorn.run" || strings.HasPrefix(d, "uvicorn.Server") {
				found = true
			}
		}
		return !found
	})
	return found
}

// maxStartDepth bounds how deep callsCannotStart follows the repository's
// functions.
const maxStartDepth = 3

// callsCannotStart reports whether no call in body can start a server (see
// StartsNoServer).
func (v *View) callsCannotStart(m *pyscan.Module, body []pyscan.Stmt, depth int) bool {
	ok := true
	pyscan.InspectBody(body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if !ok {
			return false
		}
		c, isCall := n.(*pyscan.Call)
		if !isCall {
			return true
		}
		d := pyscan.Dotted(c.Func)
		if d == "" {
			// A call of a call's result or of a subscript: what its
			// parts call is visited below; the result itself is not
			// followed.
			if _, isAttr := c.Func.(*pyscan.Attribute); !isAttr {
				ok = false
			}
			return ok
		}
		for _, a := range c.Args {
			// What a call is handed may be started or called by it: a
			// class of the repository (launch(Server)), a function
			// (fire.Fire(main)).
			if n, isName := a.Value.(*pyscan.Name); isName && !v.valueCannotStart(m, n.Id, depth) {
				ok = false
				return false
			}
		}
		ok = v.calleeCannotStart(m, d, depth)
		return ok
	})
	return ok
}

// calleeCannotStart reports whether calling the dotted name d of module m
// cannot start a server (see StartsNoServer).
func (v *View) calleeCannotStart(m *pyscan.Module, d string, depth int) bool {
	root, _, _ := strings.Cut(d, ".")
	s := v.Resolve(m, root)
	switch s.Kind {
	case Builtin:
		return true
	case External:
		return !v.IsFrameworkModule(s.Dotted)
	case RepoFunction:
		return depth < maxStartDepth && !v.IsFrameworkModule(s.Module.Name) && (s.Module == m || !mayStart(s.Module)) &&
			v.callsCannotStart(s.Module, s.Function.Body, depth+1)
	}
	// A function of a repository module called by its dotted name, a class
	// of the repository, a value or a name gymlint cannot resolve: not
	// followed.
	return false
}

// valueCannotStart reports whether a name of module m handed to a call as
// a value cannot start a server: a builtin or outside name, or a function
// of the repository that cannot (it may be called); a class of the
// repository may be started.
func (v *View) valueCannotStart(m *pyscan.Module, name string, depth int) bool {
	switch v.Resolve(m, name).Kind {
	case RepoClass:
		return false
	case RepoFunction:
		return v.calleeCannotStart(m, name, depth)
	}
	return true
}

// ConfigRelated are the related positions of the config entries that name
// an entrypoint, at most max of them (the last says how many more), sorted
// by file.
func (e *Entrypoint) ConfigRelated(max int) []diag.Related {
	var out []diag.Related
	for i, c := range e.Configs {
		if i == max {
			break
		}
		out = append(out, diag.Related{Path: c.File,
			Start:   ConfigPos(c.Instance.EntrypointPos),
			End:     ConfigPos(c.Instance.EntrypointEnd),
			Message: "names it as the entrypoint of " + c.Instance.Name})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if n := len(e.Configs) - max; n > 0 {
		out[len(out)-1].Message += fmt.Sprintf(" (and %d more config entries)", n)
	}
	return out
}

// StartsNoServerCheck is rule GL016: an entrypoint that configs name but
// that starts no server, which the workers rules therefore skip.
var StartsNoServerCheck = Check{Rule: core.StartsNoServer, Run: runStartsNoServer}

// NeedlessExemptionCheck reports (GL007) an exemption of a module that
// gymlint already infers starts no server.
var NeedlessExemptionCheck = Check{Rule: core.UnusedExemption, Run: runNeedlessExemption}

func runStartsNoServer(v *View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, e := range v.Entrypoints {
		if e.Exemption != nil {
			continue
		}
		why := v.StartsNoServer(e)
		if why == "" || refusesAll(v, e) {
			// A module whose every server class refuses several
			// workers is not held to GL101 either way: nothing to say.
			continue
		}
		m := e.Module
		at := pyscan.Span{}
		if len(e.Servers) > 0 && e.Servers[0].Class.Module == m {
			at = e.Servers[0].Class.Class.NameSpan
		}
		start, end := Range(m, at)
		d := core.StartsNoServer.New(m.Path, start, end, fmt.Sprintf("%s starts no server: it %s; the workers rules skip it", m.Path, why))
		d.Help = "nothing to do if it is a base-class module or a library; if it should start a server, add `if __name__ == \"__main__\": <Server>.run_webserver()` and a module-level app or a refusal"
		d.Related = e.ConfigRelated(5)
		out = append(out, d)
	}
	return out
}

// refusesAll reports whether the entrypoint has server classes and each
// defines (or inherits) the refusal method, or has an ancestry gymlint
// cannot follow (where GL101 says nothing either).
func refusesAll(v *View, e *Entrypoint) bool {
	if len(e.Servers) == 0 {
		return false
	}
	for _, s := range e.Servers {
		// An ancestry gymlint cannot follow to the end is GL101's to leave
		// alone too: nothing to say either way.
		if def := v.Lookup(s.Class, contract.RefusalMethod); !def.Found() && !def.Uncertain {
			return false
		}
	}
	return true
}

func runNeedlessExemption(v *View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, e := range v.Entrypoints {
		x := e.Exemption
		if x == nil {
			continue
		}
		why := v.StartsNoServer(e)
		if why == "" {
			continue
		}
		var d diag.Diagnostic
		if x.Flag {
			d = core.UnusedExemption.New(x.Path, filePos, filePos, fmt.Sprintf("--exempt %s is not needed: gymlint infers that it starts no server (it %s)", x.Path, why))
		} else {
			d = core.UnusedExemption.New(x.Source, x.Pos, x.Pos, fmt.Sprintf("exemption %s is not needed: gymlint infers that it starts no server (it %s)", x.Path, why))
		}
		d.Help = "remove the exemption; gymlint skips the module without it"
		out = append(out, d)
	}
	return out
}
