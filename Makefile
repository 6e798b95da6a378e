# flitcast developer tasks. `make help` lists them; `make demo` then `make test` is the quick start.

VENV ?= .venv
PY = $(VENV)/bin/python
# The interpreter .venv is made with: PYTHON=... if given, else the first of these that runs and is 3.11 or
# newer (looked for only when .venv is made). The loops end on `true`: make drops the output of a
# $(shell ...) whose last command was not found.
PYTHON_CANDIDATES = python3.14 python3.13 python3.12 python3.11 python3
PYTHON_FITS = import sys; sys.exit(sys.version_info < (3, 11))
PYTHON ?= $(shell for p in $(PYTHON_CANDIDATES); do $$p -c '$(PYTHON_FITS)' >/dev/null 2>&1 && { echo $$p; break; }; done; true)
# what was looked at, for the error: "python3 3.9.2, python3.10 3.10.13"
PYTHON_FOUND = $(shell for p in $(sort $(PYTHON) $(PYTHON_CANDIDATES)); do \
	v=$$($$p -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null) && printf '%s%s %s' "$$sep" $$p $$v && sep=', '; done; true)

VENV_STAMP = $(VENV)/.stamp-venv
BUILD_STAMP = $(VENV)/.stamp-build
# the oldest versions pyproject.toml allows (requirements-floor.txt), for make test-floor
FLOOR_VENV ?= .venv-floor
FLOOR_STAMP = $(FLOOR_VENV)/.stamp-floor

# everything the extension is built from: Rust sources and manifests, Python sources, packaging
RUST_SOURCES := Cargo.toml $(wildcard Cargo.lock) $(shell find crates -name '*.rs' -o -name 'Cargo.toml' 2>/dev/null)
PY_SOURCES := pyproject.toml $(shell find python -name '*.py' -o -name '*.pyi' 2>/dev/null)

.DEFAULT_GOAL := help
.PHONY: help venv build demo test wheel-check test-floor bench lint docs browser clean

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  %-12s %s\n", $$1, $$2}'

$(PY):
	@if ! $(PYTHON) -c '$(PYTHON_FITS)' >/dev/null 2>&1; then \
		echo "make: needs Python 3.11 or newer; found: $(or $(PYTHON_FOUND),no python3 on PATH); name one with PYTHON=/path/to/python" >&2; exit 1; fi
	$(PYTHON) -m venv $(VENV)

$(VENV_STAMP): requirements-dev.txt | $(PY)
	$(PY) -m pip install -r requirements-dev.txt
	touch $@

venv: $(VENV_STAMP) ## create .venv and install the pinned development requirements

$(BUILD_STAMP): $(VENV_STAMP) $(RUST_SOURCES) $(PY_SOURCES)
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release
	touch $@

build: $(BUILD_STAMP) ## build the Rust extension into .venv (maturin develop --release)

demo: build ## sweep the 8x8 mesh demo over load; writes runs/demo
	$(VENV)/bin/flitcast sweep examples/scenarios/mesh8_uniform.toml --vary workload.load=0.05:0.5:0.05 --out runs/demo
	@echo "table: runs/demo/results.csv (also results.parquet); plot: runs/demo/latency_vs_load.png"

test: build ## Rust core tests, then the Python tests (incl. examples and README snippets)
	cargo test -p flitcast-core --release
	$(PY) -m pytest -q

wheel-check: $(VENV_STAMP) ## build the abi3 wheel for glibc 2.28+ (maturin --zig), install it beside pandas 2 and pandas 3 in fresh venvs, run it
	bash .ci/wheel-check $(VENV)

$(FLOOR_STAMP): requirements-floor.txt requirements-dev.txt | $(PY)
	$(PY) -m venv --clear $(FLOOR_VENV)
	$(FLOOR_VENV)/bin/python -m pip install -r requirements-floor.txt $$(grep -E '^(pytest|hypothesis|packaging)==' requirements-dev.txt)
	touch $@

test-floor: $(BUILD_STAMP) $(FLOOR_STAMP) ## the Python tests against the oldest versions pyproject.toml allows, in .venv-floor
	VIRTUAL_ENV=$(abspath $(FLOOR_VENV)) $(VENV)/bin/maturin develop --release
	$(FLOOR_VENV)/bin/python -m pytest -q

bench: build ## criterion benchmarks of the core, then flitcast bench
	cargo bench -p flitcast-core
	$(VENV)/bin/flitcast bench

lint: build ## cargo clippy (warnings are errors), cargo fmt --check; ruff, mypy, and _core.pyi against the extension
	cargo clippy --workspace --all-targets -- -D warnings
	cargo fmt --all --check
	$(VENV)/bin/ruff check python tests .ci
	$(VENV)/bin/mypy
	$(PY) -m mypy.stubtest flitcast._core

docs: build ## regenerate docs/config.md and the typed config models (config/sections.py) from the core's key catalogue
	PYTHONPATH=python $(PY) -m flitcast.docgen

browser: ## install Debian's chromium for the report's browser test (needs root; otherwise the test is skipped)
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
	  echo "browser: $$(command -v chromium || command -v chromium-browser)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get install -y -q chromium >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }; \
	else \
	  echo "browser: no Chromium, and it cannot be installed here (needs root and apt-get): the report's browser test will be skipped"; \
	fi

clean: ## remove run outputs, caches, the built extension and the stamps (keeps the venvs and target/)
	rm -rf runs .pytest_cache .hypothesis
	find python tests examples -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -f python/flitcast/_core*.so $(VENV_STAMP) $(BUILD_STAMP) $(FLOOR_STAMP)
