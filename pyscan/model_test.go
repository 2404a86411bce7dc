package pyscan

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestModelGolden checks the typed model of each shape: the dump of each
// statement of the body, one per line.
func TestModelGolden(t *testing.T) {
	a, b, c := `(Name Id="a")`, `(Name Id="b")`, `(Name Id="c")`
	x, y := `(Name Id="x")`, `(Name Id="y")`
	one, two := `(Constant Kind=Int Value="1")`, `(Constant Kind=Int Value="2")`
	pass := `[(Pass)]`
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		// Names, attributes, calls.
		{"name", "a\n", []string{`(ExprStmt Value=` + a + `)`}},
		{"attribute chain", "a.b.c\n", []string{`(ExprStmt Value=(Attribute Value=(Attribute Value=` + a + ` Attr="b") Attr="c"))`}},
		{"attribute with spaces", "a . b\n", []string{`(ExprStmt Value=(Attribute Value=` + a + ` Attr="b"))`}},
		{"call arguments in source order", "f(a, *b, k=c, **d, e)\n", []string{
			`(ExprStmt Value=(Call Func=(Name Id="f") Args=[(Arg Value=` + a + `) (Arg Kind=StarArg Value=` + b + `) (Arg Kind=Keyword Name="k" Value=` + c + `) (Arg Kind=StarStarArg Value=(Name Id="d")) (Arg Value=(Name Id="e"))]))`}},
		{"call of a call", "f()(x)\n", []string{`(ExprStmt Value=(Call Func=(Call Func=(Name Id="f")) Args=[(Arg Value=` + x + `)]))`}},
		{"generator argument", "sum(x for x in y)\n", []string{
			`(ExprStmt Value=(Call Func=(Name Id="sum") Args=[(Arg Value=(Comprehension Kind=GeneratorExp Elt=` + x + ` Generators=[(ComprehensionFor Target=` + x + ` Iter=` + y + `)]))]))`}},
		{"method call", "self.envs.get(k, None)\n", []string{
			`(ExprStmt Value=(Call Func=(Attribute Value=(Attribute Value=(Name Id="self") Attr="envs") Attr="get") Args=[(Arg Value=(Name Id="k")) (Arg Value=(Constant Kind=None))]))`}},
		// Subscripts and slices.
		{"subscript", "x[1]\n", []string{`(ExprStmt Value=(Subscript Value=` + x + ` Index=` + one + `))`}},
		{"slices and tuples", "x[1:2, ::2]\nx[:]\nx[a,]\nx[a:b:c]\n", []string{
			`(ExprStmt Value=(Subscript Value=` + x + ` Index=(Tuple Elts=[(Slice Lower=` + one + ` Upper=` + two + `) (Slice Step=` + two + `)])))`,
			`(ExprStmt Value=(Subscript Value=` + x + ` Index=(Slice)))`,
			`(ExprStmt Value=(Subscript Value=` + x + ` Index=(Tuple Elts=[` + a + `])))`,
			`(ExprStmt Value=(Subscript Value=` + x + ` Index=(Slice Lower=` + a + ` Upper=` + b + ` Step=` + c + `)))`,
		}},
		// Constants.
		{"singletons", "None\nTrue\nFalse\n...\n", []string{
			`(ExprStmt Value=(Constant Kind=None))`, `(ExprStmt Value=(Constant Kind=True))`,
			`(ExprStmt Value=(Constant Kind=False))`, `(ExprStmt Value=(Constant Kind=Ellipsis))`,
		}},
		{"numbers keep their spelling", "0x1F\n0o17\n0b101\n1_000\n2.5e3\n.5\n1j\n1.5J\n", []string{
			`(ExprStmt Value=(Constant Kind=Int Value="0x1F"))`, `(ExprStmt Value=(Constant Kind=Int Value="0o17"))`,
			`(ExprStmt Value=(Constant Kind=Int Value="0b101"))`, `(ExprStmt Value=(Constant Kind=Int Value="1_000"))`,
			`(ExprStmt Value=(Constant Kind=Float Value="2.5e3"))`, `(ExprStmt Value=(Constant Kind=Float Value=".5"))`,
			`(ExprStmt Value=(Constant Kind=Complex Value="1j"))`, `(ExprStmt Value=(Constant Kind=Complex Value="1.5J"))`,
		}},
		{"negative number", "-1\n", []string{`(ExprStmt Value=(UnaryOp Op=USub Operand=` + one + `))`}},
		{"implicit concatenation", "'a' \"b\" '''c'''\n", []string{`(ExprStmt Value=(Constant Kind=Str Value="abc"))`}},
		{"escapes", `'\x41\u00e9\U0001F600\101\7\0 \N{BULLET} \q \\ \' \" \a\b\f\n\r\t\v'` + "\n", []string{
			`(ExprStmt Value=(Constant Kind=Str Value="Aé😀A\a\x00 \\N{BULLET} \\q \\ ' \" \a\b\f\n\r\t\v"))`}},
		{"line continuation in a string", "'a\\\nb'\n'''c\\\r\nd'''\n", []string{
			`(ExprStmt Value=(Constant Kind=Str Value="ab"))`, `(ExprStmt Value=(Constant Kind=Str Value="cd"))`}},
		{"raw strings", `r'\d\n' R"\x"` + "\n" + `r'a\` + "\n" + `b'` + "\n", []string{
			`(ExprStmt Value=(Constant Kind=Str Value="\\d\\n\\x"))`, `(ExprStmt Value=(Constant Kind=Str Value="a\\\nb"))`}},
		{"bytes", `b'\x00\xff\101\777' rb'\x00' B"\u00e9"` + "\n", []string{
			`(ExprStmt Value=(Constant Kind=Bytes Value="\x00\xffA\xff\\x00\\u00e9"))`}},
		{"unicode prefix", "u'é'\n", []string{`(ExprStmt Value=(Constant Kind=Str Value="é"))`}},
		{"bytes mixed with str is a syntax error", "b'a' 'b'\n", []string{`(ExprStmt Value=(Other))`}},
		{"triple-quoted CRLF", "'''a\r\nb\rc'''\n", []string{`(ExprStmt Value=(Constant Kind=Str Value="a\nb\nc"))`}},
		// F-strings.
		{"f-string parts", "f\"a{b!r:>{w}}c{{\" \"d\" f'}}{e}'\n", []string{
			`(ExprStmt Value=(FString Parts=[(FStringPart Lit="a") (FStringPart Value=` + b + ` Spec=[(FStringPart Lit=">") (FStringPart Value=(Name Id="w"))]) (FStringPart Lit="c{d}") (FStringPart Value=(Name Id="e"))]))`}},
		{"f-string shapes", "f\"{x}\"\nf\"\"\nf\"{x=}\"\nrf'\\d{x}'\nf'{a + b}'\n", []string{
			`(ExprStmt Value=(FString Parts=[(FStringPart Value=` + x + `)]))`,
			`(ExprStmt Value=(FString))`,
			`(ExprStmt Value=(FString Parts=[(FStringPart Lit="x=") (FStringPart Value=` + x + `)]))`,
			`(ExprStmt Value=(FString Parts=[(FStringPart Lit="\\d") (FStringPart Value=` + x + `)]))`,
			`(ExprStmt Value=(FString Parts=[(FStringPart Value=(BinOp Left=` + a + ` Op=+ Right=` + b + `))]))`,
		}},
		// Operators.
		{"chained comparison", "a < b not in c is not d\n", []string{
			`(ExprStmt Value=(Compare Left=` + a + ` Ops=[< not in is not] Comparators=[` + b + ` ` + c + ` (Name Id="d")]))`}},
		{"comparison operators", "a == b != c <= x >= y > a in b is c\n", []string{
			`(ExprStmt Value=(Compare Left=` + a + ` Ops=[== != <= >= > in is] Comparators=[` + b + ` ` + c + ` ` + x + ` ` + y + ` ` + a + ` ` + b + ` ` + c + `]))`}},
		{"or flattening", "a or b or c\n(a or b) or c\na or (b or c)\na and b or c\n", []string{
			`(ExprStmt Value=(BoolOp Op=or Values=[` + a + ` ` + b + ` ` + c + `]))`,
			`(ExprStmt Value=(BoolOp Op=or Values=[(BoolOp Op=or Values=[` + a + ` ` + b + `]) ` + c + `]))`,
			`(ExprStmt Value=(BoolOp Op=or Values=[` + a + ` (BoolOp Op=or Values=[` + b + ` ` + c + `])]))`,
			`(ExprStmt Value=(BoolOp Op=or Values=[(BoolOp Op=and Values=[` + a + ` ` + b + `]) ` + c + `]))`,
		}},
		{"unary operators", "not a\n-a\n+a\n~a\n", []string{
			`(ExprStmt Value=(UnaryOp Op=Not Operand=` + a + `))`, `(ExprStmt Value=(UnaryOp Op=USub Operand=` + a + `))`,
			`(ExprStmt Value=(UnaryOp Op=UAdd Operand=` + a + `))`, `(ExprStmt Value=(UnaryOp Op=Invert Operand=` + a + `))`,
		}},
		{"binary operators", "a + b * c\na ** -b\na @ b // c % x\na << b >> c\na | b ^ c & x\n", []string{
			`(ExprStmt Value=(BinOp Left=` + a + ` Op=+ Right=(BinOp Left=` + b + ` Op=* Right=` + c + `)))`,
			`(ExprStmt Value=(BinOp Left=` + a + ` Op=** Right=(UnaryOp Op=USub Operand=` + b + `)))`,
			`(ExprStmt Value=(BinOp Left=(BinOp Left=(BinOp Left=` + a + ` Op=@ Right=` + b + `) Op=// Right=` + c + `) Op=% Right=` + x + `))`,
			`(ExprStmt Value=(BinOp Left=(BinOp Left=` + a + ` Op=<< Right=` + b + `) Op=>> Right=` + c + `))`,
			`(ExprStmt Value=(BinOp Left=` + a + ` Op=| Right=(BinOp Left=` + b + ` Op=^ Right=(BinOp Left=` + c + ` Op=& Right=` + x + `))))`,
		}},
		{"conditional expression", "a if b else c\n", []string{`(ExprStmt Value=(IfExp Test=` + b + ` Body=` + a + ` OrElse=` + c + `))`}},
		{"walrus", "(y := f(1))\n", []string{`(ExprStmt Value=(NamedExpr Target=` + y + ` Value=(Call Func=(Name Id="f") Args=[(Arg Value=` + one + `)])))`}},
		{"lambda", "lambda x, /, y=1, *a, z, **k: x\nlambda: 0\nlambda *, k: k\n", []string{
			`(ExprStmt Value=(Lambda Params=[(Param Name="x" Kind=PosOnly) (Param Name="y" Default=` + one + `) (Param Name="a" Kind=VarArgs) (Param Name="z" Kind=KwOnly) (Param Name="k" Kind=VarKwargs)] Body=` + x + `))`,
			`(ExprStmt Value=(Lambda Body=(Constant Kind=Int Value="0")))`,
			`(ExprStmt Value=(Lambda Params=[(Param Name="k" Kind=KwOnly)] Body=(Name Id="k")))`,
		}},
		// Displays and comprehensions.
		{"displays", "[1, *a]\n(1,)\n()\n{1, 2}\n{'k': 1, **b}\n{}\n1, 2\n", []string{
			`(ExprStmt Value=(List Elts=[` + one + ` (Starred Value=` + a + `)]))`,
			`(ExprStmt Value=(Tuple Elts=[` + one + `]))`,
			`(ExprStmt Value=(Tuple Elts=[]))`,
			`(ExprStmt Value=(Set Elts=[` + one + ` ` + two + `]))`,
			`(ExprStmt Value=(Dict Items=[(DictItem Key=(Constant Kind=Str Value="k") Value=` + one + `) (DictItem Value=` + b + `)]))`,
			`(ExprStmt Value=(Dict))`,
			`(ExprStmt Value=(Tuple Elts=[` + one + ` ` + two + `]))`,
		}},
		{"comprehensions", "[x for x in a if x if y for c in x]\n{x for x in a}\n{b: c for b, c in a}\n(x async for x in a)\n", []string{
			`(ExprStmt Value=(Comprehension Kind=ListComp Elt=` + x + ` Generators=[(ComprehensionFor Target=` + x + ` Iter=` + a + ` Ifs=[` + x + ` ` + y + `]) (ComprehensionFor Target=` + c + ` Iter=` + x + `)]))`,
			`(ExprStmt Value=(Comprehension Kind=SetComp Elt=` + x + ` Generators=[(ComprehensionFor Target=` + x + ` Iter=` + a + `)]))`,
			`(ExprStmt Value=(Comprehension Kind=DictComp Key=` + b + ` Elt=` + c + ` Generators=[(ComprehensionFor Target=(Tuple Elts=[` + b + ` ` + c + `]) Iter=` + a + `)]))`,
			`(ExprStmt Value=(Comprehension Kind=GeneratorExp Elt=` + x + ` Generators=[(ComprehensionFor Async=true Target=` + x + ` Iter=` + a + `)]))`,
		}},
		{"starred in a display", "[*f(x), *a.b]\n", []string{
			`(ExprStmt Value=(List Elts=[(Starred Value=(Call Func=(Name Id="f") Args=[(Arg Value=` + x + `)])) (Starred Value=(Attribute Value=` + a + ` Attr="b"))]))`}},
		// Assignments.
		{"assignments", "a = b = 1\na, *b = c\n(a) = 1\nx: int = 1\ny: int\nx += 1\nx |= y\n", []string{
			`(Assign Targets=[` + a + ` ` + b + `] Value=` + one + `)`,
			`(Assign Targets=[(Tuple Elts=[` + a + ` (Starred Value=` + b + `)])] Value=` + c + `)`,
			`(Assign Targets=[` + a + `] Value=` + one + `)`,
			`(AnnAssign Target=` + x + ` Annotation=(Name Id="int") Value=` + one + `)`,
			`(AnnAssign Target=` + y + ` Annotation=(Name Id="int"))`,
			`(AugAssign Target=` + x + ` Op=+ Value=` + one + `)`,
			`(AugAssign Target=` + x + ` Op=| Value=` + y + `)`,
		}},
		{"annotations", "x: dict[str, list[int]] = {}\ny: a.b.C | None = None\n", []string{
			`(AnnAssign Target=` + x + ` Annotation=(Subscript Value=(Name Id="dict") Index=(Tuple Elts=[(Name Id="str") (Subscript Value=(Name Id="list") Index=(Name Id="int"))])) Value=(Dict))`,
			`(AnnAssign Target=` + y + ` Annotation=(BinOp Left=(Attribute Value=(Attribute Value=` + a + ` Attr="b") Attr="C") Op=| Right=(Constant Kind=None)) Value=(Constant Kind=None))`,
		}},
		{"annotation types", "def f(a: list[int] | None, b: list[int].c, *d: *Ts, e: type[A] = B, f: Callable[[int], str] = g) -> tuple[int, ...]: pass\n", []string{
			`(Function Name="f" Params=[` +
				`(Param Name="a" Annotation=(BinOp Left=(Subscript Value=(Name Id="list") Index=(Name Id="int")) Op=| Right=(Constant Kind=None))) ` +
				`(Param Name="b" Annotation=(Attribute Value=(Subscript Value=(Name Id="list") Index=(Name Id="int")) Attr="c")) ` +
				`(Param Name="d" Kind=VarArgs Annotation=(Starred Value=(Name Id="Ts"))) ` +
				`(Param Name="e" Kind=KwOnly Annotation=(Subscript Value=(Name Id="type") Index=(Name Id="A")) Default=(Name Id="B")) ` +
				`(Param Name="f" Kind=KwOnly Annotation=(Subscript Value=(Name Id="Callable") Index=(Tuple Elts=[(List Elts=[(Name Id="int")]) (Name Id="str")])) Default=(Name Id="g"))] ` +
				`ReturnType=(Subscript Value=(Name Id="tuple") Index=(Tuple Elts=[(Name Id="int") (Constant Kind=Ellipsis)])) Body=` + pass + `)`}},
		// Simple statements.
		{"simple statements", "del a, b[0]\nassert x, 'm'\npass\nglobal a, b\nraise\nraise E from e\n", []string{
			`(Delete Targets=[` + a + ` (Subscript Value=` + b + ` Index=(Constant Kind=Int Value="0"))])`,
			`(Assert Test=` + x + ` Msg=(Constant Kind=Str Value="m"))`,
			`(Pass)`,
			`(Global Names=["a" "b"])`,
			`(Raise)`,
			`(Raise Exc=(Name Id="E") Cause=(Name Id="e"))`,
		}},
		{"imports", "import a.b as c, d\nfrom ..p import x as y, z\nfrom . import *\nfrom __future__ import annotations\n", []string{
			`(ImportStmt Names=[(Import Module="a.b" Bound="c" ModuleScope=true) (Import Module="d" Bound="d" ModuleScope=true)])`,
			`(ImportStmt Names=[(Import Module="p" Level=2 Name="x" Bound="y" ModuleScope=true) (Import Module="p" Level=2 Name="z" Bound="z" ModuleScope=true)])`,
			`(ImportStmt Names=[(Import Level=1 Name="*" ModuleScope=true)])`,
			`(ImportStmt Future=true)`,
		}},
		// Compound statements.
		{"if elif else", "if a:\n    pass\nelif b:\n    pass\nelse:\n    pass\n", []string{
			`(If Test=` + a + ` Body=` + pass + ` Else=[(If Test=` + b + ` Body=` + pass + ` Else=` + pass + ` Elif=true)])`}},
		{"else holding an if", "if a:\n    pass\nelse:\n    if b:\n        pass\n", []string{
			`(If Test=` + a + ` Body=` + pass + ` Else=[(If Test=` + b + ` Body=` + pass + `)])`}},
		{"loops", "for i in x:\n    break\nelse:\n    continue\nwhile a:\n    pass\nelse:\n    pass\nfor a, b in 1, 2: pass\n", []string{
			`(For Target=(Name Id="i") Iter=` + x + ` Body=[(Break)] Else=[(Continue)])`,
			`(While Test=` + a + ` Body=` + pass + ` Else=` + pass + `)`,
			`(For Target=(Tuple Elts=[` + a + ` ` + b + `]) Iter=(Tuple Elts=[` + one + ` ` + two + `]) Body=` + pass + `)`,
		}},
		{"try", "try:\n    pass\nexcept (A, B) as e:\n    pass\nexcept C:\n    pass\nexcept:\n    pass\nelse:\n    pass\nfinally:\n    pass\n", []string{
			`(Try Body=` + pass + ` Handlers=[(Handler Type=(Tuple Elts=[(Name Id="A") (Name Id="B")]) Name="e" Body=` + pass + `) (Handler Type=` + `(Name Id="C")` + ` Body=` + pass + `) (Handler Body=` + pass + `)] Else=` + pass + ` Finally=` + pass + `)`}},
		{"try star", "try:\n    pass\nexcept* (A, B) as eg:\n    pass\nexcept* C:\n    pass\n", []string{
			`(Try Body=` + pass + ` Handlers=[(Handler Type=(Tuple Elts=[(Name Id="A") (Name Id="B")]) Name="eg" Body=` + pass + `) (Handler Type=(Name Id="C") Body=` + pass + `)] Star=true)`}},
		{"with", "with a as b, c:\n    pass\nwith (a as (x, y)):\n    pass\n", []string{
			`(With Items=[(WithItem Context=` + a + ` Target=` + b + `) (WithItem Context=` + c + `)] Body=` + pass + `)`,
			`(With Items=[(WithItem Context=` + a + ` Target=(Tuple Elts=[` + x + ` ` + y + `]))] Body=` + pass + `)`,
		}},
		{"match", "match x:\n    case [1, *r] if y:\n        pass\n    case _:\n        pass\n", []string{
			`(Match Subject=` + x + ` Cases=[(MatchCase Pattern=(Other) Guard=` + y + ` Body=` + pass + `) (MatchCase Pattern=(Other) Body=` + pass + `)])`}},
		{"type alias", "type A = int\ntype P[T] = list[T]\n", []string{
			`(TypeAlias Name="A" Value=(Name Id="int"))`,
			`(TypeAlias Name="P" Value=(Subscript Value=(Name Id="list") Index=(Name Id="T")))`,
		}},
		{"async def, await, async for and with", "async def f():\n    await a\n    async for x in y:\n        pass\n    async with a as b:\n        pass\n", []string{
			`(Function Name="f" Async=true Body=[(ExprStmt Value=(Await Value=` + a + `)) (For Async=true Target=` + x + ` Iter=` + y + ` Body=` + pass + `) (With Async=true Items=[(WithItem Context=` + a + ` Target=` + b + `)] Body=` + pass + `)])`}},
		{"yield", "def g():\n    yield\n    yield a, b\n    x = yield from c\n    return\n", []string{
			`(Function Name="g" Body=[(ExprStmt Value=(Yield)) (ExprStmt Value=(Yield Value=(Tuple Elts=[` + a + ` ` + b + `]))) (Assign Targets=[` + x + `] Value=(Yield Value=` + c + ` From=true)) (Return)])`}},
		{"def with decorators and parameters", "@app.get('/x')\n@cache\ndef f(a: int, /, b=1, *args: str, c, d: bool = False, **kw) -> list[int]:\n    nonlocal_ = 1\n", []string{
			`(Function Name="f" Decorators=[(Call Func=(Attribute Value=(Name Id="app") Attr="get") Args=[(Arg Value=(Constant Kind=Str Value="/x"))]) (Name Id="cache")] ` +
				`Params=[(Param Name="a" Kind=PosOnly Annotation=(Name Id="int")) (Param Name="b" Default=` + one + `) (Param Name="args" Kind=VarArgs Annotation=(Name Id="str")) (Param Name="c" Kind=KwOnly) (Param Name="d" Kind=KwOnly Annotation=(Name Id="bool") Default=(Constant Kind=False)) (Param Name="kw" Kind=VarKwargs)] ` +
				`ReturnType=(Subscript Value=(Name Id="list") Index=(Name Id="int")) Body=[(Assign Targets=[(Name Id="nonlocal_")] Value=` + one + `)])`}},
		{"global and nonlocal", "def f():\n    global a\n    def g():\n        nonlocal b, c\n", []string{
			`(Function Name="f" Body=[(Global Names=["a"]) (Function Name="g" Body=[(Global Names=["b" "c"] Nonlocal=true)])])`}},
		{"class", "@dataclass\nclass A(B, *m, metaclass=M, **kw):\n    x: int = 1\n    def f(self): pass\n", []string{
			`(Class Name="A" Bases=[` + `(Name Id="B")` + ` (Starred Value=(Name Id="m"))] Keywords=[(Arg Kind=Keyword Name="metaclass" Value=(Name Id="M")) (Arg Kind=StarStarArg Value=(Name Id="kw"))] Decorators=[(Name Id="dataclass")] ` +
				`Body=[(AnnAssign Target=` + x + ` Annotation=(Name Id="int") Value=` + one + `) (Function Name="f" Params=[(Param Name="self")] Body=` + pass + `)] ` +
				`Methods=[(Function Name="f" Params=[(Param Name="self")] Body=` + pass + `)] Attrs=[(ClassAttr Name="x" Annotation=(Name Id="int") Value=` + one + `)])`}},
		// What the model does not represent.
		{"Python 2 print", "print \"x\", y\n", []string{`(BadStmt)`, `(ExprStmt Value=(Constant Kind=Str Value="x"))`, `(ExprStmt Value=` + y + `)`}},
		{"semicolons", "a; b\n", []string{`(ExprStmt Value=` + a + `)`, `(ExprStmt Value=` + b + `)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			checkLines(t, "model", mapSlice(m.Body, func(s Stmt) string { return dump(s) }), tc.want)
		})
	}
}

// TestBrokenInput checks what error recovery keeps: the statements around
// the broken region, and a BadStmt (or an Other) for it. (An ERROR node
// inside a statement that tree-sitter could still build, as in
// `b = = 2`, leaves no trace in the model but the module's SyntaxError.)
func TestBrokenInput(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		kept      []string // statements' texts that must be in the body
		bad       bool     // a BadStmt or Other marks the region
	}{
		// tree-sitter reads what follows an unclosed bracket as more of
		// its contents: only what comes before it is kept.
		{"unclosed call", "import os\nx = f(1,\nclass A:\n    pass\ny = 2\n", []string{"import os"}, true},
		{"unclosed list", "import os\nx = [1,\ndef f():\n    return 1\n", []string{"import os"}, true},
		{"bad token in a class", "class A:\n    a = 1\n    def f(self:\n        pass\n", []string{"a = 1"}, true},
		{"stray closing bracket", "x = 1\n)\ny = 2\n", []string{"x = 1", "y = 2"}, true},
		{"statements after the region", "x = 1\ny = = 2\nclass A:\n    z = 3\n", []string{"x = 1", "z = 3"}, false},
		// A MISSING token: the model is whole, the error is the module's.
		{"missing parenthesis", "def f(:\n    return 1\nz = 3\n", []string{"return 1", "z = 3"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseSrc(t, tc.src)
			if m.SyntaxError == nil {
				t.Fatalf("no syntax error")
			}
			if tc.bad && len(find[*BadStmt](m, nil)) == 0 && len(find[*Other](m, nil)) == 0 {
				t.Errorf("no BadStmt or Other for the broken region: %v", mapSlice(m.Body, func(s Stmt) string { return dump(s) }))
			}
			texts := map[string]bool{}
			InspectBody(m.Body, func(n Node, _ []Node) bool {
				if _, ok := n.(Stmt); ok {
					texts[m.Text(n)] = true
				}
				return true
			})
			for _, k := range tc.kept {
				if !texts[k] {
					t.Errorf("statement %q lost: %v", k, mapSlice(m.Body, func(s Stmt) string { return dump(s) }))
				}
			}
		})
	}
}

func TestConstantValues(t *testing.T) {
	m := parseSrc(t, "[0x1F, 0o17, 0b101, 1_000, 0, 00, 0_0, 9223372036854775807, 9223372036854775808, 2.5e3, 1_0.5, 1e400, .5, 1j, 'a', None]\n")
	els := m.Body[0].(*ExprStmt).Value.(*List).Elts
	ints := []struct {
		v  int64
		ok bool
	}{{31, true}, {15, true}, {5, true}, {1000, true}, {0, true}, {0, true}, {0, true}, {math.MaxInt64, true}, {0, false}}
	for i, w := range ints {
		v, ok := els[i].(*Constant).Int()
		if v != w.v || ok != w.ok {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", m.Text(els[i]), v, ok, w.v, w.ok)
		}
		if f, ok := els[i].(*Constant).Float(); ok != w.ok || ok && f != float64(w.v) {
			t.Errorf("Float(%s) = %v, %v", m.Text(els[i]), f, ok)
		}
	}
	floats := []struct {
		v  float64
		ok bool
	}{{2500, true}, {10.5, true}, {math.Inf(1), false}, {0.5, true}}
	for i, w := range floats {
		e := els[9+i].(*Constant)
		if e.Kind != ConstFloat {
			t.Fatalf("%s is %d", m.Text(e), e.Kind)
		}
		v, ok := e.Float()
		if ok != w.ok || ok && v != w.v {
			t.Errorf("Float(%s) = %v, %v; want %v, %v", m.Text(e), v, ok, w.v, w.ok)
		}
		if _, ok := e.Int(); ok {
			t.Errorf("Int(%s) is ok", m.Text(e))
		}
	}
	for _, e := range els[13:] {
		if _, ok := e.(*Constant).Int(); ok {
			t.Errorf("Int(%s) is ok", m.Text(e))
		}
		if _, ok := e.(*Constant).Float(); ok {
			t.Errorf("Float(%s) is ok", m.Text(e))
		}
	}
	if !IsConst(els[14], ConstStr) || IsConst(els[14], ConstBytes) || !IsNone(els[15]) || IsNone(els[14]) || IsNone(m.Body[0].(*ExprStmt).Value) {
		t.Errorf("IsConst / IsNone")
	}
	if s, ok := Str(els[14]); !ok || s != "a" {
		t.Errorf("Str = %q %v", s, ok)
	}
	if _, ok := Str(els[0]); ok {
		t.Errorf("Str of an int")
	}
}

func TestFStringHasLiteralText(t *testing.T) {
	for src, want := range map[string]bool{
		`f"{x}"`:        false,
		`f"{x}{y!r}"`:   false,
		`f""`:           false,
		`f"a{x}"`:       true,
		`f"{x} "`:       true,
		`f"{x}" "s"`:    true,
		`f"{{}}"`:       true,
		`f"{x=}"`:       true,
		`f"{x:>{w}}"`:   false,
		`"" f"{x}" ""`:  false,
		`f"\n{x}"`:      true,
		`rf"{x}\d"`:     true,
		`f'{a}' f'{b}'`: false,
	} {
		m := parseSrc(t, src+"\n")
		fs, ok := m.Body[0].(*ExprStmt).Value.(*FString)
		if !ok {
			t.Errorf("%s: %s", src, dump(m.Body[0]))
			continue
		}
		if got := fs.HasLiteralText(); got != want {
			t.Errorf("HasLiteralText(%s) = %v, want %v", src, got, want)
		}
	}
}

func TestHandlerTypes(t *testing.T) {
	m := parseSrc(t, "try:\n    pass\nexcept (A, b.C) as e:\n    pass\nexcept D:\n    pass\nexcept (E):\n    pass\nexcept:\n    pass\n")
	var got []string
	for _, h := range m.Body[0].(*Try).Handlers {
		got = append(got, strings.Join(mapSlice(h.Types(), func(e Expr) string { return Dotted(e) }), ",")+" as "+h.Name)
	}
	checkLines(t, "handlers", got, []string{"A,b.C as e", "D as ", "E as ", " as "})
}

func TestCallArgs(t *testing.T) {
	parse := func(src string) *Call {
		t.Helper()
		m := parseSrc(t, src+"\n")
		return m.Body[0].(*ExprStmt).Value.(*Call)
	}
	txt := func(e Expr) string {
		if e == nil {
			return "nil"
		}
		return Dotted(e)
	}
	c := parse("f(a, b, k=c, d=e)")
	if txt(c.Positional(0)) != "a" || txt(c.Positional(1)) != "b" || c.Positional(2) != nil || c.Positional(-1) != nil {
		t.Errorf("Positional")
	}
	if txt(c.Keyword("k")) != "c" || c.Keyword("a") != nil {
		t.Errorf("Keyword")
	}
	if txt(c.Arg(0, "x")) != "a" || txt(c.Arg(5, "d")) != "e" || txt(c.Arg(1, "d")) != "e" || c.Arg(3, "z") != nil {
		t.Errorf("Arg: a keyword wins over the position")
	}
	if c.HasSplat() {
		t.Errorf("HasSplat")
	}
	c = parse("f(a, *rest, b)")
	if txt(c.Positional(0)) != "a" || c.Positional(1) != nil || c.Positional(2) != nil || !c.HasSplat() {
		t.Errorf("a *args hides the positions at and after it")
	}
	c = parse("f(a, **kw)")
	if txt(c.Positional(0)) != "a" || c.Keyword("kw") != nil || !c.HasSplat() || c.Arg(1, "x") != nil {
		t.Errorf("**kw")
	}
	if c := parse("f()"); c.Positional(0) != nil || c.Keyword("x") != nil || c.HasSplat() || len(c.Args) != 0 {
		t.Errorf("no arguments")
	}
}

func TestDottedRoot(t *testing.T) {
	m := parseSrc(t, "a\na.b.c\nf().b\na[0].b\n(a).b\n'x'.join\nself.x[k].get(y)\nf()\nx[0]\n1\nsuper().f\n")
	var dotted, roots []string
	for _, s := range m.Body {
		e := s.(*ExprStmt).Value
		dotted = append(dotted, Dotted(e))
		if r := Root(e); r != nil {
			roots = append(roots, r.Id)
		} else {
			roots = append(roots, "-")
		}
	}
	checkLines(t, "Dotted", dotted, []string{"a", "a.b.c", "", "", "a.b", "", "", "", "", "", ""})
	checkLines(t, "Root", roots, []string{"a", "a", "f", "a", "a", "-", "self", "f", "x", "-", "super"})
	if Dotted(nil) != "" || Root(nil) != nil {
		t.Errorf("nil")
	}
}

func TestReceiverAndParams(t *testing.T) {
	m := parseSrc(t, py(`
		class A:
			def m(self, x): pass
			@classmethod
			def c(cls): pass
			@staticmethod
			def s(x): pass
			@functools.wraps(f)
			def w(self): pass
			def star(*args): pass
			def kw(**kw): pass
			def none(): pass
			def kwonly(*, k): pass
			def posonly(me, /): pass
			@staticmethod
			@other
			def s2(x): pass
	`))
	var got []string
	for _, f := range m.Classes[0].Methods {
		got = append(got, f.Name+"="+f.Receiver())
	}
	checkLines(t, "receivers", got, []string{"m=self", "c=cls", "s=", "w=self", "star=", "kw=", "none=", "kwonly=", "posonly=me", "s2="})
	f := m.Classes[0].Methods[0]
	if p := f.Param("x"); p == nil || p.Name != "x" || p.Kind != ParamNormal || f.Param("y") != nil {
		t.Errorf("Param(x) = %+v", p)
	}
	m = parseSrc(t, "def f(a, b: int = 1, /, c=2, *args: str, d, e: int = 3, **kw: Any): pass\ndef g(a, *, b): pass\n")
	checkLines(t, "params", []string{dumpParams(m, m.Functions[0].Params), dumpParams(m, m.Functions[1].Params)}, []string{
		"a, b: int=1, /, c=2, *args: str, d, e: int=3, **kw: Any",
		"a, *, b",
	})
	kinds := mapSlice(m.Functions[0].Params, func(p *Param) string { return dump(p.Kind) })
	checkLines(t, "kinds", kinds, []string{"PosOnly", "PosOnly", "Normal", "VarArgs", "KwOnly", "KwOnly", "VarKwargs"})
	if p := m.Functions[0].Params[1]; m.Text(p) != "b: int = 1" || m.Text(p.Annotation) != "int" || m.Text(p.Default) != "1" {
		t.Errorf("a parameter's span covers it whole: %q", m.Text(p))
	}
}

func TestOperatorNames(t *testing.T) {
	for o, want := range map[CmpOp]string{Eq: "==", NotEq: "!=", Lt: "<", LtE: "<=", Gt: ">", GtE: ">=", Is: "is", IsNot: "is not", In: "in", NotIn: "not in"} {
		if o.String() != want {
			t.Errorf("%d: %q, want %q", o, o.String(), want)
		}
		if o.Negate().Negate() != o || o.Negate() == o {
			t.Errorf("%s: Negate", o)
		}
	}
	for o, n := range map[CmpOp]CmpOp{Eq: NotEq, Lt: GtE, LtE: Gt, Is: IsNot, In: NotIn} {
		if o.Negate() != n || n.Negate() != o {
			t.Errorf("%s.Negate() = %s, want %s", o, o.Negate(), n)
		}
	}
	if And.String() != "and" || Or.String() != "or" {
		t.Errorf("bool ops")
	}
	for o := Add; o <= BitAnd; o++ {
		if o.String() == "" {
			t.Errorf("BinOpKind %d has no name", o)
		}
	}
}

func TestModuleText(t *testing.T) {
	src := "def f():\n\tx = 1  # one\n    \n\ty = 'é'\nz = 2"
	m := parseSrc(t, src)
	f := m.Functions[0]
	y := f.Body[1].(*Assign)
	if m.Text(y) != "y = 'é'" || m.Text(nil) != "" || m.SpanText(Span{5, 3}) != "" || m.SpanText(Span{0, 1000}) != "" || m.SpanText(Span{-1, 2}) != "" {
		t.Errorf("Text/SpanText")
	}
	st := y.Start
	if m.Line(st) != 4 || m.Pos(st) != (Pos{int(st), 4, 2}) || m.LineStart(st) != st-1 || m.Indent(st) != "\t" {
		t.Errorf("y at line %d %+v, line start %d, indent %q", m.Line(st), m.Pos(st), m.LineStart(st), m.Indent(st))
	}
	if m.LineEndsAfter(st) != int32(strings.Index(src, "z")) || m.LineEndsAfter(int32(len(src)-1)) != int32(len(src)) || m.LineEndsAfter(-1) != int32(len(src)) {
		t.Errorf("LineEndsAfter")
	}
	if !m.HasComment(f.Range()) || m.HasComment(y.Range()) || !m.HasComment(Span{0, int32(len(src))}) || len(m.Comments) != 1 || m.SpanText(m.Comments[0]) != "# one" {
		t.Errorf("comments %v", m.Comments)
	}
	if m.Indent(int32(strings.Index(src, "z"))) != "" {
		t.Errorf("indent of z")
	}
	var empty Module
	if empty.Pos(0) != (Pos{0, 1, 1}) || empty.LineStart(0) != 0 || empty.Source() != nil {
		t.Errorf("the zero Module")
	}
	if (Span{1, 3}).Contains(Span{0, 2}) || !(Span{1, 3}).Contains(Span{1, 3}) || !(Span{}).IsZero() || (Span{0, 1}).IsZero() || (Span{2, 4}).Range() != (Span{2, 4}) {
		t.Errorf("Span methods")
	}
}

func TestLineEndings(t *testing.T) {
	src := "a = 1\r\nb = 2\nc = 3"
	m := parseSrc(t, src)
	b, c := int32(strings.Index(src, "b")), int32(strings.Index(src, "c"))
	for _, tc := range []struct {
		what      string
		got, want string
	}{
		{"LineEnding(a)", m.LineEnding(0), "\r\n"},
		{"LineEnding(b)", m.LineEnding(b + 2), "\n"},
		{"LineEnding(c)", m.LineEnding(c), ""},
		{"Newline", m.Newline(), "\r\n"},
		{"NewlineAt(c)", m.NewlineAt(c), "\r\n"},
		{"NewlineAt(b)", m.NewlineAt(b), "\n"},
		{"NewlineBefore(a)", m.NewlineBefore(0), "\r\n"},
		{"NewlineBefore(b)", m.NewlineBefore(b), "\r\n"},
		{"NewlineBefore(c)", m.NewlineBefore(c), "\n"},
		{"Newline of one line", parseSrc(t, "x").Newline(), "\n"},
		{"LineEnding of a blank first line", parseSrc(t, "\n").LineEnding(0), "\n"},
		{"Newline of an LF file", parseSrc(t, "x\ny\r\n").Newline(), "\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.what, tc.got, tc.want)
		}
	}
}

func TestSuperAttr(t *testing.T) {
	m := parseSrc(t, "super().f\nsuper(C, self).g\nx.f\nsuper.f\nsuper()\nsuper().a.b\n")
	var got []string
	for _, s := range m.Body {
		name, ok := SuperAttr(s.(*ExprStmt).Value)
		got = append(got, fmt.Sprintf("%q %v", name, ok))
	}
	checkLines(t, "SuperAttr", got, []string{`"f" true`, `"g" true`, `"" false`, `"" false`, `"" false`, `"" false`})
}
