"""The engine's error family. Every message names the input and, where there is one, the position.

An invalid word is not an error: it is an outcome reported as data (see ``engine.validate``).
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(EngineError):
    """A grid reference, word, rack or board text that cannot be read."""


class PlacementError(EngineError):
    """A move that cannot be placed on the board (used where a placement is required)."""


class RackError(EngineError):
    """A rack that is not made of tiles the bag or the rack holds."""


class LexiconError(EngineError):
    """A word list that cannot be read or compiled."""


class RackRejected(RackError):
    """A rack that does not meet the draw minimum of its round: all of it goes back into the bag."""
