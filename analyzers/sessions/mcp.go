package sessions

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// ReservedMCPToolName is rule GL312.
var ReservedMCPToolName = &diag.Rule{
	Code: "GL312", Name: "reserved-mcp-tool-name", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.ReservedMCPToolNames},
	Summary: "A resources server exposed over MCP registers a POST tool route whose MCP tool name is one the framework reserves (RESERVED_MCP_TOOL_NAMES).",
	Doc: `## What it does
Reports a POST route that a resources server registers itself (` + "`app.post(\"/x\")(self.m)`" + `, ` + "`@app.post(\"/x\")`" + `,
` + "`add_api_route`" + ` or ` + "`api_route`" + ` with ` + "`methods=[\"POST\"]`" + `) whose MCP tool name is in the framework's
` + "`RESERVED_MCP_TOOL_NAMES`" + `, on a server exposed over MCP: a config that starts the server sets
` + "`expose_tools_over_mcp: true`" + ` (in the instance or an override of it), or the server overrides
` + "`mcp_tools(harvested, catchall)`" + ` with a return built from ` + "`harvested`" + `. A route's tool name is its literal
path without the leading slash (` + "`/get_weather`" + ` → ` + "`get_weather`" + `); a route with a path parameter is a catch-all,
not a tool. Also reported: ` + "`catchall.tool(\"name\", ...)`" + ` in an ` + "`mcp_tools`" + ` override with a reserved name.

The reserved names are read from the framework when it is in the repository; otherwise they are those
of the current contract: ` + "`verify`" + `, ` + "`seed_session`" + `, ` + "`close_session`" + `, ` + "`aggregate_metrics`" + `, ` + "`mcp`" + `. The
framework's own routes (` + "`/verify`" + `, ` + "`/seed_session`" + `, ...), served by the methods of those names, are not
the server's tools and are not reported, nor is a reserved name on a server that is not exposed.

## Why it matters
The reserved names are the protocol's endpoints. MCP auto-exposure never harvests a route of that name as
a tool, so an agent on MCP never sees it and the rollouts that need it score 0; a tool given such a name
through ` + "`mcp_tools`" + ` makes the server refuse to start. A route at ` + "`/mcp`" + ` collides with the MCP endpoint itself.

## Example
` + "```python" + `
    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/aggregate_metrics")(self.aggregate_tool)   # reported (with expose_tools_over_mcp: true)
        return app
` + "```" + `

## How to fix
Rename the route (its tool name): ` + "`app.post(\"/sum_values\")(self.aggregate_tool)`" + `.`,
}

// MCPSignerPerRequest is rule GL313.
var MCPSignerPerRequest = &diag.Rule{
	Code: "GL313", Name: "mcp-signer-per-request", Analyzer: Analyzer, Severity: diag.Warning,
	Needs:   []string{contract.MCPTokenSerializer},
	Summary: "A resources server builds the MCP session token signer (mcp_session_token_serializer) in a route or per call instead of once per server.",
	Doc: `## What it does
Reports a call of the framework's ` + "`mcp_session_token_serializer(...)`" + ` (the name resolved through the
module's imports and aliases) in code a resources server runs per request: a route's handler (the
framework's standard routes included), an override of a per-request MCP hook
(` + "`mcp_allowed_tools_for_session`" + `, ` + "`normalize_tool_name`" + `), or anything they call. A call in start-up code
(` + "`model_post_init`" + `, ` + "`__init__`" + `, ` + "`setup_webserver`" + ` and what only they reach), at module scope, in a function
cached with ` + "`functools`" + ` (` + "`cache`" + `, ` + "`lru_cache`" + `, ` + "`cached_property`" + `), or under a test that a server attribute
it assigns is still unset (lazy, once) is not reported.

## Why it matters
The framework documents the signer as built once per server. Building it per request derives the
signing key again on every call, and a server that builds it from a per-request value may sign and check
tokens with different secrets: tokens minted by /seed_session then fail to verify and MCP tool calls are
refused.

## Example
` + "```python" + `
    async def lookup(self, request: Request, body: LookupRequest):
        signer = mcp_session_token_serializer(self.config.secret)   # reported
        claims = mcp_session_token_payload(signer, body.token)
` + "```" + `

## How to fix
Build it once, in ` + "`model_post_init`" + `, and keep it on the server:

` + "```python" + `
    def model_post_init(self, context):
        super().model_post_init(context)
        self._signer = mcp_session_token_serializer(self.config.secret)
` + "```",
}

// mcpExposure says why a server is exposed over MCP, as a related
// position; ok is false when it is not.
func mcpExposure(v *gym.View, f *facts.Facts, e *gym.Entrypoint, s gym.Server) (diag.Related, bool) {
	if at, ok := facts.ExposedByConfig(v, e); ok {
		p := gym.ConfigPos(at.Pos)
		return diag.Related{Path: at.File, Start: p, End: p, Message: "expose_tools_over_mcp: true exposes the server over MCP"}, true
	}
	if fn := f.KeepsHarvested(s.Class); fn != nil {
		return gym.Related(fn.Module, fn.Fn.NameSpan, fn.Name()+" exposes the harvested routes over MCP"), true
	}
	return diag.Related{}, false
}

