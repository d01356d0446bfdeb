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

# The agent comes with the app: when none is found (--agent, Settings, beside
# the app, knightcode or pi on PATH), the current public agent and a Node new
# enough for it are installed with npm into the app's data folder: no sudo,
# nothing global, nothing when one is there. Without it the window opens
# anyway and says what to do.
if ! "$bin" --install-agent "$@"; then
	say "no agent was installed; the window will say what to do"
fi

# Started from the caller's folder, not the repository's: that is the folder
# a user expects the agent to work in.
exec "$bin" "$@"
