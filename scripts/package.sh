#!/usr/bin/env bash
# Builds the packages into dist/ and checks them. The top-level Makefile calls
# this; so can CI.
#
#   scripts/package.sh linux     dist/knightcode-desktop-VERSION-linux-ARCH.tar.xz, and
#                                …-linux-ARCH-with-agent.tar.xz carrying pi and its Node
#   scripts/package.sh windows   dist/knightcode-desktop-VERSION-windows-amd64.exe (cross-built)
#                                and a .zip of it with its README.txt
#   scripts/package.sh validate  desktop entry, metainfo, icons, tarball install, .exe resources
#   scripts/package.sh all       the three above (the default); several may be given
#   scripts/package.sh icons     re-renders assets/icon*.png from assets/icon.svg
#
# Environment: AGENT=/path/to/knightcode puts that agent executable into the
# Linux tarball beside the app, where the app looks for it first.
#
# `fyne package` bumps Build in FyneApp.toml, writes files into the source
# folder while it builds (fyne_metadata_init.go, fyne.syso) and deletes the
# binary it built. So it runs on a snapshot of the work tree in
# .cache/package/src, never on the checkout: a package build leaves the tree
# as it was, and cannot trip a `go build` someone runs meanwhile.
set -euo pipefail

readonly FYNE_CLI=fyne.io/tools/cmd/fyne
readonly FYNE_CLI_VERSION=v1.7.4
readonly APP_ID=ai.knightcode.desktop
readonly EXE=knightcode-desktop
readonly ICON_SIZES=(48 64 128 256 512)
readonly MINGW_CC=x86_64-w64-mingw32-gcc
# What the snapshot's binary is called while fyne builds it (see build_linux).
readonly BUILD_NAME=kc-build
# The X11 class of the main window, which the desktop entry's StartupWMClass
# must match for docks to put the window under the app's icon. GLFW names it
# after the window's first title, appTitle in app/window.go; fyne's entry
# guesses the app's Name instead. validate reads it off the running binary.
readonly WM_CLASS=KnightCode

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
work="$repo/.cache/package"
dist="$repo/dist"
fyne="$repo/.cache/bin/fyne"

say() { echo "package: $*" >&2; }
die() {
	say "$*"
	exit 1
}

version=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' FyneApp.toml | head -n 1)
build=$(sed -n 's/^[[:space:]]*Build[[:space:]]*=[[:space:]]*\([0-9][0-9]*\).*/\1/p' FyneApp.toml | head -n 1)
[[ -n $version && -n $build ]] || die "no Version or Build in FyneApp.toml"
linux_arch=$(go env GOARCH)
linux_name="$EXE-$version-linux-$linux_arch"
linux_tarball="$dist/$linux_name.tar.xz"
agent_tarball="$dist/$linux_name-with-agent.tar.xz"
windows_exe="$dist/$EXE-$version-windows-amd64.exe"
windows_zip="$dist/$EXE-$version-windows-amd64.zip"

mkdir -p "$work" "$dist"
# One packaging run at a time per checkout: they share .cache/package. flock
# -o holds the lock itself, so a compiler left behind by an interrupted run
# does not keep it. (smoke-app runs inside validate and must not wait.)
if [[ -z ${KNIGHTCODE_PACKAGE_LOCKED:-} && ${1:-} != smoke-app ]] && command -v flock >/dev/null; then
	KNIGHTCODE_PACKAGE_LOCKED=1 exec flock -o "$work/lock" "$0" "$@"
fi

# Elapsed time of one phase, for the log.
timed() {
	local name=$1 start=$SECONDS
	shift
	"$@"
	say "$name took $((SECONDS - start)) s"
}

ensure_fyne() {
	if [[ -x $fyne && $("$fyne" version 2>/dev/null) == *"cli version: $FYNE_CLI_VERSION"* ]]; then
		return
	fi
	say "installing the fyne CLI $FYNE_CLI_VERSION into .cache/bin"
	GOBIN="$repo/.cache/bin" go install "$FYNE_CLI@$FYNE_CLI_VERSION" ||
		die "could not install $FYNE_CLI@$FYNE_CLI_VERSION (is the Go module proxy reachable?)"
}

