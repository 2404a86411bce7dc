#!/usr/bin/env bash
# Benchmark gymlint against parsing baselines on one repository, cold and warm.
#
# usage: bench/run.sh ROOT [RUNS]
#
# Builds gymlint and bench/tsparse into a temporary directory, warms the page
# cache with one untimed tsparse pass, copies ROOT into the temporary
# directory (the edits below are made to the copy, never to ROOT), fills a
# gymlint cache for ROOT and one for the copy, then runs RUNS (default 5)
# interleaved rounds of:
#   gymlint --no-cache ROOT             cold: nothing reused (exit 0 or 1 is success)
#   gymlint --no-cache --format json ROOT >/dev/null
#   gymlint ROOT                        warm: the cache, nothing changed
#   gymlint COPY                        after a comment is appended to one server file
#   gymlint COPY                        after a comment is appended to a parent class module
#   tsparse -read ROOT                  reading the bytes of every .py file
#   tsparse ROOT                        tree-sitter parsing alone, all CPUs
#   python3 bench/pyparse.py ROOT       CPython ast.parse, one process
#   python3 bench/pyworkers.py ROOT     a workers-only checker with ast and PyYAML
# and prints a markdown table of the median wall time and the maximum peak RSS
# of each, and the ratios. Wall times come from bash's EPOCHREALTIME (so that
# warm runs of a few milliseconds are measured), peak RSS from GNU time.
#
# Environment:
#   GYMLINT=path      benchmark this gymlint binary instead of building ./cmd/gymlint
#   PYTHON=python3    interpreter for pyparse.py and pyworkers.py
#   TSPARSE_JOBS=N    tsparse -j N (default: tsparse's own, runtime.NumCPU())
#   GNU_TIME=/usr/bin/time   GNU time, used as: time -f '%M' -o FILE CMD...
#   BENCH_EDIT=PATH   the root-relative server file to edit (default: the first
#                     resources_servers/*/app.py)
#   BENCH_PARENT=PATH the root-relative parent class module to edit (default:
#                     nemo_gym/base_resources_server.py)
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

first_server() {
	local f
	for f in "$root"/resources_servers/*/app.py; do
		[[ -f $f ]] && { echo "${f#"$root"/}"; return; }
	done
}
edit=${BENCH_EDIT:-$(first_server)}
parent=${BENCH_PARENT:-nemo_gym/base_resources_server.py}
[[ -n $edit && -f $root/$edit ]] || { echo "run.sh: no server file to edit (set BENCH_EDIT)" >&2; exit 2; }
[[ -f $root/$parent ]] || { echo "run.sh: no parent class module $parent (set BENCH_PARENT)" >&2; exit 2; }

# measure NAME "OK STATUSES" STDOUT CMD... runs CMD once under GNU time, with
# stdout to the file STDOUT and stderr to $tmp/NAME.err, and appends
# "wall_seconds peak_rss_kb" to $tmp/NAME.times.
measure() {
	local name=$1 ok=$2 out=$3 status=0 t0 t1
	shift 3
	t0=$EPOCHREALTIME
	"$gnu_time" -f '%M' -o "$tmp/time.out" "$@" >"$out" 2>"$tmp/$name.err" || status=$?
	t1=$EPOCHREALTIME
	if [[ " $ok " != *" $status "* ]]; then
		echo "run.sh: $name exited with status $status: $*" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	fi
	# GNU time writes "Command exited with non-zero status N" before the
	# formatted line when the command fails; the last line is ours.
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }') $(tail -n 1 "$tmp/time.out")" >>"$tmp/$name.times"
}

"$tmp/tsparse" "${tsparse_args[@]}" "$root" >/dev/null # warm the page cache
copy=$tmp/copy
cp -a "$root" "$copy"
export GYMLINT_CACHE_DIR=$tmp/cache
"$gymlint" --quiet "$root" >/dev/null || true # fill the caches
"$gymlint" --quiet "$copy" >/dev/null || true
sleep 1.1 # past the racy second of the runs that filled them
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# analysed ERRFILE prints how many entrypoints a check analysed, from its
# summary line ("N entrypoints (M from the cache)").
analysed() {
	sed -n 's/.* \([0-9]*\) entrypoints (\([0-9]*\) from the cache).*/\1 \2/p; t; s/.* \([0-9]*\) entrypoints,.*/\1 0/p' "$1" |
		tail -n 1 | awk '{ print $1 - $2 " of " $1 }'
}

