# `make run` and `make test` do all set-up on a fresh Debian machine with Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
CHROMIUM ?= /usr/bin/chromium
CORES := $(shell nproc 2>/dev/null || echo 2)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: warm run precompute artifacts test test-fast proofs frontier lint typecheck unit e2e bench chromium redis nginx wrk clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# uv installs the dependencies (11 s, where pip took 38 s of a fresh `make test`); pip only installs uv, and
# installs the dependencies itself where uv cannot (no writable cache folder for this account, say). uv byte-compiles
# them as it installs (4 s more, once): it does not by default, and where PYTHONDONTWRITEBYTECODE is set no process
# writes the bytecode either, so every process compiled Numba, NumPy, Flask and Jinja again (1.5 s instead of 0.5 s
# for those imports alone, in each of the hundreds of processes of `make test`)
$(BIN)/uv: | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'uv>=0.5'

$(VENV)/.installed: pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e . || $(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[test]' || $(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

# Debian's Chromium for the browser tests (Playwright's own browser download is never used).
chromium:
	@if [ -x "$(CHROMIUM)" ] || command -v chromium >/dev/null 2>&1; then \
		echo "chromium: $$(command -v chromium || echo $(CHROMIUM))"; \
	else \
		echo "installing Debian's chromium"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; \
	fi

# Debian's redis-server for the tests of the shared (several hosts) queue and store.
redis:
	@if command -v redis-server >/dev/null 2>&1; then \
		echo "redis-server: $$(command -v redis-server)"; \
	else \
		echo "installing Debian's redis-server"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server; \
	fi

# Debian's nginx for the reverse-proxy tests (deploy/nginx.conf).
nginx:
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then \
		echo "nginx: present"; \
	else \
		echo "installing Debian's nginx-light"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nginx-light; \
	fi

# Debian's wrk, the HTTP load generator of benchmarks/web.py (make bench only).
wrk:
	@if command -v wrk >/dev/null 2>&1; then \
		echo "wrk: $$(command -v wrk)"; \
	else \
		echo "installing Debian's wrk"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wrk; \
	fi

# Every compiled solver kernel into Numba's disk cache, once per install (seconds when nothing changed; about
# 41-53 s here the first time a version's kernels are compiled on this machine), so no command, request or job compiles.
warm: $(VENV)/.installed
	@$(BIN)/python -m compileall -q solvers webapp
	$(BIN)/coin-puzzles warm-up

# gunicorn and the job consumer together; the consumer fills the result store in the background.
run: $(VENV)/.installed nginx warm
	HOST=$(HOST) PORT=$(PORT) $(BIN)/coin-puzzles serve

# Fill the result store in the foreground, with a progress bar (resumable: stored results are skipped).
precompute: $(VENV)/.installed
	$(BIN)/coin-puzzles precompute

# The results shipped in the package (webapp/data/results: the listed results that take the precomputation more
# than a few seconds, which a fresh install stores before it queues anything), made again here; then commit them.
artifacts: $(VENV)/.installed warm
	$(BIN)/coin-puzzles artifacts

# detect-secrets over every tracked file: a key, token or password added to git fails the build (the .game files'
# "secrets: sequences ..." lines are rules, not secrets; test-only keys carry `pragma: allowlist secret`)
# (40 ms a file: the files in one batch per core)
lint: $(VENV)/.test-installed
	$(BIN)/ruff check solvers webapp tests benchmarks
	$(BIN)/ruff format --check solvers webapp tests benchmarks
	git ls-files -z | xargs -0 -P $(CORES) -n $$(( $$(git ls-files | wc -l) / $(CORES) + 1 )) \
		$(BIN)/detect-secrets-hook --exclude-secrets '^(sequences|coins)'

# mypy's cache in the account's cache folder, shared by every clone (mypy checks each file's contents against it),
# where that folder can be written; else in the clone
MYPY_CACHE := $(shell d="$${XDG_CACHE_HOME:-$$HOME/.cache}/coin-puzzles/mypy"; \
	mkdir -p "$$d" 2>/dev/null && [ -w "$$d" ] && echo "$$d" || echo .mypy_cache)
typecheck: $(VENV)/.test-installed
	$(BIN)/mypy --strict --cache-dir "$(MYPY_CACHE)" solvers webapp

# Two steps: the fast suite (unit, web, browser) for quick feedback, one process per core and one more (pytest-xdist:
# its browser tests and subprocesses wait; on 2026-11-30, back to back here, 382 s on three processes against 413 s on
# two, the tests' share of both cores 88% against 84%), then the
# slow ones, the exhaustive checks with the whole-system tests (servers, nginx, Redis), two processes per core, the
# longest tests first (tests/conftest.py), so the visitor's tour does not end its step alone. Here the fast step took
# 237-268 s and the slow one 142-154 s on 2026-11-27, and 380-500 s and 480 s on 2026-11-30 with 40% more tests (the
# hostile re-test's whole-system ones among them: a server each, 7-10 CPU s to start and stop). One run of all of them together was slower (536 s of tests
# against 491 s for separate steps): whole-system tests' servers and proofs beside the browser tests overloaded the
# two cores. Checks of larger sizes than these, and whole proofs, are in `make proofs`.
# The kernels' compile (warm-up) runs beside the linters and the type checker; the project is byte-compiled first
# (where PYTHONDONTWRITEBYTECODE is set, as here, no process would write it and every one would compile it again),
# and the test modules as pytest rewrites their asserts, which it keeps in files of its own that it reads but, under
# PYTHONDONTWRITEBYTECODE, never writes: each of the steps' seven test processes rewrote all 191 at its start, 8.6 CPU s
# of collecting each, 2.3 s from the kept files (2026-11-30). On 2026-12-01, on a 2-core AMD EPYC VM with nothing else
# running, a fresh 0700 clone's CI=true make test took 421.5 s in all (fast step 196.8 s, slow 202.7 s; 659 CPU s),
# once serve's processes ended without Python's teardown (the same a commit earlier: 461.7 s, slow step 234.2 s);
# later that session, with nearly the same code, 473.9 s and 447.7 s (the VM's speed drifts by a tenth or more), and
# 4b9619a's own, back to back, 361.9 s there (its tests: 1,337 against 1,497). On 2026-12-02, on another such VM,
# three fresh 0700 clones took 520 s, 620 s and 717 s within 90 minutes, nothing else running (user CPU 693 s,
# 847 s and 984 s for nearly the same 1,529 to 1,530 tests, the first run's with a 67 s one since cut to 3 s:
# more CPU for the same work, which points at the VM, not the tests). That afternoon, on a slower VM, 4b9619a took
# 1,004 s and this code 972-1,017 s (1,527-1,530 tests); the slow step alone on 2, 4 and 6 processes 611 s,
# 480-546 s and 600 s (with two failures from overload), so it stays at two per core. On 2026-12-02's evening VM,
# fresh 0700 clones, nothing else running: 8cb7c81 718 s (339 + 339 s), 6f965c2 677 s (320 + 321 s) and f26b8d4 711 s
# (345 + 325 s) once a server's start costs 3 CPU s instead of 5 (optima.beyond kept: within this VM's noise); the
# whole suite in one step on 4 processes took 680 s there and failed 2 tests from overload, the fast step on 4
# processes 308 s against 315 s on 3: both stay as they are.
# On 2026-12-03's VM (2-core AMD EPYC, nothing else running) 80f260c's fresh 0700 clone took 714 s (336 + 345 s).
# Profiled there: the slow step's tests used 629 CPU s in 354 s (a server's start 4.3-6.1 CPU s, about 40 of them). The
# fast step is CPU-bound, not waiting: sampled from /proc/stat, both cores were busy from its 30th second to its end
# (320 s), about 640 CPU s, though the account of its process tree holds 426 (much of Chromium's is not in it: the 138%
# first reported from that account was wrong). Its 91 browser tests alone on one process: 180 s, 281 CPU s (1.6 cores;
# per new context and page 0.9 CPU s, a navigation in a live page 0.2, an axe scan 0.57, a full-page screenshot 0.14;
# renderer flags changed these within noise). At least 1,270 CPU s in all, so no order of the tests ends in under 635 s
# on two cores. Dealt to every process, each with its own Chromium, the browser tests made the fast step slower (370 s).
# Later that day, on the same VM grown faster (a server's start 2.5 CPU s), fresh 0700 clones of d9252db and 5b48be2
# took 562 s (274 + 233 s) and 596 s (283 + 276 s).
test: $(VENV)/.test-installed chromium redis nginx
	@$(BIN)/python -m compileall -q solvers webapp tests
	@$(BIN)/coin-puzzles warm-up & warm=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest --collect-only -q -p no:cacheprovider > /dev/null & rewritten=$$!; \
	$(MAKE) --no-print-directory -j 2 lint typecheck || { kill $$warm $$rewritten; exit 1; }; \
	wait $$warm && wait $$rewritten
	$(BIN)/pytest -m "not slow and not proof" -n $$(( $(CORES) + 1 )) --dist worksteal
	$(BIN)/pytest -m "slow and not proof" -n $$(( 2 * $(CORES) )) --dist worksteal tests/unit tests/system

test-fast: $(VENV)/.test-installed chromium warm
	$(BIN)/pytest -m "not slow and not proof"

# Whole proofs of several minutes each (Bulls and Cows' optimal average): too long for `make test`.
proofs: $(VENV)/.test-installed warm
	$(BIN)/pytest -m proof tests/unit

# The sizes past the Mastermind table (3x15, 3x16, 4x10; smallest first), each a proof of minutes to hours resumed
# from its checkpoint and its snapshot in git; stopped (Ctrl+C, SIGTERM), it keeps its progress in the snapshot (at
# most 4 MB a size), where its running parts stood, and its CPU time in the runs' record beside it (commit the three
# to carry it on; `python -m webapp.commands.frontier --status 4x10` says where it stands).
frontier: $(VENV)/.installed warm
	$(BIN)/python -m webapp.commands.frontier

unit: $(VENV)/.test-installed warm
	$(BIN)/pytest -m "not proof" tests/unit tests/web

e2e: $(VENV)/.test-installed chromium warm
	$(BIN)/pytest tests/e2e

bench: $(VENV)/.installed nginx wrk warm
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/crawl.py
	$(BIN)/python benchmarks/complete.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/coins.py
	$(BIN)/python benchmarks/adversary.py
	$(BIN)/python benchmarks/aequitas.py
	$(BIN)/python benchmarks/devil.py
	$(BIN)/python benchmarks/pegs.py
	$(BIN)/python benchmarks/codebreak.py
	$(BIN)/python benchmarks/hints.py
	$(BIN)/python benchmarks/lessons.py
	$(BIN)/python benchmarks/guess_cost.py
	$(BIN)/python benchmarks/scaling.py
	$(BIN)/python benchmarks/pause.py
	$(BIN)/python benchmarks/certificates.py
	$(BIN)/python benchmarks/variants.py
	$(BIN)/python benchmarks/store.py
	$(BIN)/python benchmarks/table.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
