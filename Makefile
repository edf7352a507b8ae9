# skycast — the two commands a newcomer needs: `make run` and `make test`.
PREFIX ?= /usr/local
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run demo test e2e bench build install deps clean

# Installs what the build needs when it is missing (Debian/Ubuntu): ncursesw headers; tmux and python3
# for the end-to-end tests.
deps:
	@missing=""; \
	[ -e /usr/include/ncursesw/curses.h ] || missing="$$missing libncursesw5-dev"; \
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

e2e: build
	bash Tests/e2e/run.sh

bench: deps
	$(SWIFT) run -c release skycast-bench all

install: deps
	$(SWIFT) build -c release --product skycast
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/skycast" $(DESTDIR)$(PREFIX)/bin/skycast
	# The city data bundle must sit beside the binary (Bundle.module looks there).
	rm -rf $(DESTDIR)$(PREFIX)/bin/*_CityData.resources
	cp -R "$$($(SWIFT) build -c release --show-bin-path)"/*_CityData.resources $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf .build
