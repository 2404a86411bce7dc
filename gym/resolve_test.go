package gym_test

import (
	"testing"
	"time"

	"github.com/gymlint/gymlint/gym"
)

// wantClass checks that sym is the repository class cls defined in file.
func wantClass(t *testing.T, what string, sym gym.Symbol, file, cls string) {
	t.Helper()
	if sym.Kind != gym.RepoClass || sym.Module == nil || sym.Class == nil {
		t.Errorf("%s: got kind %v (%q), want repo class %s in %s", what, sym.Kind, sym.Dotted, cls, file)
		return
	}
	if sym.Module.Path != file || sym.Class.Name != cls {
		t.Errorf("%s: got %s in %s, want %s in %s", what, sym.Class.Name, sym.Module.Path, cls, file)
	}
}

// wantModule checks that sym is the repository module file.
func wantModule(t *testing.T, what string, sym gym.Symbol, file string) {
	t.Helper()
	if sym.Kind != gym.RepoModule || sym.Module == nil {
		t.Errorf("%s: got kind %v (%q), want repo module %s", what, sym.Kind, sym.Dotted, file)
		return
	}
	if sym.Module.Path != file {
		t.Errorf("%s: got module %s, want %s", what, sym.Module.Path, file)
	}
}

func TestModuleFileAbsoluteCrossDir(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/base_srv/app.py": importSRS + "class P(SimpleResourcesServer):\n    pass\n",
		"resources_servers/child/app.py": "from resources_servers.base_srv.app import P\n\n\nclass C(P):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    C.run_webserver()\n",
	})
	v := build(t, root, gym.Options{})
	if got := v.ModuleFile("resources_servers/child/app.py", 0, "resources_servers.base_srv.app"); got != "resources_servers/base_srv/app.py" {
		t.Errorf("ModuleFile = %q", got)
	}
	if got := v.ModuleFile("resources_servers/child/app.py", 0, "resources_servers.nope.app"); got != "" {
		t.Errorf("ModuleFile of a missing module = %q, want \"\"", got)
	}
	if got := v.ModuleFile("resources_servers/child/app.py", 0, "os.path"); got != "" {
		t.Errorf("ModuleFile of a stdlib module = %q, want \"\"", got)
	}
	m := module(t, v, "resources_servers/child/app.py")
	sym := v.Resolve(m, "P")
	wantClass(t, "P", sym, "resources_servers/base_srv/app.py", "P")
	if sym.Dotted != "resources_servers.base_srv.app.P" {
		t.Errorf("Dotted = %q", sym.Dotted)
	}
	if got := serverNames(entry(t, v, "resources_servers/child/app.py")); !equalStrings(got, []string{"C"}) {
		t.Errorf("servers = %v", got)
	}
}

func TestModuleFileBareSiblingFirst(t *testing.T) {
	root := writeRepo(t, map[string]string{
		// A root-level app.py that a bare `from app import` must not pick
		// while a sibling exists.
		"app.py":                              "class P:\n    root = True\n",
		"responses_api_agents/graph/app.py":   "from nemo_gym.base_responses_api_agent import SimpleResponsesAPIAgent\n\n\nclass P(SimpleResponsesAPIAgent):\n    pass\n",
		"responses_api_agents/graph/plan.py":  "from app import P\n\n\nclass Plan(P):\n    pass\n",
		"responses_api_agents/graph/util.py":  "def last_text(x):\n    return x\n",
		"responses_api_agents/lonely/mod.py":  "from app import P\n",
		"responses_api_agents/graph/sub/x.py": "from util import last_text\n",
	})
	v := build(t, root, gym.Options{})
	cases := []struct{ from, dotted, want string }{
		{"responses_api_agents/graph/plan.py", "app", "responses_api_agents/graph/app.py"},
		{"responses_api_agents/graph/plan.py", "util", "responses_api_agents/graph/util.py"},
		{"responses_api_agents/lonely/mod.py", "app", "app.py"}, // no sibling: the root
		{"x.py", "app", "app.py"},
		// Only the module's own folder, not its parents.
		{"responses_api_agents/graph/sub/x.py", "util", ""},
	}
	for _, c := range cases {
		if got := v.ModuleFile(c.from, 0, c.dotted); got != c.want {
			t.Errorf("ModuleFile(%s, 0, %s) = %q, want %q", c.from, c.dotted, got, c.want)
		}
	}
	plan := module(t, v, "responses_api_agents/graph/plan.py")
	wantClass(t, "P from plan.py", v.Resolve(plan, "P"), "responses_api_agents/graph/app.py", "P")
	lonely := module(t, v, "responses_api_agents/lonely/mod.py")
	wantClass(t, "P from lonely/mod.py", v.Resolve(lonely, "P"), "app.py", "P")
}

