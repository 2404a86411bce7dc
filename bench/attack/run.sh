#!/usr/bin/env bash
# Measure gymlint's memory on the hostile repositories of issue 27.
#
# usage: bench/attack/run.sh [CASE...]
#
# Builds ./cmd/gymlint (or takes $GYMLINT), writes each case's repository
# with bench/attack/gen.py into a temporary directory, runs the binary on
# it with default flags (a cache directory of its own, empty: a cold
# check) under GNU time, and prints a markdown table of exit status, wall
# time and peak RSS. With BASE=path, the same for that binary too, each
# case run by both one after the other, so that the two columns share the
# machine's load.
#
# Cases (default: all):
#   fanout      100 top configs that include the same 250 files (gen.py fanout)
#   fanout500   500 of them
#   bigyaml     16 configs of 4 MB of YAML, a value every two bytes
#   bigyamlcap  16 configs just under the values gymlint parses in one file
#   bigpy       8 entrypoints of 4 MB of Python
#   bigpy-j8    the same with --jobs 8
#   bigpyconf   a 62 MB app.py and a .gymlint.yaml that raises max_file_size
#   deep        gymlint resolve of a config 9,000 levels deep (YAML)
#   deep-json   the same, --format json
#
# Environment:
#   GYMLINT=path      measure this binary instead of building ./cmd/gymlint
#   BASE=path         measure this one too (e.g. a build from before a change)
#   MAX_MEMORY_MB=N   pass --max-memory N to the checks (default 6000), so
#                     that a binary without the bounds stops with a message
#                     instead of taking the machine: its peak then reads
#                     "> N MB (stopped)"
#   PYTHON=python3    interpreter for gen.py
#   GNU_TIME=/usr/bin/time
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$script_dir/../.."
python=${PYTHON:-python3}
gnu_time=${GNU_TIME:-/usr/bin/time}
max_mb=${MAX_MEMORY_MB:-6000}
all=(fanout fanout500 bigyaml bigyamlcap bigpy bigpy-j8 bigpyconf deep deep-json)
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=("${all[@]}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -n ${GYMLINT:-} ]]; then
	new=$GYMLINT
else
	new=$tmp/gymlint
	go build -o "$new" ./cmd/gymlint
fi
bins=("$new")
names=(new)
if [[ -n ${BASE:-} ]]; then
	bins=("$BASE" "$new")
	names=(base new)
fi

# repo CASE writes the repository of CASE once and prints its path.
repo() {
	local gen=$1 n=""
	case $1 in
	fanout500) gen=fanout n=500 ;;
	bigpy-j8) gen=bigpy ;;
	deep-json) gen=deep ;;
	esac
	if [[ ! -d $tmp/repo.$gen$n ]]; then
		"$python" bench/attack/gen.py "$gen" "$tmp/repo.$gen$n" $n
	fi
	echo "$tmp/repo.$gen$n"
}

# run BIN CASE runs one check under GNU time and prints a table row.
run() {
	local bin=$1 name=$2 c=$3 dir status=0 t0 t1 rss
	dir=$(repo "$c")
	local cmd=("$bin" --max-memory "$max_mb" "$dir")
	case $c in
	bigpy-j8) cmd=("$bin" --max-memory "$max_mb" --jobs 8 "$dir") ;;
	deep) cmd=("$bin" resolve --root "$dir" "$dir/resources_servers/deep/configs/deep.yaml") ;;
	deep-json) cmd=("$bin" resolve --format json --root "$dir" "$dir/resources_servers/deep/configs/deep.yaml") ;;
	esac
	rm -rf "$tmp/cache"
	t0=$EPOCHREALTIME
	GYMLINT_CACHE_DIR=$tmp/cache "$gnu_time" -f '%M' -o "$tmp/time.out" "${cmd[@]}" >"$tmp/out" 2>"$tmp/err" || status=$?
	t1=$EPOCHREALTIME
	rss=$(tail -n 1 "$tmp/time.out" | awk '{ printf "%.0f", $1 / 1024 }')
	if grep -q "memory limit reached" "$tmp/err"; then
		rss="> $max_mb (stopped)"
	fi
	local note
	note=$(grep -m1 -o 'configuration error.*\|exceeded max depth\|GL002 [^:]*was not analysed: [a-z ]*' "$tmp/err" "$tmp/out" 2>/dev/null | head -n 1 | cut -d: -f2- | cut -c1-70 || true)
	printf '| %s | %s | %s | %.2f | %s | %s | %s |\n' "$c" "$name" "$status" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$rss" "$(wc -c <"$tmp/out")" "$note"
}

echo "| case | binary | exit | wall (s) | peak RSS (MB) | stdout bytes | note |"
echo "|---|---|---:|---:|---:|---:|---|"
for c in "${cases[@]}"; do
	for i in "${!bins[@]}"; do
		run "${bins[$i]}" "${names[$i]}" "$c"
	done
done
