package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Framework sources for a repository that contains nemo_gym/ itself.
var frameworkFiles = map[string]string{
	"nemo_gym/__init__.py": "",
	"nemo_gym/server_utils.py": "from pydantic import BaseModel\n\n\nclass BaseServer(BaseModel):\n" +
		"    def multiple_workers_unsupported_reason(self):\n        return None\n\n\n" +
		"class SimpleServer(BaseServer):\n    @classmethod\n    def run_webserver(cls):\n        pass\n",
	"nemo_gym/metrics.py": "class AggregateMetricsMixin:\n    pass\n",
	"nemo_gym/base_resources_server.py": "from nemo_gym.server_utils import BaseServer, SimpleServer\n" +
		"from nemo_gym.metrics import AggregateMetricsMixin\n\n\n" +
		"class BaseResourcesServer(BaseServer):\n    pass\n\n\n" +
		"class SimpleResourcesServer(BaseResourcesServer, AggregateMetricsMixin, SimpleServer):\n    pass\n",
	// A framework class that is not in ServerBases but derives from one.
	"nemo_gym/fancy.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
		"class FancyServer(SimpleResourcesServer):\n    pass\n",
}

func TestServerClassesRunWebserverPicksNamedClass(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/multi/app.py": importSRS + "\n\nclass First(SimpleResourcesServer):\n    pass\n\n\n" +
			"class Second(SimpleResourcesServer):\n    pass\n\n\nclass Third(Second):\n    pass\n\n\nclass Helper:\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    Second.run_webserver()\n",
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/multi/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"Second"}) {
		t.Fatalf("servers = %v, want [Second]", got)
	}
	s := e.Servers[0]
	if s.Call == nil || pyscan.Dotted(s.Call.Func) != "Second.run_webserver" {
		t.Errorf("Call = %+v", s.Call)
	}
	if s.Call != nil && e.Module.Line(s.Call.Span.Start) != 20 {
		t.Errorf("call line = %d, want 20", e.Module.Line(s.Call.Span.Start))
	}
	if s.Class.Module != e.Module {
		t.Errorf("server class module = %v, want the entrypoint", s.Class.Module.Path)
	}
}

func TestServerClassesRunWebserverInMainFunction(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/fn/app.py": importSRS + "\n\nclass A(SimpleResourcesServer):\n    pass\n\n\n" +
			"class B(SimpleResourcesServer):\n    pass\n\n\ndef main():\n    cfg = load()\n    B.run_webserver()\n" +
			"\n\nif __name__ == \"__main__\":\n    main()\n",
		// Nested inside a function inside main.
		"resources_servers/nested/app.py": importSRS + "\n\nclass A(SimpleResourcesServer):\n    pass\n\n\n" +
			"class B(SimpleResourcesServer):\n    pass\n\n\ndef main():\n    def start():\n        A.run_webserver()\n    start()\n",
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/fn/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"B"}) {
		t.Errorf("fn servers = %v, want [B]", got)
	} else if e.Servers[0].Call == nil {
		t.Errorf("fn: no Call")
	}
	if got := serverNames(entry(t, v, "resources_servers/nested/app.py")); !equalStrings(got, []string{"A"}) {
		t.Errorf("nested servers = %v, want [A]", got)
	}
}

func TestServerClassesImportedClass(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/tools/app.py": importSRS + "\n\nclass ToolsServer(SimpleResourcesServer):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    ToolsServer.run_webserver()\n",
		"resources_servers/tools/lite_app.py": "from resources_servers.tools.app import ToolsServer\n\n\n" +
			"class LiteDefaults:\n    pass\n\nif __name__ == \"__main__\":\n    ToolsServer.run_webserver()\n",
		"resources_servers/tools/configs/tools.yaml": yamlServer("tools_lite", "resources_servers", "tools", "lite_app.py"),
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/tools/lite_app.py")
	if got := serverNames(e); !equalStrings(got, []string{"ToolsServer"}) {
		t.Fatalf("servers = %v, want [ToolsServer]", got)
	}
	if p := e.Servers[0].Class.Module.Path; p != "resources_servers/tools/app.py" {
		t.Errorf("server class module = %s", p)
	}
	if e.Servers[0].Call == nil || e.Module.Line(e.Servers[0].Call.Span.Start) != 8 {
		t.Errorf("Call = %+v", e.Servers[0].Call)
	}
}

