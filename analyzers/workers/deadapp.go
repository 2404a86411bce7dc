package workers

import (
	"fmt"
	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// UnreachableApp is rule GL106.
var UnreachableApp = &diag.Rule{
	Code: "GL106", Name: "unreachable-app", Analyzer: "workers", Severity: diag.Warning,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A module-level app belongs to a server that always refuses several workers.",
	Doc:     ruleDoc("GL106"),
}

func runUnreachableApp(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, e := range v.Entrypoints {
		if !usable(e) {
			continue
		}
		m := e.Module
		app := gym.HasModuleApp(m)
		if app == nil {
			continue
		}
		s, ok := appServer(v, e, app)
		if !ok {
			continue
		}
		r := refusal.Of(v, s)
		if r.Uncertain || r.Kind != refusal.Always || r.Method == nil {
			continue
		}
		start, end := gym.Range(m, app.Span)
		d := UnreachableApp.New(m.Path, start, end, fmt.Sprintf(
			"module-level app is never served, as %s refuses several workers on every path",
			who(s, r)))
		d.Help = fmt.Sprintf("remove the app if %s is not safe with several workers; if it is, drop the refusal or make it depend on the config", s.Class.Name)
		rel := fmt.Sprintf("%s.%s() refuses several workers unconditionally", r.Class.Class.Name, Method)
		if r.Reason != "" {
			rel += fmt.Sprintf(", with %q", r.Reason)
		}
		d.Related = []diag.Related{gym.Related(r.Class.Module, r.Method.NameSpan, rel)}
		out = append(out, d)
	}
	return out
}

// appServer finds the server an entrypoint's app is built from: the class
// of `app = X.run_webserver()`, or else the module's only server class.
func appServer(v *gym.View, e *gym.Entrypoint, app *pyscan.Binding) (gym.ClassRef, bool) {
	if c, ok := app.Value.(*pyscan.Call); ok {
		if a, ok := c.Func.(*pyscan.Attribute); ok && a.Attr == contract.RunWebserverMethod {
			sym := v.ResolveExpr(e.Module, a.Value)
			if sym.Kind != gym.RepoClass {
				return gym.ClassRef{}, false
			}
			for _, s := range e.Servers {
				if s.Class.Class == sym.Class {
					return s.Class, true
				}
			}
			ref := gym.ClassRef{Module: sym.Module, Class: sym.Class}
			return ref, v.IsServerClass(ref)
		}
	}
	if len(e.Servers) == 1 {
		return e.Servers[0].Class, true
	}
	return gym.ClassRef{}, false
}
