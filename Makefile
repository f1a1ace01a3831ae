# Two commands on a fresh machine with Python 3.11+ and make:
#   make run    create the virtualenv, install, migrate, serve on http://127.0.0.1:8000
#   make test   install the dev dependencies and run the whole suite
# Day to day: `make test-fast`, the tests not marked slow (no browser, no real server processes; see README).
# `make run LAN=1` listens on the local network so phones at the table can join (links and QR codes then
# point at this machine's LAN address).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
ifdef LAN
HOST   ?= 0.0.0.0
else
HOST   ?= 127.0.0.1
endif
# pytest-xdist workers (0: one process, no xdist); the browser tests run in two groups, each on a worker of its
# own, the Redis tests in another, and the third worker takes the rest from the start: much of it waits on a
# timer or a child process while the two Chromiums keep the cores busy (tests/support/xdist_groups.py). The 15
# slowest tests are listed at the end.
PYTEST_WORKERS ?= 3
PYTEST_FLAGS := -q -n $(PYTEST_WORKERS) --dist loadgroup --durations=15
UVICORN_FLAGS := --ws app.ws_protocol:PreparedFramesProtocol --ws-per-message-deflate false --ws-max-size 1048576

.PHONY: run install dev migrate test test-fast lint pytest screenshots bench clean

# Python keeps what it compiles (__pycache__/, ignored by git) even where the environment says not to: the
# suite starts dozens of Python processes (xdist workers, servers, migrations), and each would otherwise compile
# every module it imports again, pytest's rewritten tests included.
unexport PYTHONDONTWRITEBYTECODE

# --no-compile: Python compiles what it imports when it first imports it; compiling every installed file up
# front (pytest's, mypy's, Playwright's, ...) only lengthened the first `make test`.
PIP_INSTALL := $(BIN)/pip install --quiet --no-compile --disable-pip-version-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP_INSTALL) -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PIP_INSTALL) -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/alembic upgrade head

run: install migrate
	THREEFOLD_LISTEN_HOST=$(HOST) THREEFOLD_LISTEN_PORT=$(PORT) \
	  $(BIN)/uvicorn app.main:create_app --factory --host $(HOST) --port $(PORT) $(UVICORN_FLAGS)

lint: dev
	$(BIN)/ruff check app engines tests bench
	$(BIN)/ruff format --check app engines tests bench
	$(BIN)/mypy app engines

pytest: dev
	$(BIN)/pytest $(PYTEST_FLAGS) $(PYTEST_ARGS)

test: lint pytest

test-fast: dev
	$(BIN)/pytest $(PYTEST_FLAGS) -m "not slow" $(PYTEST_ARGS)

screenshots: dev
	$(BIN)/python -m tests.browser.screenshots

bench: dev
	$(BIN)/python -m bench.rounds $(BENCH_ARGS)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .mypy_cache .ruff_cache
