#!/usr/bin/env bash
# The steps of gymlint's GitHub Action (action.yml at the repository root).
#
#   run.sh build   builds gymlint at INPUT_VERSION into $RUNNER_TEMP/gymlint-bin
#                  and puts that directory on the job's PATH.
#                  Outputs: bin, and cache-dir when the cache is to be kept.
#   run.sh check   runs gymlint (GYMLINT_BIN) with --format github for the
#                  annotations and the step summary, then with --format sarif
#                  into the SARIF file, and exits with the first run's status.
#                  Outputs: findings, sarif-file, exit-code.
#
# Every input comes in the environment (INPUT_*): action.yml passes them with
# env:, never by writing them into shell code. internal/actiontest runs this
# script as the runner does.
set -uo pipefail

# escape_data escapes a workflow command's message (% CR LF).
escape_data() {
	local s=${1//'%'/'%25'}
	s=${s//$'\r'/'%0D'}
	printf '%s' "${s//$'\n'/'%0A'}"
}

# fail prints an error annotation and exits 2, gymlint's status for a usage
# or configuration error.
fail() {
	printf '::error title=gymlint action::%s\n' "$(escape_data "$*")"
	exit 2
}

# set_output NAME VALUE appends a step output to $GITHUB_OUTPUT.
set_output() {
	case $2 in *$'\n'* | *$'\r'*) fail "output $1 would hold a line break: $2" ;; esac
	printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
}

# valid_ref accepts the commits, tags and branch names a version may name
# (no leading -, no spaces, nothing git reads as an option or a range).
valid_ref() {
	[[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._/+-]*$ && $1 != *..* ]]
}

# remote_url is the URL of the action's repository on the GitHub server.
remote_url() {
	[[ -n ${GITHUB_SERVER_URL:-} && -n ${GYMLINT_ACTION_REPOSITORY:-} ]] || return 1
	printf '%s/%s\n' "$GITHUB_SERVER_URL" "$GYMLINT_ACTION_REPOSITORY"
}

# checkout_version DIR VERSION prints the directory of a temporary clone of
# DIR (the action's own files) at VERSION. VERSION is looked up in the clone
# first (a full checkout has it), then fetched from DIR's origin, or from the
# action's repository when DIR is not a git work tree (the runner downloads
# a remote action as an archive).
checkout_version() {
	local from=$1 version=$2 src="$RUNNER_TEMP/gymlint-src" url="" top commit
	rm -rf -- "$src"
	top=$(git -C "$from" rev-parse --show-toplevel 2>/dev/null) || top=""
	if [[ -n $top && $(cd -- "$top" && pwd -P) == $(cd -- "$from" && pwd -P) ]]; then
		git clone --quiet --no-checkout -- "$from" "$src" >&2 || return 1
		for c in "$version" "origin/$version"; do
			if commit=$(git -C "$src" rev-parse --verify --quiet "$c^{commit}"); then
				git -C "$src" checkout --quiet --detach "$commit" >&2 || return 1
				printf '%s\n' "$src"
				return 0
			fi
		done
		url=$(git -C "$from" remote get-url origin 2>/dev/null) || url=""
	else
		git init --quiet -- "$src" >&2 || return 1
	fi
	if [[ -z $url ]]; then
		url=$(remote_url) || {
			echo "gymlint action: $version is not in $from, and the action's repository is not known" >&2
			return 1
		}
	fi
	echo "gymlint action: fetching $version from $url" >&2
	git -C "$src" fetch --quiet --depth=1 -- "$url" "$version" >&2 &&
		git -C "$src" checkout --quiet --detach FETCH_HEAD >&2 || return 1
	printf '%s\n' "$src"
}

