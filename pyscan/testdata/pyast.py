"""Render CPython's ast of Python files in pyscan's normalized S-expression.

Used by pyscan's TestDifferentialCPython (pyast_test.go), which renders
pyscan's model the same way and compares the two. Reads one path per line
on stdin; for each file prints

    === <path>
    <one line per top-level statement>

or, when CPython rejects the file,

    === <path>
    !error <exception type>: <message>

The rendering follows pyscan's model, not CPython's, where the two
disagree by design (see the documented differences in pyast_test.go):
call arguments in source order (CPython keeps positional arguments and
keywords apart), parameters as one list in source order with their kinds,
match patterns and f-string conversions left out,
`from __future__` names left out, and a str constant whose source spells
a \\N{...} escape rendered as ?N (pyscan keeps those escapes as written).

Every statement, expression and except clause carries its span as
@line:col-line:col (1-based lines, 0-based UTF-8 byte columns, as CPython
gives them).
"""

import ast
import sys

SRC = b""


def q(s):
    """Quote a string: printable ASCII as is, the rest as \\u{hex}."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        else:
            out.append("\\u{%x}" % o)
    out.append('"')
    return "".join(out)


def sp(n):
    return "@%d:%d-%d:%d" % (n.lineno, n.col_offset, n.end_lineno, n.end_col_offset)


def segment(n):
    """The source bytes of a node, its line ends made "\\n"."""
    lines = SRC.splitlines()  # at CPython's line ends: LF, CRLF and a lone CR
    if n.lineno == n.end_lineno:
        return lines[n.lineno - 1][n.col_offset : n.end_col_offset]
    parts = [lines[n.lineno - 1][n.col_offset :]]
    parts += lines[n.lineno : n.end_lineno - 1]
    parts.append(lines[n.end_lineno - 1][: n.end_col_offset])
    return b"\n".join(parts)


def lst(xs, f):
    return "[" + " ".join(f(x) for x in xs) + "]"


def opt(x, f):
    return "nil" if x is None else f(x)


BINOPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/",
    ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<",
    ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&",
}
UNOPS = {ast.Not: "not", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
CMPOPS = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
    ast.GtE: ">=", ast.Is: "is", ast.IsNot: "is-not", ast.In: "in",
    ast.NotIn: "not-in",
}


def params(a):
    """A def's or lambda's parameters, in source order, with their kinds."""
    out = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, p in enumerate(positional):
        kind = "posonly" if i < len(a.posonlyargs) else "normal"
        out.append((kind, p, defaults[i]))
    if a.vararg:
        out.append(("vararg", a.vararg, None))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append(("kwonly", p, d))
    if a.kwarg:
        out.append(("kwarg", a.kwarg, None))
    return "[" + " ".join(
        "(param %s %s %s %s)" % (k, q(p.arg), opt(p.annotation, e), opt(d, e))
        for k, p, d in out
    ) + "]"


def const(n):
    v = n.value
    if v is None:
        return "(Const None)"
    if v is True:
        return "(Const True)"
    if v is False:
        return "(Const False)"
    if v is Ellipsis:
        return "(Const ...)"
    if isinstance(v, int):
        return "(Const int %d)" % v
    if isinstance(v, float):
        return "(Const float %s)" % repr(v)
    if isinstance(v, complex):
        return "(Const complex %s)" % repr(v.imag)
    if isinstance(v, bytes):
        return "(Const bytes %s)" % (v.hex() or '""')
    if b"\\N{" in segment(n):
        return "(Const str ?N)"
    return "(Const str %s)" % q(v)


def fstring(n):
    if b"\\N{" in segment(n):
        return "(FString ?N)"
    return "(FString [%s])" % fparts(n.values)


def fparts(values):
    parts = []
    for v in values:
        if isinstance(v, ast.Constant):
            parts.append("(lit %s)" % q(v.value))
        elif v.format_spec is not None and v.format_spec.values:
            # the conversion is not in pyscan's model
            parts.append("(val %s [%s])" % (e(v.value), fparts(v.format_spec.values)))
        else:
            parts.append("(val %s)" % e(v.value))
    return " ".join(parts)


def call(n):
    args = []
    for a in n.args:
        if isinstance(a, ast.Starred):
            args.append(((a.lineno, a.col_offset), "(arg star %s)" % e(a.value)))
        else:
            args.append(((a.lineno, a.col_offset), "(arg pos %s)" % e(a)))
    for k in n.keywords:
        if k.arg is None:
            args.append(((k.lineno, k.col_offset), "(arg starstar %s)" % e(k.value)))
        else:
            args.append(((k.lineno, k.col_offset), "(arg kw %s %s)" % (q(k.arg), e(k.value))))
    args.sort(key=lambda x: x[0])
    return "(Call %s [%s])" % (e(n.func), " ".join(a for _, a in args))


def comp(kind, key, elt, gens):
    return "(Comp %s %s %s [%s])" % (
        kind,
        opt(key, e),
        e(elt),
        " ".join(
            "(for %s %s %s %s)" % ("async" if g.is_async else "sync", e(g.target), e(g.iter), lst(g.ifs, e))
            for g in gens
        ),
    )


def e(n):
    return expr(n) + sp(n)


def expr(n):
    t = type(n)
    if t is ast.Name:
        return "(Name %s)" % q(n.id)
    if t is ast.Attribute:
        return "(Attribute %s %s)" % (e(n.value), q(n.attr))
    if t is ast.Call:
        return call(n)
    if t is ast.Subscript:
        return "(Subscript %s %s)" % (e(n.value), e(n.slice))
    if t is ast.Slice:
        return "(Slice %s %s %s)" % (opt(n.lower, e), opt(n.upper, e), opt(n.step, e))
    if t is ast.Constant:
        return const(n)
    if t is ast.JoinedStr:
        return fstring(n)
    if t is ast.Compare:
        return "(Compare %s [%s] %s)" % (
            e(n.left), " ".join(CMPOPS[type(o)] for o in n.ops), lst(n.comparators, e))
    if t is ast.BoolOp:
        return "(BoolOp %s %s)" % ("and" if isinstance(n.op, ast.And) else "or", lst(n.values, e))
    if t is ast.UnaryOp:
        return "(UnaryOp %s %s)" % (UNOPS[type(n.op)], e(n.operand))
    if t is ast.BinOp:
        return "(BinOp %s %s %s)" % (e(n.left), BINOPS[type(n.op)], e(n.right))
    if t is ast.IfExp:
        return "(IfExp %s %s %s)" % (e(n.test), e(n.body), e(n.orelse))
    if t is ast.NamedExpr:
        return "(NamedExpr %s %s)" % (e(n.target), e(n.value))
    if t is ast.Await:
        return "(Await %s)" % e(n.value)
    if t is ast.Yield:
        return "(Yield %s)" % opt(n.value, e)
    if t is ast.YieldFrom:
        return "(YieldFrom %s)" % e(n.value)
    if t is ast.Lambda:
        return "(Lambda %s %s)" % (params(n.args), e(n.body))
    if t is ast.List:
        return "(List %s)" % lst(n.elts, e)
    if t is ast.Tuple:
        return "(Tuple %s)" % lst(n.elts, e)
    if t is ast.Set:
        return "(Set %s)" % lst(n.elts, e)
    if t is ast.Dict:
        return "(Dict [%s])" % " ".join(
            "(kv %s %s)" % (opt(k, e), e(v)) for k, v in zip(n.keys, n.values))
    if t is ast.ListComp:
        return comp("list", None, n.elt, n.generators)
    if t is ast.SetComp:
        return comp("set", None, n.elt, n.generators)
    if t is ast.GeneratorExp:
        return comp("gen", None, n.elt, n.generators)
    if t is ast.DictComp:
        return comp("dict", n.key, n.value, n.generators)
    if t is ast.Starred:
        return "(Starred %s)" % e(n.value)
    raise ValueError("unhandled expression %s" % t.__name__)


def body(ss):
    return lst(ss, s)


def s(n):
    return stmt(n) + sp(n)


def alias(a, plain):
    if plain:
        bound = a.asname or a.name.split(".")[0]
    elif a.name == "*":
        bound = ""
    else:
        bound = a.asname or a.name
    return "(alias %s %s)" % (q(a.name), q(bound))


def handler(h):
    return "(handler %s %s %s)%s" % (opt(h.type, e), q(h.name or ""), body(h.body), sp(h))


def stmt(n):
    t = type(n)
    if t in (ast.FunctionDef, ast.AsyncFunctionDef):
        return "(FunctionDef %s %s %s %s %s %s)" % (
            q(n.name), "async" if t is ast.AsyncFunctionDef else "sync",
            lst(n.decorator_list, e), params(n.args), opt(n.returns, e), body(n.body))
    if t is ast.ClassDef:
        kws = " ".join("(kw %s %s)" % (q(k.arg) if k.arg else "**", e(k.value)) for k in n.keywords)
        return "(ClassDef %s %s %s [%s] %s)" % (
            q(n.name), lst(n.decorator_list, e), lst(n.bases, e), kws, body(n.body))
    if t is ast.Return:
        return "(Return %s)" % opt(n.value, e)
    if t is ast.Delete:
        return "(Delete %s)" % lst(n.targets, e)
    if t is ast.Assign:
        return "(Assign %s %s)" % (lst(n.targets, e), e(n.value))
    if t is ast.AugAssign:
        return "(AugAssign %s %s %s)" % (e(n.target), BINOPS[type(n.op)], e(n.value))
    if t is ast.AnnAssign:
        return "(AnnAssign %s %s %s)" % (e(n.target), e(n.annotation), opt(n.value, e))
    if t in (ast.For, ast.AsyncFor):
        return "(For %s %s %s %s %s)" % (
            "async" if t is ast.AsyncFor else "sync", e(n.target), e(n.iter), body(n.body), body(n.orelse))
    if t is ast.While:
        return "(While %s %s %s)" % (e(n.test), body(n.body), body(n.orelse))
    if t is ast.If:
        return "(If %s %s %s)" % (e(n.test), body(n.body), body(n.orelse))
    if t in (ast.With, ast.AsyncWith):
        items = " ".join("(item %s %s)" % (e(i.context_expr), opt(i.optional_vars, e)) for i in n.items)
        return "(With %s [%s] %s)" % ("async" if t is ast.AsyncWith else "sync", items, body(n.body))
    if t is ast.Match:
        cases = " ".join(
            "(case (Other) %s %s)" % (opt(c.guard, e), body(c.body)) for c in n.cases)
        return "(Match %s [%s])" % (e(n.subject), cases)
    if t is ast.Raise:
        return "(Raise %s %s)" % (opt(n.exc, e), opt(n.cause, e))
    if t in (ast.Try, getattr(ast, "TryStar", None)):
        return "(Try %s %s %s %s %s)" % (
            "star" if t is not ast.Try else "plain", body(n.body),
            lst(n.handlers, handler), body(n.orelse), body(n.finalbody))
    if t is ast.Assert:
        return "(Assert %s %s)" % (e(n.test), opt(n.msg, e))
    if t is ast.Import:
        return "(Import %s)" % lst(n.names, lambda a: alias(a, True))
    if t is ast.ImportFrom:
        if n.module == "__future__":
            return "(ImportFrom 0 \"__future__\" [])"
        return "(ImportFrom %d %s %s)" % (n.level, q(n.module or ""), lst(n.names, lambda a: alias(a, False)))
    if t is ast.Global:
        return "(Global %s)" % lst(n.names, q)
    if t is ast.Nonlocal:
        return "(Nonlocal %s)" % lst(n.names, q)
    if t is ast.Expr:
        return "(Expr %s)" % e(n.value)
    if t is ast.Pass:
        return "(Pass)"
    if t is ast.Break:
        return "(Break)"
    if t is ast.Continue:
        return "(Continue)"
    if t.__name__ == "TypeAlias":
        return "(TypeAlias %s %s)" % (q(n.name.id), e(n.value))
    raise ValueError("unhandled statement %s" % t.__name__)


def main():
    global SRC
    sys.setrecursionlimit(10000)
    out = sys.stdout
    for path in sys.stdin.read().splitlines():
        if not path:
            continue
        out.write("=== %s\n" % path)
        with open(path, "rb") as f:
            SRC = f.read()
        try:
            tree = ast.parse(SRC)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
            msg = str(err).replace("\n", " ")
            out.write("!error %s: %s\n" % (type(err).__name__, msg))
            continue
        for st in tree.body:
            out.write(s(st) + "\n")


if __name__ == "__main__":
    main()
