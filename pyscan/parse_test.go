package pyscan

import (
	"bytes"
	"fmt"
	"reflect"
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
		{"line continuation in dotted name", "from a.\\\n    b import c\n", []string{`"a.b" level=0 name="c" bound="c"`}},
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
			// Each Import is one of its statement's Names.
			var names []*Import
			for _, s := range find[*ImportStmt](m, nil) {
				names = append(names, s.Names...)
			}
			if !reflect.DeepEqual(ptrs(names), ptrs(m.Imports)) {
				t.Errorf("the ImportStmts' Names are not the module's Imports")
			}
		})
	}
}

func TestImportStatement(t *testing.T) {
	m := parseSrc(t, "from __future__ import annotations\nfrom .x import (a,\n    b as c)\n")
	fut, from := m.Body[0].(*ImportStmt), m.Body[1].(*ImportStmt)
	if !fut.Future || len(fut.Names) != 0 {
		t.Errorf("future import: %s", dump(fut))
	}
	if from.Future || len(from.Names) != 2 || from.Names[0] != m.Imports[0] || from.Names[1] != m.Imports[1] {
		t.Errorf("from import: %s", dump(from))
	}
}

func TestImportSpansAndBindings(t *testing.T) {
	src := "import os\nfrom .x import (a,\n    b as c)\n"
	m := parseSrc(t, src)
	if len(m.Imports) != 3 {
		t.Fatalf("imports: %v", mapSlice(m.Imports, dumpImport))
	}
	stmt2 := Span{Start: 10, End: 40}
	wantSpans := []Span{{Start: 0, End: 9}, stmt2, stmt2}
	for i, imp := range m.Imports {
		if imp.Span != wantSpans[i] {
			t.Errorf("import %d span = %+v, want %+v", i, imp.Span, wantSpans[i])
		}
	}
	if got := m.SpanText(stmt2); got != "from .x import (a,\n    b as c)" {
		t.Errorf("statement text %q", got)
	}
	if p := m.Pos(stmt2.End); p != (Pos{Offset: 40, Line: 3, Col: 12}) {
		t.Errorf("end of the statement at %+v", p)
	}
	checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding(m)), []string{
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
		{"parenthesised target", "(app) = make_app()\n", []string{"app assign 1:2 = make_app()"}},
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
		{"walrus in a value comes after the target", "a = (b := 1)\nclass C(d := Base): pass\n", []string{
			"a assign 1:1 = b := 1", "b walrus 1:6 = 1", "C class 2:7", "d walrus 2:9 = Base",
		}},
		{"walrus in an expression the model does not hold binds nothing", "x = b'' f'{(y := 1)}'\n", []string{"x assign 1:1 = b'' f'{(y := 1)}'"}},
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
			if __name__ == "__ma" "in__":
				g = 1
			`), []string{
			"a assign 2:5 main cond = 1", "b assign 4:5 main cond = 1", "c assign 6:5 main cond = 1",
			"d assign 8:5 main cond = 1", "e assign 10:5 cond = 1", "f assign 12:5 cond = 1", "g assign 14:5 main cond = 1",
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
			checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding(m)), tc.want)
		})
	}
}

func TestBindingLookup(t *testing.T) {
	m := parseSrc(t, py(`
		app = make()
		if __name__ == "__main__":
			app = other()
			only_main = 1
		app2 = 1
		app = last()
	`))
	if b := m.Binding("app"); b == nil || m.Text(b.Value) != "last()" {
		t.Errorf("Binding(app) = %+v", b)
	}
	if b := m.Binding("only_main"); b == nil || !b.Where.InMainGuard {
		t.Errorf("Binding(only_main) = %+v: a name bound only in the guard gives that binding", b)
	}
	if m.Binding("nope") != nil {
		t.Errorf("Binding(nope) found")
	}
	for k := BindAssign; k <= BindTypeAlias; k++ {
		if s := k.String(); strings.HasPrefix(s, "BindingKind(") {
			t.Errorf("kind %d has no name", k)
		}
	}
	if s := BindingKind(99).String(); s != "BindingKind(99)" {
		t.Errorf("unknown kind: %q", s)
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
			"  base SimpleResourcesServer Name",
			"  attr config: WeatherConfig",
			"  attr ray_enabled: ClassVar[bool] = True",
			"  attr session_id_to_state: Dict[str, Any] = Field(default_factory=dict)",
			"  attr MAX_TURNS = 8",
			"  def setup_webserver(self) 7:9",
			"  async def seed_session(self, request: Request, body: BaseSeedSessionRequest) 11:15",
			"  def _helper(x, /, y=1, *args, z: int=2, **kwargs) 15:9 @staticmethod",
		}},
		{"bases", py(`
			class GSM8kServer(AviaryResourcesServer[CalculatorEnv, GSM8kDataset]):
				pass
			class AviaryResourcesServer(SimpleResourcesServer, Generic[TEnv, TDataset], ABC):
				pass
			class GenRMModel(GenRMModelMixin, vllm.app.LocalVLLMModel, *more, metaclass=ABCMeta, **extra):
				pass
			`), []string{
			"class GSM8kServer 1:7",
			"  base AviaryResourcesServer[CalculatorEnv, GSM8kDataset] Subscript",
			"class AviaryResourcesServer 3:7",
			"  base SimpleResourcesServer Name",
			"  base Generic[TEnv, TDataset] Subscript",
			"  base ABC Name",
			"class GenRMModel 5:7",
			"  base GenRMModelMixin Name",
			"  base vllm.app.LocalVLLMModel Attribute",
			"  base *more Starred",
			"  keyword metaclass=ABCMeta",
			"  keyword **=extra",
		}},
		{"odd bases", "class A(make_base(), bases[0], (B)):\n    pass\n", []string{
			"class A 1:7",
			"  base make_base() Call",
			"  base bases[0] Subscript",
			"  base B Name",
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
			"  @dataclass(frozen=True)",
			"  @registry.register(\"weather\")",
			"  @lambda c: c",
			"  attr name: str",
			"  attr retries: int = 3",
		}},
		{"class body shapes", py(`
			class A(Base):
				"""Docstring."""
				x = y = compute()
				a, b = 1, 2
				(p) = 3
				if FLAG:
					flagged = True
				class Meta:
					extra = "forbid"
				def f(self): pass
				def f(self, other): pass
				count += 1
				for i in range(3):
					looped = i
			`), []string{
			"class A 1:7",
			"  base Base Name",
			"  attr x = compute()",
			"  attr y = compute()",
			"  attr a",
			"  attr b",
			"  attr p = 3",
			"  attr flagged = True",
			"  attr Meta",
			"  attr looped = i",
			"  def f(self) 10:9",
			"  def f(self, other) 11:9",
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
			"class A 2:11 cond", "class B 4:11 cond", "class C 6:11 try", "  base Base Name",
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
	if a := c.Attr("x"); a == nil || m.Text(a.Value) != "2" || m.Text(a.Annotation) != "int" {
		t.Errorf("Attr(x) = %+v", a)
	}
	if f := c.Method("f"); f == nil || m.Line(f.NameSpan.Start) != 5 {
		t.Errorf("Method(f) = %+v", f)
	}
	if c.Method("g") != nil || c.Attr("g") != nil {
		t.Errorf("missing names found")
	}
	a := c.Attr("x")
	if want := (Span{Start: 49, End: 50}); a.Span != want || m.Pos(a.Span.Start) != (Pos{49, 4, 5}) {
		t.Errorf("attr span %+v, want %+v", a.Span, want)
	}
	if want := (Span{Start: 49, End: 59}); a.StmtSpan != want {
		t.Errorf("attr stmt span %+v, want %+v", a.StmtSpan, want)
	}
	if m.Classes[0].Body[1] != Stmt(c.Methods[0]) || m.Classes[0].Body[3] != Stmt(c.Methods[1]) || len(c.Methods) != 2 {
		t.Errorf("the methods are the body's defs")
	}
}

func TestFunctions(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		fn   string
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
			`), "verify", []string{
			"raise HTTPException(status_code=400, detail=\"Session not initialized. Call seed_session first.\") [session_id not in self.state]",
			"call HTTPException(status_code=400, detail=\"Session not initialized. Call seed_session first.\") [session_id not in self.state]",
			"assert body.response is not None",
			"await asyncio.to_thread(ray.get, self.score.remote(body)) try",
			"call asyncio.to_thread(ray.get, self.score.remote(body)) try",
			"call self.score.remote(body) try",
			"raise inTry handler",
			"raise ValueError [reward < 0]",
			"raise RuntimeError(\"bad\") from None",
			"call RuntimeError(\"bad\")",
		}},
		{"nested functions own their calls", py(`
			def outer(x=default_value()):
				prepare()
				@ray.remote(num_gpus=1)
				def inner(y=default()):
					return compute(y)
				class Helper:
					setting = configure()
					def method(self):
						helper_call()
				fn = lambda: lazy()
				return inner.remote(x)
			`), "outer", []string{
			"call prepare()",
			"call ray.remote(num_gpus=1)",
			"call default()",
			"call configure() class",
			"call lazy() deferred",
			"return inner.remote(x)",
			"call inner.remote(x)",
		}},
		{"nested def body", py(`
			def outer(x=default_value()):
				@ray.remote(num_gpus=1)
				def inner(y=default()):
					return compute(y)
			`), "inner", []string{"return compute(y)", "call compute(y)"}},
		{"call shapes", py(`
			def f(items):
				print(*items, **opts, sep="")
				sum(x * 2 for x in items)
				fn.options(num_cpus=2).remote(1)
				getattr(obj, "m")()
				handlers[name](payload)
				log(f"{describe(items)!r:>{width}}")
				x[key()] = value()
				for self.slot[pick()] in items: pass
			`), "f", []string{
			"call print(*items, **opts, sep=\"\")",
			"call sum((x * 2 for x in items))", // the generator's span has the call's parentheses, as in CPython
			"call <fn.options(num_cpus=2).remote>(1)",
			"call fn.options(num_cpus=2)",
			"call <getattr(obj, \"m\")>()",
			"call getattr(obj, \"m\")",
			"call <handlers[name]>(payload)",
			"call log(f\"{describe(items)!r:>{width}}\")",
			"call describe(items)",
			"call key()",
			"call value()",
			"call pick()",
		}},
		{"module-level functions in compound statements", py(`
			if HAVE_RAY:
				def start(): ray.init()
			else:
				def start(): pass
			`), "start", []string{"call ray.init()"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			checkLines(t, "flow of "+tc.fn, dumpFlow(m, funcNamed(t, m, tc.fn)), tc.want)
		})
	}
}

