# Entry points: `make replay-check` (the CI job), `make test` and `make lint`.
# Each creates .venv when it is missing and installs the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: replay-check test lint bench clean rule

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Temporal exports are replayed by temporalio's own Replayer (the dev extra installs it),
# offline like the rest: no worker, no server.
replay-check: $(STAMP)
	$(BIN)/replaylint check examples/workflows
	$(BIN)/replaylint replay tests/histories
	if $(BIN)/python -c "import temporalio.worker" 2>/dev/null; then \
	  $(BIN)/replaylint replay --workflow tests.histories.temporal.greeter:Greeter tests/histories/temporal; \
	else echo "temporalio is not installed: tests/histories/temporal is not replayed"; fi

test: $(STAMP)
	$(BIN)/python -m pytest

# Layers (import-linter), lint and format (ruff), types (mypy): the same pinned tools as CI.
LINTED := src tests bench examples scripts
lint: $(STAMP)
	$(BIN)/lint-imports --no-cache
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .import_linter_cache

# Scaffold a rule: make rule CODE=ADK-W012 SLUG=host-timer-in-workflow KIND=pattern \
#   FINDING="a timer of the host is started on the workflow path ({call})" REMEDY="..."
rule: $(STAMP)
	$(BIN)/python scripts/new_rule.py "$(CODE)" "$(SLUG)" --kind "$(KIND)" \
		$(if $(CATEGORY),--category "$(CATEGORY)") --finding "$(FINDING)" --remedy "$(REMEDY)"