build() {
	local from=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set} version=${INPUT_VERSION:-}
	local bindir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/gymlint-bin" src line dir head
	src=$from
	# The action's files are its repository at the action's ref: build them,
	# unless version names another ref.
	if [[ -n $version && $version != "${GYMLINT_ACTION_REF:-}" ]]; then
		valid_ref "$version" || fail "version: \"$version\" is not a commit, tag or branch name"
		head=$(git -C "$from" rev-parse --verify --quiet HEAD 2>/dev/null) || head=""
		if [[ $version != "$head" ]]; then
			src=$(checkout_version "$from" "$version") || fail "version $version: cannot check it out (see the log above)"
		fi
	fi
	echo "::group::Build gymlint in $src"
	(cd -- "$src" && go build -o "$bindir/gymlint" ./cmd/gymlint) || fail "go build ./cmd/gymlint failed in $src"
	"$bindir/gymlint" --version || fail "the gymlint it built does not run"
	echo "::endgroup::"
	if [[ -n ${GITHUB_PATH:-} ]]; then
		printf '%s\n' "$bindir" >>"$GITHUB_PATH"
	fi
	set_output bin "$bindir/gymlint"

	# A cache restored in another job is only of use under the same key
	# (docs/guide/cache.md): without GYMLINT_CACHE_KEY every entry would be
	# recomputed, so the cache is neither restored nor saved.
	[[ ${INPUT_CACHE:-true} == true ]] || return 0
	if [[ -z ${GYMLINT_CACHE_KEY:-} ]]; then
		echo "::notice title=gymlint cache::not kept between jobs: set GYMLINT_CACHE_KEY from a secret to keep it (see gymlint's docs/guide/ci.md)"
		return 0
	fi
	line=$("$bindir/gymlint" clean --dry-run) || fail "gymlint clean --dry-run failed"
	dir=${line%: *} # "DIR: no cache" or "DIR: N entries, ..."
	[[ $dir == /* ]] || fail "gymlint clean --dry-run named no cache directory: $line"
	set_output cache-dir "$dir"
}

check() {
	local bin=${GYMLINT_BIN:-gymlint} sarif=${INPUT_SARIF_FILE:-} tmp status n line msg
	local -a args=() flags=()
	cd -- "${GITHUB_WORKSPACE:?GITHUB_WORKSPACE is not set}" && cd -- "${INPUT_WORKING_DIRECTORY:-.}" ||
		fail "working-directory: cannot enter \"${INPUT_WORKING_DIRECTORY:-}\" in the workspace"
	# args: split on white space, never evaluated (no quotes, no globs).
	read -r -d '' -a args <<<"${INPUT_ARGS:-}"
	case ${INPUT_CONTRACT:-} in
	"") ;;
	auto | latest) flags+=(--contract "$INPUT_CONTRACT") ;;
	*) fail "contract must be auto or latest, not \"$INPUT_CONTRACT\"" ;;
	esac
	[[ -n $sarif ]] || sarif="${RUNNER_TEMP:?RUNNER_TEMP is not set}/gymlint.sarif"
	[[ $sarif == /* ]] || sarif="$GITHUB_WORKSPACE/$sarif"
	case $sarif in *$'\n'* | *$'\r'*) fail "sarif-file: a path with a line break" ;; esac
	tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gymlint.XXXXXX") || fail "cannot make a temporary directory"

	# The annotations, the summary notice, and gymlint's step summary.
	"$bin" --format github ${flags[@]+"${flags[@]}"} ${args[@]+"${args[@]}"} | tee "$tmp/annotations"
	status=${PIPESTATUS[0]}
	set_output exit-code "$status"
	if [[ $status != 0 && $status != 1 ]]; then
		if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
			printf '### gymlint\n\ngymlint stopped with exit status %s: see the step'"'"'s log.\n\n' "$status" >>"$GITHUB_STEP_SUMMARY"
		fi
		rm -rf -- "$tmp"
		exit "$status"
	fi

	# The findings, counted by the summary notice: "no findings", "1 finding: ...", "N findings: ...".
	line=$(grep '^::notice title=gymlint summary::' "$tmp/annotations" | tail -n 1)
	msg=${line#*::notice title=gymlint summary::}
	case $msg in
	"no findings"*) n=0 ;;
	[0-9]*" finding"*) n=${msg%% *} ;;
	*) n="" ;;
	esac
	set_output findings "$n"
	rm -rf -- "$tmp"

	mkdir -p -- "$(dirname -- "$sarif")" || fail "cannot make the directory of $sarif"
	if "$bin" --format sarif --exit-zero --quiet ${flags[@]+"${flags[@]}"} ${args[@]+"${args[@]}"} >"$sarif"; then
		set_output sarif-file "$sarif"
	else
		printf '::warning title=gymlint action::%s\n' "$(escape_data "the SARIF run failed; no SARIF file")"
	fi
	exit "$status"
}

case ${1:-} in
build) build ;;
check) check ;;
*)
	echo "usage: run.sh build|check" >&2
	exit 2
	;;
esac