func TestServerClassesLeavesOnly(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/layered/app.py": importSRS + "from pydantic import BaseModel\n\n\n" +
			"class LayerBase(SimpleResourcesServer):\n    pass\n\n\nclass LayerLeaf(LayerBase):\n    pass\n\n\n" +
			"class Config(BaseModel):\n    pass\n\n\nclass Plain:\n    pass\n\n\nclass Other(SimpleResourcesServer):\n    pass\n\n\n" +
			"Alias = Other\n\n\nclass ViaAlias(Alias):\n    pass\n",
		// Only non-server classes.
		"resources_servers/lib_only/app.py": "from pydantic import BaseModel\n\n\nclass Config(BaseModel):\n    pass\n\n\nclass Plain:\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/layered/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"LayerLeaf", "ViaAlias"}) {
		t.Errorf("servers = %v, want [LayerLeaf ViaAlias]", got)
	}
	for _, s := range e.Servers {
		if s.Call != nil {
			t.Errorf("%s has a Call without run_webserver", s.Class.Class.Name)
		}
	}
	m := e.Module
	for name, want := range map[string]bool{"LayerBase": true, "LayerLeaf": true, "Config": false, "Plain": false, "Other": true, "ViaAlias": true} {
		if got := v.IsServerClass(class(t, m, name)); got != want {
			t.Errorf("IsServerClass(%s) = %v, want %v", name, got, want)
		}
	}
	if got := entry(t, v, "resources_servers/lib_only/app.py").Servers; len(got) != 0 {
		t.Errorf("lib_only servers = %v", serverNames(entry(t, v, "resources_servers/lib_only/app.py")))
	}
}

// A run_webserver call on something that is not a repository class falls
// back to the module's leaf server classes.
func TestServerClassesCallOnExternal(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/ext/app.py": importSRS + "from somewhere import Thing\n\n\nclass Mine(SimpleResourcesServer):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    Thing.run_webserver()\n",
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/ext/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"Mine"}) {
		t.Errorf("servers = %v, want [Mine]", got)
	}
}

func TestServerClassesFrameworkInsideRepo(t *testing.T) {
	files := map[string]string{
		"resources_servers/inside/app.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n" +
			"from nemo_gym.fancy import FancyServer\nfrom nemo_gym.metrics import AggregateMetricsMixin\n" +
			"from nemo_gym import base_resources_server\n\n\n" +
			"class Direct(SimpleResourcesServer):\n    pass\n\n\nclass Fancy(FancyServer):\n    pass\n\n\n" +
			"class MixinOnly(AggregateMetricsMixin):\n    pass\n\n\nclass Dotted(base_resources_server.SimpleResourcesServer):\n    pass\n",
	}
	for k, c := range frameworkFiles {
		files[k] = c
	}
	v := build(t, writeRepo(t, files), gym.Options{})
	e := entry(t, v, "resources_servers/inside/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"Direct", "Fancy", "Dotted"}) {
		t.Errorf("servers = %v, want [Direct Fancy Dotted]", got)
	}
	for _, p := range entryPaths(v) {
		if p != "resources_servers/inside/app.py" {
			t.Errorf("unexpected entrypoint %s", p)
		}
	}
	// Framework classes are not server classes of the repository.
	fw := module(t, v, "nemo_gym/base_resources_server.py")
	if v.IsServerClass(class(t, fw, "SimpleResourcesServer")) {
		t.Errorf("the framework's SimpleResourcesServer counts as a repository server class")
	}
	m := e.Module
	bases := v.Bases(class(t, m, "Fancy"))
	if len(bases) != 1 || bases[0].Kind != gym.FrameworkServer || bases[0].Class.Class == nil || bases[0].Class.Class.Name != "FancyServer" {
		t.Errorf("Bases(Fancy) = %+v", bases)
	}
	bases = v.Bases(class(t, m, "MixinOnly"))
	if len(bases) != 1 || bases[0].Kind != gym.Framework {
		t.Errorf("Bases(MixinOnly) = %+v, want one Framework", bases)
	}
	// The MRO stops at the first framework class.
	mro, ok := v.MRO(class(t, m, "Direct"))
	if got := mroNames(mro); !ok || !equalStrings(got, []string{"Direct", "SimpleResourcesServer"}) {
		t.Errorf("MRO(Direct) = %v, %v", got, ok)
	}
	// The framework's default does not count as an override.
	d := v.Lookup(class(t, m, "Direct"), "multiple_workers_unsupported_reason")
	if d.Found() || d.Uncertain || d.ShadowedBy == nil {
		t.Errorf("Lookup(Direct) = %+v, want not found, shadowed by the framework", d)
	}
}

