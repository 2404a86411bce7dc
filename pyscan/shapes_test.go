package pyscan

import (
	"strconv"
	"strings"
)

// diffShapes are sources of the shapes the model represents, the ones
// real NeMo Gym servers use and the corners of the grammar, for the
// differential test against CPython's ast (TestDifferentialCPython) and
// as seeds of the fuzz targets. Each must be valid Python 3.11.
var diffShapes = []string{
	// Decorators, async, parameters of every kind.
	"@app.post(\"/verify\")\n@functools.lru_cache(maxsize=None)\nasync def verify(self, request: Request, body: VerifyRequest) -> VerifyResponse:\n    return await super().verify(request, body)\n",
	"def f(a, b=1, /, c=2, *, d, e=3, **kw): pass\ndef g(*args, k: int = 0, **kwargs) -> None: ...\ndef h(a, /): pass\ndef i(*, a): pass\n",
	"f = lambda: 0\ng = lambda x, /, y=1, *a, z, **k: (x, y, a, z, k)\nh = lambda *, k=lambda: 1: k\n",
	"@buttons[0].clicked.connect\ndef f(): pass\n@(lambda f: f)\ndef g(): pass\n@x if y else z\ndef h(): pass\n@a.b.c\nclass C: pass\n",
	"class A(B, *mixins, metaclass=M, **kw):\n    x: int\n    y: ClassVar[bool] = True\n    def m(self): pass\nclass D(Generic[T], ABC): pass\nclass E(): pass\nclass F(metaclass=M, *bases, **kw): pass\n",
	// Async for and with, with items of every form.
	"async def main():\n    async with session() as s, lock:\n        async for item in s.stream():\n            await handle(item)\n    async with a as (b, c), d as [e, f]:\n        pass\n",
	"with open(p) as fh, lock:\n    pass\nwith (\n    open(a) as fa,\n    open(b) as fb,\n):\n    pass\nwith (yield_ctx()):\n    pass\nwith a as b.c, d as e[0]:\n    pass\nwith (a, b):\n    pass\nwith (a):\n    pass\nwith (open(p) as f):\n    pass\nwith (a as (x, y)):\n    pass\n",
	// Try: handlers of every form, except*.
	"try:\n    run()\nexcept (KeyError, ValueError) as err:\n    log(err)\nexcept OSError:\n    raise\nexcept:\n    pass\nelse:\n    ok()\nfinally:\n    done()\n",
	"try:\n    run()\nexcept* (ValueError, TypeError) as eg:\n    log(eg)\nexcept* OSError:\n    pass\n",
	"try:\n    pass\nfinally:\n    pass\ntry:\n    x\nexcept A as e:\n    raise B from e\nexcept (C) as e:\n    raise B from None\nexcept a.b.C:\n    pass\n",
	// Comparisons and boolean operators.
	"x = a < b <= c == d != e > f >= g\ny = a is not b\nz = a not in b in c is d\nw = not a == b\n",
	"x = a or b or c\ny = (a or b) or c\nz = a or (b or c)\nw = a and b or c and d\nv = a and b and (c and d)\nu = not a and not b or c\n",
	"x = (y := f(1))\nif (n := len(a)) > 10:\n    pass\nprint(z := 3)\nwhile (chunk := r.read(1024)):\n    process(chunk)\nys = [last := g(v) for v in xs]\n",
	// Comprehensions of every kind, several clauses.
	"a = [x for x in xs]\nb = {x for x in xs if x if not x}\nc = {k: v for k, v in d.items() if k for j in v}\nd = (x for x in xs)\ne = sum(x * 2 for x in xs)\nf = [y for x in xs if x for y in x if y > 1]\n",
	"async def f():\n    return [x async for x in aiter() if await x]\ng = [[y for y in x] for x in xss]\nh = f(x for x in xs)\ni = f(*(x for x in xs))\nj = [x for x, in pairs]\nk = [x for x in (1, 2)]\n",
	// Calls: argument order and kinds.
	"f(a, *b, c=1, **d, e=2)\nf(*a, b)\nf(**a, **b)\ng(x)(y)\nh[k](v)\nfn.options(num_cpus=2).remote(1)\nf(a,)\nf()\n",
	"print(*items, **opts, sep=\"\")\nloop.run_in_executor(None, ray.get, refs[0], *more, key=fn(), **opts)\nf(a for a in b)\n",
	// F-strings.
	"a = f\"{x!r:>{width}} {y!s} {z!a} {{literal}} }} {{\"\nb = f\"a{b}c\" \"d\" f'{e}'\nc = f\"\"\nd = f\"{x}\"\ne = \"a\" f\"b\"\nf = f\"{x:{y}.{z}f}\"\ng = f\"{'nested'}\" rf\"\\d{x}\"\n",
	"msg = f\"{d['key']}: {', '.join(items)!r} {x:>{width}}\"\nn = f\"{a=}\"\nm = f\"{a + b = }\"\no = f\"\"\"multi\n{line}\n\"\"\"\np = f'{x:%Y-%m-%d}'\nq = F\"{x}\" fR'{y}\\n'\n",
	// Strings: concatenation, prefixes, escapes.
	"a = 'x' \"y\" '''z'''\nb = r'\\d+\\n' R\"\\x\"\nc = b'\\x00\\xff\\n' rb'\\x00' Rb\"y\" BR'z'\nd = u'\\u00e9\\U0001F600\\N{BULLET}'\ne = '\\101\\7\\0\\377'\nf = b'\\101\\7\\777'\n",
	"a = 'tab\\there\\\\ quote\\' dq\\\" bell\\a bs\\b ff\\f vt\\v cr\\r'\nb = 'unknown \\d \\w \\q'\nc = 'line \\\ncontinued'\nd = '''two\nlines'''\ne = \"\\\"\"\nf = b'\\u00e9 \\N{x}'\ng = r'line \\\ncontinued'\n",
	"s = '\\x41\\x7e é 日本 😀'\nt = \"\"\"\\\n\"\"\"\nu = ''\nv = b''\nw = 'a' 'b' 'c'\nx = '\\N{BULLET} and \\N{EM DASH}'\n",
	// Numbers.
	"a = 0x1F + 0X_ff + 0o17 + 0O_7 + 0b101 + 0B_1 + 1_000_000 + 0 + 00 + 0_0\nb = 1.5 + 1. + .5 + 1e10 + 1E-3 + 1_0.0_1 + 2.5e+3 + 1e16 + 1e-5 + 123456789012345678.0\nc = 1j + 2.5J + 1e-3j + 0j + 1_0j\nd = 123456789012345678901234567890 + 0xFFFFFFFFFFFFFFFFFFFF\ne = 1e400 + 0.1 + 1/3 + 0.0001 + 1e15 + 5e-324\n",
	"x = -1\ny = +2\nz = ~3\nw = -(-1)\nv = 2 ** -1\nu = a @ b\nt = a // b % c << d >> e | f ^ g & h\ns = (a + b) * (c - d) / e\nr = a ** b ** c\nq = a - b - c\n",
	// A star that starts a call, attribute, subscript or binary operation
	// (tree-sitter reads *a(1) in a display as (*a)(1)).
	"a = [*range(3), *b.c(1), *d(1).e, *f(1)[0], *g(1)(2), *h + i + j, * k.l]\nb = {*a(1)}\nc = *a(1), b\n*a.b, c = d\nfor x in *a(), b: pass\nd = [*a ^ b & c]\n",
	// Bitwise operators: tree-sitter-python groups ^ before &, Python & before ^.
	"a = x ^ y & z\nb = x & y ^ z\nc = v ^ w & x & y ^ z\nd = v | w ^ x & y\ne = (x ^ y) & z\nf = x & (y ^ z)\ng = (a) & (b + c) ^ d << 2\nh = x ^ y ^ z & -w\n",
	// Subscripts, slices, annotations.
	"a = x[1]\nl = x[a,]\nm = x[1:2,]\nb = x[1:2]\nc = x[::2]\nd = x[1:2, ::3]\ne = x[a, b]\nf = x[:]\ng = x[1:]\nh = x[...]\ni = x[(1, 2)]\nj = x[a, b,]\nk = x[lo:hi:step]\n",
	"def f(x: int | None = None, y: dict[str, list[int]] = {}, z: 'Fwd' = 1) -> dict[str, list[int]] | None:\n    v: Callable[[int], str] = g\n    w: typing.Optional[a.b.C] = None\n    u: list[int]\n    t: tuple[int, ...] = ()\n    return None\n",
	"x: int = 1\ny: Dict[str, Any] = Field(default_factory=dict)\n(z): int = 2\na.b: int = 3\nc[0]: int = 4\nd: 'str'\ne: int | str | None = None\nf: Literal['a', 'b'] = 'a'\n",
	"def f(a: int, *args: str, b: list[int] = [], **kw: Any) -> typing.Dict[str, a.b]: pass\ndef g(x: Annotated[int, Field(gt=0)]) -> 'A': pass\n",
	"def f(a: list[int] | None, b: list[int].c, *d: *Ts, e: type[A] = B, f: Callable[[int], str] = g, h: dict[str, Any] | None = None) -> tuple[int, ...] | None: pass\nx: type[Base] | list[int] = A\n",
	// Assignments and targets.
	"a, *b = c\n[d, *e] = f\ng, = h\n(i, (j, k)) = l\nm = n = o = p()\nq[0], r.s = 1, 2\nt = yield_ = 1\nx = *a, *b\nfor i, *rest in items: pass\nfor (a, b) in c: pass\nfor [a, b] in c: pass\n",
	"count += 1\nx -= 1\nx *= 2\nx @= m\nx /= 2\nx //= 2\nx %= 3\nx **= 2\nx <<= 1\nx >>= 1\nx |= 1\nx ^= 1\nx &= 1\nself.count += 1\nd[k] += v\n",
	"del a\ndel a, b\ndel a[0], b.c\ndel (a, b)\ndel [a, b]\n",
	// Displays.
	"a = [1, 2, *b]\nb = (1,)\nc = ()\nd = {1, *s}\ne = {}\nf = {'a': 1, **g, 'b': 2}\ng = [*a, *b]\nh = 1, 2\ni = [\n    1,\n    2,\n]\nj = [],\n",
	// Control flow.
	"if a:\n    pass\nelif b:\n    pass\nelif c:\n    pass\nelse:\n    pass\nif x: y = 1; z = 2\nwhile x:\n    break\nelse:\n    continue_ = 1\nfor i in range(3):\n    continue\nelse:\n    pass\nfor x in 1, 2: pass\nfor x in *a, b: pass\n",
	"def gen():\n    yield\n    yield 1\n    yield 1, 2\n    x = yield\n    y = yield from other()\n    z = (yield)\n    await_ = 1\n    return 1, 2\n    return *a, b\n",
	"async def f():\n    x = await g()\n    await asyncio.sleep(0)\n    return await h()\n    async for a, b in c:\n        pass\n",
	"assert x\nassert x, 'msg'\nraise\nraise E\nraise E('x') from err\nglobal a, b\ndef f():\n    global c\n    def g():\n        nonlocal d, e\n",
	"import os\nimport os.path\nimport a.b.c as d, e\nfrom . import x\nfrom .. import y as z\nfrom .m import *\nfrom ...p.q import (r, s as t,)\nfrom __future__ import annotations\nimport os . path\nfrom a . b import c\n",
	// Match.
	"match command.split():\n    case [action]:\n        pass\n    case [action, obj] if obj in OBJECTS:\n        pass\n    case Point(x=0, y=0) | {'k': _}:\n        pass\n    case str() as s:\n        pass\n    case _:\n        raise ValueError(command)\nmatch a, b:\n    case 1, 2:\n        pass\nmatch *a, b:\n    case _:\n        pass\n",
	"match = re.match(p, s)\nmatch.group(0)\ncase = 1\ntype = 3\nprint(type)\nobj.match = obj.type = obj.case = 1\nmatch(x)\n",
	// Ternaries, lambdas, starred, misc.
	"x = a if b else c if d else e\ny = (lambda: 1)()\nz = [*range(3)]\nw = not not a\nv = a if (b := c) else d\nu = (a if b else c)(d)\n",
	"x = 1 + \\\n    2\nfrom a import (b,\n    c)\ny = (  # comment\n    1\n)\nz = (a\n  .b  # comment\n  .c)\n",
	"class P(Protocol):\n    def f(self) -> int: ...\n    \"\"\"Doc.\"\"\"\n    x = ...\n",
	"\"\"\"Module docstring.\"\"\"\nfrom __future__ import annotations\n\nimport os\n",
	"print('x', file=sys.stderr)\nprint(x)\nprint (a), b\nprint -1\nprint [0]\nprint, x\nexec('x')\nexec -1\n",
	// CRLF, tabs, form feed, non-ASCII, no trailing newline.
	"class A:\r\n    def f(self):\r\n        s = '''a\r\nb'''\r\n        return 'é'\r\n",
	"def f():\n\tif x:\n\t\treturn 1\n\f\nx = 1\ncafé = 'π'\n日本 = 2",
	"\ufeffapp = 1\nx = 'é'\n",
	// A NeMo Gym server.
	py(`
		from nemo_gym.server_utils import SESSION_ID_KEY, is_nemo_gym_fastapi_entrypoint

		class WeatherServer(SimpleResourcesServer):
			config: WeatherConfig
			ray_enabled: ClassVar[bool] = True
			session_id_to_state: Dict[str, Any] = Field(default_factory=dict)

			def setup_webserver(self) -> FastAPI:
				app = super().setup_webserver()
				app.post("/get_weather")(self.get_weather)
				return app

			async def verify(self, request: Request, body: BaseVerifyRequest) -> BaseVerifyResponse:
				state = self.session_id_to_state.pop(request.session[SESSION_ID_KEY], None)
				assert state is not None, "verify before seed_session"
				reward = await asyncio.get_running_loop().run_in_executor(None, ray.get, ref)
				if (turns := state["turns"]) > MAX_TURNS:
					logger.warning("too many turns: %d", turns)
				return BaseVerifyResponse(**body.model_dump(), reward=reward)

		if __name__ == "__main__":
			WeatherServer.run_webserver()
		elif is_nemo_gym_fastapi_entrypoint(__file__):
			app = WeatherServer.run_webserver()  # noqa: F401
	`),
	// Lines inside brackets indented less than their statement, which
	// tree-sitter-python's scanner takes for dedents (see input.go), with
	// comments, backslashes and strings among them.
	"def f():\n    (bar.\nbaz)\n    (bar.\nbaz(\n))\n    x = [1 +\n2,  # two\n  3, f(a=\n4), {'k':\n5}, \\\n6]\n    return x\n",
	"class C:\n    def m(self):\n        return (self.a +\n  self.b  # sum\n# alone\n  + '''x\ny''' + f'{self.c}' +\nf\"{'d'}\" + rb'\\'' +\n  z)\n",
	"def f():\n    x = f'''{(a +\nb)!r:>{(w +\nv)}}'''\n    return (x.\nstrip())\n",
	"if a:\r\n    x = (b.\r\nc)  # crlf\r\n    y = [d, # e\r\nf]\r\n",
	// CPython's line ends: a lone CR, and all three mixed.
	"import os\r# note\rx = 1\rdef f():\r    '''doc\r    more'''\r    return (1,\r2)\r",
	"a = 1\r\nb = 2\rc = 3\nif a:\r\n    d = '''x\ry\r\nz\n'''  # e\r    f = a + \\\rb\r\r\n\n\rg = 4",
	// The text of a self-documenting field over lines, its line ends read
	// as "\n".
	"x = f'''{\r\n3\r\n=}''' + f'''{a\r=!r}'''\r\n",
	// Long left-deep chains, which the walker walks in a loop.
	"x = " + strings.Join(numbered("x", 1500), " or ") + "\n",
	"y = " + strings.Join(numbered("y", 1100), " + ") + "\n",
	"z = (a and b or c) or d and e and f or (g or h) and i\n",
	"w = a" + strings.Repeat(".b(1)[2]", 300) + ".c\n",
	"v = a" + strings.Repeat(" ^ b & c | d", 300) + "\n",
	// Comments at the ends of compound statements.
	"def f():\n    return 1\n    # trailing\n\nif a:\n    x = 1  # c\nelif b:\n    y = 2  # d\nelse:\n    z = 3  # e\ntry:\n    p  # f\nexcept E:\n    q  # g\nfinally:\n    r  # h\nclass C:\n    x = 1\n    # end\n",
	"for x in y:\n    a  # c\nelse:\n    b  # d\nwhile x:\n    a  # e\nwith a:\n    b  # f\nmatch x:\n    case 1:\n        a  # g\n    case _:\n        b  # h\n@dec  # c\ndef g():  # d\n    pass  # e\n",
}

// diffKnown are valid Python 3.11 sources whose model differs from
// CPython's ast because of a limit of tree-sitter-python that the walker
// does not work around. TestDifferentialCPython checks that they still
// differ, so that a grammar upgrade that mends one says so.
var diffKnown = []struct{ src, why string }{
	{"print >> f, x\n", "tree-sitter-python reads `print >> f, x` (a tuple in Python 3, which fails when it runs) as Python 2's print statement with a chevron: a BadStmt and the expression statement x"},
}

// numbered returns prefix0, prefix1, ..., prefix(n-1).
func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}
