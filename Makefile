# The two commands the README starts with: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run run-lan test lint install clean mutation messages

# The editable install also builds the native move generator in place (setup.py,
# engine/_native.c); without a C compiler it warns here and the engine runs pure Python.
$(STAMP): pyproject.toml setup.py engine/_native.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@$(PY) -c 'import engine._native' 2>/dev/null || echo "WARNING: the native move \
	generator was not built (no C compiler or Python headers?): the engine runs pure Python. \
	Run '$(PY) -m pip install -v -e .' to see why." >&2
	touch $(STAMP)

install: $(STAMP)

# Installs everything and runs the product on its embedded defaults (SQLite, no outside service).
run: $(STAMP)
	$(PY) -m engine.lexicon --warm
	$(PY) manage.py run_embedded

# The same, reachable from the phones in the room: listens on every interface, prints the
# address phones open (this machine's, read from its interfaces; PUBLIC_URL=... to choose
# another) with its QR code, and the players' QR codes carry it. README, "Phones in the room".
run-lan: $(STAMP)
	$(PY) -m engine.lexicon --warm
	LAN=1 $(PY) manage.py run_embedded

# Runs the whole test suite: quality gates, then pytest (exit code 5, "no tests ran", fails).
# The main pass runs on SQLite; the second runs the `postgres` tests (the database
# constraints) on PostgreSQL when TEST_POSTGRES_URL is set (CI sets it), and otherwise lets
# them skip with the reason. REQUIRE_SERVICES=1 turns those skips into failures.
# On every core (pytest-xdist); the tests that share Redis, and the fault tests, one at a time
# (tests/conftest.py). PYTEST_CORES= (empty) runs it in one process.
PYTEST_CORES ?= -n auto --dist loadgroup
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine tournament arbiter web config
	$(PY) -m pytest -q -p no:cacheprovider $(PYTEST_CORES) -m "not postgres"
	DATABASE_URL="$(TEST_POSTGRES_URL)" $(PY) -m pytest -q -p no:cacheprovider $(PYTEST_CORES) -m postgres

# Mutation testing of the rulings, the standings and the room results import ([tool.mutmut] in
# pyproject.toml): mutmut mutates arbiter/rules/, services/slips.py, services/rulings.py,
# selectors/standings.py and services/rooms.py in a copy (mutants/), runs the arbitration tests
# against each mutant, then bench/mutation.py prints per file the mutants caught out of all
# (--json for a machine). Not part of `make test`: it takes the best part of an hour on two
# cores. MUTATION_ARGS="--keep" resumes.
mutation: $(STAMP)
	$(PY) bench/mutation.py $(MUTATION_ARGS)

# The interface's catalogues (README, "Adding a language"): collect every marked string into
# locale/<language>/LC_MESSAGES/{django,djangojs}.po, then compile the .mo files (committed, so
# that a fresh clone speaks French with no gettext installed; tests/test_locale.py checks both).
MAKEMESSAGES := $(PY) manage.py makemessages --no-location --ignore='.venv/*' --ignore='mutants/*' --ignore='tests/*'
# NEW=es starts the catalogues of a new language (README, "Adding a language").
messages: $(STAMP)
	$(MAKEMESSAGES) $(if $(NEW),--locale $(NEW),--all) --domain django
	$(MAKEMESSAGES) $(if $(NEW),--locale $(NEW),--all) --domain djangojs
	for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check --statistics -o "$${po%.po}.mo" "$$po"; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache mutants
