package pyscan

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestModuleName(t *testing.T) {
	for _, tc := range []struct {
		path, name string
		pkg        bool
	}{
		{"app.py", "app", false},
		{"resources_servers/example_weather/app.py", "resources_servers.example_weather.app", false},
		{"resources_servers/gymnasium/__init__.py", "resources_servers.gymnasium", true},
		{"__init__.py", "", true},
		{"nemo_gym/my__init__.py", "nemo_gym.my__init__", false},
	} {
		name, pkg := ModuleName(tc.path)
		if name != tc.name || pkg != tc.pkg {
			t.Errorf("ModuleName(%q) = %q, %v; want %q, %v", tc.path, name, pkg, tc.name, tc.pkg)
		}
	}
	m := parseSrc(t, "x = 1\n")
	if m.Path != "pkg/app.py" || m.Name != "pkg.app" || m.IsPackage || m.Size != 6 {
		t.Errorf("module header = %q %q %v %d", m.Path, m.Name, m.IsPackage, m.Size)
	}
}

func TestImports(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"absolute", "import os\n", []string{`"os" level=0 name="" bound="os"`}},
		{"dotted binds first name", "import ray.util.placement_group\n",
			[]string{`"ray.util.placement_group" level=0 name="" bound="ray"`}},
		{"dotted alias", "import numpy.typing as npt\n", []string{`"numpy.typing" level=0 name="" bound="npt"`}},
		{"several", "import json, os.path as osp, ray\n", []string{
			`"json" level=0 name="" bound="json"`,
			`"os.path" level=0 name="" bound="osp"`,
			`"ray" level=0 name="" bound="ray"`,
		}},
		{"spaces in dotted name", "import os . path\n", []string{`"os.path" level=0 name="" bound="os"`}},
		{"from multi", "from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint\n", []string{
			`"nemo_gym.server_utils" level=0 name="SESSION_ID_KEY" bound="SESSION_ID_KEY"`,
			`"nemo_gym.server_utils" level=0 name="is_nemo_gym_fastapi_entrypoint" bound="is_nemo_gym_fastapi_entrypoint"`,
		}},
		{"from parenthesised", py(`
			from nemo_gym.base_resources_server import (
				BaseResourcesServerConfig,  # the config
				BaseVerifyRequest as VerifyRequest,
				SimpleResourcesServer,
			)
			`), []string{
			`"nemo_gym.base_resources_server" level=0 name="BaseResourcesServerConfig" bound="BaseResourcesServerConfig"`,
			`"nemo_gym.base_resources_server" level=0 name="BaseVerifyRequest" bound="VerifyRequest"`,
			`"nemo_gym.base_resources_server" level=0 name="SimpleResourcesServer" bound="SimpleResourcesServer"`,
		}},
		{"from dot", "from . import helpers\n", []string{`"" level=1 name="helpers" bound="helpers"`}},
		{"from dot module alias", "from .base import GymnasiumServer as GS\n",
			[]string{`"base" level=1 name="GymnasiumServer" bound="GS"`}},
		{"from two dots", "from ..common.utils import load_jsonl\n",
			[]string{`"common.utils" level=2 name="load_jsonl" bound="load_jsonl"`}},
		{"from three dots", "from ... import shared\n", []string{`"" level=3 name="shared" bound="shared"`}},
		{"wildcard", "from resources_servers.aviary.app import *\n",
			[]string{`"resources_servers.aviary.app" level=0 name="*" bound=""`}},
		{"relative wildcard", "from .tools import *\n", []string{`"tools" level=1 name="*" bound=""`}},
		{"bare sibling module named app", "from app import LangGraphAgentAdapter\n",
			[]string{`"app" level=0 name="LangGraphAgentAdapter" bound="LangGraphAgentAdapter"`}},
		{"future import ignored", "from __future__ import annotations\nimport ray\n",
			[]string{`"ray" level=0 name="" bound="ray"`}},
		{"inside function", py(`
			def verify(self, body):
				from ray.exceptions import RayTaskError
				import ray
				return ray.get(body)
			`), []string{
			`"ray.exceptions" level=0 name="RayTaskError" bound="RayTaskError" local`,
			`"ray" level=0 name="" bound="ray" local`,
		}},
		{"inside class body", "class A:\n    import json\n", []string{`"json" level=0 name="" bound="json" local`}},
		{"inside method in try", py(`
			class A:
				def f(self):
					try:
						import ray
					except ImportError:
						ray = None
			`), []string{`"ray" level=0 name="" bound="ray" local try`}},
		{"top-level try fallback", py(`
			try:
				from .utils import grade
			except ImportError:
				import sys
				sys.path.insert(0, ".")
				from utils import grade
			`), []string{
			`"utils" level=1 name="grade" bound="grade" try`,
			`"sys" level=0 name="" bound="sys" try`,
			`"utils" level=0 name="grade" bound="grade" try`,
		}},
		{"type checking", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ray import ObjectRef\n", []string{
			`"typing" level=0 name="TYPE_CHECKING" bound="TYPE_CHECKING"`,
			`"ray" level=0 name="ObjectRef" bound="ObjectRef" cond`,
		}},
		{"in main guard", "if __name__ == '__main__':\n    from osworld import require_optional_runtime_dependencies\n",
			[]string{`"osworld" level=0 name="require_optional_runtime_dependencies" bound="require_optional_runtime_dependencies" main cond`}},
		{"import in string or comment", "# import ray\nDOC = \"\"\"\nimport ray\n\"\"\"\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			checkLines(t, "imports", mapSlice(m.Imports, dumpImport), tc.want)
		})
	}
}

func TestImportSpansAndBindings(t *testing.T) {
	src := "import os\nfrom .x import (a,\n    b as c)\n"
	m := parseSrc(t, src)
	if len(m.Imports) != 3 {
		t.Fatalf("imports: %v", mapSlice(m.Imports, dumpImport))
	}
	stmt2 := Span{Start: Pos{10, 2, 1}, End: Pos{40, 3, 12}}
	wantSpans := []Span{{Start: Pos{0, 1, 1}, End: Pos{9, 1, 10}}, stmt2, stmt2}
	for i, imp := range m.Imports {
		if imp.Span != wantSpans[i] {
			t.Errorf("import %d span = %+v, want %+v", i, imp.Span, wantSpans[i])
		}
	}
	checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding), []string{
		"os import 1:1", "a import 2:1", "c import 2:1",
	})
	// Rules link an import binding to its Import by span.
	for i, b := range m.Bindings {
		if b.Span != m.Imports[i].Span {
			t.Errorf("binding %s span %+v != import span %+v", b.Name, b.Span, m.Imports[i].Span)
		}
	}
	if !m.Imports[1].IsFrom() || m.Imports[0].IsFrom() {
		t.Errorf("IsFrom wrong")
	}
}

func TestBindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"assign", "app = FastAPI()\n", []string{"app assign 1:1 = FastAPI()"}},
		{"tuple and list targets", "a, (b, c) = x\n[d, *rest] = y\ne, = z\n", []string{
			"a assign 1:1", "b assign 1:5", "c assign 1:8", "d assign 2:2", "rest assign 2:6", "e assign 3:1",
		}},
		{"parenthesised target", "(app) = make_app()\n", []string{"app assign 1:2"}},
		{"chained", "a = b = 1\nc, d = e = pair()\n", []string{
			"a assign 1:1 = 1", "b assign 1:5 = 1", "c assign 2:1", "d assign 2:4", "e assign 2:8 = pair()",
		}},
		{"annotated", "app: FastAPI = X.run_webserver()\nlimit: int\n", []string{
			"app annassign 1:1 = X.run_webserver()",
		}},
		{"augmented", "count = 0\ncount += 1\n", []string{"count assign 1:1 = 0", "count augassign 2:1"}},
		{"attribute and subscript targets bind nothing", "os.environ['X'] = '1'\nconfig.app = None\nx[0], y.z = 1, 2\n", nil},
		{"walrus", "if (m := re.match(p, s)) is not None:\n    pass\nprint(n := 3)\n", []string{
			"m walrus 1:5 = re.match(p, s)", "n walrus 3:7 = 3",
		}},
		{"walrus in comprehension binds in module", "ys = [last := f(x) for x in xs]\n", []string{
			"ys assign 1:1 = [last := f(x) for x in xs]", "last walrus 1:7 = f(x)",
		}},
		{"walrus in lambda binds nothing", "key = lambda v: (app := v)\n", []string{"key assign 1:1 = lambda v: (app := v)"}},
		{"comprehension and lambda variables bind nothing", "squares = {k: v for k, v in d.items()}\nf = lambda app: app\n", []string{
			"squares assign 1:1 = {k: v for k, v in d.items()}", "f assign 2:1 = lambda app: app",
		}},
		{"for and while", "for i, (k, v) in enumerate(d):\n    last = k\nelse:\n    done = True\nwhile x:\n    y = 1\n", []string{
			"i for 1:5", "k for 1:9", "v for 1:12", "last assign 2:5 cond = k", "done assign 4:5 cond = True", "y assign 6:5 cond = 1",
		}},
		{"with", "with open(p) as fh, lock:\n    data = fh.read()\nwith ctx() as (a, b):\n    pass\n", []string{
			"fh with 1:17", "data assign 2:5 cond = fh.read()", "a with 3:16", "b with 3:19",
		}},
		{"def, async def and class", "def main(): pass\nasync def amain(): pass\nclass Server: pass\n", []string{
			"main def 1:5", "amain def 2:11", "Server class 3:7",
		}},
		{"decorated def", "@ray.remote(num_gpus=1)\ndef score(x):\n    return x\n", []string{"score def 2:5"}},
		{"imports", "import ray\nfrom a import b as c\nfrom d import *\n", []string{"ray import 1:1", "c import 2:1"}},
		{"type alias", "type Reward = float\ntype Pair[T] = tuple[T, T]\n", []string{
			"Reward typealias 1:6", "Pair typealias 2:6",
		}},
		{"except as binds nothing", "try:\n    run()\nexcept Exception as app:\n    log(app)\n", nil},
		{"except group", "try:\n    run()\nexcept* ValueError as eg:\n    handled = True\n", []string{"handled assign 4:5 try = True"}},
		{"comment and string", "# app = FastAPI()\nx = \"app = 1\"\n'''\napp = 2\n'''\n", []string{"x assign 2:1 = \"app = 1\""}},
		{"function and class locals", py(`
			class Server(SimpleResourcesServer):
				app = None
				def setup_webserver(self):
					app = super().setup_webserver()
					global counter
					return app
			def build():
				app = FastAPI()
				class Inner:
					app = 1
				return app
			`), []string{"Server class 1:7", "build def 7:5"}},
		{"compound statements keep module scope", py(`
			if FLAG:
				a = 1
			elif OTHER:
				b = 2
			else:
				c = 3
			try:
				d = 4
			except ImportError:
				e = 5
			else:
				f = 6
			finally:
				g = 7
			with lock:
				h = 8
			while running:
				i = 9
			match mode:
				case "fast":
					j = 10
				case _:
					k = 11
			`), []string{
			"a assign 2:5 cond = 1", "b assign 4:5 cond = 2", "c assign 6:5 cond = 3",
			"d assign 8:5 try = 4", "e assign 10:5 try = 5", "f assign 12:5 try = 6", "g assign 14:5 try = 7",
			"h assign 16:5 cond = 8", "i assign 18:5 cond = 9", "j assign 21:9 cond = 10", "k assign 23:9 cond = 11",
		}},
		{"main guard body only", py(`
			if __name__ == "__main__":
				app = WeatherServer.run_webserver()
			elif is_nemo_gym_fastapi_entrypoint(__file__):
				app = WeatherServer.run_webserver()  # noqa: F401
			else:
				other = 1
			`), []string{
			"app assign 2:5 main cond = WeatherServer.run_webserver()",
			"app assign 4:5 cond = WeatherServer.run_webserver()",
			"other assign 6:5 cond = 1",
		}},
		{"main guard spellings", py(`
			if __name__ == '__main__':
				a = 1
			if "__main__" == __name__:
				b = 1
			if (__name__ == "__main__"):
				c = 1
			if ( __name__=="__main__" ) :
				d = 1
			if __name__ != "__main__":
				e = 1
			if __name__ == "__main__" and DEBUG:
				f = 1
			`), []string{
			"a assign 2:5 main cond = 1", "b assign 4:5 main cond = 1", "c assign 6:5 main cond = 1",
			"d assign 8:5 main cond = 1", "e assign 10:5 cond = 1", "f assign 12:5 cond = 1",
		}},
		{"nested in main guard", py(`
			if __name__ == "__main__":
				if FAST:
					x = 1
				else:
					y = 2
				try:
					import uvloop
				except ImportError:
					pass
			`), []string{
			"x assign 3:9 main cond = 1", "y assign 5:9 main cond = 2", "uvloop import 7:9 main try cond",
		}},
		{"main guard inside try at top level", py(`
			try:
				if __name__ == "__main__":
					app = 1
			except KeyboardInterrupt:
				pass
			`), []string{"app assign 3:9 main try cond = 1"}},
		{"main guard inside a function is not the module's", py(`
			def main():
				if __name__ == "__main__":
					app = 1
			`), []string{"main def 1:5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding), tc.want)
		})
	}
}

