package facts

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// This file answers what the MCP rules (GL312, GL313) ask: which names
// the framework reserves for MCP tools, whether a server is exposed over
// MCP, and what name MCP auto-exposure gives a route.

// ReservedMCPToolNames returns the names the framework reserves for MCP
// tools: the str literals of its module-scope RESERVED_MCP_TOOL_NAMES
// (`frozenset({"verify", ...})`, a set, list or tuple literal, or
// frozenset/set/tuple/list of one) when the framework is in the
// repository and binds it so; from is where ("nemo_gym/x.py:68"). Else
// contract.LatestReservedMCPToolNames, with from "".
func ReservedMCPToolNames(v *gym.View) (names map[string]bool, from string) {
	return v.Shared(reservedKey{}, func() any {
		names, from := readReserved(v)
		return reservedNames{names, from}
	}).(reservedNames).get()
}

type reservedKey struct{}

type reservedNames struct {
	names map[string]bool
	from  string
}

func (r reservedNames) get() (map[string]bool, string) { return r.names, r.from }

func readReserved(v *gym.View) (map[string]bool, string) {
	seed := map[string]bool{}
	for _, n := range contract.LatestReservedMCPToolNames {
		seed[n] = true
	}
	fw := v.Options.Framework
	if fw == nil || !fw.Found || fw.Where != contract.InRepository {
		return seed, ""
	}
	loc, ok := fw.Facts[contract.ReservedMCPToolNames]
	if !ok {
		return seed, ""
	}
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		return seed, ""
	}
	m, err := v.Module(loc[:i])
	if err != nil || m == nil || m.SyntaxError != nil {
		return seed, ""
	}
	for _, b := range m.Bindings {
		if b.Name != contract.ReservedMCPToolNamesBinding || b.Value == nil {
			continue
		}
		if names, ok := strSet(b.Value); ok && len(names) > 0 {
			return names, loc
		}
	}
	return seed, ""
}

// strSet reads a literal collection of str constants.
func strSet(e pyscan.Expr) (map[string]bool, bool) {
	var elts []pyscan.Expr
	switch x := e.(type) {
	case *pyscan.Call:
		n, ok := x.Func.(*pyscan.Name)
		if !ok || len(x.Args) != 1 || x.Args[0].Kind != pyscan.Positional {
			return nil, false
		}
		switch n.Id {
		case "frozenset", "set", "tuple", "list":
			return strSet(x.Args[0].Value)
		}
		return nil, false
	case *pyscan.Set:
		elts = x.Elts
	case *pyscan.List:
		elts = x.Elts
	case *pyscan.Tuple:
		elts = x.Elts
	default:
		return nil, false
	}
	out := map[string]bool{}
	for _, el := range elts {
		s, ok := pyscan.Str(el)
		if !ok {
			return nil, false
		}
		out[s] = true
	}
	return out, true
}

// SortedNames lists a set of names in order.
func SortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MCPExposeKey is the config setting that exposes a resources server's
// tool routes over MCP.
const MCPExposeKey = "expose_tools_over_mcp"

// MCPSetting is a config setting `expose_tools_over_mcp: true`.
type MCPSetting struct {
	File string
	Pos  configscan.Pos
}

// ExposedByConfig returns the first `expose_tools_over_mcp: true` (a YAML
// boolean) among the settings of the config instances that start the
// entrypoint and of the overrides of those instances (same name, server
// type and dir, in any config file); ok is false when there is none.
func ExposedByConfig(v *gym.View, e *gym.Entrypoint) (MCPSetting, bool) {
	for _, c := range e.Configs {
		if p, ok := exposeTrue(c.Instance.Settings); ok {
			return MCPSetting{c.File, p}, true
		}
	}
	for _, o := range v.EntrypointOverrides(e) {
		if p, ok := exposeTrue(o.Instance.Settings); ok {
			return MCPSetting{o.File.Path, p}, true
		}
	}
	return MCPSetting{}, false
}

func exposeTrue(settings *configscan.Node) (configscan.Pos, bool) {
	p := settings.GetPair(MCPExposeKey)
	if p == nil || p.Value == nil || p.Value.Kind != configscan.ScalarNode || p.Value.Tag != "!!bool" {
		return configscan.Pos{}, false
	}
	if b, err := strconv.ParseBool(strings.ToLower(p.Value.Value)); err != nil || !b {
		return configscan.Pos{}, false
	}
	return p.KeyPos, true
}

// KeepsHarvested returns the server's repository override of mcp_tools
// when one of its return statements returns something built from its
// first parameter, the harvested routes (`return harvested`, `return
// harvested + [catchall.tool(...)]`, `return [t for t in harvested if
// ...]`); nil otherwise.
func (f *Facts) KeepsHarvested(server gym.ClassRef) *Func {
	fn := f.Override(server, contract.MCPToolsMethod)
	if fn == nil {
		return nil
	}
	param := MCPToolsParam(fn, 0)
	if param == "" {
		return nil
	}
	kept := false
	walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
		r, ok := n.(*pyscan.Return)
		if !ok || r.Value == nil || kept {
			return
		}
		pyscan.Inspect(r.Value, func(n pyscan.Node, _ []pyscan.Node) bool {
			if x, ok := n.(*pyscan.Name); ok && x.Id == param {
				kept = true
			}
			return !kept
		})
	})
	if !kept {
		return nil
	}
	return fn
}

// MCPToolsParam is the name of the i-th parameter of an mcp_tools
// override after the receiver (0: harvested, 1: catchall), "" when it has
// none.
func MCPToolsParam(fn *Func, i int) string {
	var names []string
	for _, p := range fn.Fn.Params {
		if p.Kind >= pyscan.ParamKwOnly {
			break
		}
		names = append(names, p.Name)
	}
	if fn.Recv != "" {
		if len(names) == 0 {
			return ""
		}
		names = names[1:]
	}
	if i >= len(names) {
		return ""
	}
	return names[i]
}

// MCPToolName is the tool name MCP auto-exposure gives a route: its
// literal path without its leading slashes ("/get_weather" →
// "get_weather"); ok is false for a path that is not a literal or has a
// path parameter (a catch-all route is no harvested tool).
func MCPToolName(path string) (string, bool) {
	if path == "" || strings.Contains(path, "{") {
		return "", false
	}
	return strings.TrimLeft(path, "/"), true
}

// PostRoute reports whether a route registration serves POST:
// `app.post(...)(h)`, a decorator `@app.post(...)`, or an
// `api_route`/`add_api_route` whose methods= literal lists "POST".
func PostRoute(r *Route) bool {
	c := r.Registration
	if c == nil {
		return false
	}
	reg := c
	if inner, ok := c.Func.(*pyscan.Call); ok {
		reg = inner
	}
	a, ok := reg.Func.(*pyscan.Attribute)
	if !ok {
		return false
	}
	switch a.Attr {
	case "post":
		return true
	case "api_route", "add_api_route":
		ms, ok := strSet(reg.Keyword("methods"))
		if !ok {
			return false
		}
		for m := range ms {
			if strings.EqualFold(m, "POST") {
				return true
			}
		}
	}
	return false
}

// RunsOnce reports whether a call runs at most once per worker although
// its function is not start-up code: it is lazily guarded by a test that
// a receiver attribute its function assigns is unset (see OnceAttrs).
func (f *Facts) RunsOnce(server gym.ClassRef, c *Call) bool {
	return f.lazyOnce(server, c.In, CallGuards(c), f.StartupOnly(server))
}
