# skycast — the two commands a newcomer needs: `make run` and `make test`.
PREFIX ?= /usr/local
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run demo test e2e bench build release-static install uninstall deb deps clean

# Where `make install` puts things (DESTDIR stages them, as packagers expect).
BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share/skycast
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
DATA = cities.tsv city-names.tsv countries.tsv CITIES-LICENSE.md
# The installed binary carries the Swift runtime (--static-swift-stdlib): it runs where Swift is not
# installed. Its own build folder, so that switching flags never rebuilds the development build.
STATIC = .build/static
SKYCAST_STATIC = $(STATIC)/release/skycast

# Installs what the build needs when it is missing (Debian/Ubuntu): ncursesw headers; libcurl's for the
# static Swift runtime (FoundationNetworking links -lcurl); tmux, python3 and man for the end-to-end tests.
deps:
	@missing=""; \
	[ -e /usr/include/ncursesw/curses.h ] || missing="$$missing libncursesw5-dev"; \
	[ -e /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -e /usr/include/curl/curl.h ] || missing="$$missing libcurl4-openssl-dev"; \
	command -v man >/dev/null || missing="$$missing man-db"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	command -v python3 >/dev/null || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
		if command -v apt-get >/dev/null; then \
			echo "installing:$$missing"; \
			$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
		else \
			echo "please install:$$missing"; exit 1; \
		fi; \
	fi

run: deps
	$(SWIFT) run -c release skycast $(ARGS)

demo: deps
	$(SWIFT) run -c release skycast --demo $(ARGS)

build: deps
	$(SWIFT) build

test: build
	$(SWIFT) test
	bash Tests/e2e/run.sh
	bash Tests/e2e/install.sh

e2e: build
	bash Tests/e2e/run.sh
	bash Tests/e2e/install.sh

bench: deps
	$(SWIFT) build -c release
	$(SWIFT) run -c release skycast-bench all

release-static: deps
	$(SWIFT) build -c release --static-swift-stdlib --product skycast --scratch-path $(STATIC)

install: release-static
	@$(MAKE) --no-print-directory install-files

# Removes exactly what install put there (and the data folder, which is skycast's own).
uninstall:
	rm -f $(BINDIR)/skycast $(MANDIR)/skycast.1 $(BASHDIR)/skycast $(ZSHDIR)/_skycast $(FISHDIR)/skycast.fish
	rm -f $(addprefix $(DATADIR)/,$(DATA))
	rmdir $(DATADIR) 2>/dev/null || true

# skycast_<version>_<arch>.deb: the install under /usr, Depends from the packages that own the
# shared libraries the binary links directly (readelf's NEEDED, found by ldd), the attributions in
# its copyright file.
deb: release-static
	@set -e; \
	version=$$($(SKYCAST_STATIC) --version | cut -d' ' -f2); arch=$$(dpkg --print-architecture); \
	root=$(STATIC)/deb; rm -rf $$root; \
	$(MAKE) --no-print-directory install-files DESTDIR=$$root PREFIX=/usr; \
	install -d $$root/DEBIAN $$root/usr/share/doc/skycast; \
	{ echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"; echo "Upstream-Name: skycast"; echo; \
	  echo "Files: *"; echo "License: MIT"; sed 's/^/ /; s/^ $$/ ./' LICENSE; echo; \
	  echo "Files: usr/share/skycast/*"; echo "License: CC-BY-4.0"; sed 's/^/ /; s/^ $$/ ./' Resources/CITIES-LICENSE.md; echo; \
	  echo "Comment: Weather data by Open-Meteo.com (CC BY 4.0; the free API is for non-commercial use),"; \
	  echo " or by OpenWeatherMap when that provider is chosen."; } > $$root/usr/share/doc/skycast/copyright; \
	needed=$$(readelf -d $(SKYCAST_STATIC) | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); \
	depends=$$(for lib in $$(ldd $(SKYCAST_STATIC) | awk -v needed="$$needed" 'BEGIN { split(needed, n, "\n"); for (i in n) want[n[i]] = 1 } \
	    /=> \// && ($$1 in want) {print $$3}'); do \
	    real=$$(realpath $$lib); \
	    dpkg -S "$$lib" 2>/dev/null || dpkg -S "$$real" 2>/dev/null || dpkg -S "$${real#/usr}" 2>/dev/null || dpkg -S "/usr$$lib"; \
	  done | cut -d: -f1 | sort -u | paste -sd, - | sed 's/,/, /g'); \
	{ echo "Package: skycast"; echo "Version: $$version"; echo "Architecture: $$arch"; \
	  echo "Maintainer: skycast developers <skycast@localhost>"; echo "Section: utils"; echo "Priority: optional"; \
	  echo "Depends: $$depends"; \
	  echo "Description: the weather of the cities you care about, in your terminal"; \
	  echo " A full-screen terminal weather browser: a table of cities with current"; \
	  echo " conditions and a forecast strip, offline city search, bookmarks."; } > $$root/DEBIAN/control; \
	dpkg-deb --root-owner-group --build $$root skycast_$${version}_$${arch}.deb

# The install itself, from the static build (install and deb build it first).
install-files:
	install -d $(BINDIR) $(DATADIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(SKYCAST_STATIC) $(BINDIR)/skycast
	install -m 644 $(addprefix Resources/,$(DATA)) $(DATADIR)/
	$(SKYCAST_STATIC) manpage > $(MANDIR)/skycast.1
	$(SKYCAST_STATIC) completions bash > $(BASHDIR)/skycast
	$(SKYCAST_STATIC) completions zsh > $(ZSHDIR)/_skycast
	$(SKYCAST_STATIC) completions fish > $(FISHDIR)/skycast.fish

clean:
	rm -rf .build
