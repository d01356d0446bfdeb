#!/usr/bin/env bash
# Installs what is missing, builds the app and starts it. Arguments are passed
# to the app unchanged, e.g. ./scripts/run.sh --agent ~/bin/knightcode -- --provider x
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin="$repo/.cache/bin/knightcode-desktop"

say() { echo "run: $*" >&2; }

# Checked before the build, which takes minutes the first time.
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
	say "no display: neither DISPLAY nor WAYLAND_DISPLAY is set."
	say "  on a machine without a screen, run it in a virtual one:"
	say "  xvfb-run -a -s '-screen 0 1280x800x24' ./scripts/run.sh $*"
	exit 1
fi

"$repo/scripts/setup-system.sh"

say "building .cache/bin/knightcode-desktop (the first build takes a few minutes)"
(cd "$repo" && go build -tags migrated_fynedo -o "$bin" .)

# Started from the caller's folder, not the repository's: that is the folder
# a user expects the agent to work in.
exec "$bin" "$@"
