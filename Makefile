# make run   — set everything up and start the lab (Home, then the lessons on built-in corpora);
#              it answers at once: the kernels compile in the background, the page opened first
#              first, each page showing its own progress; `make run TYPEBLOCKS_SCHEDULER=tcp://…`
#              runs the pages' grids on that Dask cluster (docs/command-line.md)
# make test  — set everything up and run every test, browser tests included
# make bench — the benchmark table (python -m benchmarks)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench chromium

run: $(VENV)/.runtime
	$(BIN)/python -m streamlit run app.py

# The kernels are compiled first, in parallel (engine warm), so no test waits on them. Then:
# - the browser tests, one at a time against one server and one browser: they time what a
#   user sees (Pause within a tick), so nothing else of ours competes with them;
# - every other test, on three pytest-xdist workers: they wait on pages and processes more
#   than they compute (three finish in 8.4 min what two did in 9.5). Among them the browser
#   tests that time nothing: layout, downloads, uploads, every preset after every other
#   (tests/e2e_untimed). A worker that runs out of tests takes some from another's queue
#   (--dist worksteal): with xdist's default (load), tests once sent stay where they went, and
#   one worker was left with the slow ones (1,065 s of tests against 323 s and 682 s, the
#   others idle; stealing: 793, 798 and 804 s);
# - and beside both, at the lowest priority, on the cycles the browser tests leave idle while
#   they wait on the page: the conformance suite again with Numba's bounds checking on, so a
#   kernel's out-of-bounds read or write fails a test (IndexError) instead of silently reading
#   or corrupting memory; the rejuvenation moves (customers leaving and returning, tables
#   closed and reopened) and the forests' kernels (tests/engine/models/scfg/test_scfg.py) with it. It needs
#   a compile cache of its own (kernels loaded from a cache filled without bounds checking are
#   not checked), filled by a warm-up of its own. The exact-enumeration chi-square tests are
#   left out of it: they repeat the moves the invariant tests make, thousands of times over.
#   (Started after the browser tests instead, it slowed the others more — a chain pool not
#   ready in 120 s — and Pause in the browser tests was no faster: measured, not kept.)
# make test fails if any of the three fails; the bounds-checked run's report comes last. Both
# pytest runs print their slowest tests (--durations): where the suite's time goes.
BOUNDSCHECK := NUMBA_BOUNDSCHECK=1 TYPEBLOCKS_CACHE_ROOT=.numba-cache-boundscheck
BOUNDSCHECK_LOG := test-artifacts/boundscheck.log

test: $(VENV)/.dev chromium
	$(BIN)/python -m engine warm
	@mkdir -p test-artifacts
	@echo "(the bounds-checked conformance run starts beside the tests: $(BOUNDSCHECK_LOG))"
	@$(BOUNDSCHECK) nice -n 19 sh -c '$(BIN)/python -m engine warm && \
		$(BIN)/python -m pytest -q -p no:cacheprovider tests/conformance \
		tests/statistical/test_rejuvenation_exact.py tests/engine/models/scfg/test_scfg.py \
		tests/statistical/test_scfg_pitman_yor.py tests/engine/samplers/test_scfg_parallel.py \
		tests/engine/models/scfg/test_scfg_seating.py tests/statistical/test_scfg_exact_seating.py \
		-k "not matches_the_exact_posterior and not rejects_a_wrong_posterior \
		and not dask_actors and not how_far and not too_many"' \
		> $(BOUNDSCHECK_LOG) 2>&1 & checked=$$!; \
	$(BIN)/python -m pytest --durations=15 tests/e2e; browser=$$?; \
	$(BIN)/python -m pytest -n 3 --dist worksteal --durations=30 --ignore=tests/e2e; rest=$$?; \
	wait $$checked; bounds=$$?; \
	echo "== the conformance suite with bounds checking (exit status $$bounds):"; \
	if [ $$bounds -eq 0 ]; then tail -n 1 $(BOUNDSCHECK_LOG); else cat $(BOUNDSCHECK_LOG); fi; \
	[ $$browser -eq 0 ] && [ $$rest -eq 0 ] && [ $$bounds -eq 0 ]

bench: $(VENV)/.runtime
	$(BIN)/python -m benchmarks

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

# The browser tests drive Debian's Chromium. Install it when missing and we may; otherwise say
# how, and those tests skip (every other test still runs).
chromium:
	@if command -v chromium >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "Chromium is missing and I cannot install it without root: run"; \
	     echo "  sudo apt-get install chromium"; echo "The browser tests will be skipped."; exit 0; fi; \
	echo "Installing Debian's chromium for the browser tests…"; \
	( $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null ) || \
	echo "Could not install chromium (apt-get failed): the browser tests will be skipped."
