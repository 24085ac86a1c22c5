# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test check lint lint-py bench services browser proxy compiler clean lock js-tools lint-js node

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# What running needs: the exact versions (with hashes) of requirements.lock, the ones the
# image installs, then the project itself, editable and without dependencies. Its
# compiled modules, the solver's search and the Expeditionen rollout (setup.py), are built
# where a C++ compiler and Python's headers are present; without them Python's reference
# code answers (slower).
$(RUN_STAMP): requirements.lock pyproject.toml setup.py $(wildcard engine/*.pyx) | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

# The tests' pins, requirements-dev.lock (a superset of the runtime's), into the same
# virtualenv; and the compiled modules, which the tests compare with the references, so
# the build must have succeeded (`make test` and `make lint` install the compiler first;
# `make check` only says what is missing).
$(TEST_STAMP): requirements-dev.lock pyproject.toml setup.py $(wildcard engine/*.pyx) | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -c "import engine.scoundrel_search, engine.expeditionen_rollout" || \
		(echo "the compiled modules were not built (setup.py): they need g++ and" \
			"Python's headers (make compiler, as root)" >&2; exit 1)
	touch $@

# After changing the dependencies in pyproject.toml: pins what is new and keeps the rest.
# `make lock UPGRADE=--upgrade` moves every pin to the newest release allowed.
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command 'make lock' $(UPGRADE)
lock:
	@test -x $(VENV)/bin/uv || $(MAKE) $(TEST_STAMP)
	$(LOCK) -o requirements.lock
	$(LOCK) --extra dev --constraint requirements.lock -o requirements-dev.lock
	$(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')" \
		| $(VENV)/bin/uv pip compile - --quiet --universal --python-version 3.11 --generate-hashes \
		--custom-compile-command 'make lock' -o requirements-build.lock

run: $(RUN_STAMP)
	$(PY) -m app

# The tests need the solver's compiled search (setup.py): Debian's g++ and Python's headers.
compiler:
	@command -v g++ >/dev/null && python3 -c "import sysconfig, pathlib, sys; \
		sys.exit(not pathlib.Path(sysconfig.get_path('include'), 'Python.h').exists())" || \
		(apt-get update -qq && apt-get install -y -qq g++ python3-dev)

# The browser tests drive Debian's Chromium (its headless shell, and Chromium itself where
# they need notifications); Playwright's own browser download fails here.
browser:
	@command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null || \
		(apt-get update -qq && apt-get install -y -qq chromium chromium-headless-shell)

# Tests of several server processes put Debian's nginx in front of them (not as a daemon).
proxy:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || \
		(apt-get update -qq && apt-get install -y -qq nginx)

# static/js is checked by Biome and TypeScript, pinned in package-lock.json and run by
# Debian's node.
node:
	@command -v npm >/dev/null || (apt-get update -qq && apt-get install -y -qq nodejs npm)

node_modules/.installed: package-lock.json | node
	npm ci --no-audit --no-fund
	touch $@

js-tools: node_modules/.installed

# Formatting and lint of static/js, checked only; `npx biome check --write static/js` fixes.
# Then TypeScript's checker over the modules marked // @ts-check (tsconfig.json): the JSDoc
# types of the table's client, the server's messages (static/js/protocol.js) and their users.
lint-js: js-tools
	npx --no-install biome ci --error-on-warnings static/js
	npx --no-install tsc --noEmit -p tsconfig.json

services:
	@scripts/ensure-services

# One gate, alone or first in `make test`: ruff's rules and formatting, mypy strict over the
# files pyproject.toml names (pydantic plugin), the layers of app/ (import-linter's
# contracts in pyproject.toml), then Biome and tsc over static/js (lint-js).
# The same checks before every commit: `pre-commit install` (.pre-commit-config.yaml calls
# the tools of .venv and make, nothing downloaded; pre-commit itself: `pipx install pre-commit`).
lint: compiler lint-py
	$(MAKE) lint-js

# The Python part of the gate, which `make check` runs too.
lint-py: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

# One pytest worker more than there are cores: the browser tests spend part of their time
# waiting for Chromium and the servers (docs/performance.md: 2 cores, 3 workers).
WORKERS ?= $(shell python3 -c "import os; print((os.cpu_count() or 1) + 1)")

# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE, as
# on this machine and CI): every worker collects every test module, and each server the
# tests start imports the app; from cached bytecode, collecting takes 7 s instead of 16.
test: compiler browser proxy services
	$(MAKE) lint
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(WORKERS) --dist loadgroup

# The fast loop while working: the lint gate of the Python code, then the engine's and the
# app's tests on SQLite. It needs only the virtualenv: no Chromium, PostgreSQL, Redis,
# nginx, Node.js nor root. What it leaves out `make test` runs: the tests marked `browser`
# or `services` (tests/conftest.py) and lint-js (Node.js); and every property and fuzz
# test draws a quarter of its examples here (tests/sampling.py), all of them there.
check: lint-py
	PYTHONDONTWRITEBYTECODE= KARTENRUNDE_TESTS=quick $(PY) -m pytest -n $(WORKERS) \
		--dist loadgroup -m "not browser and not services"

bench: compiler $(TEST_STAMP)
	$(PY) bench/playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis node_modules
