#!/usr/bin/env python3
"""Baseline 3 for gymlint's benchmarks: a workers-only checker in Python.

Usage: python3 bench/pyworkers.py ROOT

What a small, independent script that checks only the workers rule would
do, with CPython's ast and PyYAML: read every YAML config under ROOT (the
same selection as bench/pyparse.py: directories whose names start with a
dot are skipped, symbolic links are not followed), take every server
instance (<name>: <server_type>: <server_dir>: {entrypoint: FILE, ...}), and
every server directory's app.py; parse each entrypoint with ast.parse (and
every other .py file too, as a checker that looks for server classes
anywhere must: a parent class may live in any module), and report the
entrypoints that have no module-level `app` and no class that overrides
multiple_workers_unsupported_reason. It prints "files=N bytes=N
entrypoints=N findings=N". It resolves nothing across modules: it is a
baseline of cost, not of precision.
"""

import ast
import os
import stat
import sys

import yaml

SERVER_TYPES = ("resources_servers", "responses_api_agents", "responses_api_models")
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def walk(root):
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if stat.S_ISREG(os.lstat(path).st_mode):
                yield path


def instances(doc):
    if not isinstance(doc, dict):
        return
    for _, types in doc.items():
        if not isinstance(types, dict):
            continue
        for stype, dirs in types.items():
            if stype not in SERVER_TYPES or not isinstance(dirs, dict):
                continue
            for sdir, settings in dirs.items():
                if isinstance(settings, dict) and isinstance(settings.get("entrypoint"), str):
                    yield stype, str(sdir), settings["entrypoint"]


def defines_app_or_refusal(tree):
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "app" for t in targets):
                return True
        if isinstance(node, ast.If):
            if defines_app_or_refusal(ast.Module(body=node.body + node.orelse, type_ignores=[])):
                return True
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "multiple_workers_unsupported_reason":
                    return True
    return False


def main(argv):
    if len(argv) != 2:
        print("usage: pyworkers.py ROOT", file=sys.stderr)
        return 2
    root = argv[1]
    entrypoints = set()
    py = []
    for path in walk(root):
        if path.endswith((".yaml", ".yml")):
            try:
                with open(path, "rb") as fh:
                    docs = list(yaml.load_all(fh, Loader=Loader))
            except Exception:
                continue
            for doc in docs:
                for stype, sdir, ep in instances(doc):
                    entrypoints.add(os.path.normpath(os.path.join(root, stype, sdir, ep)))
        elif path.endswith(".py"):
            py.append(path)
            if os.path.basename(path) == "app.py" and os.path.relpath(path, root).split(os.sep)[0] in SERVER_TYPES:
                entrypoints.add(os.path.normpath(path))
    files = nbytes = findings = 0
    for path in py:
        with open(path, "rb") as fh:
            src = fh.read()
        files += 1
        nbytes += len(src)
        try:
            tree = ast.parse(src, filename=path)
        except (SyntaxError, ValueError):
            continue
        if os.path.normpath(path) in entrypoints and not defines_app_or_refusal(tree):
            findings += 1
    print(f"files={files} bytes={nbytes} entrypoints={len(entrypoints)} findings={findings}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
