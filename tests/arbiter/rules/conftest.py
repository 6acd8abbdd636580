"""The rule tests' fixtures (defined in ``helpers.py``, which other test modules import): the
rulebook's board and its round-2 judge, a room of five players and its director."""

from tests.arbiter.rules.helpers import director, horn, paper_room, round_2  # noqa: F401
