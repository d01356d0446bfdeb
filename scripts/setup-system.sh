#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages that building, running and testing the
# app need, and checks that Go is new enough. Idempotent: when everything is
# there it only checks (dpkg-query, no apt-get) and prints one line.
set -euo pipefail

readonly MIN_GO_MAJOR=1 MIN_GO_MINOR=26
# The newest patch release measured on these machines; any go1.26.x works.
readonly SUGGESTED_GOTOOLCHAIN=go1.26.8
readonly MIN_NODE_MAJOR=18

packages=(
	# cgo build of GLFW/OpenGL/X11 for Fyne, GTK 3 for native file dialogs
	gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev
	libxinerama-dev libxi-dev libxxf86vm-dev libgtk-3-dev
	# a real window without a screen, screenshots, input and clipboard in tests
	xvfb xauth imagemagick xdotool x11-utils xclip
	# reading a screenshot (OCR), a GTK drag source for real drag-and-drop,
	# and watching which sockets the app opens
	tesseract-ocr python3-gi gir1.2-gtk-3.0 strace
	# packages: Windows cross-build, desktop entry and AppStream checks, file
	# types, the tarball's xz, icon renders compared with icon.svg
	gcc-mingw-w64-x86-64 desktop-file-utils appstream file xz-utils librsvg2-bin
	# the agent over SSH: the client the app runs, and the sshd that
	# remote/sshtest starts on 127.0.0.1 for the tests (not as a service)
	openssh-client openssh-server
	# checkpoints, the changes pane and worktrees run the user's git; the
	# SSH runner's quoting is also checked through csh/tcsh when present
	git tcsh
)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { echo "setup-system: $*" >&2; }

node_is_usable() {
	command -v node >/dev/null && command -v npm >/dev/null || return 1
	local major
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || return 1
	[[ $major =~ ^[0-9]+$ ]] && ((major >= MIN_NODE_MAJOR))
}

# Node may come from elsewhere (nodesource, nvm) with npm bundled; asking apt
# for Debian's npm on top of that would conflict, so only a missing or too old
# node brings Debian's packages in.
if ! node_is_usable; then
	packages+=(nodejs npm)
fi

missing_packages() {
	local -A installed=()
	local name status
	# Unknown packages make dpkg-query exit 1; the ones it knows are still listed.
	while read -r name status; do
		[[ $status == installed ]] && installed[$name]=1
	done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)
	local p
	for p in "${packages[@]}"; do
		[[ -n ${installed[$p]:-} ]] || echo "$p"
	done
}

check_packages() {
	if ! command -v dpkg-query >/dev/null; then
		say "no dpkg-query: this script installs with apt (Debian/Ubuntu)."
		say "elsewhere install the equivalents of: ${packages[*]}"
		return 1
	fi

	local missing
	mapfile -t missing < <(missing_packages)
	if ((${#missing[@]} == 0)); then
		return 0
	fi

	local sudo=()
	if ((EUID != 0)); then
		if command -v sudo >/dev/null; then
			sudo=(sudo)
		else
			say "missing packages: ${missing[*]}"
			say "not root and no sudo; install them as root with:"
			say "  apt-get update && apt-get install -y ${missing[*]}"
			return 1
		fi
	fi

	say "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Installing openssh-server starts an sshd on port 22 unless a
	# policy-rc.d says no (Docker images have one): the tests start their
	# own, so keep the package from starting the service meanwhile.
	local policy=/usr/sbin/policy-rc.d added_policy=
	if [[ " ${missing[*]} " == *" openssh-server "* && ! -e $policy ]]; then
		if printf '#!/bin/sh\n# setup-system.sh: no service starts while it installs packages\nexit 101\n' |
			"${sudo[@]}" tee "$policy" >/dev/null && "${sudo[@]}" chmod 755 "$policy"; then
			added_policy=1
		fi
	fi
	if "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q "${missing[@]}"; then
		mapfile -t missing < <(missing_packages)
	fi
	if [[ -n $added_policy ]]; then
		"${sudo[@]}" rm -f "$policy"
		say "openssh-server was installed without starting its service; the tests run their own sshd"
	fi
	if ((${#missing[@]} > 0)); then
		say "these packages are still missing: ${missing[*]}"
		say "install them by hand with:"
		say "  ${sudo[*]}${sudo:+ }apt-get update && ${sudo[*]}${sudo:+ }apt-get install -y ${missing[*]}"
		return 1
	fi
}

check_go() {
	if ! command -v go >/dev/null; then
		say "Go is not on PATH; KnightCode Desktop needs Go ${MIN_GO_MAJOR}.${MIN_GO_MINOR} or newer."
		if [[ -x /usr/local/go/bin/go ]]; then
			say "  it is installed in /usr/local/go: export PATH=/usr/local/go/bin:\$PATH"
		else
			say "  install it from https://go.dev/dl/ (apt's golang-go is too old on Debian 12)."
		fi
		return 1
	fi

	# Asked from the module's folder so that, with GOTOOLCHAIN=auto, this is
	# the toolchain go.mod selects, the one builds will really use.
	local version
	if ! version=$(cd "$repo" && go env GOVERSION 2>&1); then
		say "'go env GOVERSION' failed:"
		say "  $version"
		say "  with Go 1.21 or newer, GOTOOLCHAIN=${SUGGESTED_GOTOOLCHAIN} fetches the right toolchain; otherwise install Go from https://go.dev/dl/"
		return 1
	fi
	if [[ ! $version =~ ^go([0-9]+)\.([0-9]+) ]]; then
		# A development build has no release number to compare: trust it.
		return 0
	fi
	local major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
	if ((major > MIN_GO_MAJOR || (major == MIN_GO_MAJOR && minor >= MIN_GO_MINOR))); then
		return 0
	fi

	say "Go $version is too old; KnightCode Desktop needs Go ${MIN_GO_MAJOR}.${MIN_GO_MINOR} or newer."
	if ((major == 1 && minor >= 21)); then
		say "  this Go can fetch a newer toolchain itself: export GOTOOLCHAIN=${SUGGESTED_GOTOOLCHAIN}"
		say "  and run this script again."
	else
		say "  Go before 1.21 (apt's golang-go on Debian 12 is 1.19) cannot fetch a newer toolchain:"
		say "  install Go from https://go.dev/dl/ and put its bin folder first on PATH."
	fi
	return 1
}

status=0
check_packages || status=1
check_go || status=1
if ((status == 0)); then
	echo "system packages: ok"
fi
exit "$status"
