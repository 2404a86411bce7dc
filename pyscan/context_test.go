package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// ctxOfCalls gives dumpCtx of every call whose callee is a plain name,
// by that name, with the name of the function holding it ("-" for none).
func ctxOfCalls(m *Module) map[string]string {
	out := map[string]string{}
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		if c, ok := n.(*Call); ok {
			if nm, ok := c.Func.(*Name); ok {
				fn := "-"
				if f := ContextOf(stack).Function; f != nil {
					fn = f.Name
				}
				if _, dup := out[nm.Id]; dup {
					panic("test source: two calls of " + nm.Id)
				}
				out[nm.Id] = fn + dumpCtx(m, stack)
			}
		}
		return true
	})
	return out
}

func checkCtx(t *testing.T, src string, want map[string]string) {
	t.Helper()
	m := parseSrc(t, src)
	if m.SyntaxError != nil {
		t.Fatalf("syntax error %+v", m.SyntaxError)
	}
	got := ctxOfCalls(m)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s(): %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d calls, %d expected: %v", len(got), len(want), got)
	}
}

func TestContextGuards(t *testing.T) {
	checkCtx(t, py(`
		def f(a, b, c):
			t0()
			if a:
				t1()
				if not b:
					t2()
			elif b:
				t3()
			elif cond(c):
				t4()
			else:
				t5()
			if x(a) or y(b):
				pass
			z = t6() if a else t7()
	`), map[string]string{
		"t0":   "f",
		"t1":   "f [a]",
		"t2":   "f [a] [not b]",
		"t3":   "f [not a] [b]",
		"cond": "f [not a] [not b]",
		"t4":   "f [not a] [not b] [cond(c)]",
		"t5":   "f [not a] [not b] [not cond(c)]",
		// The test of an if is not guarded by itself; a conditional
		// expression sets no guard (ContextOf follows statements).
		"x": "f", "y": "f", "t6": "f", "t7": "f",
	})
	// Guard.If is the statement, and Negated says which branch.
	m := parseSrc(t, "if a:\n    pass\nelif b:\n    x()\n")
	var g []Guard
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		if _, ok := n.(*Call); ok {
			g = ContextOf(stack).Guards
		}
		return true
	})
	outer := m.Body[0].(*If)
	if len(g) != 2 || g[0].If != outer || !g[0].Negated || g[1].If != outer.Else[0] || g[1].Negated || m.Text(g[1].Test) != "b" {
		t.Errorf("guards %+v", g)
	}
}

func TestContextLoops(t *testing.T) {
	checkCtx(t, py(`
		def f(xs):
			for x in items():
				body()
				for y in inner():
					deep()
			else:
				after_for()
			while more():
				step()
			else:
				after_while()
			async for z in aitems():
				abody()
			done()
	`), map[string]string{
		// The iterator of a for and the test of a while are evaluated
		// where the statement is (ContextOf: not "in the loop").
		"items": "f", "body": "f loop", "inner": "f loop", "deep": "f loop",
		"after_for": "f loop", "more": "f", "step": "f loop", "after_while": "f loop",
		"aitems": "f", "abody": "f loop", "done": "f",
	})
}

func TestContextTry(t *testing.T) {
	src := py(`
		def f():
			try:
				body()
				try:
					inner()
				except ValueError:
					inner_handler()
			except (KeyError, make_error()) as err:
				handler(err)
			except* OSError:
				star_handler()
			else:
				orelse()
			finally:
				fin()
			after()
	`)
	checkCtx(t, src, map[string]string{
		"body": "f try", "inner": "f try", "inner_handler": "f try handler",
		"make_error": "f inTry", "handler": "f inTry handler", "star_handler": "f inTry handler",
		"orelse": "f inTry", "fin": "f inTry finally", "after": "f",
	})
	// Tries are the statements whose body holds the node, outermost first;
	// Handler is the innermost except clause.
	m := parseSrc(t, src)
	outer := m.Functions[0].Body[0].(*Try)
	inner := outer.Body[1].(*Try)
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		c, ok := n.(*Call)
		if !ok {
			return true
		}
		ctx := ContextOf(stack)
		switch Dotted(c.Func) {
		case "inner":
			if len(ctx.Tries) != 2 || ctx.Tries[0] != outer || ctx.Tries[1] != inner {
				t.Errorf("inner(): Tries %v", ctx.Tries)
			}
		case "inner_handler":
			if len(ctx.Tries) != 1 || ctx.Tries[0] != outer || ctx.Handler != inner.Handlers[0] {
				t.Errorf("inner_handler(): Tries %v Handler %v", ctx.Tries, ctx.Handler)
			}
		case "handler":
			if ctx.Handler != outer.Handlers[0] {
				t.Errorf("handler(): Handler %v", ctx.Handler)
			}
		}
		return true
	})
}