func TestFunctionHeads(t *testing.T) {
	m := parseSrc(t, py(`
		if HAVE_RAY:
			def start(): ray.init()
		else:
			def start(): pass
		@ray.remote(num_gpus=1)
		async def score(x: int, /, y=1, *, z, **kw) -> float:
			def inner(): pass
	`))
	checkLines(t, "functions", mapSlice(m.Functions, func(f *Function) string { return dumpFunctionHead(m, f) }), []string{
		"def start() 2:9",
		"def start() 4:9",
		"async def score(x: int, /, y=1, *, z, **kw) 6:11 @ray.remote(num_gpus=1)",
	})
	f := m.Functions[2]
	if m.Text(f.ReturnType) != "float" || !f.Async || m.Text(f) != "async def score(x: int, /, y=1, *, z, **kw) -> float:\n    def inner(): pass" {
		t.Errorf("score: %s %q", dump(f.ReturnType), m.Text(f))
	}
	if inner := f.Body[0].(*Function); inner.Name != "inner" || len(m.Functions) != 3 {
		t.Errorf("a nested def is a statement of its function, not a module function")
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
	checkLines(t, "module calls", dumpFlow(m, nil), []string{
		"call ray.init(address=\"auto\")",
		"call logging.getLogger(__name__)",
		"call load(path=os.path.join(ROOT, \"config.yaml\"))",
		"call os.path.join(ROOT, \"config.yaml\")",
		"call respond(req) deferred",
		"call app.get(\"/health\")",
		"call default_timeout()",
		"call make_meta()",
		"call Field(default_factory=dict) class",
		"call setup() try",
		"call fallback() inTry handler",
		"call Server.run_webserver() [__name__ == \"__main__\"] main",
		"call is_nemo_gym_fastapi_entrypoint(__file__) [not __name__ == \"__main__\"]",
		"call Server.run_webserver() [not __name__ == \"__main__\"] [is_nemo_gym_fastapi_entrypoint(__file__)]",
	})
	c := find[*Call](m, nil)[0]
	if c.Span != (Span{Start: 11, End: 35}) || m.Pos(c.End) != (Pos{35, 2, 25}) {
		t.Errorf("call span %+v", c.Span)
	}
	if c.Func.Range() != (Span{Start: 11, End: 19}) || m.Text(c.Func) != "ray.init" {
		t.Errorf("callee %s", dump(c.Func))
	}
	kw := c.Args[0]
	if kw.Kind != Keyword || kw.Name != "address" || m.Text(kw.Value) != `"auto"` || m.Pos(kw.Value.Range().Start).Col != 18 || m.SpanText(kw.Span) != `address="auto"` {
		t.Errorf("kwarg %+v", kw)
	}
	if v, ok := Str(kw.Value); !ok || v != "auto" {
		t.Errorf("Str(kwarg) = %q, %v", v, ok)
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
	checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding(m)), []string{
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
		"  base BaseResourcesServerConfig Name",
		"class WeatherResourcesServer 33:7",
		"  base SimpleResourcesServer Name",
		"  attr config: WeatherConfig",
		"  attr ray_enabled: ClassVar[bool] = True",
		"  attr session_id_to_state: Dict[str, Any] = Field(default_factory=dict)",
		"  def setup_webserver(self) 38:9",
		"  async def seed_session(self, request: Request, body: BaseSeedSessionRequest) 43:15",
		"  async def verify(self, request: Request, body) 50:15",
	})
	checkLines(t, "functions", mapSlice(m.Functions, func(f *Function) string { return dumpFunctionHead(m, f) }), []string{
		"def _score_remote(answer: str) 29:5 @ray.remote(num_gpus=1)",
	})
	checkLines(t, "_score_remote", dumpFlow(m, m.Functions[0]), []string{"return score_answer(answer)", "call score_answer(answer)"})
	server := m.Classes[1]
	var methods []string
	for _, f := range server.Methods {
		methods = append(methods, "def "+f.Name)
		methods = append(methods, mapSlice(dumpFlow(m, f), func(s string) string { return "  " + s })...)
	}
	checkLines(t, "methods", methods, []string{
		"def setup_webserver",
		"  call <super().setup_webserver>()",
		"  call super()",
		"  call <app.post(\"/get_weather\")>(self.get_weather)",
		"  call app.post(\"/get_weather\")",
		"  return app",
		"def seed_session",
		"  raise RuntimeError(\"session already seeded\") [session_id in self.session_id_to_state]",
		"  call RuntimeError(\"session already seeded\") [session_id in self.session_id_to_state]",
		"  return await super().seed_session(request, body)",
		"  await super().seed_session(request, body)",
		"  call <super().seed_session>(request, body)",
		"  call super()",
		"def verify",
		"  call self.session_id_to_state.pop(request.session[SESSION_ID_KEY], None)",
		"  assert state is not None",
		"  call _score_remote.remote(body.response)",
		"  await asyncio.get_running_loop().run_in_executor(None, ray.get, ref)",
		"  call <asyncio.get_running_loop().run_in_executor>(None, ray.get, ref)",
		"  call asyncio.get_running_loop()",
		"  return {\"reward\": reward}",
	})
	checkLines(t, "module calls", dumpFlow(m, nil), []string{
		"call ray.remote(num_gpus=1)",
		"call Field(default_factory=dict) class",
		"call WeatherResourcesServer.run_webserver() [__name__ == \"__main__\"] main",
		"call is_nemo_gym_fastapi_entrypoint(__file__) [not __name__ == \"__main__\"]",
		"call WeatherResourcesServer.run_webserver() [not __name__ == \"__main__\"] [is_nemo_gym_fastapi_entrypoint(__file__)]",
	})
	if m.Classes[1].Where != (Where{}) || m.Bindings[len(m.Bindings)-1].Where.InMainGuard {
		t.Errorf("where flags wrong")
	}
	if len(m.MainGuards) != 1 || m.MainGuards[0].If != m.Body[len(m.Body)-1] {
		t.Errorf("main guard: %+v", m.MainGuards)
	}
	if got := m.Text(m.Body[len(m.Body)-1]); !strings.HasSuffix(got, "app = WeatherResourcesServer.run_webserver()") {
		t.Errorf("the guard's statement ends at its last statement, not after its comment: %q", got)
	}
	if m.Prologue == nil || m.SpanText(*m.Prologue) != "from __future__ import annotations" {
		t.Errorf("prologue %v", m.Prologue)
	}
}

