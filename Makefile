# Rote — the two commands a newcomer needs:
#   make study   install what is missing, build, and open a study session on the starter decks
#   make test    install what is missing, build, and run the whole test suite
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ROTE := .build/debug/rote

.PHONY: study test format format-check test-deps build deps release bench check-corpus browser-test demo-profile install manuals deb package-check clean fuzz fuzz-build fuzz-smoke

# The system libraries Rote links, as Debian ships them: libgit2 (git), SQLite (reading Anki
# collections), zlib (unzipping Anki packages, through ZIPFoundation) and zstd (the compressed
# collection and media of Anki 2.1.50+ packages). The Anki import
# tests also use python3 (venv + pip) to install genanki and anki into .build/anki-venv; where
# that fails they are skipped with a loud message.
deps:
	@command -v $(SWIFT) >/dev/null || { echo "error: the Swift toolchain (swift) is not on PATH; install Swift 6 from swift.org" >&2; exit 1; }
	@if ! pkg-config --exists libgit2 sqlite3 zlib libzstd 2>/dev/null; then \
		echo "Installing libgit2-dev, libsqlite3-dev, zlib1g-dev, libzstd-dev and pkg-config through apt…"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libgit2-dev libsqlite3-dev zlib1g-dev libzstd-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build --product rote

# The Swift runtime is linked in statically, so the binary runs where no Swift is installed
# (the Debian package below); `make bench` measures the same binary a learner installs.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product rote

# Studies in your own library ($XDG_DATA_HOME/rote, created from the starter decks on first
# use) — never in this checkout, whose profiles/demo is test data. Run from / so no folder
# above the current one is taken for a library.
study: build
	@cd / && $(abspath $(ROTE)) study

# The whole suite, then `rote check` on the checkout's own library (corpus/ and profiles/).
# The ssh remote tests clone and push through a real sshd on 127.0.0.1, started by the test
# with its own config and keys; openssh-server is installed for it like the libraries (its
# privilege-separation folder is made when no init system has made it).
TEST_SSHD ?= /usr/sbin/sshd
# The browser tests of `rote serve` drive Debian's chromium through chromium-driver with
# Selenium, which lives in a throwaway virtualenv under .build/.
BROWSER_VENV := .build/browser-venv
SELENIUM_VERSION := 4.51.0
test-deps: deps
	@if [ ! -x $(TEST_SSHD) ]; then \
		echo "Installing openssh-server through apt for the ssh remote tests…"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq openssh-server; \
	fi
	@[ -d /run/sshd ] || $(SUDO) mkdir -p -m 0755 /run/sshd
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		echo "Installing chromium and chromium-driver through apt for the browser tests of rote serve…"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver; \
	fi
	@$(BROWSER_VENV)/bin/python -c 'import selenium' 2>/dev/null || { \
		echo "Installing Selenium from PyPI into $(BROWSER_VENV)…"; \
		python3 -m venv $(BROWSER_VENV) && $(BROWSER_VENV)/bin/pip install -q 'selenium==$(SELENIUM_VERSION)'; \
	}

# tools/run-tests runs each check with its output in .build/test-logs/, shows only what fails,
# and ends with one line: N passed, N failed, N skipped. `.ci/run` passes TEST_FLAGS=--ci to
# add the Debian package's install check and the fuzz smoke run.
TEST_FLAGS ?=
test: test-deps
	@SWIFT=$(SWIFT) MAKE=$(MAKE) ROTE_TEST_SSHD=$(TEST_SSHD) python3 tools/run-tests $(TEST_FLAGS)

# swift-format with the rules in .swift-format (line length 120): `make format` rewrites the
# sources in place; `make format-check` (run by `make test`, so by CI) fails on any difference.
FORMATTED := Sources Tests Benchmarks Fuzz Plugins Package.swift

format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# `rote serve` in a real headless Chromium: study, recite, trace, read, library, stats, Arabic;
# screenshots of every page at 1280, 390 and 360 px go to .build/browser-screenshots/.
browser-test: build
	$(BROWSER_VENV)/bin/python Tests/Browser/test_web.py

# Coverage-guided fuzzing with libFuzzer (Fuzz/README.md). `make fuzz`: an optimised,
# instrumented build in .build/fuzz, then every target for FUZZ_RUNS executions. `make
# fuzz-smoke` (CI): a debug build beside the tests' own in .build, which reuses every compiled
# dependency and recompiles only Rote's targets with instrumentation, then each target for a
# few seconds. The next `make build` recompiles those targets without it.
FUZZ_TARGETS := yaml-block progress-reader merge-progress merge-profile merge-immutable merge-letters seed-json table-csv apkg launch-index web-request
FUZZ_RUNS ?= 1000000
FUZZ_SMOKE_SECONDS ?= 3

fuzz-build: deps
	ROTE_FUZZ=1 $(SWIFT) build -c release --product rote-fuzz --build-path .build/fuzz

fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do bash Fuzz/run.sh $$target -runs=$(FUZZ_RUNS) || exit 1; done

fuzz-smoke: deps
	ROTE_FUZZ=1 $(SWIFT) build --product rote-fuzz
	@for target in $(FUZZ_TARGETS); do ROTE_FUZZ_BINARY=.build/debug/rote-fuzz bash Fuzz/run.sh $$target -max_total_time=$(FUZZ_SMOKE_SECONDS) || exit 1; done

check-corpus: build
	$(ROTE) -C . check

bench: deps
	bash Benchmarks/bench.sh

# Regenerates profiles/demo from its seed (deterministic).
demo-profile: deps
	$(SWIFT) run -c release make-demo-profile profiles/demo

# `make install PREFIX=~/.local` (no root) or `make deb` (one file a learner installs with
# `sudo apt install ./rote_*.deb`) install the same files: the release binary, a man page per
# command made by argument-parser's generate-manual plugin, and bash, zsh and fish completions
# made by the binary itself. DESTDIR stages them elsewhere, as packagers expect.
PREFIX ?= /usr/local
DESTDIR ?=
ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
MANUALS := .build/plugins/GenerateManual/outputs/rote

manuals: deps
	$(SWIFT) package generate-manual --configuration debug --multi-page \
		--date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)" >/dev/null

install: release manuals
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(ZSH_COMPLETIONS)" \
		"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -s -m 0755 .build/release/rote "$(DESTDIR)$(PREFIX)/bin/rote"
	for page in $(MANUALS)/*.1; do gzip -9n < "$$page" > "$(DESTDIR)$(PREFIX)/share/man/man1/$$(basename "$$page").gz"; done
	.build/release/rote --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rote"
	.build/release/rote --generate-completion-script zsh > "$(DESTDIR)$(ZSH_COMPLETIONS)/_rote"
	.build/release/rote --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/rote.fish"
	@echo "Installed rote $$(.build/release/rote --version) under $(DESTDIR)$(PREFIX); run: rote study"

# rote_<version>_<arch>.deb in this folder. Its Depends are what the binary links, as
# dpkg-shlibdeps finds them (libgit2, SQLite, zstd, zlib, libc). The version is the binary's:
# the git tag (`git describe`), with Debian's "+" where git writes "-".
DEB_ROOT := .build/deb/root
deb: deps
	@command -v dpkg-shlibdeps >/dev/null || { echo "Installing dpkg-dev through apt for dpkg-shlibdeps…"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq dpkg-dev; }
	rm -rf .build/deb
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_ROOT)) PREFIX=/usr ZSH_COMPLETIONS=/usr/share/zsh/vendor-completions
	mkdir -p .build/deb/shlibs/debian $(DEB_ROOT)/DEBIAN && touch .build/deb/shlibs/debian/control
	set -e; version=$$(.build/release/rote --version | tr - +); arch=$$(dpkg --print-architecture); \
	depends=$$(cd .build/deb/shlibs && dpkg-shlibdeps -O -e $(abspath $(DEB_ROOT))/usr/bin/rote 2>/dev/null | sed 's/^shlibs:Depends=//'); \
	printf '%s\n' "Package: rote" "Version: $$version" "Architecture: $$arch" "Section: education" \
		"Priority: optional" "Maintainer: Rote <rote@users.rote.invalid>" "Depends: $$depends" \
		"Installed-Size: $$(du -sk $(DEB_ROOT)/usr | cut -f1)" \
		"Description: spaced-repetition learning whose database is a git repository of plain text" \
		" Rote schedules reviews with FSRS-6 and keeps every word, passage, letter and question" \
		" as one YAML file, and your progress beside it, in a git repository you sync through any" \
		" git remote. The starter decks are built in: run \`rote study\` to begin." \
		> $(DEB_ROOT)/DEBIAN/control; \
	dpkg-deb --root-owner-group -Zxz --build $(DEB_ROOT) "rote_$${version}_$${arch}.deb"

# What CI checks of the package: it installs with apt, runs from /usr/bin in a scratch folder
# (a new library and its check), and removes cleanly.
package-check: deb
	$(SUDO) apt-get install -y -qq ./rote_$$(.build/release/rote --version | tr - +)_$$(dpkg --print-architecture).deb
	set -e; scratch=$$(mktemp -d); trap 'rm -rf "$$scratch"' EXIT; cd "$$scratch"; \
		/usr/bin/rote --version; \
		HOME="$$scratch" /usr/bin/rote init --native-language ar --target-language en library; \
		HOME="$$scratch" /usr/bin/rote -C library check; \
		test -f /usr/share/man/man1/rote.1.gz; test -f /usr/share/bash-completion/completions/rote
	$(SUDO) apt-get remove -y -qq rote
	@! command -v rote >/dev/null || [ "$$(command -v rote)" != /usr/bin/rote ] || { echo "error: /usr/bin/rote is still there after removal" >&2; exit 1; }

clean:
	rm -rf .build
