#!/usr/bin/env python3
"""Write the hostile repositories of issue 27's memory defects.

usage: gen.py CASE DIR [N]

CASE is one of:
  fanout   N top configs (default 100), each listing the same 250 small
           includes in config_paths (about 1.9 MB of YAML in all); every
           include declares a server with a few hundred settings.
  bigyaml  N configs (default 16) of just under 4 MiB each (the default
           max_file_size), each a server whose settings hold a flow list of
           about two million one-digit numbers: a node every two bytes, the
           shape that costs the most per byte of YAML.
  bigyamlcap  N configs (default 16) of the same shape, each just under the
           number of values gymlint parses in one file (600,000 by
           configscan.EstimateValues: a list of 199,990 numbers, 400 KB).
  bigpy    N entrypoints (default 8) of just under 4 MiB of Python each,
           every one started by a config.
  bigpyconf  one 62 MB app.py, and a .gymlint.yaml that raises
           max_file_size to 1 GiB.
  deep     one config nested N levels deep (default 9000, about 210 KB,
           flow style), for `gymlint resolve`.

The same arguments write the same bytes.
"""
import os
import sys

MAX = 4 << 20  # repofs.DefaultMaxFileSize


def write(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


APP = '''from nemo_gym.base_resources_server import SimpleResourcesServer


class {cls}(SimpleResourcesServer):
    async def verify(self, body):
        return body
'''


def fanout(root, n):
    write(root, "nemo_gym/base_resources_server.py", "class SimpleResourcesServer:\n    pass\n")
    incs = []
    for i in range(250):
        rel = "configs/shared/inc_%03d.yaml" % i
        incs.append(rel)
        lines = ["inst_%03d:" % i, "  resources_servers:", "    srv_%03d:" % i, "      entrypoint: app.py"]
        for k in range(300):
            lines.append("      key_%03d: value_%03d" % (k, k))
        write(root, rel, "\n".join(lines) + "\n")
        write(root, "resources_servers/srv_%03d/app.py" % i, APP.format(cls="S%d" % i))
    for j in range(n):
        lines = ["config_paths:"] + ["  - " + r for r in incs]
        lines += ["top_%03d:" % j, "  resources_servers:", "    top_%03d:" % j, "      entrypoint: app.py", "      num_workers: 1"]
        write(root, "configs/top/top_%03d.yaml" % j, "\n".join(lines) + "\n")
        write(root, "resources_servers/top_%03d/app.py" % j, APP.format(cls="T%d" % j))


def bigyaml(root, n):
    write(root, "nemo_gym/base_resources_server.py", "class SimpleResourcesServer:\n    pass\n")
    for j in range(n):
        head = "big_%02d:\n  resources_servers:\n    big_%02d:\n      entrypoint: app.py\n      blob: [" % (j, j)
        items = (MAX - 64 - len(head)) // 2
        write(root, "resources_servers/big_%02d/configs/big.yaml" % j, head + "1," * items + "1]\n")
        write(root, "resources_servers/big_%02d/app.py" % j, APP.format(cls="B%d" % j))


def bigyamlcap(root, n):
    write(root, "nemo_gym/base_resources_server.py", "class SimpleResourcesServer:\n    pass\n")
    for j in range(n):
        head = "cap_%02d:\n  resources_servers:\n    cap_%02d:\n      entrypoint: app.py\n      blob: [" % (j, j)
        write(root, "resources_servers/cap_%02d/configs/cap.yaml" % j, head + "1," * 199990 + "1]\n")
        write(root, "resources_servers/cap_%02d/app.py" % j, APP.format(cls="C%d" % j))


def pybody(limit, cls):
    parts = [APP.format(cls=cls)]
    size = len(parts[0])
    k = 0
    while True:
        s = "\n\ndef f%d(a, b):\n    x = [a + b * %d, {'k': a}, (b, a)]\n    return x[0] if a else sum(x[2])\n" % (k, k)
        if size + len(s) > limit:
            break
        parts.append(s)
        size += len(s)
        k += 1
    return "".join(parts)


def bigpy(root, n):
    write(root, "nemo_gym/base_resources_server.py", "class SimpleResourcesServer:\n    pass\n")
    for j in range(n):
        write(root, "resources_servers/py_%02d/configs/py.yaml" % j,
              "py_%02d:\n  resources_servers:\n    py_%02d:\n      entrypoint: app.py\n" % (j, j))
        write(root, "resources_servers/py_%02d/app.py" % j, pybody(MAX - 64, "P%d" % j))


def bigpyconf(root, _n):
    write(root, "nemo_gym/base_resources_server.py", "class SimpleResourcesServer:\n    pass\n")
    write(root, ".gymlint.yaml", "max_file_size: 1073741824\n")
    write(root, "resources_servers/huge/configs/huge.yaml",
          "huge:\n  resources_servers:\n    huge:\n      entrypoint: app.py\n")
    write(root, "resources_servers/huge/app.py", pybody(62 * 1000 * 1000, "H"))


def deep(root, n):
    # {kkk: {kkk: ... 1 ...}} written in flow style: n levels in about
    # 24n bytes, under yaml.v3's and configscan's depth limits.
    key = "k" * 20
    text = "deep:\n  resources_servers:\n    deep:\n      entrypoint: app.py\n      nest: " + ("{%s: " % key) * n + "1" + "}" * n + "\n"
    write(root, "resources_servers/deep/configs/deep.yaml", text)
    write(root, "resources_servers/deep/app.py", APP.format(cls="D"))


CASES = {"fanout": (fanout, 100), "bigyaml": (bigyaml, 16), "bigyamlcap": (bigyamlcap, 16), "bigpy": (bigpy, 8), "bigpyconf": (bigpyconf, 1), "deep": (deep, 9000)}

if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in CASES:
        sys.exit(__doc__)
    fn, default = CASES[sys.argv[1]]
    fn(sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else default)
