# Rote — the two commands a newcomer needs:
#   make study   install what is missing, build, and open a study session on the starter decks
#   make test    install what is missing, build, and run the whole test suite
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ROTE := .build/debug/rote

.PHONY: study test format format-check test-deps build deps release bench check-corpus browser-test demo-profile install clean fuzz fuzz-build fuzz-smoke

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

release: deps
	$(SWIFT) build -c release --product rote

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

test: test-deps format-check
	$(SWIFT) build --build-tests
	ROTE_TEST_SSHD=$(TEST_SSHD) $(SWIFT) test --skip-build
	python3 tools/english-a1/build_deck.py --check
	$(MAKE) --no-print-directory check-corpus
	$(MAKE) --no-print-directory browser-test

# swift-format with the rules in .swift-format (line length 120): `make format` rewrites the
# sources in place; `make format-check` (run by `make test`, so by CI) fails on any difference.
FORMATTED := Sources Tests Benchmarks Fuzz Plugins Package.swift

format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# `rote serve` in a real headless Chromium: study, recite, trace, read, library, stats, Arabic;
# screenshots of every page at 1280 and 360 px go to .build/browser-screenshots/.
browser-test: build
	$(BROWSER_VENV)/bin/python Tests/Browser/test_web.py

# Coverage-guided fuzzing with libFuzzer (Fuzz/README.md): one instrumented build in
# .build/fuzz, then every target for FUZZ_RUNS executions (`make fuzz`), or each for a few
# seconds (`make fuzz-smoke`, which `make test` runs so CI tries every target).
FUZZ_TARGETS := yaml-block progress-reader merge-progress merge-profile merge-immutable merge-letters seed-json table-csv apkg launch-index web-request
FUZZ_RUNS ?= 1000000
FUZZ_SMOKE_SECONDS ?= 3

fuzz-build: deps
	ROTE_FUZZ=1 $(SWIFT) build -c release --product rote-fuzz --build-path .build/fuzz

fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do bash Fuzz/run.sh $$target -runs=$(FUZZ_RUNS) || exit 1; done

fuzz-smoke: fuzz-build
	@for target in $(FUZZ_TARGETS); do bash Fuzz/run.sh $$target -max_total_time=$(FUZZ_SMOKE_SECONDS) || exit 1; done

check-corpus: build
	$(ROTE) -C . check

bench: deps
	bash Benchmarks/bench.sh

# Regenerates profiles/demo from its seed (deterministic).
demo-profile: deps
	$(SWIFT) run -c release make-demo-profile profiles/demo

install: release
	install -m 0755 .build/release/rote /usr/local/bin/rote

clean:
	rm -rf .build
