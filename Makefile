# The two commands the README starts with: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test lint install clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Installs everything and runs the product on its embedded defaults (SQLite, no outside service).
run: $(STAMP)
	$(PY) -m engine.lexicon --warm
	$(PY) manage.py run_embedded

# Runs the whole test suite: quality gates, then pytest (exit code 5, "no tests ran", fails).
# The main pass runs on SQLite; the second runs the `postgres` tests (the database
# constraints) on PostgreSQL when TEST_POSTGRES_URL is set (CI sets it), and otherwise lets
# them skip with the reason. REQUIRE_SERVICES=1 turns those skips into failures.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine tournament arbiter web config
	$(PY) -m pytest -q -p no:cacheprovider -m "not postgres"
	DATABASE_URL="$(TEST_POSTGRES_URL)" $(PY) -m pytest -q -p no:cacheprovider -m postgres

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
