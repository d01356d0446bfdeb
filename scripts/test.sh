#!/usr/bin/env bash
# Runs the whole test suite the way CI does (.ci/run execs this), from a clean
# clone, without a display: it installs what it needs and starts its own Xvfb.
# Every step runs even after a failure; the last line counts the steps.
#
# Environment: FUZZ_TIME (default 20s) per fuzz target; TEST_VERBOSE=1 for go test -v.
set -euo pipefail

# Packages also tested under the race detector. A cold -race build of anything
# that links Fyne takes minutes on 2 cores: add packages where races can hide.
RACE_PKGS="./rpcconn/... ./model/... ./sessionfiles/... ./sessionindex/... ./internal/... ./remote/... ./gitwork/..."
# The real-agent suites (tests whose names match REAL_AGENT_TESTS in these
# packages) run once against each pinned pi: the whole suite with pi 0.73.1,
# then these again with pi 1.6.0, the release the app installs.
REAL_AGENT_PKGS="./model ./modelsetup ./app ./app/wintest ./rpcconn/e2e ./sessionfiles ./remote ./rpcconn/rpctest/pienv"
REAL_AGENT_TESTS='RealAgent|RealPi|AgainstRealAgent|LineDiff'
# Fuzz targets as PACKAGE:FUNCTION, separated by spaces; each fuzzes for FUZZ_TIME.
FUZZ_TARGETS="./rpcconn:FuzzDecodeStream"

FUZZ_TIME=${FUZZ_TIME:-20s}
TAGS=migrated_fynedo

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

passed=0
failed=0
failed_steps=()

say() { echo "test.sh: $*"; }

# Runs one step. Its function runs inside `if`, where set -e does not apply:
# step functions return their status explicitly.
step() {
	local name=$1
	shift
	echo
	say "=== $name"
	if "$@"; then
		passed=$((passed + 1))
		say "ok: $name"
	else
		failed=$((failed + 1))
		failed_steps+=("$name")
		say "FAILED: $name"
	fi
}

summary() {
	echo
	if ((failed > 0)); then
		say "failed steps: ${failed_steps[*]}"
	fi
	echo "$passed passed, $failed failed"
}

tmp=$(mktemp -d)
xvfb_pid=
cleanup() {
	if [[ -n $xvfb_pid ]]; then
		kill "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export LANG=C.UTF-8
# Window tests and the real-agent suites fail, rather than skip, when
# something they need is missing; their screenshots are kept here.
export KNIGHTCODE_E2E=1
export KNIGHTCODE_ARTIFACTS=${KNIGHTCODE_ARTIFACTS:-$repo/.cache/artifacts/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$KNIGHTCODE_ARTIFACTS"

install_pi() {
	local pi current
	pi=$("$repo/scripts/install-pi.sh") || return 1
	current=$("$repo/scripts/install-pi.sh" 1.6.0) || return 1
	export KNIGHTCODE_PI=$pi KNIGHTCODE_PI_CURRENT=$current
	say "KNIGHTCODE_PI=$KNIGHTCODE_PI (pi 0.73.1)"
	say "KNIGHTCODE_PI_CURRENT=$KNIGHTCODE_PI_CURRENT (pi 1.6.0)"
}

check_gofmt() {
	local files=() unformatted
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# Untracked files too, so a file not yet added is checked before it is committed.
		mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard -- '*.go')
	else
		mapfile -d '' files < <(find . -path ./.cache -prune -o -name '*.go' -print0)
	fi
	((${#files[@]} > 0)) || return 0
	unformatted=$(gofmt -l "${files[@]}") || return 1
	if [[ -n $unformatted ]]; then
		say "not gofmt-formatted (run gofmt -w on them):"
		echo "$unformatted"
		return 1
	fi
}

# A private X server for the tests that open a real window. -displayfd lets
# Xvfb pick a free display number itself and tells it once it accepts clients.
start_xvfb() {
	local fifo="$tmp/displayfd" display=
	mkfifo "$fifo"
	Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$fifo" >"$tmp/xvfb.log" 2>&1 &
	xvfb_pid=$!
	read -r -t 15 display <"$fifo" || true
	if [[ ! $display =~ ^[0-9]+$ ]]; then
		say "Xvfb did not start; its log:"
		cat "$tmp/xvfb.log"
		return 1
	fi
	export DISPLAY=":$display"
	say "Xvfb on DISPLAY=$DISPLAY"
}

go_test() {
	# The window suites build the app (once with -race) and drive it: more
	# than go test's default 10 minutes per package on 2 cores.
	local args=(-tags "$TAGS" -count=1 -timeout 40m)
	if [[ ${TEST_VERBOSE:-} == 1 ]]; then
		args+=(-v)
	fi
	go test "${args[@]}" ./...
}

# The real-agent suites again, against pi 1.6.0.
current_agent_test() {
	local args=(-tags "$TAGS" -count=1 -timeout 40m -run "$REAL_AGENT_TESTS")
	if [[ ${TEST_VERBOSE:-} == 1 ]]; then
		args+=(-v)
	fi
	local pkgs
	read -ra pkgs <<<"$REAL_AGENT_PKGS"
	KNIGHTCODE_PI=$KNIGHTCODE_PI_CURRENT KNIGHTCODE_PI_VERSION=1.6.0 go test "${args[@]}" "${pkgs[@]}"
}

race_test() {
	local pkgs
	read -ra pkgs <<<"$RACE_PKGS"
	go test -race -tags "$TAGS" -count=1 "${pkgs[@]}"
}

fuzz() {
	local pkg=$1 name=$2
	go test -tags "$TAGS" -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZ_TIME" "$pkg"
}

step system-packages "$repo/scripts/setup-system.sh"
if ((failed > 0)); then
	# Nothing below builds without the toolchain and the C libraries.
	summary
	exit 1
fi
step pi-agent install_pi
step gofmt check_gofmt
step vet go vet -tags "$TAGS" ./...
# go test links no binary for a package without tests: this is what catches a
# broken link of the app itself, into the path run.sh uses.
step build go build -tags "$TAGS" -o "$repo/.cache/bin/knightcode-desktop" .
step xvfb start_xvfb
step tests go_test
step tests-pi-1.6.0 current_agent_test
step race race_test
# Linux tarball and Windows .exe into dist/, then desktop entry, metainfo,
# install, app start and .exe checks.
step package "$repo/scripts/package.sh" all

for target in $FUZZ_TARGETS; do
	pkg=${target%%:*}
	name=${target#*:}
	# Targets are listed ahead of the code that defines them.
	if ! grep -qs "^func ${name}(" "$pkg"/*_test.go; then
		say "warning: $pkg does not define $name yet: fuzz target skipped"
		continue
	fi
	step "fuzz:$name" fuzz "$pkg" "$name"
done

say "screenshots and logs of the window tests: $KNIGHTCODE_ARTIFACTS"
summary
((failed == 0))