func TestModuleFileRelative(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/rel/__init__.py":     "",
		"resources_servers/rel/base.py":         "class P:\n    pass\n\n\nclass Q:\n    pass\n",
		"resources_servers/rel/lib/__init__.py": "",
		"resources_servers/rel/lib/mod.py":      "class Deep:\n    pass\n",
		"resources_servers/rel/app.py": "from .base import P\nfrom . import base\nfrom . import base as b2\nfrom .lib import mod\n" +
			"from .base import Q as Renamed\n",
		"resources_servers/rel/sub/__init__.py": "",
		"resources_servers/rel/sub/deep.py":     "from ..base import P\nfrom ..lib.mod import Deep\nfrom .. import base\n",
		// Namespace package: relative imports work without __init__.py too.
		"resources_servers/ns/a.py": "class A:\n    pass\n",
		"resources_servers/ns/b.py": "from .a import A\nfrom . import a\n",
	})
	v := build(t, root, gym.Options{})

	mf := []struct {
		from   string
		level  int
		dotted string
		want   string
	}{
		{"resources_servers/rel/app.py", 1, "base", "resources_servers/rel/base.py"},
		{"resources_servers/rel/app.py", 1, "", "resources_servers/rel/__init__.py"},
		{"resources_servers/rel/app.py", 1, "lib", "resources_servers/rel/lib/__init__.py"},
		{"resources_servers/rel/app.py", 1, "lib.mod", "resources_servers/rel/lib/mod.py"},
		{"resources_servers/rel/sub/deep.py", 2, "base", "resources_servers/rel/base.py"},
		{"resources_servers/rel/sub/deep.py", 2, "lib.mod", "resources_servers/rel/lib/mod.py"},
		{"resources_servers/rel/sub/deep.py", 1, "base", ""},
		// From a package's __init__.py, one dot is the package itself.
		{"resources_servers/rel/__init__.py", 1, "base", "resources_servers/rel/base.py"},
		{"resources_servers/ns/b.py", 1, "a", "resources_servers/ns/a.py"},
	}
	for _, c := range mf {
		if got := v.ModuleFile(c.from, c.level, c.dotted); got != c.want {
			t.Errorf("ModuleFile(%s, %d, %q) = %q, want %q", c.from, c.level, c.dotted, got, c.want)
		}
	}

	app := module(t, v, "resources_servers/rel/app.py")
	wantClass(t, "from .base import P", v.Resolve(app, "P"), "resources_servers/rel/base.py", "P")
	wantClass(t, "from .base import Q as Renamed", v.Resolve(app, "Renamed"), "resources_servers/rel/base.py", "Q")
	wantModule(t, "from . import base", v.Resolve(app, "base"), "resources_servers/rel/base.py")
	wantClass(t, "base.Q", v.Resolve(app, "base.Q"), "resources_servers/rel/base.py", "Q")
	wantClass(t, "b2.P", v.Resolve(app, "b2.P"), "resources_servers/rel/base.py", "P")
	wantClass(t, "mod.Deep", v.Resolve(app, "mod.Deep"), "resources_servers/rel/lib/mod.py", "Deep")

	deep := module(t, v, "resources_servers/rel/sub/deep.py")
	wantClass(t, "from ..base import P", v.Resolve(deep, "P"), "resources_servers/rel/base.py", "P")
	wantClass(t, "from ..lib.mod import Deep", v.Resolve(deep, "Deep"), "resources_servers/rel/lib/mod.py", "Deep")
	wantClass(t, "from .. import base; base.P", v.Resolve(deep, "base.P"), "resources_servers/rel/base.py", "P")

	b := module(t, v, "resources_servers/ns/b.py")
	wantClass(t, "namespace from .a import A", v.Resolve(b, "A"), "resources_servers/ns/a.py", "A")
	wantClass(t, "namespace from . import a; a.A", v.Resolve(b, "a.A"), "resources_servers/ns/a.py", "A")
}

