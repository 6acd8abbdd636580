"""The rule tests' fixtures (defined in ``helpers.py``, which other test modules import): the
rulebook's board and its round-2 judge, a room of five players and its director."""

from tests.arbiter.rules.helpers import (  # noqa: F401
    director,
    horn,
    paper_room,
    paper_room_2023,
    round_2,
)
