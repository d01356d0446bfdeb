#!/usr/bin/env bash
# Installs a pinned release of pi, the public twin of the KnightCode agent,
# into .cache for the end-to-end tests and prints the path of its executable
# on stdout (progress and errors go to stderr, so callers can capture the
# path):
#
#   scripts/install-pi.sh           pi 0.73.1 (npm @mariozechner/pi-coding-agent) in .cache/pi
#   scripts/install-pi.sh 1.6.0     pi 1.6.0 (npm @earendil-works/pi-coding-agent), the one
#                                   the app installs, with npm's Node 22 where this machine's
#                                   is older, in .cache/pi-current
#
# Both go through package pienv (rpcconn/rpctest/pienv), as the tests do on
# first use; npm's cache is .cache/npm, shared by every install.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

for tool in node npm go; do
	if ! command -v "$tool" >/dev/null; then
		echo "install-pi: $tool is not on PATH: run ./scripts/setup-system.sh first." >&2
		exit 1
	fi
done

cd "$repo"
exec go run ./rpcconn/rpctest/pienv/cmd/pi-install "$@"