func TestResolvePackageReExport(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/turnbased/__init__.py": "from .base import (\n    TurnServer,\n    TurnState,\n)\n\n__all__ = [\"TurnServer\", \"TurnState\"]\n",
		"resources_servers/turnbased/base.py":     importSRS + "\n\nclass TurnState:\n    pass\n\n\nclass TurnServer(SimpleResourcesServer):\n    pass\n",
		"resources_servers/tic_tac/app.py": "from resources_servers.turnbased import TurnServer, TurnState\n\n\n" +
			"class TicTacServer(TurnServer):\n    def multiple_workers_unsupported_reason(self):\n        return None\n" +
			"\nif __name__ == \"__main__\":\n    TicTacServer.run_webserver()\n",
		"resources_servers/tic_tac/pkg_attr.py": "import resources_servers.turnbased\n\n\nclass Other(resources_servers.turnbased.TurnServer):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/tic_tac/app.py")
	wantClass(t, "TurnServer", v.Resolve(m, "TurnServer"), "resources_servers/turnbased/base.py", "TurnServer")
	wantClass(t, "TurnState", v.Resolve(m, "TurnState"), "resources_servers/turnbased/base.py", "TurnState")
	pa := module(t, v, "resources_servers/tic_tac/pkg_attr.py")
	wantClass(t, "package attribute", v.Resolve(pa, "resources_servers.turnbased.TurnServer"), "resources_servers/turnbased/base.py", "TurnServer")

	e := entry(t, v, "resources_servers/tic_tac/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"TicTacServer"}) {
		t.Fatalf("servers = %v", got)
	}
	mro, ok := v.MRO(e.Servers[0].Class)
	if !ok {
		t.Errorf("MRO not ok")
	}
	want := []string{"TicTacServer", "TurnServer", "nemo_gym.base_resources_server.SimpleResourcesServer"}
	if got := mroNames(mro); !equalStrings(got, want) {
		t.Errorf("MRO = %v, want %v", got, want)
	}
	if d := v.Lookup(e.Servers[0].Class, "multiple_workers_unsupported_reason"); !d.Found() || d.Method == nil {
		t.Errorf("Lookup: %+v", d)
	}
}

