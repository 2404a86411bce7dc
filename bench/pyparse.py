#!/usr/bin/env python3
"""Baseline 2 for gymlint's benchmarks: CPython's own parser.

Usage: python3 bench/pyparse.py ROOT

Parses every .py file under ROOT with ast.parse, in one process, and prints
"files=N bytes=N". The file selection matches bench/tsparse: regular files
whose names end in .py, skipping directories whose names start with a dot and
not following symbolic links. Files ast rejects are counted, reported on
stderr, and make the exit status 1.
"""

import ast
import os
import stat
import sys


def python_files(root):
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            if stat.S_ISREG(os.lstat(path).st_mode):
                yield path


def main(argv):
    if len(argv) != 2:
        print("usage: pyparse.py ROOT", file=sys.stderr)
        return 2
    files = nbytes = failures = 0
    for path in python_files(argv[1]):
        with open(path, "rb") as fh:
            src = fh.read()
        try:
            ast.parse(src, filename=path)
        except (SyntaxError, ValueError) as exc:
            failures += 1
            print(f"pyparse: {path}: {exc}", file=sys.stderr)
        files += 1
        nbytes += len(src)
    print(f"files={files} bytes={nbytes}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