func runReservedMCPToolName(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	f := facts.Of(v)
	reserved, from := facts.ReservedMCPToolNames(v)
	help := func(name string) string {
		h := "rename the route: MCP auto-exposure never harvests a route named like a reserved endpoint (" +
			strings.Join(facts.SortedNames(reserved), ", ") + ")"
		if from != "" {
			h += ", the names of RESERVED_MCP_TOOL_NAMES at " + from
		}
		return h
	}
	done := map[*pyscan.Call]bool{}
	seen := map[*pyscan.Class]bool{}
	for _, e := range v.Entrypoints {
		if e.Exemption != nil || e.Module == nil || e.Module.SyntaxError != nil {
			continue
		}
		for _, s := range e.Servers {
			c := s.Class
			if c.Class == nil || seen[c.Class] || c.Module.SyntaxError != nil || !IsResourcesServer(v, c) {
				continue
			}
			seen[c.Class] = true
			why, ok := mcpExposure(v, f, e, s)
			if !ok {
				continue
			}
			for _, r := range f.Routes(c) {
				if r.Standard || r.Registration == nil || done[r.Registration] || !facts.PostRoute(r) {
					continue
				}
				name, ok := facts.MCPToolName(r.Path)
				if !ok || !reserved[name] {
					continue
				}
				// The framework's own route, registered again by the server
				// with the method of that name (app.post("/verify")(self.verify)).
				if r.Handler != nil && r.Handler.Fn != nil && facts.StandardRoute(r.Handler.Fn.Name) && standardPath(r.Handler.Fn.Name) == r.Path {
					continue
				}
				done[r.Registration] = true
				m := r.In.Module
				start, end := gym.Range(m, r.Registration.Range())
				d := ReservedMCPToolName.New(m.Path, start, end, fmt.Sprintf(
					"POST route %s of %s is named like the reserved MCP tool %q on a server exposed over MCP", r.Path, c.Class.Name, name))
				d.Help = help(name)
				d.Related = []diag.Related{why}
				out = append(out, d)
			}
			// catchall.tool("verify", ...) in an mcp_tools override.
			if fn := f.Override(c, facts.MCPToolsMethod); fn != nil && fn.Module.SyntaxError == nil {
				catchall := facts.MCPToolsParam(fn, 1)
				for _, call := range f.Calls(c, fn) {
					a, ok := call.Call.Func.(*pyscan.Attribute)
					if !ok || a.Attr != "tool" || catchall == "" || done[call.Call] {
						continue
					}
					if x, ok := a.Value.(*pyscan.Name); !ok || x.Id != catchall {
						continue
					}
					name, ok := pyscan.Str(call.Call.Arg(0, "name"))
					if !ok || !reserved[name] {
						continue
					}
					done[call.Call] = true
					start, end := gym.Range(fn.Module, call.Call.Range())
					d := ReservedMCPToolName.New(fn.Module.Path, start, end, fmt.Sprintf(
						"%s exposes the MCP tool %q, a reserved name: the server refuses to start", fn.Name(), name))
					d.Help = "give the tool another name"
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// standardPath is the path the framework serves a standard method at.
func standardPath(method string) string {
	switch method {
	case SeedMethod:
		return "/seed_session"
	case VerifyMethod:
		return "/verify"
	case CloseMethod:
		return "/close_session"
	case "aggregate_metrics":
		return "/aggregate_metrics"
	}
	return ""
}

// perRequestHooks are the framework's MCP hooks it calls per request.
var perRequestHooks = []string{"mcp_allowed_tools_for_session", "normalize_tool_name"}

// cacheDecorators make a function run once per argument set.
var cacheDecorators = map[string]bool{
	"functools.cache": true, "functools.lru_cache": true, "functools.cached_property": true,
}

func runMCPSignerPerRequest(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	f := facts.Of(v)
	done := map[*pyscan.Call]bool{}
	for _, s := range ResourcesServers(v) {
		c := s.Class
		type start struct {
			fn   *facts.Func
			what string
		}
		var starts []start
		for _, r := range f.Routes(c) {
			if r.Handler != nil {
				starts = append(starts, start{r.Handler, "route " + r.RouteName()})
			}
		}
		for _, h := range perRequestHooks {
			if fn := f.Override(c, h); fn != nil {
				starts = append(starts, start{fn, h})
			}
		}
		startup := f.StartupOnly(c)
		for _, st := range starts {
			for _, r := range f.Reach(c, st.fn) {
				fn := r.Func
				if startup[fn] || fn.Module.SyntaxError != nil || cached(f, fn) {
					continue
				}
				for _, call := range f.Calls(c, fn) {
					if done[call.Call] || !frameworkCall(f, fn, call.Call, "mcp_session_token_serializer") || f.RunsOnce(c, call) {
						continue
					}
					done[call.Call] = true
					m := fn.Module
					b, e := gym.Range(m, call.Call.Range())
					in := fn.Name()
					if fn != st.fn {
						in += " (reached from " + st.what + ")"
					} else {
						in += " (" + st.what + ")"
					}
					d := MCPSignerPerRequest.New(m.Path, b, e, fmt.Sprintf(
						"%s builds the MCP session token signer per request: mcp_session_token_serializer(...) runs on every call", in))
					d.Help = "build it once per server, in model_post_init (self._signer = mcp_session_token_serializer(secret)), and use that"
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// cached reports whether a function is decorated with a functools cache.
func cached(f *facts.Facts, fn *facts.Func) bool {
	for _, d := range fn.Fn.Decorators {
		if c, ok := d.(*pyscan.Call); ok {
			d = c.Func
		}
		if cacheDecorators[f.ExternalName(fn.Module, nil, d)] {
			return true
		}
	}
	return false
}
