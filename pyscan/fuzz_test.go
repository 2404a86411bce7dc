package pyscan

import (
	"reflect"
	"testing"
)

// fuzzSeeds are the fuzz targets' seeds besides pyscan/testdata/fuzz: the
// old model's seeds, then (in seedSources) diffShapes and a generated
// server module.
var fuzzSeeds = []string{
	// A Gym entrypoint with the __main__ guard and its elif app branch.
	"from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint\n" +
		"class S(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n" +
		"    async def verify(self, request: Request, body):\n        return await asyncio.to_thread(ray.get, ref)\n" +
		"if __name__ == \"__main__\":\n    S.run_webserver()\n" +
		"elif is_nemo_gym_fastapi_entrypoint(__file__):\n    app = S.run_webserver()  # noqa: F401\n",
	// Relative imports with a bare fallback.
	"try:\n    from .utils import grade as g\nexcept ImportError:\n    import sys\n    from utils import *\n",
	// A generic base, decorators and class keywords.
	"@dataclass(frozen=True)\nclass A(Base[TEnv, TData], Generic[T], metaclass=M, **kw):\n    x: int\n    y = z = 1\n",
	// Ray remote functions nested in a function.
	"def outer():\n    @ray.remote(num_gpus=1)\n    def inner(x, /, *a, k=1, **kw):\n        raise ValueError('x') from None\n    return inner.options(num_cpus=2).remote(1)\n",
	// match, walrus, except*, f-strings.
	"match ev:\n    case {\"t\": t} if (n := len(t)) > 1:\n        print(f\"{t!r:>{n}}\")\n" +
		"try:\n    pass\nexcept* (ValueError, TypeError) as eg:\n    raise\n",
	// CRLF and non-ASCII text.
	"x = \"日本\"; app = 1\r\nclass Ü:\r\n    π = 3\r\n",
	// Syntax errors: an unclosed paren, a def without a body, a MISSING token.
	"x = f(1,\napp = 2\n",
	"def f():\n\nclass A:\n    pass\n",
	"def f(:\n    pass\n",
	// Bad indentation and a lone dedent.
	"if x:\n        a = 1\n    b = 2\n  c = 3\n",
	// Deep nesting and odd bytes.
	"x = ((((((((((f(a[b[c]]))))))))))\n\x00\xff\xfe\r\r\n\f\t",
	// Lambdas, comprehensions and async.
	"f = lambda v=g(): (w := v)\n[y := h(x) for x in xs]\nasync def m():\n    async with a() as (b, c):\n        async for d in e():\n            await d\n",
	// PEP 695 and assignments of every shape.
	"type P[T] = tuple[T, T]\na, *b = [c] = d.e[f()] = g\nh += 1\n(i) = 2\n",
	"",
}

// seedSources are the seeds of both fuzz targets.
func seedSources() []string {
	out := append([]string(nil), fuzzSeeds...)
	out = append(out, diffShapes...)
	for _, k := range diffKnown {
		out = append(out, k.src)
	}
	return append(out, string(gymModule(4<<10)))
}

// FuzzParse checks that Parse never panics on any bytes and that the
// model it builds holds checkInvariants' invariants: spans inside the file
// and ordered, children inside their parents, Inspect in source order,
// required fields set, the module-scope indexes agreeing with Body.
func FuzzParse(f *testing.F) {
	for _, s := range seedSources() {
		f.Add([]byte(s))
	}
	p := NewParser(Options{})
	defer p.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		const path = "resources_servers/fuzz/app.py"
		m := p.Parse(path, src)
		if m.Path != path || m.Name != "resources_servers.fuzz.app" || m.IsPackage {
			t.Fatalf("module header %q %q %v", m.Path, m.Name, m.IsPackage)
		}
		checkInvariants(t, m, src)

		// A file has a syntax error exactly when tree-sitter found one
		// (in the text it parses, see input.go), or a layout error it
		// accepts.
		tree, _ := p.parseTree(src, nil, nil)
		if tree == nil {
			t.Fatalf("tree-sitter timed out")
		}
		tree, _ = p.relex(&Module{}, src, tree, nil)
		treeErr := tree.RootNode().HasError()
		tree.Close()
		if m.SyntaxError == nil && treeErr {
			t.Fatalf("SyntaxError is nil, but tree-sitter found an error")
		}

		// The same parser gives the same model again.
		if again := p.Parse(path, src); !reflect.DeepEqual(m, again) {
			t.Fatalf("a second parse gives a different model")
		}
	})
}
