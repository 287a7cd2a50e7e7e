# Two entry points: `make replay-check` (the CI job) and `make test`.
# Both create .venv when it is missing and install the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: replay-check test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

replay-check: $(STAMP)
	$(BIN)/replaylint check examples/workflows
	$(BIN)/replaylint replay tests/histories

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