func TestClasses(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"gym resources server", py(`
			class WeatherResourcesServer(SimpleResourcesServer):
				config: WeatherConfig
				ray_enabled: ClassVar[bool] = True
				session_id_to_state: Dict[str, Any] = Field(default_factory=dict)
				MAX_TURNS = 8

				def setup_webserver(self) -> FastAPI:
					app = super().setup_webserver()
					return app

				async def seed_session(self, request: Request, body: BaseSeedSessionRequest):
					return await super().seed_session(request, body)

				@staticmethod
				def _helper(x, /, y=1, *args, z: int = 2, **kwargs):
					pass
			`), []string{
			"class WeatherResourcesServer 1:7",
			"  base SimpleResourcesServer",
			"  attr config: WeatherConfig",
			"  attr ray_enabled: ClassVar[bool] = True",
			"  attr session_id_to_state: Dict[str, Any] = Field(default_factory=dict) dotted=Field call",
			"  attr MAX_TURNS = 8",
			"  def setup_webserver(self)",
			"  async def seed_session(self, request, body)",
			"  def _helper(x, y, *args, z, **kwargs) @staticmethod",
		}},
		{"bases", py(`
			class GSM8kServer(AviaryResourcesServer[CalculatorEnv, GSM8kDataset]):
				pass
			class AviaryResourcesServer(SimpleResourcesServer, Generic[TEnv, TDataset], ABC):
				pass
			class GenRMModel(GenRMModelMixin, vllm.app.LocalVLLMModel, metaclass=ABCMeta, **extra):
				pass
			`), []string{
			"class GSM8kServer 1:7",
			"  base AviaryResourcesServer[CalculatorEnv, GSM8kDataset] dotted=AviaryResourcesServer args=[CalculatorEnv, GSM8kDataset]",
			"class AviaryResourcesServer 3:7",
			"  base SimpleResourcesServer",
			"  base Generic[TEnv, TDataset] dotted=Generic args=[TEnv, TDataset]",
			"  base ABC",
			"class GenRMModel 5:7",
			"  base GenRMModelMixin",
			"  base vllm.app.LocalVLLMModel",
			"  keyword metaclass=ABCMeta",
			"  keyword =**extra",
		}},
		{"odd bases", "class A(make_base(), bases[0], (B)):\n    pass\n", []string{
			"class A 1:7",
			"  base make_base() dotted=make_base call",
			"  base bases[0] dotted=bases args=[0]",
			"  base (B)",
		}},
		{"decorators", py(`
			@dataclass(frozen=True)
			@registry.register("weather")
			@(lambda c: c)
			class Config:
				name: str
				retries: int = 3
			`), []string{
			"class Config 4:7",
			"  @dataclass(frozen=True) dotted=dataclass call",
			"  @registry.register(\"weather\") dotted=registry.register call",
			"  @(lambda c: c)",
			"  attr name: str",
			"  attr retries: int = 3",
		}},
		{"class body shapes", py(`
			class A(Base):
				"""Docstring."""
				x = y = compute()
				a, b = 1, 2
				if FLAG:
					flagged = True
				class Meta:
					extra = "forbid"
				def f(self): pass
				def f(self, other): pass
				count += 1
			`), []string{
			"class A 1:7",
			"  base Base",
			"  attr x = compute() dotted=compute call",
			"  attr y = compute() dotted=compute call",
			"  attr a",
			"  attr b",
			"  attr flagged = True",
			"  attr Meta",
			"  def f(self)",
			"  def f(self, other)",
		}},
		{"module-scope classes in compound statements", py(`
			if sys.version_info >= (3, 11):
				class A: pass
			else:
				class B: pass
			try:
				class C(Base): pass
			except NameError:
				pass
			with suppress(Exception):
				class D: pass
			if __name__ == "__main__":
				class E: pass
			`), []string{
			"class A 2:11 cond", "class B 4:11 cond", "class C 6:11 try", "  base Base",
			"class D 10:11 cond", "class E 12:11 main cond",
		}},
		{"classes in functions are not module classes", py(`
			def make():
				class Local(Base):
					def run(self): pass
				return Local
			class Outer:
				class Nested:
					pass
			`), []string{"class Outer 5:7", "  attr Nested"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			checkLines(t, "classes", dumpClasses(m), tc.want)
		})
	}
}

func TestClassLookups(t *testing.T) {
	m := parseSrc(t, py(`
		class A:
			x = 1
			def f(self): return 1
			x: int = 2
			def f(self): return 2
	`))
	c := m.Classes[0]
	if a := c.Attr("x"); a == nil || a.Value == nil || a.Value.Text != "2" || a.Annotation != "int" {
		t.Errorf("Attr(x) = %+v", a)
	}
	if f := c.Method("f"); f == nil || f.NameSpan.Start.Line != 5 {
		t.Errorf("Method(f) = %+v", f)
	}
	if c.Method("g") != nil || c.Attr("g") != nil {
		t.Errorf("missing names found")
	}
	a := c.Attr("x")
	if want := (Span{Start: Pos{49, 4, 5}, End: Pos{50, 4, 6}}); a.Span != want {
		t.Errorf("attr span %+v, want %+v", a.Span, want)
	}
	if want := (Span{Start: Pos{49, 4, 5}, End: Pos{59, 4, 15}}); a.StmtSpan != want {
		t.Errorf("attr stmt span %+v, want %+v", a.StmtSpan, want)
	}
}