func TestResolveNamespacePackages(t *testing.T) {
	root := writeRepo(t, map[string]string{
		// No __init__.py anywhere.
		"resources_servers/envpool/app.py": importSRS + "\n\nclass EnvServer(SimpleResourcesServer):\n    pass\n",
		"resources_servers/calc/app.py": "from resources_servers.envpool import app\nimport resources_servers.envpool.app\n" +
			"import resources_servers.envpool.app as envpool_app\n\n\nclass A(app.EnvServer):\n    pass\n\n\n" +
			"class B(resources_servers.envpool.app.EnvServer):\n    pass\n\n\nclass C(envpool_app.EnvServer):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/calc/app.py")
	wantModule(t, "from resources_servers.envpool import app", v.Resolve(m, "app"), "resources_servers/envpool/app.py")
	wantClass(t, "app.EnvServer", v.Resolve(m, "app.EnvServer"), "resources_servers/envpool/app.py", "EnvServer")
	wantModule(t, "resources_servers.envpool.app", v.Resolve(m, "resources_servers.envpool.app"), "resources_servers/envpool/app.py")
	wantClass(t, "resources_servers.envpool.app.EnvServer", v.Resolve(m, "resources_servers.envpool.app.EnvServer"), "resources_servers/envpool/app.py", "EnvServer")
	wantModule(t, "import ... as envpool_app", v.Resolve(m, "envpool_app"), "resources_servers/envpool/app.py")
	wantClass(t, "envpool_app.EnvServer", v.Resolve(m, "envpool_app.EnvServer"), "resources_servers/envpool/app.py", "EnvServer")
	// A, B and C all derive from EnvServer; none subclasses another, so all
	// three are server classes of the module.
	e := entry(t, v, "resources_servers/calc/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"A", "B", "C"}) {
		t.Errorf("servers = %v, want [A B C]", got)
	}
}

func TestResolveImportAsAlias(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"lib/a/__init__.py": "",
		"lib/a/b.py":        "class P:\n    pass\n",
		"lib/x/y.py":        "class NS:\n    pass\n",
		"mod.py":            "import lib.a.b as c\nimport lib.x.y as ns\nimport lib.a.b\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "mod.py")
	wantModule(t, "c", v.Resolve(m, "c"), "lib/a/b.py")
	wantClass(t, "c.P", v.Resolve(m, "c.P"), "lib/a/b.py", "P")
	wantClass(t, "ns.NS", v.Resolve(m, "ns.NS"), "lib/x/y.py", "NS")
	wantClass(t, "lib.a.b.P", v.Resolve(m, "lib.a.b.P"), "lib/a/b.py", "P")
	if s := v.Resolve(m, "c.Missing"); s.Kind == gym.RepoClass {
		t.Errorf("c.Missing resolved to %+v", s)
	}
}

func TestResolveAliasAssignment(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/x/base.py": "class P:\n    pass\n",
		"resources_servers/x/app.py": importSRS + "from resources_servers.x.base import P\n\n" +
			"Alias = P\nAlias2 = Alias\nSRS = SimpleResourcesServer\nMade = make_class()\n\n\n" +
			"class S(SRS):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/x/app.py")
	wantClass(t, "Alias", v.Resolve(m, "Alias"), "resources_servers/x/base.py", "P")
	wantClass(t, "Alias2", v.Resolve(m, "Alias2"), "resources_servers/x/base.py", "P")
	if s := v.Resolve(m, "SRS"); s.Kind != gym.External || s.Dotted != "nemo_gym.base_resources_server.SimpleResourcesServer" {
		t.Errorf("SRS = %+v", s)
	}
	if s := v.Resolve(m, "Made"); s.Kind != gym.RepoValue || s.Dotted != "resources_servers.x.app.Made" {
		t.Errorf("Made (a call result) = %+v, want a value of the module", s)
	}
	if got := serverNames(entry(t, v, "resources_servers/x/app.py")); !equalStrings(got, []string{"S"}) {
		t.Errorf("servers = %v, want [S]", got)
	}
	if !v.IsServerClass(class(t, m, "S")) {
		t.Errorf("S(SRS) with SRS = SimpleResourcesServer is not a server class")
	}
}

func TestResolveWildcardFrameworkOutside(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/star/app.py": "from nemo_gym.base_resources_server import *\n\n\n" +
			"class StarServer(SimpleResourcesServer):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    StarServer.run_webserver()\n",
		"resources_servers/star/lib.py":  "class FromLib:\n    pass\n",
		"resources_servers/star/use.py":  "from resources_servers.star.lib import *\n",
		"resources_servers/star/use2.py": "from .lib import *\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/star/app.py")
	if s := v.Resolve(m, "SimpleResourcesServer"); s.Kind != gym.External || s.Dotted != "nemo_gym.base_resources_server.SimpleResourcesServer" {
		t.Errorf("SimpleResourcesServer via * = %+v", s)
	}
	// A star import of the framework installed outside the repository
	// provides every name that is not a builtin.
	if s := v.Resolve(m, "SomethingElse"); s.Kind != gym.External || s.Dotted != "nemo_gym.base_resources_server.SomethingElse" {
		t.Errorf("an unknown name via * from outside = %+v, want the framework's", s)
	}
	if s := v.Resolve(m, "ValueError"); s.Kind != gym.Builtin || s.Dotted != "builtins.ValueError" {
		t.Errorf("a builtin next to a framework * import = %+v, want the builtin", s)
	}
	if got := serverNames(entry(t, v, "resources_servers/star/app.py")); !equalStrings(got, []string{"StarServer"}) {
		t.Errorf("servers = %v", got)
	}
	wantClass(t, "* from a repo module", v.Resolve(module(t, v, "resources_servers/star/use.py"), "FromLib"), "resources_servers/star/lib.py", "FromLib")
	wantClass(t, "* from a relative repo module", v.Resolve(module(t, v, "resources_servers/star/use2.py"), "FromLib"), "resources_servers/star/lib.py", "FromLib")
}

