"""Say which Python files this interpreter accepts.

Used by pyscan's TestStdlibAgreement (stdlib_test.go). With no argument,
walks the interpreter's own library: its standard library directory and
the site directories on its sys.path (site-packages, dist-packages); with
arguments, walks those directories instead. For every .py file under them
prints one tab-separated line

    <verdict>\t<path>\t<line>\t<col>\t<message>

where verdict is

    ok       ast.parse and compile both accept the file;
    compile  ast.parse accepts it but compile rejects it (a SyntaxError of
             the compiler's later stages: `return` outside a function,
             `nonlocal` at module level, a misplaced `await`, ...);
    parse    ast.parse rejects it (the tokenizer's or the parser's error);
    other    neither: the file could not be read, or CPython raised
             something else (RecursionError, MemoryError, ValueError for a
             NUL byte in older versions).

line and col are CPython's (1-based line, 1-based column as SyntaxError
gives them), 0 when it gives none. The first line printed is

    #python\t<version>\t<roots separated by ':'>

Runs on every Python 3 from 3.6 on: no f-strings' newer forms, no walrus.
"""

import ast
import os
import sys
import sysconfig
import warnings


def roots():
    paths = sysconfig.get_paths()
    out = [paths.get("stdlib")]
    for entry in sys.path:
        if entry and os.path.basename(entry) in ("site-packages", "dist-packages"):
            out.append(entry)
    seen, res = set(), []
    for r in out:
        if not r or not os.path.isdir(r):
            continue
        real = os.path.realpath(r)
        # A site directory inside the standard library's is walked with it.
        if real in seen or any(real.startswith(s + os.sep) for s in seen):
            continue
        seen.add(real)
        res.append(real)
    return res


def clean(s):
    return " ".join(str(s).split())[:300]


def verdict(path):
    try:
        with open(path, "rb") as f:
            src = f.read()
    except OSError as e:
        return "other", 0, 0, "read: " + clean(e)
    try:
        ast.parse(src, path)
    except SyntaxError as e:
        return "parse", e.lineno or 0, e.offset or 0, type(e).__name__ + ": " + clean(e.msg)
    except BaseException as e:  # RecursionError, MemoryError, ValueError
        return "other", 0, 0, type(e).__name__ + ": " + clean(e)
    try:
        compile(src, path, "exec", dont_inherit=True)
    except SyntaxError as e:
        return "compile", e.lineno or 0, e.offset or 0, type(e).__name__ + ": " + clean(e.msg)
    except BaseException as e:
        return "other", 0, 0, type(e).__name__ + ": " + clean(e)
    return "ok", 0, 0, ""


def main():
    warnings.simplefilter("ignore")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    rs = sys.argv[1:] or roots()
    out = sys.stdout
    out.write("#python\t%d.%d.%d\t%s\n" % (sys.version_info[:3] + (":".join(rs),)))
    for r in rs:
        for dirpath, dirnames, filenames in os.walk(r):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(dirpath, name)
                if not os.path.isfile(path):
                    continue
                v, line, col, msg = verdict(path)
                out.write("%s\t%s\t%d\t%d\t%s\n" % (v, path, line, col, msg))
    out.flush()


main()