func TestFunctions(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"calls raises and asserts", py(`
			async def verify(self, request: Request, body: VerifyRequest) -> VerifyResponse:
				session_id = request.session[SESSION_ID_KEY]
				if session_id not in self.state:
					raise HTTPException(status_code=400, detail="Session not initialized. Call seed_session first.")
				assert body.response is not None, "no response"
				try:
					reward = await asyncio.to_thread(ray.get, self.score.remote(body))
				except Exception:
					raise
				if reward < 0:
					raise ValueError
				raise RuntimeError("bad") from None
			`), []string{
			"async def verify(self, request, body) 1:11",
			"  call HTTPException(; status_code=400, detail=\"Session not initialized. Call seed_session first.\") cond",
			"  call asyncio.to_thread(ray.get, self.score.remote(body)) try",
			"  call self.score.remote(body) try",
			"  call RuntimeError(\"bad\")",
			"  raise HTTPException(status_code=400, detail=\"Session not initialized. Call seed_session first.\") dotted=HTTPException call 4:9",
			"  assert 5:5",
			"  raise 9:9",
			"  raise ValueError 11:9",
			"  raise RuntimeError(\"bad\") dotted=RuntimeError call 12:5",
		}},
		{"nested functions own their calls", py(`
			def outer(x=default_value()):
				prepare()
				@ray.remote(num_gpus=1)
				def inner(y):
					return compute(y)
				class Helper:
					setting = configure()
					def method(self):
						helper_call()
				fn = lambda: lazy()
				return inner.remote(x)
			`), []string{
			"def outer(x) 1:5",
			"  call prepare()",
			"  call ray.remote(; num_gpus=1)",
			"  call configure()",
			"  call lazy()",
			"  call inner.remote(x)",
			"  def inner(y) 4:9 @ray.remote(num_gpus=1) dotted=ray.remote call",
			"    call compute(y)",
			"  def method(self) 8:13",
			"    call helper_call()",
		}},
		{"call shapes", py(`
			def f(items):
				print(*items, **opts, sep="")
				sum(x * 2 for x in items)
				fn.options(num_cpus=2).remote(1)
				getattr(obj, "m")()
				handlers[name](payload)
				log(f"{describe(items)!r:>{width()}}")
				x[key()] = value()
				for self.slot[pick()] in items: pass
			`), []string{
			"def f(items) 1:5",
			"  call print(*items; =**opts, sep=\"\")",
			"  call sum((x * 2 for x in items))",
			"  <fn.options(num_cpus=2).remote>(1)",
			"  call fn.options(; num_cpus=2)",
			"  <getattr(obj, \"m\")>()",
			"  call getattr(obj, \"m\")",
			"  <handlers[name]>(payload)",
			"  call log(f\"{describe(items)!r:>{width()}}\")",
			"  call describe(items)",
			"  call width()",
			"  call key()",
			"  call value()",
			"  call pick() cond",
		}},
		{"module-level functions in compound statements", py(`
			if HAVE_RAY:
				def start(): ray.init()
			else:
				def start(): pass
			`), []string{"def start() 2:9", "  call ray.init() cond", "def start() 4:9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			got := dumpFunctions(m)
			for i, l := range got {
				got[i] = strings.Replace(l, "  call <", "  <", 1)
			}
			checkLines(t, "functions", got, tc.want)
		})
	}
}

func TestModuleCalls(t *testing.T) {
	m := parseSrc(t, py(`
		import ray
		ray.init(address="auto")
		logger = logging.getLogger(__name__)
		CONFIG = load(path=os.path.join(ROOT, "config.yaml"))
		handler = lambda req: respond(req)

		@app.get("/health")
		def health(timeout=default_timeout()):
			return ok()

		class Server(Base, metaclass=make_meta()):
			field = Field(default_factory=dict)

		try:
			setup()
		except ImportError:
			fallback()

		if __name__ == "__main__":
			Server.run_webserver()
		elif is_nemo_gym_fastapi_entrypoint(__file__):
			app = Server.run_webserver()
	`))
	checkLines(t, "module calls", mapSlice(m.Calls, dumpCall), []string{
		"ray.init(; address=\"auto\")",
		"logging.getLogger(__name__)",
		"load(; path=os.path.join(ROOT, \"config.yaml\") dotted=os.path.join call)",
		"os.path.join(ROOT, \"config.yaml\")",
		"app.get(\"/health\")",
		"default_timeout()",
		"make_meta()",
		"setup() try",
		"fallback() try",
		"Server.run_webserver() main cond",
		"is_nemo_gym_fastapi_entrypoint(__file__) cond",
		"Server.run_webserver() cond",
	})
	c := m.Calls[0]
	if c.Span != (Span{Start: Pos{11, 2, 1}, End: Pos{35, 2, 25}}) {
		t.Errorf("call span %+v", c.Span)
	}
	if c.Callee.Span != (Span{Start: Pos{11, 2, 1}, End: Pos{19, 2, 9}}) || c.Callee.Text != "ray.init" {
		t.Errorf("callee %+v", c.Callee)
	}
	kw := c.Kwargs[0]
	if kw.Name != "address" || kw.Value.Text != `"auto"` || kw.Value.Dotted != "" || kw.Value.Span.Start.Col != 18 {
		t.Errorf("kwarg %+v", kw)
	}
}

