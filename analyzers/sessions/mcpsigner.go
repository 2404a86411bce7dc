package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/analyzers/pyfix"
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
	var found []signerCall
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
					found = append(found, signerCall{at: len(out), server: s.Class, fn: fn, call: call.Call})
					out = append(out, d)
				}
			}
		}
	}
	for _, sc := range found {
		if fix, ok := signerFix(v, f, sc, found); ok {
			out[sc.at].Fixes = []diag.Fix{fix}
		}
	}
	return out
}

// signerCall is a call GL313 reports: of the diagnostic at index at of
// the rule's findings, in fn, found through server.
type signerCall struct {
	at     int
	server gym.ClassRef
	fn     *facts.Func
	call   *pyscan.Call
}

// signerAttr is the cached property GL313's fix adds.
const signerAttr = "_mcp_signer"

// The messages of GL313's fix.
const (
	signerReuseMessage  = "Use the signer the server builds at start-up"
	signerCachedMessage = "Build the signer once per server, in a cached property"
)

// signerFix replaces the call with the signer built once per server: an
// attribute the server's start-up code already gives the same signer
// (`self._signer = mcp_session_token_serializer(self.config.secret)` in
// model_post_init, set once and nowhere else), else a cached property it
// adds to the class of the method, built on first use from the same call:
//
//	@functools.cached_property
//	def _mcp_signer(self):
//	    return mcp_session_token_serializer(self.config.secret)
//
// Both are safe: the signer is made from the same arguments, which read
// nothing per request (literals and the server's config), and a cached
// property builds it lazily, on the first request as before, so a config
// that cannot make one fails where it did; only the rebuilding is gone.
//
// No fix when an argument is anything else (a parameter, the request's
// body, a server attribute that may change), when the call is not in a
// method of the server's class (a nested function, a module function, a
// class method), when it spans lines, when the callee is a local name, when
// the class's reported calls that read only the config differ in their
// arguments (one property would not serve them all), or when _mcp_signer
// is taken.
func signerFix(v *gym.View, f *facts.Facts, sc signerCall, all []signerCall) (diag.Fix, bool) {
	fn, call := sc.fn, sc.call
	m := fn.Module
	cls := fn.Owner()
	if fn.Outer != nil || fn.Class == nil || fn.Recv == "" || !editable(v, cls) || !onlyConfig(fn, call) {
		return diag.Fix{}, false
	}
	for _, d := range fn.Fn.Decorators {
		if n, ok := d.(*pyscan.Name); ok && n.Id == "classmethod" {
			return diag.Fix{}, false
		}
	}
	if root := pyscan.Root(call.Func); root == nil || f.IsLocal(fn, root.Id) {
		return diag.Fix{}, false
	}
	if m.Line(call.Span.Start) != m.Line(call.Span.End) {
		return diag.Fix{}, false
	}
	// The same signer, built once at start-up.
	if attr, ok := startupSigner(f, sc); ok {
		return diag.Fix{Message: signerReuseMessage, Applicability: diag.Safe,
			Edits: []diag.TextEdit{pyfix.Replace(m, call.Span, fn.Recv+"."+attr)}}, true
	}
	for _, o := range all {
		if o.fn.Owner().Class == fn.Class && onlyConfig(o.fn, o.call) && !sameArgs(o.call, call) {
			return diag.Fix{}, false
		}
	}
	if attrUsed(v, sc.server, signerAttr) {
		return diag.Fix{}, false
	}
	deco, imp, ok := cachedProperty(v, m, cls.Class.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	block := []string{
		"@" + deco,
		"def " + signerAttr + "(" + fn.Recv + "):",
		"\treturn " + m.Text(call),
	}
	edits, ok := pyfix.AppendToClass(m, cls.Class, block, true)
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(imp, edits...)
	edits = append(edits, pyfix.Replace(m, call.Span, fn.Recv+"."+signerAttr))
	return diag.Fix{Message: signerCachedMessage, Edits: edits, Applicability: diag.Safe}, true
}

// onlyConfig reports whether every argument of the call is a literal or a
// read of the server's config (`self.config.secret`): nothing per request.
func onlyConfig(fn *facts.Func, c *pyscan.Call) bool {
	for _, a := range c.Args {
		if a.Kind == pyscan.StarArg || a.Kind == pyscan.StarStarArg {
			return false
		}
		switch e := a.Value.(type) {
		case *pyscan.Constant:
		default:
			if facts.ConfigField(fn.Recv, e) == nil {
				return false
			}
		}
	}
	return true
}

// startupSigner finds an attribute that the server's start-up code alone
// sets, once and unconditionally, to the framework's signer built from
// the same arguments (written alike) as the call, in a method of the same
// receiver name.
func startupSigner(f *facts.Facts, sc signerCall) (string, bool) {
	startup := f.StartupOnly(sc.server)
	count := map[string]int{}
	sets := f.OnceAttrs(sc.server)
	for _, a := range sets {
		count[a.Attr]++
	}
	for _, a := range sets {
		if a.Func == nil || !startup[a.Func] || len(a.Guards) > 0 || count[a.Attr] != 1 || a.Func.Recv != sc.fn.Recv || a.Func.Outer != nil {
			continue
		}
		if c, ok := a.Value.(*pyscan.Call); ok && frameworkCall(f, a.Func, c, contract.TokenSerializerFunc) && sameArgs(c, sc.call) {
			return a.Attr, true
		}
	}
	return "", false
}

// sameArgs reports whether two calls pass the same arguments, written
// alike.
func sameArgs(a, b *pyscan.Call) bool {
	if len(a.Args) != len(b.Args) {
		return false
	}
	for i, x := range a.Args {
		y := b.Args[i]
		if x.Kind != y.Kind || x.Name != y.Name || !pyscan.Equal(x.Value, y.Value) {
			return false
		}
	}
	return true
}

// cachedProperty is how m writes functools.cached_property before offset
// before: through its `import functools`, else the name cached_property
// imported from functools (pyfix.Import).
func cachedProperty(v *gym.View, m *pyscan.Module, before int32) (string, []diag.TextEdit, bool) {
	for _, imp := range m.Imports {
		if !imp.IsFrom() && imp.ModuleScope && imp.Where == (pyscan.Where{}) && imp.Module == "functools" && imp.Bound == "functools" && imp.Span.End <= before {
			return "functools.cached_property", nil, true
		}
	}
	return pyfix.Import(v, m, "functools", "cached_property", before)
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