func TestContextWithMatch(t *testing.T) {
	checkCtx(t, py(`
		async def f(cmd):
			with lock(), open(path()) as fh:
				body()
				async with session() as s:
					inner()
			match subject():
				case [x] if guard(x):
					case_body()
				case _:
					other()
	`), map[string]string{
		"lock": "f", "open": "f", "path": "f", "body": "f with", "session": "f with", "inner": "f with",
		"subject": "f", "guard": "f match", "case_body": "f match", "other": "f match",
	})
	m := parseSrc(t, "with a() as x:\n    with b():\n        c()\n")
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		if c, ok := n.(*Call); ok && Dotted(c.Func) == "c" {
			ws := ContextOf(stack).Withs
			if len(ws) != 2 || ws[0] != m.Body[0] || ws[1] != m.Body[0].(*With).Body[0] {
				t.Errorf("Withs %v", ws)
			}
		}
		return true
	})
}

func TestContextDeferred(t *testing.T) {
	checkCtx(t, py(`
		def f(xs):
			cb = lambda v=default(): later(v)
			ys = [elt(x) for x in first() if cond(x) for y in second(x)]
			gen = (gelt(x) for x in gfirst())
			d = {k(x): v(x) for x in dfirst()}
			run(lambda: nested(lambda: deepest()))
	`), map[string]string{
		// A lambda's defaults and a comprehension's first iterable are
		// evaluated at once, in the enclosing scope; the rest runs later
		// or in the comprehension's own scope.
		"default": "f", "later": "f deferred",
		"first": "f", "elt": "f deferred", "cond": "f deferred", "second": "f deferred",
		"gfirst": "f", "gelt": "f deferred",
		"dfirst": "f", "k": "f deferred", "v": "f deferred",
		"run": "f", "nested": "f deferred", "deepest": "f deferred",
	})
}

func TestContextFunctions(t *testing.T) {
	checkCtx(t, py(`
		@module_deco()
		def outer(a=module_default()) -> module_ann():
			outer_body()
			@outer_deco()
			def inner(b=outer_default()) -> outer_ann():
				inner_body()
			class K(outer_base()):
				attr = class_body()
				@class_deco()
				def method(self, c=class_default()):
					method_body()
		class Top(module_base()):
			x = top_class_body()
			def m(self):
				m_body()
	`), map[string]string{
		"module_deco": "-", "module_default": "-", "module_ann": "-",
		"outer_body": "outer", "outer_deco": "outer", "outer_default": "outer", "outer_ann": "outer",
		"inner_body": "inner", "outer_base": "outer", "class_body": "outer class",
		"class_deco": "outer class", "class_default": "outer class", "method_body": "method",
		"module_base": "-", "top_class_body": "- class", "m_body": "m",
	})
}

func TestContextMainGuard(t *testing.T) {
	checkCtx(t, py(`
		if __name__ == "__main__":
			main_body()
			if extra():
				nested_main()
			def helper():
				in_def()
			class C:
				in_class = class_in_main()
		elif entry():
			entry_body()
		else:
			else_body()
		if "__main__" == __name__:
			reversed_guard()
		def f():
			if __name__ == "__main__":
				in_function()
	`), map[string]string{
		"main_body":      `- [__name__ == "__main__"] main`,
		"extra":          `- [__name__ == "__main__"] main`,
		"nested_main":    `- [__name__ == "__main__"] [extra()] main`,
		"in_def":         "helper",
		"class_in_main":  `- [__name__ == "__main__"] main class`,
		"entry":          `- [not __name__ == "__main__"]`,
		"entry_body":     `- [not __name__ == "__main__"] [entry()]`,
		"else_body":      `- [not __name__ == "__main__"] [not entry()]`,
		"reversed_guard": `- ["__main__" == __name__] main`,
		"in_function":    `f [__name__ == "__main__"]`,
	})
}

