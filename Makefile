# Packages of KnightCode Desktop. The work is in scripts/package.sh; the
# installing in packaging/linux/Makefile, the same file every Linux tarball
# carries. Packages land in dist/.
#
#   make package            Linux tarball and Windows .exe, then validate
#   make package-linux      dist/knightcode-desktop-VERSION-linux-ARCH.tar.xz
#                           (AGENT=/path/to/knightcode bundles an agent beside the app)
#   make package-windows    dist/knightcode-desktop-VERSION-windows-amd64.exe (mingw-w64)
#   make validate           desktop entry, metainfo, icons, tarball, .exe
#   make user-install       the Linux package into ~/.local (builds it if missing)
#   sudo make install       into PREFIX=/usr/local (run make package-linux first, not as root)
#   make uninstall / make user-uninstall
#   make icons              re-render assets/icon*.png from assets/icon.svg

PREFIX ?= /usr/local
DESTDIR ?=

version := $(shell sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' FyneApp.toml | head -n 1)
arch := $(shell go env GOARCH 2>/dev/null || uname -m)
linux_name := knightcode-desktop-$(version)-linux-$(arch)
linux_tarball := dist/$(linux_name).tar.xz

.PHONY: help package package-linux package-windows validate install user-install uninstall user-uninstall icons clean

help:
	@sed -n '5,13s/^# \{0,1\}//p' Makefile

package:
	AGENT="$(AGENT)" scripts/package.sh all

package-linux:
	AGENT="$(AGENT)" scripts/package.sh linux

package-windows:
	scripts/package.sh windows

validate:
	scripts/package.sh validate

$(linux_tarball):
	AGENT="$(AGENT)" scripts/package.sh linux

# Installs what the tarball holds, with the tarball's own Makefile, so what
# is tested here is what users run. Unpacked into a temporary folder: a root
# install leaves nothing root-owned in the checkout.
define from_tarball
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	tar -C "$$tmp" -xJf $(linux_tarball) && \
	$(MAKE) --no-print-directory -f "$$tmp/$(linux_name)/Makefile" SRC="$$tmp/$(linux_name)" $(1)
endef

install: $(linux_tarball)
	$(call from_tarball,install PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)")

user-install: $(linux_tarball)
	$(call from_tarball,user-install)

uninstall:
	$(MAKE) -f packaging/linux/Makefile uninstall PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)"

user-uninstall:
	$(MAKE) -f packaging/linux/Makefile user-uninstall

icons:
	scripts/package.sh icons

clean:
	rm -rf dist .cache/package
