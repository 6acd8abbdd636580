"""The engine's error family. Every message names the input and, where there is one, the position.

An invalid word is not an error: it is an outcome reported as data (see ``engine.validate``).
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input.

    The message is the engine's own words (its CLI prints them). Where another layer says the
    error to people in their language, ``code`` names what went wrong and ``params`` hold the
    values the words need (``arbiter.reasons`` renders them): the engine speaks no language
    but its CLI's."""

    def __init__(
        self, message: str, *, code: str = "", params: dict[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, str | int] = params or {}


class NotationError(EngineError):
    """A grid reference, word, rack or board text that cannot be read."""


class PlacementError(EngineError):
    """A move that cannot be placed on the board (used where a placement is required)."""


class RackError(EngineError):
    """A rack that is not made of tiles the bag or the rack holds."""


class LexiconError(EngineError):
    """A word list that cannot be read or compiled."""


class WordListError(LexiconError):
    """A word list whose lines are not all words of its letters, or that holds no playable word.

    ``lines`` names the first bad lines as (line number, the line, the first letter that is not
    a tile), ``count`` says how many there are in all (0 when the list holds no word at all),
    so that another layer can say it in its own words."""

    def __init__(self, message: str, lines: tuple[tuple[int, str, str], ...], count: int):
        super().__init__(message, code="word_list_lines", params={"count": count})
        self.lines = lines
        self.count = count


class RackRejected(RackError):
    """A rack that does not meet the draw minimum of its round: all of it goes back into the bag."""