func TestServerClassesFrameworkOutsideRepo(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/out/app.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n" +
			"from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent\n" +
			"from nemo_gym.server_utils import BaseServer\nfrom nemo_gym.metrics import AggregateMetricsMixin\n" +
			"from other_gym.base_resources_server import SimpleResourcesServer as OtherSRS\n" +
			"import nemo_gym.base_responses_api_model\n\n\n" +
			"class R(SimpleResourcesServer):\n    pass\n\n\nclass A(SimpleResponsesAPIAgent):\n    pass\n\n\n" +
			"class B(BaseServer):\n    pass\n\n\nclass M(nemo_gym.base_responses_api_model.SimpleResponsesAPIModel):\n    pass\n\n\n" +
			"class Mixed(AggregateMetricsMixin):\n    pass\n\n\nclass NotOurs(OtherSRS):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/out/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"R", "A", "B", "M"}) {
		t.Errorf("servers = %v, want [R A B M]", got)
	}
	bases := v.Bases(class(t, e.Module, "Mixed"))
	if len(bases) != 1 || bases[0].Kind != gym.Framework || bases[0].Name != "nemo_gym.metrics.AggregateMetricsMixin" {
		t.Errorf("Bases(Mixed) = %+v", bases)
	}
	bases = v.Bases(class(t, e.Module, "NotOurs"))
	if len(bases) != 1 || bases[0].Kind != gym.Foreign {
		t.Errorf("Bases(NotOurs) = %+v, want Foreign", bases)
	}
}

func TestServerClassesCustomFrameworkAndBases(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"envs/calc/app.py": "from mygym.core import AppServer\nfrom nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class Calc(AppServer):\n    pass\n\n\nclass Old(SimpleResourcesServer):\n    pass\n",
		"envs/calc/configs/calc.yaml": yamlServer("calc", "envs", "calc", "app.py"),
		// Not a server type under these options.
		"resources_servers/x/app.py": serverModule("X"),
	})
	v := build(t, root, gym.Options{
		ServerTypes:      []string{"envs"},
		FrameworkPackage: "mygym",
		ServerBases:      []string{"AppServer"},
	})
	if got := entryPaths(v); !equalStrings(got, []string{"envs/calc/app.py"}) {
		t.Fatalf("entrypoints = %v", got)
	}
	e := entry(t, v, "envs/calc/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"Calc"}) {
		t.Errorf("servers = %v, want [Calc]", got)
	}
	if len(e.Configs) != 1 {
		t.Errorf("configs = %+v", e.Configs)
	}
	if !v.IsFrameworkModule("mygym.core") || v.IsFrameworkModule("nemo_gym.base_resources_server") || v.IsFrameworkModule("mygymx.core") {
		t.Errorf("IsFrameworkModule does not follow FrameworkPackage")
	}
}
