"""Duplicate grid references and words.

Rows are letters A..O from the top, columns numbers 1..15 from the left. A horizontal (across)
move is written row letter first (``H8``); a vertical (down) move column number first (``8H``).
The word is written in full, tiles already on the board included; a blank is a lower-case letter.
GCG files use the opposite convention (``8H`` across, ``H8`` down): ``to_gcg``/``from_gcg``.
"""

from __future__ import annotations

import enum
import re

from engine.errors import NotationError, PlacementError

SIZE = 15
ROWS = "ABCDEFGHIJKLMNO"

_LETTER_FIRST = re.compile(r"([A-Za-z])([0-9]{1,2})")  # ASCII digits: \d takes any Unicode digit
_NUMBER_FIRST = re.compile(r"([0-9]{1,2})([A-Za-z])")
_WORD = re.compile(r"[A-Za-z]+")


class Direction(enum.IntEnum):
    ACROSS = 0
    DOWN = 1

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


class OffBoardError(PlacementError):
    """A reference or a word that leaves the 15x15 grid."""


def _row_col(ref: str, row_text: str, col_text: str) -> tuple[int, int]:
    row = ord(row_text.upper()) - ord("A")
    col = int(col_text) - 1
    if not 0 <= row < SIZE:
        raise OffBoardError(
            f"reference {ref!r}: row {row_text.upper()} is off the board (rows are A to O)",
            code="ref_row_off_board",
            params={"ref": ref, "row": row_text.upper()},
        )
    if not 0 <= col < SIZE:
        raise OffBoardError(
            f"reference {ref!r}: column {col_text} is off the board (columns are 1 to 15)",
            code="ref_column_off_board",
            params={"ref": ref, "column": col_text},
        )
    return row, col


def parse_ref(text: str) -> tuple[int, int, Direction]:
    """``'H8'`` -> (7, 7, ACROSS); ``'8H'`` -> (7, 7, DOWN). Rows and columns count from 0."""
    ref = text.strip()
    if m := _LETTER_FIRST.fullmatch(ref):
        row, col = _row_col(ref, m.group(1), m.group(2))
        return row, col, Direction.ACROSS
    if m := _NUMBER_FIRST.fullmatch(ref):
        row, col = _row_col(ref, m.group(2), m.group(1))
        return row, col, Direction.DOWN
    raise NotationError(
        f"reference {text!r} is not a grid reference: write the row letter first for a move "
        "across (H8) or the column number first for a move down (8H)",
        code="ref_unreadable",
        params={"ref": text},
    )


def ref_direction(text: str) -> Direction | None:
    """The direction a reference's form says, even off the board (``H16`` is across, ``16H``
    down); None when it is neither form (unreadable)."""
    ref = text.strip()
    if _LETTER_FIRST.fullmatch(ref):
        return Direction.ACROSS
    if _NUMBER_FIRST.fullmatch(ref):
        return Direction.DOWN
    return None


def format_ref(row: int, col: int, direction: Direction) -> str:
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise OffBoardError(f"square ({row}, {col}) is off the board")
    if direction is Direction.ACROSS:
        return f"{ROWS[row]}{col + 1}"
    return f"{col + 1}{ROWS[row]}"


def square_name(row: int, col: int) -> str:
    """A square's name, row letter first: ``H8``."""
    return f"{ROWS[row]}{col + 1}"


def parse_word(text: str) -> str:
    """A word as written on a slip: letters only, lower case for blanks, 2 to 15 letters."""
    word = text.strip()
    if not _WORD.fullmatch(word):
        raise NotationError(
            f"word {text!r} must be letters only (lower case for a blank)",
            code="word_not_letters",
            params={"word": text},
        )
    if len(word) < 2:
        raise NotationError(
            f"word {text!r} is too short: a word has at least two letters",
            code="word_too_short",
            params={"word": text},
        )
    if len(word) > SIZE:
        raise OffBoardError(
            f"word {text!r} has {len(word)} letters: no word longer than 15 fits",
            code="word_too_long",
            params={"word": text, "letters": len(word)},
        )
    return word


def to_gcg(ref: str) -> str:
    """Duplicate reference -> GCG coordinates (``H8`` across -> ``8H``; ``8H`` down -> ``H8``)."""
    row, col, direction = parse_ref(ref)
    if direction is Direction.ACROSS:
        return f"{row + 1}{ROWS[col]}"
    return f"{ROWS[col]}{row + 1}"


def from_gcg(coord: str) -> str:
    """GCG coordinates -> duplicate reference (``8H`` -> ``H8`` across; ``H8`` -> ``8H`` down)."""
    text = coord.strip()
    if m := _NUMBER_FIRST.fullmatch(text):  # GCG across: row number, column letter
        row, col = int(m.group(1)) - 1, ord(m.group(2).upper()) - ord("A")
        direction = Direction.ACROSS
    elif m := _LETTER_FIRST.fullmatch(text):  # GCG down: column letter, row number
        col, row = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
        direction = Direction.DOWN
    else:
        raise NotationError(f"GCG coordinate {coord!r} is not of the form 8H (across) or H8 (down)")
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise OffBoardError(f"GCG coordinate {coord!r} is off the board")
    return format_ref(row, col, direction)
