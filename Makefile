# Everything a fresh machine needs goes through here and pyproject.toml.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= scenarios/final-2600-vs-2550.toml

.PHONY: demo test lint typecheck pytest bench schema clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/knockout play $(DEMO) --seed 7
	$(BIN)/knockout odds $(DEMO)
	@echo "knockout is installed in $(BIN)/, not on your PATH: run 'source $(BIN)/activate' to type"
	@echo "the README's commands as written (once per new shell), or call $(BIN)/knockout."

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check knockout sims tests benchmarks
	$(BIN)/ruff format --check knockout sims tests benchmarks
	$(BIN)/lint-imports

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy knockout sims

pytest: $(VENV)/.installed-dev
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: $(VENV)/.installed-dev
	$(BIN)/knockout bench

# After changing a scenario table's pydantic model (knockout/rules/scenario/models.py): rewrite the
# schema the fast check reads (tests/rules/test_scenario_schema.py fails until this is run).
schema: $(VENV)/.installed-dev
	$(BIN)/python -m knockout.rules.scenario.models

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
