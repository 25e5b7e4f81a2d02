# make run   — set everything up and start the lab (Word segmentation opens on the built-in corpus);
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

# The kernels are compiled first, in parallel (engine warm), so no page test waits on them.
# After the full run, the conformance suite again with Numba's bounds checking on, so a
# kernel's out-of-bounds read or write fails a test (IndexError) instead of silently reading
# or corrupting memory; the rejuvenation moves (customers leaving and returning, tables closed
# and reopened) with it. It needs a compile cache of its own: kernels loaded from a cache
# filled without bounds checking are not checked, and is filled by a warm-up of its own, on every
# core (compiling in the one test process took two and a half minutes). The exact-enumeration
# chi-square tests are left out of that run: they repeat the moves the invariant tests make,
# thousands of times over.
BOUNDSCHECK := NUMBA_BOUNDSCHECK=1 TYPEBLOCKS_CACHE_ROOT=.numba-cache-boundscheck

test: $(VENV)/.dev chromium
	$(BIN)/python -m engine warm
	$(BIN)/python -m pytest
	$(BOUNDSCHECK) $(BIN)/python -m engine warm
	$(BOUNDSCHECK) $(BIN)/python -m pytest -q tests/conformance \
		tests/statistical/test_rejuvenation_exact.py \
		-k "not matches_the_exact_posterior and not rejects_a_wrong_posterior"

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