// Python binds a name from the last `import *` that provides it.
func TestResolveWildcardLaterWins(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"pkg/first.py":  "class P:\n    first = True\n",
		"pkg/second.py": "class P:\n    second = True\n",
		"pkg/use.py":    "from pkg.first import *\nfrom pkg.second import *\n",
	})
	v := build(t, root, gym.Options{})
	wantClass(t, "P after two star imports", v.Resolve(module(t, v, "pkg/use.py"), "P"), "pkg/second.py", "P")
}

func TestResolveCyclicImportsTerminate(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/cyc/a.py": "from b import X\nfrom b import Y\n\n\nclass Y:\n    pass\n",
		"resources_servers/cyc/b.py": "from a import X\nfrom a import Y\n",
		// Star imports in a cycle, and aliases in a cycle.
		"resources_servers/cyc/s1.py": "from s2 import *\n",
		"resources_servers/cyc/s2.py": "from s1 import *\n",
		"resources_servers/cyc/al.py": "A = B\nB = A\n",
		"resources_servers/cyc/app.py": importSRS + "from a import X\nfrom s1 import Nope\nfrom al import A\n\n\n" +
			"class S(X, Nope, A, SimpleResourcesServer):\n    pass\n",
	})
	v := buildWithin(t, 20*time.Second, root, gym.Options{})
	a := module(t, v, "resources_servers/cyc/a.py")
	var x, y gym.Symbol
	within(t, 10*time.Second, "Resolve through a cycle", func() {
		x = v.Resolve(a, "X")
		y = v.Resolve(module(t, v, "resources_servers/cyc/b.py"), "Y")
	})
	if x.Kind != gym.Unknown {
		t.Errorf("X in an import cycle = %+v, want Unknown", x)
	}
	wantClass(t, "Y through the cycle", y, "resources_servers/cyc/a.py", "Y")
	e := entry(t, v, "resources_servers/cyc/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"S"}) {
		t.Fatalf("servers = %v", got)
	}
	d := v.Lookup(e.Servers[0].Class, "multiple_workers_unsupported_reason")
	if !d.Uncertain {
		t.Errorf("Lookup through unresolvable bases is not Uncertain: %+v", d)
	}
}

func TestResolveRelativeAboveRoot(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"x.py": "class P:\n    pass\n",
		"resources_servers/a/app.py": "from ....x import P\nfrom ..... import y\nfrom .....nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class S(P):\n    pass\n",
		"top.py": "from .x import P\nfrom .. import x\n",
	})
	v := build(t, root, gym.Options{})
	for _, c := range []struct {
		from   string
		level  int
		dotted string
	}{
		{"resources_servers/a/app.py", 4, "x"},
		{"resources_servers/a/app.py", 5, ""},
		{"resources_servers/a/app.py", 10, "x"},
		{"top.py", 2, "x"},
		{"top.py", 2, ""},
	} {
		if got := v.ModuleFile(c.from, c.level, c.dotted); got != "" {
			t.Errorf("ModuleFile(%s, %d, %q) = %q, want \"\"", c.from, c.level, c.dotted, got)
		}
	}
	m := module(t, v, "resources_servers/a/app.py")
	for _, name := range []string{"P", "y", "SimpleResourcesServer"} {
		if s := v.Resolve(m, name); s.Kind != gym.Unknown {
			t.Errorf("%s from a relative import above the root = kind %v %q, want Unknown", name, s.Kind, s.Dotted)
		}
	}
	if v.IsServerClass(class(t, m, "S")) {
		t.Errorf("S is a server class through an import that climbs above the root")
	}
}

// In Python, a relative import that climbs to the directory on sys.path
// (above the top-level package) is an ImportError, even when a module of
// that name sits there.
func TestResolveRelativeToRootDirIsNotAPackage(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"x.py":                       "class P:\n    pass\n",
		"resources_servers/a/app.py": "from ...x import P\n",
	})
	v := build(t, root, gym.Options{})
	if got := v.ModuleFile("resources_servers/a/app.py", 3, "x"); got != "" {
		t.Errorf("ModuleFile(resources_servers/a/app.py, 3, x) = %q: `from ...x` climbs above the top-level package resources_servers", got)
	}
}
