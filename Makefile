# Everything a fresh machine needs goes through here and pyproject.toml.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= scenarios/final-2600-vs-2550.toml
# Test processes (pytest-xdist): one per CPU unless given; WORKERS=0 runs the tests in this one
# process (for a debugger). worksteal: a worker that runs out takes tests queued for the other,
# so one long test near the end does not leave a CPU idle.
WORKERS ?= auto
XDIST   := -n $(WORKERS) --dist worksteal

.PHONY: demo test test-fast lint typecheck pytest bench schema catalogues clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The compiled message catalogues: made by the install (hatch_build.py) and again here when a
# .po changes after it.
PO := $(wildcard knockout/i18n/locale/*/LC_MESSAGES/knockout.po)
MO := $(PO:.po=.mo)

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
	$(BIN)/ruff check knockout sims tests benchmarks tools hatch_build.py
	$(BIN)/ruff format --check knockout sims tests benchmarks tools hatch_build.py
	$(BIN)/lint-imports

# mypy keeps its incremental cache in .mypy_cache/: a second run checks only what changed.
typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy knockout sims

%.mo: %.po $(VENV)/.installed-dev
	$(BIN)/python tools/catalogues.py compile

# Every test, on every CPU; the 25 slowest are listed at the end of each run.
pytest: $(VENV)/.installed-dev $(MO)
	$(BIN)/pytest -q $(XDIST) --durations=25

# After each change: the tests that take under a second or two and start no process, browser or
# engine (markers slow and system: docs/contributing.md), on every CPU. About a minute.
test-fast: $(VENV)/.installed-dev $(MO)
	$(BIN)/pytest -q $(XDIST) -m "not slow and not system"

# Before landing (and CI): lint, types and every test, side by side. -k lets each run to its end
# so that every failure is shown (each one's output together); make still fails if any fails.
test: $(VENV)/.installed-dev
	@$(MAKE) --no-print-directory -k -j3 --output-sync=target lint typecheck pytest

bench: $(VENV)/.installed-dev
	$(BIN)/knockout bench

# After changing a scenario table's pydantic model (knockout/rules/scenario/models.py): rewrite the
# schema the fast check reads (tests/rules/test_scenario_schema.py fails until this is run).
schema: $(VENV)/.installed-dev
	$(BIN)/python -m knockout.rules.scenario.models

# After marking new strings or changing a command's help: extract them into the template,
# update every catalogue (tests/i18n fails until the new ones are translated) and compile.
catalogues: $(VENV)/.installed-dev
	$(BIN)/python tools/catalogues.py update

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