// TestInspectOrder checks what Inspect visits, in which order, and with
// which stack.
func TestInspectOrder(t *testing.T) {
	src := py(`
		@deco
		def f(a: int = 1, *b) -> R:
			try:
				g(x, k=y, *z, **w)
			except E as e:
				pass
			match s:
				case [1] if c:
					pass
			return [i for i in j if i]
	`)
	m := parseSrc(t, src)
	var got []string
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		if stack[len(stack)-1] != n {
			t.Errorf("the stack does not end at the node")
		}
		got = append(got, fmt.Sprintf("%s%s %s", strings.Repeat(" ", len(stack)-1), kindOf(n), strings.SplitN(m.Text(n), "\n", 2)[0]))
		return true
	})
	checkLines(t, "visit order", got, []string{
		"Function def f(a: int = 1, *b) -> R:",
		" Name deco",
		" Param a: int = 1",
		"  Name int",
		"  Constant 1",
		" Param *b",
		" Name R",
		" Try try:",
		"  ExprStmt g(x, k=y, *z, **w)",
		"   Call g(x, k=y, *z, **w)",
		"    Name g",
		"    Name x",
		"    Name y",
		"    Name z",
		"    Name w",
		"  Handler except E as e:",
		"   Name E",
		"   Pass pass",
		" Match match s:",
		"  Name s",
		"  MatchCase case [1] if c:",
		"   Other [1]",
		"   Name c",
		"   Pass pass",
		" Return return [i for i in j if i]",
		"  Comprehension [i for i in j if i]",
		"   Name i",
		"   Name i",
		"   Name j",
		"   Name i",
	})
	// Returning false skips a node's children, not its siblings.
	var kinds []string
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		kinds = append(kinds, kindOf(n))
		_, isTry := n.(*Try)
		_, isParam := n.(*Param)
		return !isTry && !isParam
	})
	if strings.Join(kinds, " ") != "Function Name Param Param Name Try Match Name MatchCase Other Name Pass Return Comprehension Name Name Name Name" {
		t.Errorf("pruned visit: %v", kinds)
	}
	// Inspect starts the stack at its root.
	call := find[*Call](m, nil)[0]
	n := 0
	Inspect(call, func(_ Node, stack []Node) bool {
		if stack[0] != Node(call) {
			t.Errorf("stack[0] is not the root")
		}
		n++
		return true
	})
	if n != 6 {
		t.Errorf("Inspect(call) visited %d nodes", n)
	}
	Inspect(nil, func(Node, []Node) bool { t.Error("Inspect(nil) visits"); return true })
}

// TestInspectFormatSpec: the fields nested in an f-string's format
// specification are visited, in source order, like its fields.
func TestInspectFormatSpec(t *testing.T) {
	m := parseSrc(t, "x = f\"{a:>{width()}.{p}f} {b!r:{c}}\"\n")
	var got []string
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		got = append(got, fmt.Sprintf("%s%s %s", strings.Repeat(" ", len(stack)-1), kindOf(n), m.Text(n)))
		return true
	})
	checkLines(t, "visit order", got, []string{
		`Assign x = f"{a:>{width()}.{p}f} {b!r:{c}}"`,
		` Name x`,
		` FString f"{a:>{width()}.{p}f} {b!r:{c}}"`,
		`  Name a`,
		`  Call width()`,
		`   Name width`,
		`  Name p`,
		`  Name b`,
		`  Name c`,
	})
}

// exitGuardsOfCalls gives, for every call of a plain name, the tests of
// its ExitGuards ("not TEST" each, outermost first).
func exitGuardsOfCalls(t *testing.T, src string) map[string]string {
	t.Helper()
	m := parseSrc(t, src)
	if m.SyntaxError != nil {
		t.Fatalf("syntax error %+v", m.SyntaxError)
	}
	out := map[string]string{}
	InspectBody(m.Body, func(n Node, stack []Node) bool {
		if c, ok := n.(*Call); ok {
			if nm, ok := c.Func.(*Name); ok {
				var gs []string
				for _, g := range ExitGuards(stack) {
					if !g.Negated || g.If == nil {
						t.Errorf("%s(): a guard that is not a negated if test", nm.Id)
					}
					gs = append(gs, "not "+m.Text(g.Test))
				}
				out[nm.Id] = strings.Join(gs, "; ")
			}
		}
		return true
	})
	return out
}

// An if with no elif or else whose body ends with a return or a raise
// guards what comes after it in its block and in the blocks that hold
// it, within the function; nothing else does.
func TestExitGuards(t *testing.T) {
	got := exitGuardsOfCalls(t, py(`
		def f(a, b, c, d, e):
			t0()
			if a:
				return None
			t1()
			if b:
				log()
				raise KeyError(b)
			for x in xs():
				t2()
				if c:
					return 1
				t3()
			if d:
				return 2
			else:
				pass
			if e:
				note()
			t4()
			if late:
				return 3
			g = lambda: t5()
			while True:
				if stop:
					break
				t6()

			def inner():
				t7()
				if z:
					return
				t8()
			try:
				if y:
					raise ValueError()
				t9()
			except ValueError:
				t10()
	`))
	want := map[string]string{
		"t0": "", "t1": "not a", "t2": "not a; not b", "t3": "not a; not b; not c",
		"t4": "not a; not b", "t5": "", "t6": "not a; not b; not late", "t7": "", "t8": "not z",
		"t9": "not a; not b; not late; not y", "t10": "not a; not b; not late",
		"xs": "not a; not b", "log": "not a", "KeyError": "not a", "note": "not a; not b",
		"ValueError": "not a; not b; not late",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s(): %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d calls, %d expected: %v", len(got), len(want), got)
	}
}
