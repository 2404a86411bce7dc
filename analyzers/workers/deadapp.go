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
	Doc: `## What it does
Reports a module-level ` + "`app`" + ` (as GL101 undeclared-workers counts one: bound where uvicorn sees it
on import, such as the ` + "`elif is_nemo_gym_fastapi_entrypoint(__file__):`" + ` branch of the ` + "`__main__`" + ` guard)
in an entrypoint whose server's ` + "`multiple_workers_unsupported_reason()`" + ` returns a reason on every
path. The server is the class the app is built from (` + "`app = X.run_webserver()`" + `), or the module's only
server class. A refusal that depends on the config (` + "`if self.config.x: return \"...\"`" + `) is not
reported: the app serves the configurations that do not refuse. How the method is read is described
under GL104 refused-num-workers; a method gymlint cannot read fully (it returns a computed value on
some path, or its ancestry cannot be resolved) is not reported.

## Why it matters
uvicorn imports the module's ` + "`app`" + ` only when ` + "`num_workers`" + ` is above 1, and then ` + "`run_webserver`" + ` has
already refused to start with the server's reason; with one worker the app object that
` + "`run_webserver`" + ` builds is served directly. So this ` + "`app`" + ` is never served: it is dead code, and it
misleads readers into taking the server as safe with several workers. Usually one of the
two is a leftover: the refusal of a server that was made safe, or the app of a server that was found
not to be.

## Example
` + "```python" + `
class ToolSandboxServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Episodes are kept in memory by the env_id in the request body."

if __name__ == "__main__":
    ToolSandboxServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolSandboxServer.run_webserver()  # GL106: never served
` + "```" + `

## How to fix
If the server is not safe with several workers, remove the ` + "`app`" + ` (and its ` + "`elif`" + ` branch). If it is
safe, drop the refusal, or make it conditional on the configurations that are not safe.`,
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
		if a, ok := c.Func.(*pyscan.Attribute); ok && a.Attr == "run_webserver" {
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
