"""The simultaneous events' fixtures (defined in ``helpers.py``): the host, its director and a
remote room."""

from tests.arbiter.rooms.helpers import director, elsewhere, host  # noqa: F401
