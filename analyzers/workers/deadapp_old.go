//go:build ignore

package workers

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: UnreachableApp, Run: runUnreachableApp})
}

func runUnreachableApp(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, e := range v.Entrypoints {
		m := e.Module
		if e.Exemption != nil || m == nil || m.SyntaxError != nil {
			continue
		}
		app := gym.HasModuleApp(m)
		if app == nil {
			continue
		}
		s, ok := deadAppServer(v, e)
		if !ok {
			continue
		}
		r := Analyze(v, s)
		if r.Uncertain || r.Kind != RefusesAlways || r.Method == nil {
			continue
		}
		why := "returns a reason on every path"
		if r.Reason != "" {
			why = fmt.Sprintf("always returns %q", r.Reason)
		}
		msg := fmt.Sprintf(
			"module-level app of %s is never served: %s %s, so run_webserver refuses num_workers > 1 before uvicorn's workers import this app, and with one worker the app is not used; remove the app if the server is not safe with several workers, or drop the refusal (or make it depend on the config) if it is",
			m.Path, rfWho(s, r), why)
		d := UnreachableApp.New(m.Path, gym.PyPos(app.Span.Start), gym.PyPos(app.Span.End), msg)
		d.Related = []diag.Related{{
			Path: r.Class.Module.Path, Start: gym.PyPos(r.Method.NameSpan.Start), End: gym.PyPos(r.Method.NameSpan.End),
			Message: fmt.Sprintf("%s.%s() refuses several workers unconditionally", r.Class.Class.Name, Method),
		}}
		out = append(out, d)
	}
	return out
}

// deadAppServer finds the server an entrypoint's app is built from: the
// receiver of `app = X.run_webserver()`, or else the only server class.
func deadAppServer(v *gym.View, e *gym.Entrypoint) (gym.Server, bool) {
	app := gym.HasModuleApp(e.Module)
	if val := app.Value; val != nil && val.Call && strings.HasSuffix(val.Dotted, ".run_webserver") {
		sym := v.Resolve(e.Module, strings.TrimSuffix(val.Dotted, ".run_webserver"))
		if sym.Kind == gym.RepoClass {
			for _, s := range e.Servers {
				if s.Class.Class == sym.Class {
					return s, true
				}
			}
			ref := gym.ClassRef{Module: sym.Module, Class: sym.Class}
			if v.IsServerClass(ref) {
				return gym.Server{Class: ref}, true
			}
		}
		return gym.Server{}, false
	}
	if len(e.Servers) == 1 {
		return e.Servers[0], true
	}
	return gym.Server{}, false
}
