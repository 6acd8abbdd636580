"""The board as every face draws it (the console, the screen, the prints, training and the
audience's page): squares with their tile and premium class.

The premiums are the layout file's (``engine.board.Layout.rows``); this module only names
the CSS class each one is drawn with.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from engine.board import Layout
from engine.notation import ROWS, SIZE
from tournament.models import Game

# The layout file's premium code -> the CSS class of the square.
PREMIUM_CLASS = {"d": "dl", "t": "tl", "D": "dw", "T": "tw", ".": ""}


def premium_classes(layout_name: str) -> list[list[str]]:
    """15 rows of 15 CSS classes: ``dl`` ``tl`` ``dw`` ``tw``, ``start`` for a plain start
    square, ``""`` for a plain one."""
    layout = Layout.load(layout_name)
    rows = [[PREMIUM_CLASS[code] for code in row] for row in layout.rows]
    start_row, start_col = layout.start
    if not rows[start_row][start_col]:
        rows[start_row][start_col] = "start"
    return rows


def board_rows(game: Game) -> list[dict[str, Any]]:
    """The board as rows of squares: the tile (lower case: a blank) and the premium's class."""
    return board_squares(game.board, game.board_layout)


def board_squares(
    lines: Sequence[str], layout_name: str, placed: Collection[tuple[int, int]] = ()
) -> list[dict[str, Any]]:
    """15 board lines (engine notation) as rows of squares; ``placed`` (row, column) squares
    are marked ``new`` (the tiles a round put down, on the printed game sheet)."""
    classes = premium_classes(layout_name)
    rows = []
    for r in range(SIZE):
        squares = []
        for c in range(SIZE):
            tile = lines[r][c]
            squares.append(
                {
                    "tile": "" if tile == "." else tile,
                    "blank": tile.islower(),
                    "premium": classes[r][c],
                    "new": (r, c) in placed,
                }
            )
        rows.append({"label": ROWS[r], "squares": squares})
    return rows
