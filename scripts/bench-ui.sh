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

# Three 1200x800 windows side by side: the app, the bare window and the
# bare window with an Entry. -displayfd picks a free display.
mkfifo "$tmp/displayfd"
Xvfb -displayfd 3 -screen 0 3840x1000x24 -nolisten tcp 3>"$tmp/displayfd" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
display=
read -r -t 15 display <"$tmp/displayfd" || true
if [[ ! $display =~ ^[0-9]+$ ]]; then
	say "Xvfb did not start; its log:"
	cat "$tmp/xvfb.log"
	exit 1
fi
export DISPLAY=":$display"
say "Xvfb on DISPLAY=$DISPLAY"

"$bin/benchui" -app "$app" -fake "$bin/fake-knightcode" -bare "$bin/barewindow" \
	-big "$out/session-12000.jsonl" -small "$out/session-150.jsonl" -out "$out/run" "$@"