// TestGymEntrypoint checks the whole model of a realistic entrypoint.
func TestGymEntrypoint(t *testing.T) {
	src := py(`
		# SPDX-License-Identifier: Apache-2.0
		from __future__ import annotations

		import asyncio
		from typing import Any, ClassVar, Dict

		import ray
		from fastapi import FastAPI, Request
		from pydantic import Field

		from nemo_gym.base_resources_server import (
			BaseResourcesServerConfig,
			BaseSeedSessionRequest,
			SimpleResourcesServer,
		)
		from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

		try:
			from .scoring import score_answer
		except ImportError:
			from scoring import score_answer


		class WeatherConfig(BaseResourcesServerConfig):
			pass


		@ray.remote(num_gpus=1)
		def _score_remote(answer: str) -> float:
			return score_answer(answer)


		class WeatherResourcesServer(SimpleResourcesServer):
			config: WeatherConfig
			ray_enabled: ClassVar[bool] = True
			session_id_to_state: Dict[str, Any] = Field(default_factory=dict)

			def setup_webserver(self) -> FastAPI:
				app = super().setup_webserver()
				app.post("/get_weather")(self.get_weather)
				return app

			async def seed_session(self, request: Request, body: BaseSeedSessionRequest):
				session_id = request.session[SESSION_ID_KEY]
				if session_id in self.session_id_to_state:
					raise RuntimeError("session already seeded")
				self.session_id_to_state[session_id] = {"calls": 0}
				return await super().seed_session(request, body)

			async def verify(self, request: Request, body):
				state = self.session_id_to_state.pop(request.session[SESSION_ID_KEY], None)
				assert state is not None
				ref = _score_remote.remote(body.response)
				reward = await asyncio.get_running_loop().run_in_executor(None, ray.get, ref)
				return {"reward": reward}


		if __name__ == "__main__":
			WeatherResourcesServer.run_webserver()
		elif is_nemo_gym_fastapi_entrypoint(__file__):
			app = WeatherResourcesServer.run_webserver()  # noqa: F401
	`)
	m := parseSrc(t, src)
	if m.SyntaxError != nil {
		t.Fatalf("syntax error %+v", m.SyntaxError)
	}
	checkLines(t, "imports", mapSlice(m.Imports, dumpImport), []string{
		`"asyncio" level=0 name="" bound="asyncio"`,
		`"typing" level=0 name="Any" bound="Any"`,
		`"typing" level=0 name="ClassVar" bound="ClassVar"`,
		`"typing" level=0 name="Dict" bound="Dict"`,
		`"ray" level=0 name="" bound="ray"`,
		`"fastapi" level=0 name="FastAPI" bound="FastAPI"`,
		`"fastapi" level=0 name="Request" bound="Request"`,
		`"pydantic" level=0 name="Field" bound="Field"`,
		`"nemo_gym.base_resources_server" level=0 name="BaseResourcesServerConfig" bound="BaseResourcesServerConfig"`,
		`"nemo_gym.base_resources_server" level=0 name="BaseSeedSessionRequest" bound="BaseSeedSessionRequest"`,
		`"nemo_gym.base_resources_server" level=0 name="SimpleResourcesServer" bound="SimpleResourcesServer"`,
		`"nemo_gym.server_utils" level=0 name="SESSION_ID_KEY" bound="SESSION_ID_KEY"`,
		`"nemo_gym.server_utils" level=0 name="is_nemo_gym_fastapi_entrypoint" bound="is_nemo_gym_fastapi_entrypoint"`,
		`"scoring" level=1 name="score_answer" bound="score_answer" try`,
		`"scoring" level=0 name="score_answer" bound="score_answer" try`,
	})
	checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding), []string{
		"asyncio import 4:1",
		"Any import 5:1",
		"ClassVar import 5:1",
		"Dict import 5:1",
		"ray import 7:1",
		"FastAPI import 8:1",
		"Request import 8:1",
		"Field import 9:1",
		"BaseResourcesServerConfig import 11:1",
		"BaseSeedSessionRequest import 11:1",
		"SimpleResourcesServer import 11:1",
		"SESSION_ID_KEY import 16:1",
		"is_nemo_gym_fastapi_entrypoint import 16:1",
		"score_answer import 19:5 try",
		"score_answer import 21:5 try",
		"WeatherConfig class 24:7",
		"_score_remote def 29:5",
		"WeatherResourcesServer class 33:7",
		"app assign 61:5 cond = WeatherResourcesServer.run_webserver()",
	})
	checkLines(t, "classes", dumpClasses(m), []string{
		"class WeatherConfig 24:7",
		"  base BaseResourcesServerConfig",
		"class WeatherResourcesServer 33:7",
		"  base SimpleResourcesServer",
		"  attr config: WeatherConfig",
		"  attr ray_enabled: ClassVar[bool] = True",
		"  attr session_id_to_state: Dict[str, Any] = Field(default_factory=dict) dotted=Field call",
		"  def setup_webserver(self)",
		"  async def seed_session(self, request, body)",
		"  async def verify(self, request, body)",
	})
	checkLines(t, "functions", dumpFunctions(m), []string{
		"def _score_remote(answer) 29:5 @ray.remote(num_gpus=1) dotted=ray.remote call",
		"  call score_answer(answer)",
	})
	server := m.Classes[1]
	var methods []string
	for _, f := range server.Methods {
		methods = append(methods, dumpFunction(f, "")...)
	}
	checkLines(t, "methods", methods, []string{
		"def setup_webserver(self) 38:9",
		"  call <super().setup_webserver>()",
		"  call super()",
		"  call <app.post(\"/get_weather\")>(self.get_weather)",
		"  call app.post(\"/get_weather\")",
		"async def seed_session(self, request, body) 43:15",
		"  call RuntimeError(\"session already seeded\") cond",
		"  call <super().seed_session>(request, body)",
		"  call super()",
		"  raise RuntimeError(\"session already seeded\") dotted=RuntimeError call 46:13",
		"async def verify(self, request, body) 50:15",
		"  call self.session_id_to_state.pop(request.session[SESSION_ID_KEY], None)",
		"  call _score_remote.remote(body.response)",
		"  call <asyncio.get_running_loop().run_in_executor>(None, ray.get, ref)",
		"  call asyncio.get_running_loop()",
		"  assert 52:9",
	})
	checkLines(t, "module calls", mapSlice(m.Calls, dumpCall), []string{
		"ray.remote(; num_gpus=1)",
		"WeatherResourcesServer.run_webserver() main cond",
		"is_nemo_gym_fastapi_entrypoint(__file__) cond",
		"WeatherResourcesServer.run_webserver() cond",
	})
	if m.Classes[1].Where != (Where{}) || m.Bindings[len(m.Bindings)-1].Where.InMainGuard {
		t.Errorf("where flags wrong")
	}
}

