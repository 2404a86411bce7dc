#!/usr/bin/env python3
"""Measure `gymlint lsp` as an editor uses it, on any repository.

usage: python3 bench/lsp.py GYMLINT ROOT [EDITS [FILE]]

Starts `GYMLINT lsp` on ROOT over pipes, initializes it (UTF-16, as VS Code
does), opens one resources server's entrypoint, and waits for its first
publishDiagnostics (the workspace's first analysis); FILE (root-relative)
opens that server file instead. Then it makes EDITS
(default 50) full-text didChange edits of that file, alternating between
adding and removing a line, and measures the time from each didChange to the
publishDiagnostics of the new version. The baseline, in the same run, is
`GYMLINT --no-cache ROOT` (one cold batch scan, the cost of re-checking everything per
keystroke), timed over three runs. It prints a markdown table: batch median,
first analysis, edit latency p50/p95/max, the ratio p50/batch, and the
server's peak RSS (VmHWM) and its RSS after the edits (VmRSS).
"""
import json
import os
import subprocess
import sys
import time


def send(proc, msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def read(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("lsp.py: the server closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def wait_publish(proc, uri, version):
    while True:
        m = read(proc)
        if m.get("method") == "client/registerCapability":
            send(proc, {"jsonrpc": "2.0", "id": m["id"], "result": None})
        if m.get("method") != "textDocument/publishDiagnostics":
            continue
        p = m["params"]
        if p["uri"] == uri and p.get("version") == version:
            return p


def pick_target(root):
    """The first resources server app.py that a config names."""
    base = os.path.join(root, "resources_servers")
    for d in sorted(os.listdir(base)):
        app = os.path.join(base, d, "app.py")
        if os.path.isfile(app) and os.path.isdir(os.path.join(base, d, "configs")):
            return app
    raise SystemExit("lsp.py: no resources_servers/*/app.py with configs under " + root)


def main():
    if len(sys.argv) not in (3, 4, 5):
        raise SystemExit(__doc__)
    gymlint, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    edits = int(sys.argv[3]) if len(sys.argv) >= 4 else 50

    batch = []
    for _ in range(3):
        t = time.monotonic()
        subprocess.run([gymlint, "--quiet", "--no-cache", root], stdout=subprocess.DEVNULL, check=False)
        batch.append(time.monotonic() - t)
    batch.sort()

    target = os.path.join(root, sys.argv[4]) if len(sys.argv) == 5 else pick_target(root)
    uri = "file://" + target
    src = open(target, encoding="utf-8").read()
    edited = src.replace("\nclass ", "\nEDITED = 1\n\nclass ", 1)

    proc = subprocess.Popen([gymlint, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {
            "textDocument": {"publishDiagnostics": {"relatedInformation": True, "versionSupport": True}}}}})
    while read(proc).get("id") != 1:
        pass
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    t = time.monotonic()
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": src}}})
    wait_publish(proc, uri, 1)
    first = time.monotonic() - t

    lat = []
    for i in range(edits):
        v = i + 2
        text = edited if i % 2 == 0 else src
        t = time.monotonic()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": text}]}})
        wait_publish(proc, uri, v)
        lat.append(time.monotonic() - t)
    rss, now = "?", "?"
    with open("/proc/%d/status" % proc.pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                rss = "%d MB" % (int(line.split()[1]) // 1024)
            if line.startswith("VmRSS:"):
                now = "%d MB" % (int(line.split()[1]) // 1024)
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    while read(proc).get("id") != 2:
        pass
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=30)

    lat.sort()
    ms = lambda s: "%.1f ms" % (s * 1000)
    p50, p95 = lat[len(lat) // 2], lat[min(len(lat) - 1, len(lat) * 95 // 100)]
    print("| repository | batch scan (median of 3) | first analysis | edit p50 | edit p95 | edit max | p50 / batch | server peak RSS | RSS after the edits |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("| %s (%s) | %s | %s | %s | %s | %s | %.4f | %s | %s |" % (
        os.path.basename(root), os.path.relpath(target, root), ms(batch[1]), ms(first),
        ms(p50), ms(p95), ms(lat[-1]), p50 / batch[1], rss, now))


if __name__ == "__main__":
    main()