for ((i = 1; i <= runs; i++)); do
	echo "run.sh: round $i of $runs" >&2
	measure cold "0 1" "$tmp/gymlint.out" "$gymlint" --no-cache "$root"
	measure cold_json "0 1" /dev/null "$gymlint" --no-cache --format json "$root"
	measure warm "0 1" "$tmp/warm.out" "$gymlint" "$root"
	echo "# bench edit $i" >>"$copy/$edit"
	measure edit "0 1" /dev/null "$gymlint" "$copy"
	echo "# bench edit $i" >>"$copy/$parent"
	measure parent "0 1" /dev/null "$gymlint" "$copy"
	measure readbytes "0" /dev/null "$tmp/tsparse" -read "${tsparse_args[@]}" "$root"
	measure tsparse "0" "$tmp/tsparse.out" "$tmp/tsparse" "${tsparse_args[@]}" "$root"
	measure pyparse "0 1" /dev/null "$python" bench/pyparse.py "$root"
	measure pyworkers "0" /dev/null "$python" bench/pyworkers.py "$root"
done

if ! cmp -s "$tmp/gymlint.out" "$tmp/warm.out"; then
	echo "run.sh: the warm check printed otherwise than the cold one" >&2
	exit 1
fi

median_wall() {
	cut -d' ' -f1 "$tmp/$1.times" | sort -n | awk '
		{ v[NR] = $1 }
		END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
max_rss_mb() {
	cut -d' ' -f2 "$tmp/$1.times" | sort -n | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) printf "n/a"; else printf "%.3fx", a / b }'
}
throughput() {
	awk -v bytes="$1" -v s="$2" 'BEGIN { if (s + 0 == 0) printf "n/a"; else printf "%.1f", bytes / 1e6 / s }'
}

read -r files bytes < <(sed -n 's/^files=\([0-9]*\) bytes=\([0-9]*\)$/\1 \2/p' "$tmp/tsparse.out")
findings=$(grep -c . "$tmp/gymlint.out" || true)

declare -A wall rss
for t in cold cold_json warm edit parent readbytes tsparse pyparse pyworkers; do
	wall[$t]=$(median_wall "$t")
	rss[$t]=$(max_rss_mb "$t")
done

cat <<TABLE
## gymlint benchmark

- root: \`$root\` — $files .py files, $bytes bytes (as tsparse and pyparse select them)
- $runs interleaved rounds after one warm-up pass; $(nproc) CPUs; load average at start: $load
- $(go version | cut -d' ' -f3-); $("$python" --version 2>&1); gymlint printed $findings lines
- edited: \`$edit\` (server file; the check after it analysed $(analysed "$tmp/edit.err") entrypoints),
  \`$parent\` (parent class module; $(analysed "$tmp/parent.err") entrypoints)

| tool | median wall (s) | max peak RSS (MB) | MB/s over all .py |
|---|---:|---:|---:|
| \`gymlint --no-cache ROOT\` (cold) | ${wall[cold]} | ${rss[cold]} | — |
| \`gymlint --no-cache --format json ROOT\` | ${wall[cold_json]} | ${rss[cold_json]} | — |
| \`gymlint ROOT\`, warm, unchanged | ${wall[warm]} | ${rss[warm]} | — |
| \`gymlint\`, warm, one server file edited | ${wall[edit]} | ${rss[edit]} | — |
| \`gymlint\`, warm, a parent class module edited | ${wall[parent]} | ${rss[parent]} | — |
| reading the bytes (tsparse -read) | ${wall[readbytes]} | ${rss[readbytes]} | $(throughput "$bytes" "${wall[readbytes]}") |
| tsparse: tree-sitter parse only${tsparse_args[*]:+ (${tsparse_args[*]})} | ${wall[tsparse]} | ${rss[tsparse]} | $(throughput "$bytes" "${wall[tsparse]}") |
| pyparse: \`$python\` ast.parse, 1 process | ${wall[pyparse]} | ${rss[pyparse]} | $(throughput "$bytes" "${wall[pyparse]}") |
| pyworkers: \`$python\` workers-only checker | ${wall[pyworkers]} | ${rss[pyworkers]} | $(throughput "$bytes" "${wall[pyworkers]}") |

| ratio | wall | peak RSS |
|---|---:|---:|
| cold / pyworkers | $(ratio "${wall[cold]}" "${wall[pyworkers]}") | $(ratio "${rss[cold]}" "${rss[pyworkers]}") |
| cold / pyparse | $(ratio "${wall[cold]}" "${wall[pyparse]}") | $(ratio "${rss[cold]}" "${rss[pyparse]}") |
| cold / tsparse | $(ratio "${wall[cold]}" "${wall[tsparse]}") | $(ratio "${rss[cold]}" "${rss[tsparse]}") |
| cold / reading the bytes | $(ratio "${wall[cold]}" "${wall[readbytes]}") | $(ratio "${rss[cold]}" "${rss[readbytes]}") |
| warm, unchanged / cold | $(ratio "${wall[warm]}" "${wall[cold]}") | $(ratio "${rss[warm]}" "${rss[cold]}") |
| warm, one server file edited / cold | $(ratio "${wall[edit]}" "${wall[cold]}") | $(ratio "${rss[edit]}" "${rss[cold]}") |
| warm, parent class module edited / cold | $(ratio "${wall[parent]}" "${wall[cold]}") | $(ratio "${rss[parent]}" "${rss[cold]}") |
TABLE
