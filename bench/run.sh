#!/usr/bin/env bash
# Benchmark gymlint against two parsing baselines on one repository.
#
# usage: bench/run.sh ROOT [RUNS]
#
# Builds gymlint and bench/tsparse into a temporary directory, warms the page
# cache with one untimed tsparse pass, then runs RUNS (default 5) interleaved
# rounds of:
#   gymlint ROOT                      (exit 0 or 1 is success; 1 means findings)
#   gymlint --format json ROOT >/dev/null
#   tsparse ROOT                      (tree-sitter parsing alone, all CPUs)
#   python3 bench/pyparse.py ROOT     (CPython ast.parse, one process)
# and prints a markdown table of the median wall time and the maximum peak RSS
# of each, with the ratios gymlint/tsparse and gymlint/pyparse.
#
# Environment:
#   GYMLINT=path      benchmark this gymlint binary instead of building ./cmd/gymlint
#   PYTHON=python3    interpreter for pyparse.py
#   TSPARSE_JOBS=N    tsparse -j N (default: tsparse's own, runtime.NumCPU())
#   GNU_TIME=/usr/bin/time   GNU time, used as: time -f '%e %M' -o FILE CMD...
set -euo pipefail

usage() {
	echo "usage: bench/run.sh ROOT [RUNS]" >&2
	exit 2
}
[[ $# -ge 1 && $# -le 2 ]] || usage
[[ -d $1 ]] || { echo "run.sh: $1 is not a directory" >&2; exit 2; }
root=$(cd "$1" && pwd)
runs=${2:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || usage

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$script_dir/.."

python=${PYTHON:-python3}
gnu_time=${GNU_TIME:-/usr/bin/time}
tsparse_args=()
if [[ -n ${TSPARSE_JOBS:-} ]]; then
	tsparse_args=(-j "$TSPARSE_JOBS")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [[ -n ${GYMLINT:-} ]]; then
	gymlint=$GYMLINT
else
	gymlint=$tmp/gymlint
	go build -o "$gymlint" ./cmd/gymlint
fi
go build -o "$tmp/tsparse" ./bench/tsparse

# measure NAME "OK STATUSES" STDOUT CMD... runs CMD once under GNU time, with
# stdout to the file STDOUT, and appends "wall_seconds peak_rss_kb" to
# $tmp/NAME.times.
measure() {
	local name=$1 ok=$2 out=$3 status=0
	shift 3
	"$gnu_time" -f '%e %M' -o "$tmp/time.out" "$@" >"$out" 2>"$tmp/$name.err" || status=$?
	if [[ " $ok " != *" $status "* ]]; then
		echo "run.sh: $name exited with status $status: $*" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	fi
	# GNU time writes "Command exited with non-zero status N" before the
	# formatted line when the command fails; the last line is ours.
	tail -n 1 "$tmp/time.out" >>"$tmp/$name.times"
}

"$tmp/tsparse" "${tsparse_args[@]}" "$root" >/dev/null # warm the page cache
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

for ((i = 1; i <= runs; i++)); do
	echo "run.sh: round $i of $runs" >&2
	measure gymlint "0 1" "$tmp/gymlint.out" "$gymlint" "$root"
	measure gymlint_json "0 1" /dev/null "$gymlint" --format json "$root"
	measure tsparse "0" "$tmp/tsparse.out" "$tmp/tsparse" "${tsparse_args[@]}" "$root"
	measure pyparse "0" "$tmp/pyparse.out" "$python" bench/pyparse.py "$root"
done

median_wall() {
	cut -d' ' -f1 "$tmp/$1.times" | sort -n | awk '
		{ v[NR] = $1 }
		END { if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
max_rss_mb() {
	cut -d' ' -f2 "$tmp/$1.times" | sort -n | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) printf "n/a"; else printf "%.2fx", a / b }'
}
throughput() {
	awk -v bytes="$1" -v s="$2" 'BEGIN { if (s + 0 == 0) printf "n/a"; else printf "%.1f", bytes / 1e6 / s }'
}

read -r files bytes < <(sed -n 's/^files=\([0-9]*\) bytes=\([0-9]*\)$/\1 \2/p' "$tmp/tsparse.out")
findings=$(grep -c . "$tmp/gymlint.out" || true)

declare -A wall rss
for t in gymlint gymlint_json tsparse pyparse; do
	wall[$t]=$(median_wall "$t")
	rss[$t]=$(max_rss_mb "$t")
done

cat <<TABLE
## gymlint benchmark

- root: \`$root\` — $files .py files, $bytes bytes (as tsparse and pyparse select them)
- $runs interleaved rounds after one warm-up pass; $(nproc) CPUs; load average at start: $load
- $(go version | cut -d' ' -f3-); $("$python" --version 2>&1); gymlint printed $findings lines

| tool | median wall (s) | max peak RSS (MB) | MB/s over all .py |
|---|---:|---:|---:|
| \`gymlint ROOT\` | ${wall[gymlint]} | ${rss[gymlint]} | — |
| \`gymlint --format json ROOT\` | ${wall[gymlint_json]} | ${rss[gymlint_json]} | — |
| tsparse: tree-sitter parse only${tsparse_args[*]:+ (${tsparse_args[*]})} | ${wall[tsparse]} | ${rss[tsparse]} | $(throughput "$bytes" "${wall[tsparse]}") |
| pyparse: \`$python\` ast.parse, 1 process | ${wall[pyparse]} | ${rss[pyparse]} | $(throughput "$bytes" "${wall[pyparse]}") |

| ratio | wall | peak RSS |
|---|---:|---:|
| gymlint / tsparse | $(ratio "${wall[gymlint]}" "${wall[tsparse]}") | $(ratio "${rss[gymlint]}" "${rss[tsparse]}") |
| gymlint / pyparse | $(ratio "${wall[gymlint]}" "${wall[pyparse]}") | $(ratio "${rss[gymlint]}" "${rss[pyparse]}") |
TABLE
