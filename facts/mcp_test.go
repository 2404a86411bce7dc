package facts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// TestMCP: without a framework read for them, the reserved names are the
// seed's; a route's tool name is its literal path without leading
// slashes, none for a catch-all; POST routes are post() and api_route
// with POST among its methods; an mcp_tools override keeps the harvested
// routes when a return mentions its first parameter; a config exposes the
// server with a YAML true, in its instance or an override of it.
func TestMCP(t *testing.T) {
	files := app(`    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/mcp")(self.a)
        app.get("/verify")(self.a)
        app.api_route("/b", methods=["GET", "POST"])(self.a)
        app.add_api_route("/c", self.a)
        return app

    async def a(self, body):
        return {}

    def mcp_tools(self, harvested, catchall):
        if catchall is None:
            return None
        return [t for t in harvested if t.name != "x"]


class T(SimpleResourcesServer):
    def mcp_tools(self, harvested, catchall):
        return [catchall.tool("x")]


if __name__ == "__main__":
    S.run_webserver()
`)
	files["resources_servers/s/configs/s.yaml"] = "s:\n  resources_servers:\n    s:\n      entrypoint: app.py\n      expose_tools_over_mcp: \"true\"\n"
	files["resources_servers/s/configs/on.yaml"] = "s:\n  resources_servers:\n    s:\n      expose_tools_over_mcp: True\n"
	f := build(t, files)
	v := f.View()
	names, from := facts.ReservedMCPToolNames(v)
	if got := facts.SortedNames(names); !slices.Equal(got, contract.LatestReservedMCPToolNames) || from != "" {
		t.Errorf("reserved %v from %q", got, from)
	}
	for path, want := range map[string]string{"/get_weather": "get_weather", "//x": "x", "/{tool}": "", "": ""} {
		if got, _ := facts.MCPToolName(path); got != want {
			t.Errorf("tool name of %q: %q, want %q", path, got, want)
		}
	}
	s := server(t, f)
	var post []string
	for _, r := range f.Routes(s) {
		if facts.PostRoute(r) {
			post = append(post, r.Path)
		}
	}
	if !slices.Equal(post, []string{"/mcp", "/b"}) {
		t.Errorf("POST routes %v", post)
	}
	if fn := f.KeepsHarvested(s); fn == nil || fn.Name() != "S.mcp_tools" {
		t.Errorf("S keeps harvested: %v", fn)
	}
	for _, c := range s.Module.Classes {
		if c.Name == "T" {
			if fn := f.KeepsHarvested(gym.ClassRef{Module: s.Module, Class: c}); fn != nil {
				t.Errorf("T keeps harvested: %s", fn.Name())
			}
		}
	}
	var e *gym.Entrypoint
	for _, x := range v.Entrypoints {
		if x.Path == "resources_servers/s/app.py" {
			e = x
		}
	}
	if e == nil {
		t.Fatal("no entrypoint")
	}
	at, ok := facts.ExposedByConfig(v, e)
	if !ok || !strings.HasSuffix(at.File, "on.yaml") || at.Pos.Line != 4 {
		t.Errorf("exposed at %+v %v", at, ok)
	}
}
