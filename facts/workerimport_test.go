package facts

import (
	"slices"
	"testing"
)

func TestWorkerImportOf(t *testing.T) {
	for _, c := range []struct {
		typ, dir, ep string
		module       string
		resolves     bool
		leaves       bool
		empty        bool
		dotted       []string
		pyInside     bool
	}{
		{typ: "resources_servers", dir: "echo", ep: "app.py", module: "resources_servers.echo.app", resolves: true},
		{typ: "resources_servers", dir: "echo", ep: "app/main.py", module: "resources_servers.echo.app.main", resolves: true},
		{typ: "resources_servers", dir: "group/echo", ep: "app.py", module: "resources_servers.group.echo.app", resolves: true},
		// importlib imports names that are not identifiers.
		{typ: "resources_servers", dir: "my-server", ep: "app.py", module: "resources_servers.my-server.app", resolves: true},
		{typ: "resources_servers", dir: "2048", ep: "app.py", module: "resources_servers.2048.app", resolves: true},
		{typ: "responses_api_agents", dir: "harbor_agent", ep: "../../resources_servers/lab/bridge.py",
			module: "responses_api_agents.harbor_agent.......resources_servers.lab.bridge", leaves: true, empty: true},
		{typ: "resources_servers", dir: "echo", ep: "./app.py", module: "resources_servers.echo...app", empty: true},
		{typ: "resources_servers", dir: "echo", ep: "sub/../app.py", module: "resources_servers.echo.sub....app", empty: true},
		{typ: "resources_servers", dir: "echo", ep: "sub//app.py", module: "resources_servers.echo.sub..app", empty: true},
		{typ: "resources_servers", dir: "echo.v2", ep: "app.py", module: "resources_servers.echo.v2.app", dotted: []string{"echo.v2"}},
		{typ: "resources_servers", dir: "echo", ep: "my.app.py", module: "resources_servers.echo.my.app", dotted: []string{"my.app"}},
		{typ: "resources_servers", dir: "my.python", ep: "app.py", module: "resources_servers.mython.app", pyInside: true},
	} {
		w, ok := WorkerImportOf(c.typ, c.dir, c.ep)
		if !ok {
			t.Errorf("%s/%s/%s: not modelled", c.typ, c.dir, c.ep)
			continue
		}
		if w.Module != c.module || w.Resolves != c.resolves || w.LeavesDir != c.leaves || w.Empty != c.empty ||
			!slices.Equal(w.Dotted, c.dotted) || w.PyInside != c.pyInside {
			t.Errorf("%s/%s/%s: got %+v", c.typ, c.dir, c.ep, w)
		}
	}
	if _, ok := WorkerImportOf("resources_servers", "echo", "/abs/app.py"); ok {
		t.Errorf("an absolute entrypoint is modelled")
	}
}
