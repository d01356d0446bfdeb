#!/usr/bin/env bash
# Installs pi, the public twin of the KnightCode agent, into .cache/pi for the
# end-to-end tests and prints the path of its executable on stdout (progress
# and errors go to stderr, so callers can capture the path).
set -euo pipefail

readonly PI_PACKAGE=@mariozechner/pi-coding-agent
# Pinned: shared/protocol/older-agent-differences.md was measured on it.
readonly PI_VERSION=0.73.1
# From the package's "engines"; npm would install on an older node and only warn.
readonly MIN_NODE_MAJOR=20 MIN_NODE_MINOR=6

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix="$repo/.cache/pi"
bin="$prefix/node_modules/.bin/pi"
manifest="$prefix/node_modules/$PI_PACKAGE/package.json"

say() { echo "install-pi: $*" >&2; }

for tool in node npm; do
	if ! command -v "$tool" >/dev/null; then
		say "$tool is not on PATH: run ./scripts/setup-system.sh first."
		exit 1
	fi
done

node_version=$(node -p 'process.versions.node')
IFS=. read -r node_major node_minor _ <<<"$node_version"
if ((node_major < MIN_NODE_MAJOR || (node_major == MIN_NODE_MAJOR && node_minor < MIN_NODE_MINOR))); then
	say "pi $PI_VERSION needs Node.js ${MIN_NODE_MAJOR}.${MIN_NODE_MINOR} or newer; this node is $node_version."
	say "  Debian 12's and Ubuntu 24.04's nodejs are 18.x: install Node.js 20 or newer (e.g. NodeSource's nodejs package)."
	exit 1
fi

installed_version() {
	[[ -x $bin && -f $manifest ]] || return 1
	node -p 'require(process.argv[1]).version' "$manifest" 2>/dev/null
}

# A checkout that already has pi, but another version, gets the pinned one:
# the tests assert behaviour measured on exactly that release.
if [[ $(installed_version || true) != "$PI_VERSION" ]]; then
	say "installing $PI_PACKAGE@$PI_VERSION into .cache/pi (about 30 s)"
	mkdir -p "$prefix"
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	if ! npm install --prefix "$prefix" --no-audit --no-fund --no-update-notifier \
		"$PI_PACKAGE@$PI_VERSION" >"$log" 2>&1; then
		say "npm could not install $PI_PACKAGE@$PI_VERSION: most likely the npm registry could not be reached."
		say "npm's last lines:"
		tail -n 15 "$log" | sed 's/^/  /' >&2
		exit 1
	fi
	if [[ ! -x $bin ]]; then
		say "npm finished but $bin is missing; npm's last lines:"
		tail -n 15 "$log" | sed 's/^/  /' >&2
		exit 1
	fi
fi

echo "$bin"
