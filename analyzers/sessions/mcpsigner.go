package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// MCPSignerPerRequest is rule GL313.
var MCPSignerPerRequest = &diag.Rule{
	Code: "GL313", Name: "mcp-signer-per-request", Analyzer: Analyzer, Severity: diag.Warning,
	Needs:   []string{contract.MCPTokenSerializer},
	Summary: "A resources server builds the MCP session token signer (mcp_session_token_serializer) in a route or per call instead of once per server.",
	Doc:     ruleDoc("GL313"),
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
		for _, h := range contract.MCPPerRequestHooks {
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
					if done[call.Call] || !frameworkCall(f, fn, call.Call, contract.TokenSerializerFunc) || f.RunsOnce(c, call) {
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
