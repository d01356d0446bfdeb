#!/usr/bin/env bash
# Measures the window's UI under its own Xvfb, side by side with bare Fyne
# windows on the same display, and prints a table of figures with their
# targets (app/wintest/cmd/benchui). It prints, it never asserts: a missed
# target does not fail it; only a broken setup does.
#
#   ./scripts/bench-ui.sh [benchui flags…]     e.g. -keys 50 -idle 5s
#
# Environment: BENCH_OUT (default .cache/bench-ui) keeps the binaries, the
# generated sessions, traces, logs and screenshots of the last run;
# BENCH_APP=BINARY measures that app binary instead of building one.
set -euo pipefail

TAGS=migrated_fynedo
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
out=${BENCH_OUT:-$repo/.cache/bench-ui}
bin=$out/bin
mkdir -p "$bin"

say() { echo "bench-ui.sh: $*"; }

missing=()
for tool in Xvfb xdotool import; do
	command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]} > 0)); then
	say "missing ${missing[*]}: running scripts/setup-system.sh"
	"$repo/scripts/setup-system.sh"
fi

export LANG=C.UTF-8
say "building into $bin"
start=$(date +%s)
app=${BENCH_APP:-$bin/knightcode-desktop}
if [[ -z ${BENCH_APP:-} ]]; then
	go build -tags "$TAGS" -o "$app" .
fi
go build -tags "$TAGS" -o "$bin/barewindow" ./app/wintest/cmd/barewindow
go build -o "$bin/fake-knightcode" ./rpcconn/rpctest/cmd/fake-knightcode
go build -o "$bin/gensession" ./app/wintest/cmd/gensession
go build -o "$bin/benchui" ./app/wintest/cmd/benchui
say "built in $(($(date +%s) - start)) s"

"$bin/gensession" -entries 12000 -o "$out/session-12000.jsonl"
"$bin/gensession" -entries 150 -o "$out/session-150.jsonl"

tmp=$(mktemp -d)
xvfb_pids=()
cleanup() {
	for pid in "${xvfb_pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start_xvfb NAME WxH: starts an Xvfb on a free display (-displayfd) and
# sets $display to its number.
start_xvfb() {
	mkfifo "$tmp/$1.fd"
	Xvfb -displayfd 3 -screen 0 "$2x24" -nolisten tcp 3>"$tmp/$1.fd" >"$tmp/$1.log" 2>&1 &
	xvfb_pids+=($!)
	display=
	read -r -t 15 display <"$tmp/$1.fd" || true
	if [[ ! $display =~ ^[0-9]+$ ]]; then
		say "Xvfb ($1) did not start; its log:"
		cat "$tmp/$1.log"
		exit 1
	fi
}

# The app and the bare window side by side, 1200x800 each; the bare window
# with a focused Entry on a display of its own, so that it and the app can
# both have the input focus at once.
start_xvfb main 2560x1000
export DISPLAY=":$display"
start_xvfb floor 1280x1000
floor=":$display"
say "Xvfb on DISPLAY=$DISPLAY, the focused floor on $floor"

"$bin/benchui" -app "$app" -fake "$bin/fake-knightcode" -bare "$bin/barewindow" \
	-big "$out/session-12000.jsonl" -small "$out/session-150.jsonl" -out "$out/run" \
	-floor-display "$floor" "$@"
