"""Where a slip's word lies when the slip does not say it with a grid reference (docs/rules.md,
cases 13 to 17): junction letters ("raccord"), a word already on the board that the move
extends, the final letter already on the board left out or changed on the slip.

Pure functions of a board and a legal placement (a ``Verdict``); ``arbiter.rules`` decides
with them. No database, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.board import Board
from engine.move import Move
from engine.notation import SIZE, Direction
from engine.validate import Verdict

# Junction letters as a slip gives them in its reference's place: two to four letters (a grid
# reference always has a number in it, so the two never meet).
_JUNCTION = re.compile(r"[A-Z]{2,4}")
FULL_JUNCTION = 3  # the letters a junction is written with; fewer earns a warning (case 14)


def is_junction(ref: str) -> bool:
    """Whether a slip's reference (cleaned: stripped, upper case) gives junction letters."""
    return _JUNCTION.fullmatch(ref) is not None


def _step(direction: Direction) -> tuple[int, int]:
    return (0, 1) if direction is Direction.ACROSS else (1, 0)


def _main_squares(move: Move) -> Iterator[tuple[int, int]]:
    dr, dc = _step(move.direction)
    for i in range(len(move.word)):
        yield move.row + dr * i, move.col + dc * i


def touched(board: Board, verdict: Verdict) -> set[tuple[int, int]]:
    """The squares already on the board a legal placement joins: those of its word that hold a
    tile, and those next to a tile it places."""
    assert verdict.move is not None
    squares = {sq for sq in _main_squares(verdict.move) if board[sq]}
    for r, c, _tile in verdict.placed:
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < SIZE and 0 <= nc < SIZE and board[nr, nc]:
                squares.add((nr, nc))
    return squares


def junction_runs(board: Board, verdict: Verdict) -> set[str]:
    """The junction letters a legal placement can be referenced by: every run of two or more
    consecutive tiles already on the board, across or down, in upper case, that holds a
    square the placement joins (``touched``)."""
    runs: set[str] = set()
    for row, col in touched(board, verdict):
        for direction in (Direction.ACROSS, Direction.DOWN):
            dr, dc = _step(direction)
            r, c = row, col
            while min(r - dr, c - dc) >= 0 and board[r - dr, c - dc]:
                r, c = r - dr, c - dc
            at = (row - r) + (col - c)  # where the square joined is in the run
            letters: list[str] = []
            while r < SIZE and c < SIZE and board[r, c]:
                letters.append(board[r, c].upper())
                r, c = r + dr, c + dc
            word = "".join(letters)
            for start in range(at + 1):
                for end in range(max(at + 1, start + 2), len(word) + 1):
                    runs.add(word[start:end])
    return runs


def altered(junction: str, runs: set[str]) -> bool:
    """Whether ``junction`` is one of ``runs`` with one letter changed (a "raccord altéré")."""
    return any(
        len(run) == len(junction) and sum(map(str.__ne__, run, junction)) == 1 for run in runs
    )


def extended_length(board: Board, verdict: Verdict) -> int:
    """How long the word already on the board is that a legal placement extends (PRO before
    MENERAI: 7): the squares of its word that already hold tiles, when they are two or more,
    one after the other; 0 when it extends none."""
    assert verdict.move is not None
    held = [i for i, sq in enumerate(_main_squares(verdict.move)) if board[sq]]
    return len(held) if len(held) >= 2 and held[-1] - held[0] + 1 == len(held) else 0


def extends(board: Board, verdict: Verdict) -> bool:
    """Whether a legal placement extends a word already on the board (``extended_length``)."""
    return extended_length(board, verdict) > 0


def final_letter_moves(board: Board, move: Move) -> Iterator[tuple[Move, str]]:
    """The word of ``move`` with its final letter as the board has it, when that letter is
    already on the board: left out on the slip (PANIQU for PANIQUE: the square after the word
    holds it) or changed (PANIQUA: the word's last square holds another letter). Each with
    what the slip did, "left out" or "changed"."""
    dr, dc = _step(move.direction)
    n = len(move.word)
    end_r, end_c = move.row + dr * n, move.col + dc * n
    last_r, last_c = end_r - dr, end_c - dc
    if 0 <= end_r < SIZE and 0 <= end_c < SIZE and board[end_r, end_c]:
        after = end_r + dr, end_c + dc
        if not (after[0] < SIZE and after[1] < SIZE and board[after]):
            yield (
                Move(move.row, move.col, move.direction, move.word + board[end_r, end_c]),
                ("left out"),
            )
    if 0 <= last_r < SIZE and 0 <= last_c < SIZE:
        here = board[last_r, last_c]
        if here and here.upper() != move.word[-1].upper():
            yield Move(move.row, move.col, move.direction, move.word[:-1] + here), "changed"