func TestPositions(t *testing.T) {
	t.Run("non-ASCII before identifier", func(t *testing.T) {
		src := "x = \"日本\"; app = 1\n"
		m := parseSrc(t, src)
		b := m.Bindings[1]
		// "日本" is 6 bytes: app starts at byte 14, column 15.
		if b.Name != "app" || b.Span.Start != (Pos{14, 1, 15}) || b.Span.End != (Pos{17, 1, 18}) {
			t.Errorf("app binding %+v", b)
		}
		if got := src[b.Span.Start.Offset:b.Span.End.Offset]; got != "app" {
			t.Errorf("span text %q", got)
		}
	})
	t.Run("CRLF", func(t *testing.T) {
		src := "import os\r\n\r\nclass Server(Base):\r\n    ray_enabled: ClassVar[bool] = True\r\n\r\nif __name__ == \"__main__\":\r\n    Server.run_webserver()\r\nelif is_entry(__file__):\r\n    app = Server.run_webserver()\r\n"
		m := parseSrc(t, src)
		if m.SyntaxError != nil {
			t.Fatalf("syntax error %+v", m.SyntaxError)
		}
		checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding), []string{
			"os import 1:1", "Server class 3:7", "app assign 9:5 cond = Server.run_webserver()",
		})
		a := m.Classes[0].Attrs[0]
		if a.Span.Start != (Pos{38, 4, 5}) || a.StmtSpan.End.Line != 4 || a.StmtSpan.End.Col != 39 {
			t.Errorf("attr spans %+v %+v", a.Span, a.StmtSpan)
		}
		if a.Value.Text != "True" {
			t.Errorf("value %q", a.Value.Text)
		}
		for _, b := range m.Bindings {
			if strings.Contains(src[b.Span.Start.Offset:b.Span.End.Offset], "\r") {
				t.Errorf("binding %s span includes CR", b.Name)
			}
		}
	})
	t.Run("tabs and non-ASCII identifiers", func(t *testing.T) {
		src := "if True:\n\tcafé = 1\n\tπ = 2\n"
		m := parseSrc(t, src)
		checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding), []string{"café assign 2:2 cond = 1", "π assign 3:2 cond = 2"})
		if e := m.Bindings[0].Span.End; e != (Pos{15, 2, 7}) {
			t.Errorf("café end %+v", e)
		}
	})
	t.Run("BOM", func(t *testing.T) {
		m := parseSrc(t, "\ufeffapp = 1\n")
		if m.SyntaxError != nil || len(m.Bindings) != 1 || m.Bindings[0].Span.Start != (Pos{3, 1, 4}) {
			t.Errorf("BOM: %+v %v", m.SyntaxError, mapSlice(m.Bindings, dumpBinding))
		}
	})
	t.Run("line index", func(t *testing.T) {
		l := newLineIndex([]byte("ab\ncd\r\n\nx"))
		for off, want := range []Pos{{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {4, 2, 2}, {5, 2, 3}, {6, 2, 4}, {7, 3, 1}, {8, 4, 1}, {9, 4, 2}} {
			if got := l.pos(off); got != want {
				t.Errorf("pos(%d) = %+v, want %+v", off, got, want)
			}
		}
	})
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		start   Pos
		message string
		// check runs on the model built despite the error.
		check func(t *testing.T, m *Module)
	}{
		{"unclosed paren", "import ray\nx = f(1,\napp = 2\n", Pos{11, 2, 1}, `syntax error near "x = f(1,"`,
			func(t *testing.T, m *Module) {
				if len(m.Imports) != 1 {
					t.Errorf("imports before the error are kept: %v", mapSlice(m.Imports, dumpImport))
				}
			}},
		{"stray def", "import os\ndef\n", Pos{10, 2, 1}, `syntax error near "def"`, nil},
		{"def without body", "def f():\n\nclass A:\n    pass\n", Pos{8, 1, 9}, "syntax error: expected an indented block",
			func(t *testing.T, m *Module) {
				if len(m.Functions) != 1 || len(m.Classes) != 1 {
					t.Errorf("model incomplete: %v %v", dumpFunctions(m), dumpClasses(m))
				}
			}},
		{"def with only a comment", "def f():\n    # todo\n", Pos{8, 1, 9}, "syntax error: expected an indented block", nil},
		{"missing token", "def f(:\n    pass\nclass A(Base):\n    x = 1\n", Pos{6, 1, 7}, `syntax error: missing ")"`,
			func(t *testing.T, m *Module) {
				checkLines(t, "classes", dumpClasses(m), []string{"class A 3:7", "  base Base", "  attr x = 1"})
			}},
		{"empty block before a later error", "if x:\nfoo(\n", Pos{5, 1, 6}, "syntax error: expected an indented block", nil},
		{"error before empty block", "x = = 1\nif y:\n", Pos{4, 1, 5}, "syntax error near \"=\"", nil},
		{"error in class body", "class S(Base):\n    ray_enabled = True\n    def f(self:\n        return 1\n    x = )\n", Pos{0, 0, 0}, "",
			func(t *testing.T, m *Module) {
				if len(m.Classes) != 1 || m.Classes[0].Attr("ray_enabled") == nil {
					t.Errorf("class model lost: %v", dumpClasses(m))
				}
			}},
		{"unterminated string", "x = 'abc\ny = 1\n", Pos{0, 0, 0}, "", nil},
		{"unindent to no outer level", "def f():\n    x = 1\n  app = 2\n", Pos{21, 3, 3}, "syntax error: unindent does not match any outer indentation level", nil},
		{"unexpected indent", "import os\n  app = 1\n", Pos{12, 2, 3}, "syntax error: unexpected indent", nil},
		{"unexpected indent in block", "class A:\n    x = 1\n        y = 2\n", Pos{27, 3, 9}, "syntax error: unexpected indent", nil},
		{"indented first line", "  import os\n", Pos{2, 1, 3}, "syntax error: unexpected indent", nil},
		{"only garbage", "\x00\x01\xff\xfe)))", Pos{0, 1, 1}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError == nil {
				t.Fatalf("no syntax error")
			}
			se := m.SyntaxError
			if tc.start.Line != 0 && se.Span.Start != tc.start {
				t.Errorf("error at %+v, want %+v (%s)", se.Span.Start, tc.start, se.Message)
			}
			if tc.message != "" && se.Message != tc.message {
				t.Errorf("message %q, want %q", se.Message, tc.message)
			}
			if se.Span.End.Offset < se.Span.Start.Offset || se.Span.End.Offset > len(tc.src) {
				t.Errorf("bad span %+v", se.Span)
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

// TestValidSyntax checks that modern Python parses without a syntax error.
func TestValidSyntax(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"match", py(`
			match event:
				case {"type": "reset", "seed": int(seed)}:
					env.reset(seed)
				case Step(action=a) if a in ACTIONS:
					env.step(a)
				case [first, *rest] | (first, *rest):
					pass
				case str() as name:
					pass
				case _:
					raise ValueError(event)
		`)},
		{"match as identifier", "match = re.match(p, s)\nmatch.group(0)\ncase = 1\n"},
		{"walrus", "while (chunk := f.read(1024)):\n    process(chunk)\n"},
		{"except star", "try:\n    run()\nexcept* (ValueError, TypeError) as eg:\n    log(eg)\nexcept* OSError:\n    pass\n"},
		{"PEP 604 unions", "def f(x: int | None = None) -> dict[str, list[int]] | None:\n    return None\n"},
		{"f-strings with nested quotes", `msg = f"{d['key']}: {', '.join(items)!r} {x:>{width}} {{literal}}"` + "\n"},
		{"f-string same quotes PEP 701", `msg = f"{d["key"]}"` + "\n"},
		{"decorators with arbitrary expressions", "@buttons[0].clicked.connect\ndef f(): pass\n@(lambda f: f)\ndef g(): pass\n@x if y else z\ndef h(): pass\n"},
		{"async with and for", "async def main():\n    async with session() as s, lock:\n        async for item in s.stream():\n            await handle(item)\n"},
		{"parenthesised with", "with (\n    open(a) as fa,\n    open(b) as fb,\n):\n    pass\n"},
		{"positional-only and keyword-only", "def f(a, b=1, /, c=2, *, d, e=3, **kw): pass\nlambda a, /, b, *, c: 0\n"},
		{"star args", "def f(*args, **kwargs):\n    return g(*args, *more, **kwargs, **extra)\nfirst, *rest = items\n"},
		{"global and nonlocal", "counter = 0\ndef f():\n    global counter\n    counter += 1\n    def g():\n        nonlocal_x = 1\n        def h():\n            nonlocal nonlocal_x\n            nonlocal_x = 2\n"},
		{"type alias PEP 695", "type Reward = float\ntype Pair[T] = tuple[T, T]\n"},
		{"generic def and class PEP 695", "def first[T](xs: list[T]) -> T:\n    return xs[0]\nclass Box[T]:\n    item: T\n"},
		{"decorated async method", "class A:\n    @property\n    async def f(self): ...\n"},
		{"conditional import and star expr", "x = [*a, *b]\ny = {**c, 'k': 1}\nprint(*x, sep='')\n"},
		{"lambda default and nested comprehension", "f = lambda x=1, *a, **k: [y for y in range(x) if y for z in a]\n"},
		{"semicolons and one-liners", "import os; import sys\nif x: y = 1; z = 2\nclass A: pass\n"},
		{"line continuation", "x = 1 + \\\n    2\nfrom a import (b,\n    c)\n"},
		{"empty file", ""},
		{"only comments", "# just a comment\n# another\n"},
		{"no trailing newline", "app = 1"},
		{"ellipsis bodies", "class P(Protocol):\n    def f(self) -> int: ...\n"},
		{"docstring only body", "def f():\n    \"\"\"Only a docstring.\"\"\"\n"},
		{"print function", "print('x', file=sys.stderr)\n"},
		{"numbers and strings", "x = 1_000_000 + 0x_FF + 1e-3j\ns = rb'\\x00' + u'x' + Rb\"y\"\n"},
		{"await and yield", "async def f():\n    x = await g()\n    yield x\n    y = yield from_()\n"},
		{"del assert return", "def f(x):\n    del x[0]\n    assert x, 'empty'\n    return\n"},
		{"nested main guard elif", "if __name__ == \"__main__\":\n    X.run_webserver()\nelif is_nemo_gym_fastapi_entrypoint(__file__):\n    app = X.run_webserver()  # noqa: F401\n"},
		{"CRLF endings", "class A:\r\n    def f(self):\r\n        pass\r\n"},
		{"tab indentation", "def f():\n\tif x:\n\t\treturn 1\n"},
		{"form feed", "x = 1\n\f\ndef f():\n    pass\n"},
		{"keyword-named attributes", "obj.match = obj.type = obj.case = obj.print = 1\ntype = 3\nprint(type)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Errorf("unexpected syntax error %+v in\n%s", m.SyntaxError, tc.src)
			}
		})
	}
}

