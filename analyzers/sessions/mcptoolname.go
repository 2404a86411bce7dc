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
	Doc:     ruleDoc("GL312"),
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
				if r.Handler != nil && r.Handler.Fn != nil && facts.StandardRoute(r.Handler.Fn.Name) && contract.RoutePath(contract.ResourcesRoutes, r.Handler.Fn.Name) == r.Path {
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
			if fn := f.Override(c, contract.MCPToolsMethod); fn != nil && fn.Module.SyntaxError == nil {
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
