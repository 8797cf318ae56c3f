# nextup — the two commands a newcomer needs: `make run` and `make test`.
SWIFT      ?= swift
BIN_DEBUG  := .build/debug/nextup
DEB_PKGS   := libncursesw5-dev libsqlite3-dev zlib1g-dev tmux pkg-config util-linux taskwarrior syncthing sqlite3 radicale vdirsyncer python3-caldav vim nano faketime
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run demo test test-more test-phone test-syncthing soak bench bench-smoke install uninstall clean

## deps: install the Debian packages the build and tests need, when missing.
deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

## build: the nextup binary (debug).
build: deps
	$(SWIFT) build --product nextup

## run: build, then open the TUI on the default store.
run: build
	$(BIN_DEBUG) $(ARGS)

## demo: the TUI on a demo store with sample tasks, next to a simulated second
## machine that edits tasks through a temporary peer folder every few seconds.
demo: build
	Resources/demo.sh $(CURDIR)/$(BIN_DEBUG)

## test: build and run every test (unit, store, sync, CLI end-to-end, TUI in tmux).
test: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory bench-smoke
	NEXTUP_BIN=$(CURDIR)/$(BIN_DEBUG) $(SWIFT) test --skip-build

## test-more: the same, with many more random sync schedules.
test-more: deps
	$(SWIFT) build --build-tests
	NEXTUP_BIN=$(CURDIR)/$(BIN_DEBUG) NEXTUP_SCHEDULES=5000 NEXTUP_TWO_MACHINE_CASES=100 $(SWIFT) test --skip-build

## test-phone: the phone bridge at length: the mixed-edit run of issue 32
## (`sync --watch`, vdirsyncer and a CalDAV client on a real Radicale) for
## about 150 s instead of 5 rounds, and 1,000 random cases of the two-machine
## bridge property instead of its fixed seeds. About 10 minutes.
test-phone: deps
	$(SWIFT) build --build-tests
	NEXTUP_BIN=$(CURDIR)/$(BIN_DEBUG) NEXTUP_PHONE_ROUNDS=260 $(SWIFT) test --skip-build \
	  --filter "PhoneBridgeEndToEndTests/aWatchingSyncLosesNoPhoneEditAmongMixedEdits"
	NEXTUP_BIN=$(CURDIR)/$(BIN_DEBUG) NEXTUP_TWO_MACHINE_CASES=1000 $(SWIFT) test --skip-build \
	  --filter "TwoMachineBridgePropertyTests/phoneAndNextupEditsOnTwoMachinesConvergeToTheNewest"

## test-syncthing: nextup over real Syncthing (Debian's), end to end: two then
## three Syncthing instances on 127.0.0.1, a nextup replica with `sync --watch`
## behind each; concurrent edits, a burst of random edits, a stopped machine, a
## copied store, and the edit-to-other-store latency (tests/syncthing/run.py;
## SYNCTHING_ARGS passes options, e.g. "--burst 1000"). About 3 minutes.
SYNCTHING_ARGS ?=
test-syncthing: deps
	$(SWIFT) build --product nextup
	python3 tests/syncthing/run.py --bin $(CURDIR)/$(BIN_DEBUG) $(SYNCTHING_ARGS)

## soak: two machines over Syncthing, each with a TUI in tmux and `sync --watch`,
## under random shell edits and TUI keys for SOAK_MINUTES (default 10): equal
## stores, no lost field, flat memory, no leaked descriptors; the figures go to
## docs/benchmarks.md (tests/soak/run.py).
SOAK_MINUTES ?= 10
soak: deps
	$(SWIFT) build --product nextup
	python3 tests/soak/run.py --bin $(CURDIR)/$(BIN_DEBUG) --minutes $(SOAK_MINUTES) --doc docs/benchmarks.md

## The release build `make bench` measures and `make install` installs, built
## for start-up time, which every command pays: the Swift runtime linked in, no
## PIE (no relocations to apply at start; needs the static runtime), no
## exported symbols, no run path beside the executable; and, in every module
## it compiles, a concrete generic type's metadata (`Set<InputKey>`, …) made
## by a direct call to its accessor, not from its mangled name, for which the
## runtime checks the type's requirements by scanning every conformance in the
## binary (the largest cost of parsing a command line).
RELEASE_BUILD := $(SWIFT) build -c release --disable-local-rpath --static-swift-stdlib --product nextup \
                 -Xlinker -no-pie -Xlinker --no-export-dynamic \
                 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

## bench: the perception budgets (docs/benchmarks.md) at 10,000 and 100,000
## tasks, beside Taskwarrior 2.6 (installed when missing), on the release build
## above; the table goes to docs/benchmarks.md. About 5 minutes on 2 cores.
## BENCH_ARGS passes options (python3 bench/run.py --help).
bench: deps
	$(RELEASE_BUILD)
	python3 bench/run.py --bin $(CURDIR)/.build/release/nextup --series 1000 $(BENCH_ARGS)

## bench-smoke: the benchmark harness at 50 tasks, one run, no Taskwarrior, on
## BENCH_BIN (default: the debug binary `make test` builds): proves it still works.
BENCH_BIN ?= $(CURDIR)/$(BIN_DEBUG)
bench-smoke:
	python3 bench/run.py --smoke --bin $(BENCH_BIN)

## install: the release build above (the Swift runtime linked in), installed under
## PREFIX (default ~/.local): bin/nextup, the man page, and completion scripts
## for bash, zsh and fish in their standard places. INSTALL_BIN=PATH installs
## an already-built binary instead of building one (the tests use that).
PREFIX      ?= $(HOME)/.local
INSTALL_BIN ?=
BASH_COMP   := $(PREFIX)/share/bash-completion/completions/nextup
ZSH_COMP    := $(PREFIX)/share/zsh/site-functions/_nextup
FISH_COMP   := $(PREFIX)/share/fish/vendor_completions.d/nextup.fish
MAN_PAGE    := $(PREFIX)/share/man/man1/nextup.1
install:
	@if [ -z "$(INSTALL_BIN)" ]; then \
	  $(MAKE) --no-print-directory deps && $(RELEASE_BUILD); \
	fi
	@bin="$(or $(INSTALL_BIN),.build/release/nextup)"; set -e; \
	install -d "$(PREFIX)/bin" "$(dir $(MAN_PAGE))" "$(dir $(BASH_COMP))" "$(dir $(ZSH_COMP))" "$(dir $(FISH_COMP))"; \
	install -m 0755 "$$bin" "$(PREFIX)/bin/nextup"; \
	install -m 0644 Resources/nextup.1 "$(MAN_PAGE)"; \
	"$(PREFIX)/bin/nextup" --generate-completion-script bash > "$(BASH_COMP)"; \
	"$(PREFIX)/bin/nextup" --generate-completion-script zsh > "$(ZSH_COMP)"; \
	"$(PREFIX)/bin/nextup" --generate-completion-script fish > "$(FISH_COMP)"; \
	echo "installed nextup $$("$(PREFIX)/bin/nextup" --version) in $(PREFIX)"; \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH";; esac

## uninstall: removes what `make install` put under PREFIX.
uninstall:
	rm -f "$(PREFIX)/bin/nextup" "$(MAN_PAGE)" "$(BASH_COMP)" "$(ZSH_COMP)" "$(FISH_COMP)"

clean:
	rm -rf .build