func TestParserReuse(t *testing.T) {
	srcs := []string{
		"import os\nclass A(B):\n    x = 1\n",
		"def f(:\n",
		"if __name__ == '__main__':\n    A.run_webserver()\n",
		"",
		strings.Repeat("x = [1, 2, 3]\n", 1000),
	}
	p := NewParser(Options{})
	defer p.Close()
	for round := 0; round < 3; round++ {
		for i, s := range srcs {
			got := p.Parse("m.py", []byte(s))
			want := parseSrc(t, s)
			want.Path, want.Name = "m.py", "m"
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, src %d: reused parser gives a different model", round, i)
			}
		}
	}
	p.Close()
	p.Close() // a second Close is harmless
}

func TestTimeout(t *testing.T) {
	var b bytes.Buffer
	for b.Len() < 2<<20 {
		fmt.Fprintf(&b, "def f%d(x):\n    return g(x, [1, 2, 3], {'a': (4, 5)})\n", b.Len())
	}
	big := b.Bytes()
	small := []byte("import ray\nclass A(Base):\n    x = f(1)\n")
	fresh := parseSrc(t, string(small))
	fresh.Path, fresh.Name = "small.py", "small"

	// 2 MB take far longer than 5ms to parse; 40 bytes far less.
	p := NewParser(Options{Timeout: 5 * time.Millisecond})
	defer p.Close()
	for round := 0; round < 3; round++ {
		start := time.Now()
		m := p.Parse("big.py", big)
		if m.SyntaxError == nil || !strings.Contains(m.SyntaxError.Message, "did not finish within 5ms") {
			t.Fatalf("expected a timeout, got %+v", m.SyntaxError)
		}
		if m.SyntaxError.Span.Start != (Pos{0, 1, 1}) || len(m.Functions) != 0 || m.Size != len(big) || m.Name != "big" {
			t.Errorf("timed-out module: %+v", m)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("a 5ms timeout took %v", d)
		}
		// The parser must start afresh on the next file, not resume the
		// cancelled parse.
		if m := p.Parse("small.py", small); !reflect.DeepEqual(m, fresh) {
			t.Fatalf("after a timeout the parser returned %+v", m)
		}
	}
}

// TestDeepNesting checks that pathological nesting terminates without a
// crash (tree-sitter and the walker both recurse over the tree).
func TestDeepNesting(t *testing.T) {
	const deep = "syntax error: too deeply nested"
	for _, tc := range []struct {
		name string
		src  []byte
		err  string // the expected syntax error message, "" for none, "*" for any
	}{
		{"parens", []byte("x = " + strings.Repeat("(", 50000) + "1" + strings.Repeat(")", 50000) + "\n"), deep},
		{"unclosed parens", []byte("x = " + strings.Repeat("(", 50000) + "\n"), "*"},
		{"calls", []byte("x = " + strings.Repeat("f(", 20000) + strings.Repeat(")", 20000) + "\n"), deep},
		{"lists", []byte(strings.Repeat("[", 30000) + strings.Repeat("]", 30000)), deep},
		{"subscripts", []byte("x = a" + strings.Repeat("[a", 30000) + strings.Repeat("]", 30000) + "\n"), deep},
		{"tuple targets", []byte(strings.Repeat("(", 5000) + "a" + strings.Repeat(",)", 5000) + " = 1\n"), deep},
		{"chained assignment", []byte(strings.Repeat("a = ", 50000) + "1\n"), ""},
		{"attributes", []byte("x = a" + strings.Repeat(".b", 50000) + "\n"), ""},
		{"long line of statements", []byte(strings.Repeat("a; ", 50000) + "\n"), ""},
		{"ifs", func() []byte {
			var b bytes.Buffer
			for i := 0; i < 300; i++ {
				fmt.Fprintf(&b, "%sif x:\n", strings.Repeat(" ", i))
			}
			fmt.Fprintf(&b, "%sapp = 1\n", strings.Repeat(" ", 300))
			return b.Bytes()
		}(), "*"}, // tree-sitter-python gives up (CPython allows 100 levels)
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewParser(Options{})
			defer p.Close()
			start := time.Now()
			m := p.Parse("deep.py", tc.src)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			checkInvariants(t, m, tc.src)
			switch {
			case tc.err == "" && m.SyntaxError != nil:
				t.Errorf("unexpected syntax error %+v", m.SyntaxError)
			case tc.err == "*" && m.SyntaxError == nil:
				t.Errorf("no syntax error")
			case tc.err != "" && tc.err != "*" && (m.SyntaxError == nil || m.SyntaxError.Message != tc.err):
				t.Errorf("syntax error %+v, want %q", m.SyntaxError, tc.err)
			}
		})
	}
}

// TestLargeFlatModule guards against child lookups that are quadratic in
// the number of siblings.
func TestLargeFlatModule(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("DATA = [\n")
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&b, "    make(%d),\n", i)
	}
	b.WriteString("]\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "x%d = %d\n", i, i)
	}
	p := NewParser(Options{})
	defer p.Close()
	m := p.Parse("data.py", b.Bytes())
	if m.SyntaxError != nil || len(m.Calls) != 50000 || len(m.Bindings) != 5001 {
		t.Fatalf("got %v, %d calls, %d bindings", m.SyntaxError, len(m.Calls), len(m.Bindings))
	}
}