# Copies the work tree's files (tracked and untracked, not ignored; no tests)
# into .cache/package/src. The path stays the same from run to run, so the Go
# build cache serves everything that did not change.
snapshot_done=
snapshot() {
	[[ -z $snapshot_done ]] || return 0
	local src="$work/src"
	rm -rf "$src"
	mkdir -p "$src"
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		local f
		git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				# Deleted but still in the index; tests and their data are not built.
				[[ -f $f && $f != *_test.go && $f != testdata/* && $f != */testdata/* ]] || continue
				printf '%s\0' "$f"
			done |
			tar --null -T - -cf - | tar -C "$src" -xf -
	else
		tar --exclude=./.cache --exclude=./dist --exclude='*_test.go' --exclude=testdata -cf - . |
			tar -C "$src" -xf -
	fi
	snapshot_done=1
}

# fyne package counts Build up in the snapshot's FyneApp.toml after each
# package: put it back, so every package of one run carries the checkout's
# Version.Build.
restore_metadata() {
	install -m644 "$repo/FyneApp.toml" "$work/src/FyneApp.toml"
}

# The metadata fyne embeds and writes into the .desktop file comes from
# FyneApp.toml; --release strips the binary (-s -w, -trimpath) and builds
# C code with -O3 and fyne's hardening flags.
build_linux() {
	ensure_fyne
	snapshot
	local src="$work/src" stage="$work/linux"
	rm -f "$src"/*.tar.xz
	say "fyne package -os linux --release (a cold build takes minutes)"
	# Built under a neutral name and renamed below: `pkill -f knightcode-desktop`,
	# the quick way to stop running copies of the app, must not hit a build.
	# XZ_OPT=-0: fyne's own tarball is unpacked again at once, no need to squeeze it.
	(cd "$src" && XZ_OPT=-0 "$fyne" package -os linux --release --exe "$src/$BUILD_NAME") ||
		die "fyne package -os linux failed"
	restore_metadata
	local fyne_tarball
	fyne_tarball=$(find "$src" -maxdepth 1 -name '*.tar.xz' -print -quit)
	[[ -n $fyne_tarball ]] || die "fyne package made no .tar.xz in $src"

	# fyne's tarball is <exe>/usr[/local]/{bin,share/applications,share/pixmaps}
	# plus a Makefile that installs only those. Ours keeps its binary and
	# desktop entry and adds the metainfo, the hicolor icons and our Makefile.
	rm -rf "$stage"
	mkdir -p "$stage/fyne"
	tar -C "$stage/fyne" -xJf "$fyne_tarball"
	local bin desktop
	bin=$(find "$stage/fyne" -path "*/bin/$BUILD_NAME" -type f -print -quit)
	desktop=$(find "$stage/fyne" -name "$APP_ID.desktop" -type f -print -quit)
	[[ -n $bin && -n $desktop ]] || die "fyne's tarball lacks the binary or the desktop entry: $(tar -tJf "$fyne_tarball" | tr '\n' ' ')"

	local p="$stage/$linux_name"
	install -Dm755 "$bin" "$p/lib/$EXE/$EXE"
	mkdir -p "$p/bin"
	ln -s "../lib/$EXE/$EXE" "$p/bin/$EXE"
	install -Dm644 "$desktop" "$p/share/applications/$APP_ID.desktop"
	sed -i -e "s|^Exec=$BUILD_NAME\$|Exec=$EXE|" "$p/share/applications/$APP_ID.desktop"
	grep -q "^Exec=$EXE\$" "$p/share/applications/$APP_ID.desktop" ||
		die "unexpected Exec line in fyne's desktop entry: $(grep '^Exec=' "$p/share/applications/$APP_ID.desktop")"
	sed -i -e "s|^StartupWMClass=.*|StartupWMClass=$WM_CLASS|" "$p/share/applications/$APP_ID.desktop"
	install -Dm644 "packaging/linux/$APP_ID.metainfo.xml" "$p/share/metainfo/$APP_ID.metainfo.xml"
	local s
	for s in "${ICON_SIZES[@]}"; do
		install -Dm644 "$(icon_png "$s")" "$p/share/icons/hicolor/${s}x${s}/apps/$APP_ID.png"
	done
	install -Dm644 assets/icon.svg "$p/share/icons/hicolor/scalable/apps/$APP_ID.svg"
	install -Dm644 packaging/linux/Makefile "$p/Makefile"
	if [[ -n ${AGENT:-} ]]; then
		[[ -f $AGENT && -x $AGENT ]] || die "AGENT=$AGENT is not an executable file"
		if [[ $(head -c 2 "$AGENT") == '#!' ]]; then
			say "warning: AGENT is a script ($(head -n 1 "$AGENT")): users need its interpreter"
		fi
		install -Dm755 "$AGENT" "$p/lib/$EXE/knightcode"
		say "bundled agent: $AGENT -> lib/$EXE/knightcode"
	fi
	rm -rf "$stage/fyne" "$fyne_tarball"
	pack "$stage" "$linux_tarball"

	# The same with the agent inside, for a machine with no Node: the
	# current public agent and npm's Node, installed once into the cache
	# (the app's own installer does it: agentsetup) and copied in as
	# lib/knightcode-desktop/agent, where the app looks beside itself.
	local agent_cache="$work/agent-bundle"
	go run ./packaging/agentbundle "$agent_cache" >/dev/null || die "could not install the agent for the bundle"
	cp -a "$agent_cache" "$p/lib/$EXE/agent"
	pack "$stage" "$agent_tarball"
	rm -rf "$p/lib/$EXE/agent"
	say "sizes: $(du -h "$linux_tarball" | cut -f1) plain, $(du -h "$agent_tarball" | cut -f1) with the agent ($(du -sh "$agent_cache" | cut -f1) unpacked)"
}

# pack puts the stage's package folder into a tarball.
pack() {
	local stage=$1 tarball=$2 tmp="$2.tmp"
	tar --sort=name --owner=0 --group=0 --numeric-owner -C "$stage" -cf - "$linux_name" |
		xz -T0 -6 >"$tmp"
	mv -f "$tmp" "$tarball"
	say "built ${tarball#"$repo/"} ($(du -h "$tarball" | cut -f1))"
}

icon_png() {
	if (($1 == 512)); then
		echo assets/icon.png
	else
		echo "assets/icon-$1.png"
	fi
}

# Cross-built with mingw-w64, cgo on. fyne writes a .syso with the icon (an
# .ico from the 256 px PNG: .ico entries stop at 256), the version info
# (Version.Build from FyneApp.toml) and a manifest, links with -H=windowsgui,
# and names the result after the app ("KnightCode Desktop.exe").
build_windows() {
	command -v "$MINGW_CC" >/dev/null ||
		die "$MINGW_CC is missing: apt-get install gcc-mingw-w64-x86-64"
	ensure_fyne
	snapshot
	local src="$work/src"
	rm -f "$src"/*.exe "$src"/*.syso
	say "fyne package -os windows --release, CC=$MINGW_CC (a cold build takes minutes)"
	(cd "$src" && GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC="$MINGW_CC" CXX=x86_64-w64-mingw32-g++ \
		"$fyne" package -os windows --release --icon "$repo/assets/icon-256.png" --exe "$BUILD_NAME.exe") ||
		die "fyne package -os windows failed"
	restore_metadata
	local exe
	exe=$(find "$src" -maxdepth 1 -name '*.exe' -print -quit)
	[[ -n $exe ]] || die "fyne package -os windows made no .exe in $src"
	mv -f "$exe" "$windows_exe"
	rm -f "$src"/*.exe
	say "built ${windows_exe#"$repo/"} ($(du -h "$windows_exe" | cut -f1))"
	# The download: the .exe and a README that says how it finds its agent.
	local zdir="$work/windows-zip"
	rm -rf "$zdir" "$windows_zip"
	mkdir -p "$zdir"
	cp "$windows_exe" "$zdir/knightcode-desktop.exe"
	sed 's/$/\r/' packaging/windows/README.txt >"$zdir/README.txt"
	(cd "$zdir" && python3 -m zipfile -c "$windows_zip" knightcode-desktop.exe README.txt) ||
		die "could not make ${windows_zip#"$repo/"}"
	say "built ${windows_zip#"$repo/"} ($(du -h "$windows_zip" | cut -f1))"
}

need_tool() {
	command -v "$1" >/dev/null || die "$1 is missing: apt-get install $2"
}

validate() {
	need_tool desktop-file-validate desktop-file-utils
	need_tool appstreamcli appstream
	need_tool file file
	local status=0 tmp
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" EXIT

	say "appstreamcli validate --no-net packaging/linux/$APP_ID.metainfo.xml"
	appstreamcli validate --no-net "packaging/linux/$APP_ID.metainfo.xml" || status=1

	if command -v rsvg-convert >/dev/null; then
		local s
		for s in "${ICON_SIZES[@]}"; do
			rsvg-convert -w "$s" -h "$s" assets/icon.svg -o "$tmp/icon-$s.png"
			if ! cmp -s "$tmp/icon-$s.png" "$(icon_png "$s")"; then
				say "FAIL: $(icon_png "$s") is not assets/icon.svg at ${s}px: run make icons"
				status=1
			fi
		done
		say "icons: the PNGs match assets/icon.svg"
	else
		say "rsvg-convert not found (librsvg2-bin): icons not compared with icon.svg"
	fi

	[[ -f $linux_tarball ]] || timed "linux package" build_linux
	say "tarball ${linux_tarball#"$repo/"}:"
	tar -tvJf "$linux_tarball" | awk '{ $2 = ""; $4 = ""; $5 = ""; print }' | sed 's/  */ /g; s/^/  /' >&2
	tar -C "$tmp" -xJf "$linux_tarball"
	local p="$tmp/$linux_name" f
	for f in Makefile "lib/$EXE/$EXE" "bin/$EXE" "share/applications/$APP_ID.desktop" \
		"share/metainfo/$APP_ID.metainfo.xml" "share/icons/hicolor/scalable/apps/$APP_ID.svg"; do
		[[ -e $p/$f ]] || {
			say "FAIL: the tarball has no $f"
			status=1
		}
	done
	for s in "${ICON_SIZES[@]}"; do
		f="$p/share/icons/hicolor/${s}x${s}/apps/$APP_ID.png"
		[[ $(file -b "$f") == "PNG image data, $s x $s,"* ]] || {
			say "FAIL: ${f#"$p/"} is not a ${s}x${s} PNG"
			status=1
		}
	done
	[[ $(file -b "$p/lib/$EXE/$EXE") == "ELF 64-bit"* ]] || {
		say "FAIL: lib/$EXE/$EXE is not a 64-bit ELF: $(file -b "$p/lib/$EXE/$EXE")"
		status=1
	}

	say "desktop-file-validate share/applications/$APP_ID.desktop"
	desktop-file-validate "$p/share/applications/$APP_ID.desktop" || status=1

	# The tarball's Makefile, staged into a root, and the whole tree checked
	# the way a software centre reads it (metainfo, desktop entry, icons).
	say "make install DESTDIR=… PREFIX=/usr, then appstreamcli validate-tree --no-net"
	if (cd "$p" && make -s install DESTDIR="$tmp/root" PREFIX=/usr) >"$tmp/install.log" 2>&1; then
		desktop-file-validate "$tmp/root/usr/share/applications/$APP_ID.desktop" || status=1
		grep -q "^Exec=/usr/bin/$EXE\$" "$tmp/root/usr/share/applications/$APP_ID.desktop" || {
			say "FAIL: the installed desktop entry does not run /usr/bin/$EXE"
			status=1
		}
		[[ $(readlink -f "$tmp/root/usr/bin/$EXE") == "$tmp/root/usr/lib/$EXE/$EXE" ]] || {
			say "FAIL: usr/bin/$EXE does not lead to usr/lib/$EXE/$EXE"
			status=1
		}
		appstreamcli validate-tree --no-net "$tmp/root" || status=1
	else
		say "FAIL: make install into DESTDIR:"
		sed 's/^/  /' "$tmp/install.log" >&2
		status=1
	fi

	# The installed app starts through its bin/ symlink, finds an agent beside
	# its real binary (a stub that notes its start, unless the tarball
	# bundles one), and its window has the class the desktop entry names.
	if [[ -x $tmp/root/usr/bin/$EXE ]]; then
		local agent="$tmp/root/usr/lib/$EXE/knightcode" marker='' wm_class
		if [[ ! -e $agent ]]; then
			marker="$tmp/agent-started"
			# shellcheck disable=SC2016 # $0 and $* are the stub's own
			printf '#!/bin/sh\necho "$0 $*" >"%s"\nexec cat >/dev/null\n' "$marker" >"$agent"
			chmod 755 "$agent"
		fi
		if wm_class=$(smoke_app "$tmp/root/usr/bin/$EXE" "$tmp/home" "$marker"); then
			say "the installed app showed its window, class $wm_class"
			[[ $wm_class == "$WM_CLASS" ]] || {
				say "FAIL: StartupWMClass is $WM_CLASS but the window's class is $wm_class: change WM_CLASS in scripts/package.sh"
				status=1
			}
			if [[ -n $marker ]]; then
				if [[ -s $marker ]]; then
					say "it started the agent beside it: $(cat "$marker")"
				else
					say "FAIL: the app did not start the agent in usr/lib/$EXE"
					status=1
				fi
			fi
		else
			say "FAIL: the installed app did not show a window"
			status=1
		fi
	fi

	validate_agent_tarball "$tmp" || status=1

	[[ -f $windows_exe ]] || timed "windows package" build_windows
	say "file ${windows_exe#"$repo/"}:"
	file -b "$windows_exe" | sed 's/^/  /' >&2
	[[ $(file -b "$windows_exe") == "PE32+ executable (GUI) x86-64"* ]] || {
		say "FAIL: not a PE32+ x86-64 GUI executable"
		status=1
	}
	go run ./packaging/windows/pecheck -version "$version.$build" "$windows_exe" || status=1
	[[ -f $windows_zip ]] && python3 -m zipfile -l "$windows_zip" | grep -q '^README.txt ' || {
		say "FAIL: ${windows_zip#"$repo/"} is missing or holds no README.txt"
		status=1
	}

	if ((status == 0)); then
		say "validate: ok"
	else
		say "validate: FAILED"
	fi
	return "$status"
}

# The tarball that carries the agent: it holds lib/knightcode-desktop/agent,
# whose pi answers --version with its own Node; its Makefile installs
# it; and the installed app, started with no agent on PATH, runs it.
validate_agent_tarball() {
	local tmp=$1 status=0
	[[ -f $agent_tarball ]] || {
		say "FAIL: ${agent_tarball#"$repo/"} is missing (scripts/package.sh linux builds it)"
		return 1
	}
	local a="$tmp/with-agent" want
	mkdir -p "$a"
	tar -C "$a" -xJf "$agent_tarball"
	local launcher="$a/$linux_name/lib/$EXE/agent/bin/pi" got
	want=$(sed -n 's/^[[:space:]]*Version:[[:space:]]*"\([^"]*\)".*/\1/p' agentsetup/release.go | head -n 1)
	got=$(env -i HOME="$tmp/agent-home" PATH=/usr/bin:/bin PI_OFFLINE=1 "$launcher" --version 2>&1) || true
	if [[ $got == "$want" ]]; then
		say "the bundled agent runs with its own Node: pi $got"
	else
		say "FAIL: the bundled agent's --version printed '$got', want '$want'"
		status=1
	fi
	if (cd "$a/$linux_name" && make -s install DESTDIR="$tmp/root-agent" PREFIX=/usr) >"$tmp/install-agent.log" 2>&1 &&
		[[ -x $tmp/root-agent/usr/lib/$EXE/agent/bin/pi ]]; then
		if smoke_app "$tmp/root-agent/usr/bin/$EXE" "$tmp/home-agent" "" "$tmp/root-agent/usr/lib/$EXE/agent/" >/dev/null; then
			say "the installed app started its bundled agent"
		else
			say "FAIL: the installed app did not start the agent in usr/lib/$EXE/agent"
			status=1
		fi
	else
		say "FAIL: make install of the tarball with the agent:"
		sed 's/^/  /' "$tmp/install-agent.log" >&2
		status=1
	fi
	return "$status"
}

# Starts the app at $1 with HOME=$2 and a PATH without agents, waits for its
# main window (and for the file $3 to appear, when given, or for a process
# whose command line holds $4) and prints the window's X11 class. Uses
# DISPLAY when there is one (test.sh's Xvfb), else a private Xvfb through
# xvfb-run.
smoke_app() {
	local bin=$1 home=$2 marker=${3:-} child=${4:-}
	if [[ -z ${DISPLAY:-} ]]; then
		need_tool xvfb-run xvfb
		xvfb-run -a -s '-screen 0 1280x800x24' "$0" smoke-app "$bin" "$home" "$marker" "$child"
		return
	fi
	need_tool xdotool xdotool
	need_tool xprop x11-utils
	mkdir -p "$home"
	HOME=$home PATH=/usr/bin:/bin "$bin" >"$home/app.log" 2>&1 &
	local pid=$! w='' class='' i started=
	for ((i = 0; i < 60; i++)); do
		# The main window; fyne's helper window, named after the executable,
		# is never mapped.
		[[ -n $w ]] || w=$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | head -n 1) || true
		[[ -z $child ]] || ! pgrep -f -- "$child" >/dev/null || started=1
		[[ -n $w && (-z $marker || -s $marker) && (-z $child || -n $started) ]] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	if [[ -n $child && -z $started ]]; then
		say "the app started no process from $child"
		w=''
	fi
	if [[ -n $w ]]; then
		# WM_CLASS(STRING) = "instance", "class"
		class=$(xprop -id "$w" WM_CLASS | sed -n 's/.*", "\(.*\)"$/\1/p')
	fi
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if [[ -z $class ]]; then
		say "no window; the app's output:"
		tail -n 20 "$home/app.log" | sed 's/^/  /' >&2
		return 1
	fi
	echo "$class"
}

icons() {
	need_tool rsvg-convert librsvg2-bin
	local s
	for s in "${ICON_SIZES[@]}"; do
		rsvg-convert -w "$s" -h "$s" assets/icon.svg -o "$(icon_png "$s")"
		say "rendered $(icon_png "$s")"
	done
}

# Subcommands run in the order given; none means all.
(($# > 0)) || set -- all
for cmd in "$@"; do
	case $cmd in
	linux | windows | validate | all | icons) ;;
	smoke-app) break ;;
	*)
		sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
		exit 2
		;;
	esac
done

case " $* " in
*" linux "* | *" windows "* | *" all "*)
	# The C toolchain and libraries a Fyne build needs (idempotent, one line).
	"$repo/scripts/setup-system.sh"
	;;
esac

if [[ $1 == smoke-app ]]; then
	smoke_app "$2" "$3" "${4:-}" "${5:-}"
	exit
fi

for cmd in "$@"; do
	case $cmd in
	linux) timed "linux package" build_linux ;;
	windows) timed "windows package" build_windows ;;
	validate) timed validate validate ;;
	icons) icons ;;
	all)
		timed "linux package" build_linux
		timed "windows package" build_windows
		timed validate validate
		;;
	esac
done
