package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// OwnResourcesApp is rule GL321.
var OwnResourcesApp = &diag.Rule{
	Code: "GL321", Name: "own-resources-app", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.ProtocolRoutes},
	Summary: "A resources server builds its own FastAPI app instead of overriding register_protocol_routes.",
	Doc: `## What it does
Reports a resources server, where the framework's resources base has ` + "`register_protocol_routes`" + `, that
builds its own app: its ` + "`setup_webserver`" + ` override, or what it reaches (methods of the server,
` + "`super()`" + ` definitions of the repository, module functions), calls ` + "`fastapi.FastAPI(...)`" + ` (the name
resolved through the module's imports); or it overrides ` + "`create_resources_app`" + `. Servers that share the
override are reported once. A ` + "`setup_webserver`" + ` that takes the framework's app
(` + "`app = super().setup_webserver()`" + `) and adds to it is not reported; one that extends a repository
base's own app is not reported either (the base's ` + "`setup_webserver`" + ` is, once).

## Why it matters
` + "`create_resources_app`" + ` builds the app with what every resources server shares, whatever its episode
protocol: the session and rollout middleware, the checkpoint participant, ` + "`/aggregate_metrics`" + ` and
` + "`/reverify_mode`" + `. An app of the server's own has none of them: sessions are not routed by cookie,
checkpoints never reach the server, and metrics and re-verification fail.

## Example
` + "```python" + `
class GymnasiumServer(SimpleResourcesServer):
    def setup_webserver(self):
        app = FastAPI()
        app.post("/reset")(self.reset)
        app.post("/step")(self.step)
        return app
` + "```" + `

## How to fix
Add the protocol's routes to the framework's app:
` + "```python" + `
    def register_protocol_routes(self, app):
        app.post("/reset")(self.reset)
        app.post("/step")(self.step)
` + "```",
}

func runOwnResourcesApp(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	done := map[*facts.Func]bool{}
	report := func(s gym.Server, fn *facts.Func, msg string, related ...diag.Related) {
		start, end := gym.Range(fn.Module, fn.Fn.NameSpan)
		d := OwnResourcesApp.New(fn.Module.Path, start, end, msg)
		d.Help = "override register_protocol_routes(self, app) and add the server's routes to the app the framework builds"
		d.Related = append(related, hook{f: f, server: s, fn: fn}.inherited(fn.Fn.Name)...)
		out = append(out, d)
	}
	for _, s := range ResourcesServers(v) {
		if fn := f.Override(s.Class, "create_resources_app"); fn != nil && !done[fn] && fn.Module.SyntaxError == nil {
			done[fn] = true
			report(s, fn, fmt.Sprintf("%s overrides create_resources_app, building the resources app itself", fn.Name()))
			continue
		}
		fn := f.Override(s.Class, "setup_webserver")
		if fn == nil || fn.Module.SyntaxError != nil {
			continue
		}
		for _, r := range f.Reach(s.Class, fn) {
			var at *facts.Call
			for _, c := range f.Calls(s.Class, r.Func) {
				if c.Target == nil && isFastAPI(f.CalleeName(r.Func.Module, r.Func, c.Call)) {
					at = c
					break
				}
			}
			if at == nil {
				continue
			}
			// The finding is the setup_webserver that builds the app: the
			// last one on the way (an override that extends super()'s app
			// is not it).
			builder := fn
			for _, c := range r.Via {
				if c.Target != nil && c.Target.Fn.Name == "setup_webserver" {
					builder = c.Target
				}
			}
			if done[builder] {
				break
			}
			done[builder] = true
			msg := fmt.Sprintf("%s builds its own app with FastAPI()%s instead of overriding register_protocol_routes", builder.Name(), via(hook{fn: builder}, r.Func))
			report(s, builder, msg, gym.Related(r.Func.Module, at.Call.Range(), "the app is built here"))
			break
		}
	}
	return out
}

// isFastAPI reports whether a callee's external name is FastAPI's app
// class, as fastapi exports it or where it defines it.
func isFastAPI(name string) bool {
	return name == "fastapi.FastAPI" || name == "fastapi.applications.FastAPI"
}