// TestChunkBoundaries puts multi-byte characters across the places where
// the parser's input may be cut into chunks.
func TestChunkBoundaries(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	for _, boundary := range []int{4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10} {
		for _, char := range []string{"é", "日", "𝔘"} {
			for shift := 1; shift < len(char); shift++ {
				// name starts so that char straddles boundary by shift bytes.
				prefix := "x = 1\n"
				pad := boundary - shift - len(prefix) - len("#\n") - len("café_")
				src := prefix + "#" + strings.Repeat("-", pad) + "\ncafé_" + char + " = '" + char + "'\napp = 2\n"
				if i := strings.Index(src, "café_"+char) + len("café_"); i != boundary-shift {
					t.Fatalf("test setup: char at %d, want %d", i, boundary-shift)
				}
				m := p.Parse("m.py", []byte(src))
				checkInvariants(t, m, []byte(src))
				if m.SyntaxError != nil {
					t.Fatalf("boundary %d, %q shifted %d: syntax error %+v", boundary, char, shift, m.SyntaxError)
				}
				got := mapSlice(m.Bindings, dumpBinding)
				want := []string{"x assign 1:1 = 1", fmt.Sprintf("café_%s assign 3:1 = '%s'", char, char), "app assign 4:1 = 2"}
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Fatalf("boundary %d, %q shifted %d: bindings %q", boundary, char, shift, got)
				}
			}
		}
	}
}

func TestModuleCallShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"f-string interpolations", "msg = f\"{ray.get(ref)!r} {{not_a_call()}} {width():>{pad()}}\"\nplain = \"{ray.get(ref)}\"\n",
			[]string{"ray.get(ref)", "width()", "pad()"}},
		{"concatenated f-strings", "msg = 'a' f'{x()}' rb'{y()}'\n", []string{"x()"}},
		{"match subject and guards", "match load():\n    case Point(x=0) if check(x):\n        handle()\n    case _:\n        pass\n",
			[]string{"load()", "check(x) cond", "handle() cond"}},
		{"callee shapes", "f()()\nhandlers[k](v)\nX[int].run_webserver()\n(lambda: 0)()\nray.get(ref)\n", []string{
			"<f()>()", "f()", "<handlers[k]>(v)", "<X[int].run_webserver>()", "<(lambda: 0)>()", "ray.get(ref)",
		}},
		{"class bodies and lambdas hold no module calls", "class A(Base, metaclass=meta()):\n    x = Field(default=f())\n    y = [g(i) for i in r]\ncb = lambda: h()\n",
			[]string{"meta()"}},
		{"augmented and walrus", "totals[key()] += value()\nif (n := count()) > 1:\n    pass\n", []string{"key()", "value()", "count()"}},
		{"with and for", "with open(path()) as f, lock:\n    pass\nfor x in items():\n    use(x)\nelse:\n    done()\n",
			[]string{"open(path())", "path()", "items()", "use(x) cond", "done() cond"}},
		{"while and try", "while more():\n    step()\ntry:\n    a()\nexcept make_error() as e:\n    b()\nelse:\n    c()\nfinally:\n    d()\n",
			[]string{"more()", "step() cond", "a() try", "make_error() try", "b() try", "c() try", "d() try"}},
		{"decorators defaults and bases", "@deco(1)\ndef f(a=default(), *, b=other()):\n    inner()\nclass C(base()):\n    pass\n",
			[]string{"deco(1)", "default()", "other()", "base()"}},
		{"raise and assert at module level", "assert check(), explain()\nraise SystemExit(main())\n",
			[]string{"check()", "explain()", "SystemExit(main())", "main()"}},
		{"type alias and global", "type Alias = int\nglobal g\nreturn_value = compute()\n", []string{"compute()"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			checkLines(t, "module calls", mapSlice(m.Calls, dumpCall), tc.want)
		})
	}
}

// TestCallDetails checks the Expr contents of a call's callee and arguments.
func TestCallDetails(t *testing.T) {
	m := parseSrc(t, "loop.run_in_executor(None, ray.get, refs[0], *more, key=fn(), **opts)\n")
	c := m.Calls[0]
	if c.Callee.Dotted != "loop.run_in_executor" || c.Callee.Call || c.Callee.Text != "loop.run_in_executor" {
		t.Errorf("callee %+v", c.Callee)
	}
	got := mapSlice(c.Args, dumpExpr)
	checkLines(t, "args", got, []string{"None", "ray.get", "refs[0] dotted=refs args=[0]", "*more"})
	checkLines(t, "kwargs", []string{dumpKeywords(c.Kwargs)}, []string{"key=fn() dotted=fn call, =**opts"})
	if a := c.Args[1]; a.Span != (Span{Start: Pos{27, 1, 28}, End: Pos{34, 1, 35}}) {
		t.Errorf("ray.get span %+v", a.Span)
	}
	m = parseSrc(t, "x = a . b . c\ny = (a\n  .b  # comment\n  .c)\n")
	checkLines(t, "dotted with spaces", []string{m.Bindings[0].Value.Dotted, m.Bindings[1].Value.Dotted}, []string{"a.b.c", ""})
	if e := m.Bindings[1].Value; e.Text != "(a\n  .b  # comment\n  .c)" {
		t.Errorf("parenthesised value %+v", e)
	}
	m = parseSrc(t, "z = (a\n  .b  # comment\n  .c).d\n")
	if d := m.Bindings[0].Value.Dotted; d != "" {
		t.Errorf("attribute of a parenthesised chain: Dotted %q", d)
	}
	m = parseSrc(t, "w = a.b  .c\n")
	if d := m.Bindings[0].Value.Dotted; d != "a.b.c" {
		t.Errorf("Dotted %q", d)
	}
}

// TestGrammarFields checks that every field name the walker asks for
// exists in the grammar: an unknown name would find nothing.
func TestGrammarFields(t *testing.T) {
	src, err := os.ReadFile("parse.go")
	if err != nil {
		t.Fatal(err)
	}
	g := loadGrammar()
	names := regexp.MustCompile(`w\.field\([a-zA-Z]+, "([a-z_]+)"\)`).FindAllSubmatch(src, -1)
	if len(names) < 20 {
		t.Fatalf("found only %d field uses", len(names))
	}
	for _, n := range names {
		if _, ok := g.fields[string(n[1])]; !ok {
			t.Errorf("the grammar has no field %q", n[1])
		}
	}
}

// TestGrammarLeniency records Python 2 and other code that CPython rejects
// but tree-sitter-python 0.23.6 parses without error, so that pyscan
// reports no syntax error for it. Should a grammar update change this,
// this test says so.
func TestGrammarLeniency(t *testing.T) {
	for _, src := range []string{
		"print \"hello\"\n",        // Python 2 print statement
		"exec \"x = 1\" in ns\n",   // Python 2 exec statement
		"print >> sys.stderr, x\n", // Python 2 print redirection
	} {
		if m := parseSrc(t, src); m.SyntaxError != nil {
			t.Errorf("%q: tree-sitter-python now rejects it: %+v", src, m.SyntaxError)
		}
	}
}