func TestPositions(t *testing.T) {
	t.Run("non-ASCII before identifier", func(t *testing.T) {
		src := "x = \"日本\"; app = 1\n"
		m := parseSrc(t, src)
		b := m.Bindings[1]
		// "日本" is 6 bytes: app starts at byte 14, column 15.
		if b.Name != "app" || b.Span != (Span{14, 17}) || m.Pos(b.Span.Start) != (Pos{14, 1, 15}) || m.Pos(b.Span.End) != (Pos{17, 1, 18}) {
			t.Errorf("app binding %+v", b)
		}
		if got := at(src, b.Span); got != "app" {
			t.Errorf("span text %q", got)
		}
		if v, _ := Str(m.Bindings[0].Value); v != "日本" {
			t.Errorf("value %q", v)
		}
	})
	t.Run("CRLF", func(t *testing.T) {
		src := "import os\r\n\r\nclass Server(Base):\r\n    ray_enabled: ClassVar[bool] = True\r\n\r\nif __name__ == \"__main__\":\r\n    Server.run_webserver()\r\nelif is_entry(__file__):\r\n    app = Server.run_webserver()\r\n"
		m := parseSrc(t, src)
		if m.SyntaxError != nil {
			t.Fatalf("syntax error %+v", m.SyntaxError)
		}
		checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding(m)), []string{
			"os import 1:1", "Server class 3:7", "app assign 9:5 cond = Server.run_webserver()",
		})
		a := m.Classes[0].Attrs[0]
		if m.Pos(a.Span.Start) != (Pos{38, 4, 5}) || m.Line(a.StmtSpan.End) != 4 || m.Pos(a.StmtSpan.End).Col != 39 {
			t.Errorf("attr spans %+v %+v", a.Span, a.StmtSpan)
		}
		if m.Text(a.Value) != "True" {
			t.Errorf("value %q", m.Text(a.Value))
		}
		InspectBody(m.Body, func(n Node, _ []Node) bool {
			if txt := m.Text(n); strings.HasSuffix(txt, "\r") || strings.HasPrefix(txt, "\n") {
				t.Errorf("%s's span includes a line end: %q", kindOf(n), txt)
			}
			return true
		})
		if m.LineStart(40) != 34 || m.LineEndsAfter(40) != 74 || m.Indent(40) != "    " {
			t.Errorf("line of offset 40: %d %d %q", m.LineStart(40), m.LineEndsAfter(40), m.Indent(40))
		}
	})
	t.Run("tabs and non-ASCII identifiers", func(t *testing.T) {
		src := "if True:\n\tcafé = 1\n\tπ = 2\n"
		m := parseSrc(t, src)
		checkLines(t, "bindings", mapSlice(m.Bindings, dumpBinding(m)), []string{"café assign 2:2 cond = 1", "π assign 3:2 cond = 2"})
		if e := m.Pos(m.Bindings[0].Span.End); e != (Pos{15, 2, 7}) {
			t.Errorf("café end %+v", e)
		}
		if ind := m.Indent(m.Bindings[1].Span.Start); ind != "\t" {
			t.Errorf("indent %q", ind)
		}
	})
	t.Run("BOM", func(t *testing.T) {
		m := parseSrc(t, "\ufeffapp = 1\n")
		if m.SyntaxError != nil || len(m.Bindings) != 1 || m.Pos(m.Bindings[0].Span.Start) != (Pos{3, 1, 4}) {
			t.Errorf("BOM: %+v %v", m.SyntaxError, mapSlice(m.Bindings, dumpBinding(m)))
		}
	})
	t.Run("line index", func(t *testing.T) {
		l := newLineIndex([]byte("ab\ncd\r\n\nx"))
		for off, want := range []Pos{{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {4, 2, 2}, {5, 2, 3}, {6, 2, 4}, {7, 3, 1}, {8, 4, 1}, {9, 4, 2}} {
			if got := l.pos(int32(off)); got != want {
				t.Errorf("pos(%d) = %+v, want %+v", off, got, want)
			}
		}
	})
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		start   int32 // the error's offset, -1 for any
		lineCol string
		message string
		// check runs on the model built despite the error.
		check func(t *testing.T, m *Module)
	}{
		{"unclosed paren", "import ray\nx = f(1,\napp = 2\n", 11, "2:1", `syntax error near "x = f(1,"`,
			func(t *testing.T, m *Module) {
				if len(m.Imports) != 1 {
					t.Errorf("imports before the error are kept: %v", mapSlice(m.Imports, dumpImport))
				}
				if len(find[*BadStmt](m, nil)) == 0 {
					t.Errorf("no BadStmt for the broken region")
				}
			}},
		{"stray def", "import os\ndef\n", 10, "2:1", `syntax error near "def"`, nil},
		{"def without body", "def f():\n\nclass A:\n    pass\n", 8, "1:9", "syntax error: expected an indented block",
			func(t *testing.T, m *Module) {
				if len(m.Functions) != 1 || len(m.Classes) != 1 {
					t.Errorf("model incomplete: %d functions, %v", len(m.Functions), dumpClasses(m))
				}
			}},
		{"def with only a comment", "def f():\n    # todo\n", 8, "1:9", "syntax error: expected an indented block", nil},
		{"missing token", "def f(:\n    pass\nclass A(Base):\n    x = 1\n", 6, "1:7", `syntax error: missing ")"`,
			func(t *testing.T, m *Module) {
				checkLines(t, "classes", dumpClasses(m), []string{"class A 3:7", "  base Base Name", "  attr x = 1"})
			}},
		{"empty block before a later error", "if x:\nfoo(\n", 5, "1:6", "syntax error: expected an indented block", nil},
		{"error before empty block", "x = = 1\nif y:\n", 4, "1:5", "syntax error near \"=\"", nil},
		{"error in class body", "class S(Base):\n    ray_enabled = True\n    def f(self:\n        return 1\n    x = )\n", -1, "", "",
			func(t *testing.T, m *Module) {
				if len(m.Classes) != 1 || m.Classes[0].Attr("ray_enabled") == nil {
					t.Errorf("class model lost: %v", dumpClasses(m))
				}
			}},
		{"unterminated string", "x = 'abc\ny = 1\n", -1, "", "", nil},
		{"unindent to no outer level", "def f():\n    x = 1\n  app = 2\n", 21, "3:3", "syntax error: unindent does not match any outer indentation level", nil},
		{"unexpected indent", "import os\n  app = 1\n", 12, "2:3", "syntax error: unexpected indent", nil},
		{"unexpected indent in block", "class A:\n    x = 1\n        y = 2\n", 27, "3:9", "syntax error: unexpected indent", nil},
		{"indented first line", "  import os\n", 2, "1:3", "syntax error: unexpected indent", nil},
		{"only garbage", "\x00\x01\xff\xfe)))", 0, "1:1", "", nil},
		{"statements recovered in order", "x = 1\ny = (\nz = 2\nclass A:\n    pass\n", -1, "", "",
			func(t *testing.T, m *Module) {
				if len(m.Classes) != 1 || m.Classes[0].Name != "A" {
					t.Errorf("the class after the error is lost: %v", dumpClasses(m))
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError == nil {
				t.Fatalf("no syntax error")
			}
			se := m.SyntaxError
			if tc.start >= 0 && (se.Span.Start != tc.start || lc(m, se.Span.Start) != tc.lineCol) {
				t.Errorf("error at %d (%s), want %d (%s): %s", se.Span.Start, lc(m, se.Span.Start), tc.start, tc.lineCol, se.Message)
			}
			if tc.message != "" && se.Message != tc.message {
				t.Errorf("message %q, want %q", se.Message, tc.message)
			}
			if se.Span.End < se.Span.Start || int(se.Span.End) > len(tc.src) {
				t.Errorf("bad span %+v", se.Span)
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

// TestValidSyntax checks that modern Python parses without a syntax error
// and that the model represents all of it: no BadStmt, and Other only for
// the patterns of match cases.
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
			patterns := map[Node]bool{}
			for _, mc := range find[*MatchCase](m, nil) {
				patterns[mc.Pattern] = true
			}
			InspectBody(m.Body, func(n Node, _ []Node) bool {
				switch n.(type) {
				case *BadStmt:
					t.Errorf("BadStmt for %q", m.Text(n))
				case *Other:
					if !patterns[n] {
						t.Errorf("Other for %q", m.Text(n))
					}
				}
				return true
			})
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
	defer func() {
		if recover() == nil {
			t.Errorf("Parse on a closed parser did not panic")
		}
	}()
	p.Parse("m.py", []byte("x = 1\n"))
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
		// Left-deep chains are walked in a loop: CPython 3.13 compiles
		// these (up to about 10,000 links; 3.12 about 3,000), and an `or`
		// or an `and` of any length (one BoolOp), which pyscan takes up to
		// maxNesting terms.
		{"bitwise chain", []byte("x = a" + strings.Repeat(" ^ a & a", 5000) + "\n"), ""},
		{"starred calls", []byte("x = [*f" + strings.Repeat("(1)", 5000) + "]\n"), ""},
		{"or chain", []byte("x = a" + strings.Repeat(" or a", 12000) + "\n"), ""},
		{"and-or chain", []byte("x = a" + strings.Repeat(" and a or a", 5000) + "\n"), ""}, // an `or` of `and`s
		{"sum", []byte("x = a" + strings.Repeat(" + a", 9000) + "\n"), ""},
		{"method chain", []byte("x = a" + strings.Repeat(".b()", 5000) + "\n"), ""},
		// Beyond maxNesting, the model would be too deep for the recursive
		// walks over it; CPython's recursion limit rejects these too.
		{"long bitwise chain", []byte("x = a" + strings.Repeat(" ^ a & a", 20000) + "\n"), deep},
		{"long starred calls", []byte("x = [*f" + strings.Repeat("(1)", 20000) + "]\n"), deep},
		{"long sum", []byte("x = a" + strings.Repeat(" + a", 20000) + "\n"), deep},
		// An `or` whose walk would hold more than maxNesting links' children.
		{"long or chain", []byte("x = a" + strings.Repeat(" or a", 100000) + "\n"), deep},
		// A right-recursive chain is recursion: beyond maxDepth it is too
		// deep, though CPython compiles up to about 3,000 of these.
		{"nots", []byte("x = " + strings.Repeat("not ", 1500) + "a\n"), deep},
		{"chained assignment", []byte(strings.Repeat("a = ", 50000) + "1\n"), ""},
		{"attributes", []byte("x = a" + strings.Repeat(".b", 50000) + "\n"), deep},
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
	start := time.Now()
	m := p.Parse("data.py", b.Bytes())
	d := time.Since(start)
	calls := find[*Call](m, nil)
	if m.SyntaxError != nil || len(calls) != 50000 || len(m.Bindings) != 5001 || len(m.Body) != 5001 {
		t.Fatalf("got %v, %d calls, %d bindings, %d statements", m.SyntaxError, len(calls), len(m.Bindings), len(m.Body))
	}
	if v, ok := calls[49999].Args[0].Value.(*Constant).Int(); !ok || v != 49999 {
		t.Errorf("last call's argument %v", v)
	}
	if d > 5*time.Second {
		t.Errorf("a 1 MB flat module took %v", d)
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
				got := mapSlice(m.Bindings, dumpBinding(m))
				want := []string{"x assign 1:1 = 1", fmt.Sprintf("café_%s assign 3:1 = '%s'", char, char), "app assign 4:1 = 2"}
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Fatalf("boundary %d, %q shifted %d: bindings %q", boundary, char, shift, got)
				}
				if v, _ := Str(m.Bindings[1].Value); v != char {
					t.Fatalf("boundary %d, %q shifted %d: value %q", boundary, char, shift, v)
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
		{"f-string interpolations", "msg = f\"{ray.get(ref)!r} {{not_a_call()}} {width():>{pad}}\"\nplain = \"{ray.get(ref)}\"\n",
			[]string{"call ray.get(ref)", "call width()"}},
		{"concatenated f-strings", "msg = 'a' f'{x()}' r'{y()}'\n", []string{"call x()"}},
		{"match subject and guards", "match load():\n    case Point(x=0) if check(x):\n        handle()\n    case _:\n        pass\n",
			[]string{"call load()", "call check(x) match", "call handle() match"}},
		{"callee shapes", "f()()\nhandlers[k](v)\nX[int].run_webserver()\n(lambda: 0)()\nray.get(ref)\n", []string{
			"call <f()>()", "call f()", "call <handlers[k]>(v)", "call <X[int].run_webserver>()", "call <lambda: 0>()", "call ray.get(ref)",
		}},
		{"class bodies and lambdas", "class A(Base, metaclass=meta()):\n    x = Field(default=f())\n    y = [g(i) for i in r]\ncb = lambda: h()\n",
			[]string{"call meta()", "call Field(default=f()) class", "call f() class", "call g(i) deferred class", "call h() deferred"}},
		{"augmented and walrus", "totals[key()] += value()\nif (n := count()) > 1:\n    pass\n", []string{"call key()", "call value()", "call count()"}},
		{"with and for", "with open(path()) as f, lock:\n    pass\nfor x in items():\n    use(x)\nelse:\n    done()\n",
			[]string{"call open(path())", "call path()", "call items()", "call use(x) loop", "call done() loop"}},
		{"while and try", "while more():\n    step()\ntry:\n    a()\nexcept make_error() as e:\n    b()\nelse:\n    c()\nfinally:\n    d()\n",
			[]string{"call more()", "call step() loop", "call a() try", "call make_error() inTry", "call b() inTry handler", "call c() inTry", "call d() inTry finally"}},
		{"decorators defaults and bases", "@deco(1)\ndef f(a=default(), *, b=other()):\n    inner()\nclass C(base()):\n    pass\n",
			[]string{"call deco(1)", "call default()", "call other()", "call base()"}},
		{"raise and assert at module level", "assert check(), explain()\nraise SystemExit(main())\n",
			[]string{"assert check()", "call check()", "call explain()", "raise SystemExit(main())", "call SystemExit(main())", "call main()"}},
		{"type alias and global", "type Alias = int\nglobal g\nreturn_value = compute()\n", []string{"call compute()"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError != nil {
				t.Fatalf("unexpected syntax error %+v", m.SyntaxError)
			}
			checkLines(t, "module calls", dumpFlow(m, nil), tc.want)
		})
	}
}

// TestCallDetails checks a call's callee and arguments.
func TestCallDetails(t *testing.T) {
	m := parseSrc(t, "loop.run_in_executor(None, ray.get, refs[0], *more, key=fn(), **opts)\n")
	c := m.Body[0].(*ExprStmt).Value.(*Call)
	if Dotted(c.Func) != "loop.run_in_executor" || m.Text(c.Func) != "loop.run_in_executor" {
		t.Errorf("callee %s", dump(c.Func))
	}
	var args []string
	for _, a := range c.Args {
		args = append(args, fmt.Sprintf("%d %q %s %s", a.Kind, a.Name, kindOf(a.Value), m.SpanText(a.Span)))
	}
	checkLines(t, "args", args, []string{
		`0 "" Constant None`, `0 "" Attribute ray.get`, `0 "" Subscript refs[0]`, `2 "" Name *more`,
		`1 "key" Call key=fn()`, `3 "" Name **opts`,
	})
	if a := c.Args[1]; a.Span != (Span{27, 34}) || a.Value.Range() != a.Span {
		t.Errorf("ray.get span %+v", a.Span)
	}
	if !IsNone(c.Positional(0)) || Dotted(c.Positional(1)) != "ray.get" || c.Positional(3) != nil || Dotted(c.Keyword("key").(*Call).Func) != "fn" || !c.HasSplat() {
		t.Errorf("Positional/Keyword/HasSplat")
	}

	m = parseSrc(t, "x = a . b . c\ny = (a\n  .b  # comment\n  .c)\nz = (a\n  .b  # comment\n  .c).d\nw = a.b  .c\nv = a().b\n")
	checkLines(t, "dotted", mapSlice(m.Bindings, func(b *Binding) string { return Dotted(b.Value) }), []string{"a.b.c", "a.b.c", "a.b.c.d", "a.b.c", ""})
	if e := m.Bindings[1].Value; m.Text(e) != "a\n  .b  # comment\n  .c" {
		t.Errorf("a parenthesised value's span is the inner expression's: %q", m.Text(e))
	}
	if !m.HasComment(m.Bindings[1].Value.Range()) || m.HasComment(m.Bindings[0].Value.Range()) {
		t.Errorf("HasComment")
	}
}

// TestGrammarTables checks that every node kind, token and field name the
// walker looks for exists in the grammar: an unknown name would find
// nothing, silently.
func TestGrammarTables(t *testing.T) {
	g := loadGrammar()
	for name := range kindNames {
		if name == "ERROR" {
			continue
		}
		if g.lang.IdForNodeKind(name, true) == 0 {
			t.Errorf("the grammar has no named node kind %q", name)
		}
	}
	for name := range tokNames {
		if g.lang.IdForNodeKind(name, false) == 0 {
			t.Errorf("the grammar has no token %q", name)
		}
	}
	for f, name := range fieldNames {
		if name != "" && g.lang.FieldIdForName(name) == 0 {
			t.Errorf("the grammar has no field %q", name)
		}
		if name == "" && f != int(fNone) {
			t.Errorf("field %d has no name", f)
		}
	}
	// Every kind the walker distinguishes is mapped from some symbol.
	seen := map[kind]bool{}
	for id, k := range g.kinds {
		if g.named[id] {
			seen[k] = true
		}
	}
	for name, k := range kindNames {
		if !seen[k] && name != "ERROR" {
			t.Errorf("no symbol maps to %q", name)
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
		"y = [x for x in 1, 2]\n",  // Python 2 comprehension over a bare tuple
		"x = A: 0\n",               // an annotation in a chained assignment
		"a: (b := int) = c = 1\n",  // an annotated chained assignment
	} {
		m := parseSrc(t, src)
		if m.SyntaxError != nil {
			t.Errorf("%q: tree-sitter-python now rejects it: %+v", src, m.SyntaxError)
		}
		if strings.HasPrefix(src, "print") || strings.HasPrefix(src, "exec") {
			if _, ok := m.Body[0].(*BadStmt); !ok {
				t.Errorf("%q: %s, want a BadStmt first", src, dump(m.Body[0]))
			}
		}
	}
}
