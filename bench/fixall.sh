#!/usr/bin/env bash
# bench/fixall.sh — apply every fix to a copy of a repository and check it.
#
#   bench/fixall.sh SNAPSHOT [CONTRACT]    (CONTRACT: auto or latest; default latest)
#
# Copies SNAPSHOT (a NeMo Gym checkout; it is not changed) to a temporary
# directory, and there:
#   1. counts the findings, and those with a safe and with only unsafe fixes;
#   2. runs gymlint --fix --unsafe-fixes;
#   3. parses every changed Python file with CPython's ast (when python3 is present);
#   4. counts the findings left, and those that were not there before (by rule and file);
#   5. runs --fix --unsafe-fixes again, which must change nothing.
# It prints one table and exits non-zero when a changed file does not parse, a
# finding appears, or the second run changes a file.
set -euo pipefail
src=${1:?usage: bench/fixall.sh SNAPSHOT [CONTRACT]}
contract=${2:-latest}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/gymlint" "$here/cmd/gymlint"
cp -a "$src" "$work/repo"
cp -a "$src" "$work/orig"
gl() { "$work/gymlint" --contract "$contract" --no-cache "$@" "$work/repo"; }
gl --format json >"$work/before.json" 2>/dev/null || true
start=$(date +%s.%N)
gl --fix --unsafe-fixes >/dev/null 2>"$work/fix1.txt" || true
end=$(date +%s.%N)
gl --format json >"$work/after.json" 2>/dev/null || true
gl --fix --unsafe-fixes >/dev/null 2>"$work/fix2.txt" || true
(cd "$work" && diff -rq orig repo 2>/dev/null | awk '/^Files/ {print $4}' | sed "s|^repo/||" >changed.txt) || true
python3 - "$work" "$(echo "$end - $start" | bc)" <<'PY'
import ast, collections, json, os, re, sys
work, secs = sys.argv[1], float(sys.argv[2])
load = lambda n: json.load(open(os.path.join(work, n)))
before, after = load("before.json"), load("after.json")
safe = sum(1 for d in before if any(f.get("applicability", "safe") == "safe" for f in d.get("fixes") or []))
unsafe = sum(1 for d in before if d.get("fixes") and not any(f.get("applicability", "safe") == "safe" for f in d["fixes"]))
cb = collections.Counter((d["path"], d["code"]) for d in before)
ca = collections.Counter((d["path"], d["code"]) for d in after)
added = {k: ca[k] - cb[k] for k in ca if ca[k] > cb[k]}
fix1 = open(os.path.join(work, "fix1.txt")).read()
m = re.search(r"applied (\d+) fix(?:es)? to (\d+) files?", fix1)
skipped = len(re.findall(r": fix \".*\" not applied", fix1))
changed = [l for l in open(os.path.join(work, "changed.txt")).read().split() if l]
bad = []
for p in changed:
    if p.endswith(".py"):
        try:
            ast.parse(open(os.path.join(work, "repo", p), "rb").read(), p)
        except SyntaxError as e:
            bad.append(f"{p}: {e}")
fix2 = open(os.path.join(work, "fix2.txt")).read()
again = re.search(r"applied (\d+) fix", fix2)
by_code = collections.Counter(d["code"] for d in before if d.get("fixes"))
print(f"findings before            {len(before)}")
print(f"  with a safe fix          {safe}")
print(f"  with only unsafe fixes   {unsafe}")
print(f"  with a fix, by rule      {dict(sorted(by_code.items()))}")
print(f"fixes applied              {m.group(1) if m else '?'} to {m.group(2) if m else '?'} files in {secs:.2f}s")
print(f"fixes left out (reported)  {skipped}")
print(f"findings after             {len(after)}")
print(f"  not there before         {sum(added.values())} {dict(collections.Counter(k[1] for k in added))}")
print(f"changed Python files       {sum(p.endswith('.py') for p in changed)}; not parsing: {len(bad)}")
print(f"second run                 {again.group(0) if again else '?'}")
for b in bad:
    print("  does not parse:", b)
ok = not bad and not added and again and again.group(1) == "0"
sys.exit(0 if ok else 1)
PY
