"""Where a slip's word can lie: its legal readings at a square (as written, or with its blanks
where they must be: FISF 2023 5.3, "encerclement"), the index of the legal moves a word is looked
for in, and the small choices among readings that the rulebooks share.

Pure: a board, a rack, a lexicon; no Django.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.board import Board
from engine.move import Move
from engine.movegen import ScoredMove
from engine.notation import SIZE, Direction
from engine.tiles import BLANK
from engine.validate import Fault, Verdict

# Faults that say the word cannot stand at the written square at all.
FITTING_FAULTS = frozenset(
    {
        Fault.OFF_BOARD,
        Fault.CLASH,
        Fault.NO_TILE,
        Fault.GAP,
        Fault.NOT_CONNECTED,
        Fault.MISSES_CENTRE,
    }
)


@dataclass(frozen=True)
class Reading:
    """A legal placement of a slip's word: as written, or with its blanks where they must be."""

    verdict: Verdict
    remarked: str = ""  # the word with its blanks re-marked ("" when legal as written)

    @property
    def score(self) -> int:
        return self.verdict.score

    @property
    def ref(self) -> str:
        return self.verdict.move.ref if self.verdict.move else ""


Search = Literal["auto", "moves", "squares"]
Square = tuple[int, int, int]  # (direction, line, start): the board order of ``_squares``


class Placements:
    """Where each word lies in the legal moves for a board and rack (``generate``'s): by its
    letters in upper case, the squares of every legal move that spells it, however its blanks
    are marked. The generator makes a tile placed alone once, across when it forms a word
    across too: such a tile is also indexed down, where it reads as the word it forms down."""

    def __init__(self, board: Board, moves: Iterable[ScoredMove]) -> None:
        self._at: dict[str, set[Square]] = {}
        at, across = self._at, Direction.ACROSS
        for scored in moves:  # a loop kept plain: a rack with two blanks has 30,000 moves
            move = scored.move
            if move.direction is across:
                square = (0, move.row, move.col)
            else:
                square = (1, move.col, move.row)
            at.setdefault(move.word.upper(), set()).add(square)
            if len(scored.used) == 1 and move.direction is across:
                ((row, col, tile),) = board.placed_by(move)
                self._down(board, row, col, tile)

    def _down(self, board: Board, row: int, col: int, tile: str) -> None:
        """Index the word down through a tile placed alone at (row, col) (one letter when it
        forms none: no slip writes that)."""
        top = bottom = row
        while top > 0 and board[top - 1, col]:
            top -= 1
        while bottom < SIZE - 1 and board[bottom + 1, col]:
            bottom += 1
        word = "".join(board[r, col] or tile for r in range(top, bottom + 1))
        self._at.setdefault(word.upper(), set()).add((1, col, top))

    def of(self, word: str, direction: Direction | None) -> list[Move]:
        """``word`` as written at each square where a legal move spells it, in ``direction``
        (both when None), in board order."""
        moves = []
        for d, line, start in sorted(self._at.get(word.upper(), ())):
            if direction is None or d == direction:
                row, col = (line, start) if d == Direction.ACROSS else (start, line)
                moves.append(Move(row, col, Direction(d), word))
        return moves


def blank_markings(verdict: Verdict, rack: str) -> Iterator[Move]:
    """The move of ``verdict`` with its blanks where the rack needs them: for each letter the
    rack lacks, that many of the word's new tiles of that letter become blanks, in every way
    it can be done (nothing when the rack's blanks cannot make up for what it lacks)."""
    move = verdict.move
    if move is None:
        return
    index = {
        (r, c): (c - move.col if move.direction is Direction.ACROSS else r - move.row)
        for r, c, _tile in verdict.placed
    }
    letters: dict[str, list[int]] = {}
    for i in sorted(index.values()):
        letters.setdefault(move.word[i].upper(), []).append(i)
    have = Counter(rack)
    short = {
        letter: len(at) - have[letter] for letter, at in letters.items() if len(at) > have[letter]
    }
    if sum(short.values()) > have[BLANK]:
        return
    base = [ch.upper() for ch in move.word]
    choices = [itertools.combinations(letters[letter], n) for letter, n in sorted(short.items())]
    for chosen in itertools.product(*choices):
        word = list(base)
        for i in itertools.chain.from_iterable(chosen):
            word[i] = word[i].lower()
        yield Move(move.row, move.col, move.direction, "".join(word))


def choose(readings: Sequence[Reading], announced: int | None) -> Reading | None:
    """The placement a slip designates among several: the first worth the announced score;
    else the first when all are worth the same; else none (ambiguous)."""
    for reading in readings:
        if reading.score == announced:
            return reading
    if len({r.score for r in readings}) == 1:
        return readings[0]
    return None


def best(readings: Sequence[Reading]) -> Reading | None:
    """The best-scoring reading (the first in board order among equals)."""
    return max(readings, key=lambda r: r.score, default=None)


def fits_badly(verdict: Verdict) -> bool:
    return bool(set(verdict.faults()) & FITTING_FAULTS)


def circlings(verdict: Verdict, rack: str) -> Iterator[Move]:
    """Every way of circling the new tiles of ``verdict``'s move as the rack's blanks allow
    (FISF 2023, 5.3: "les divers encerclements possibles"): the move with none, one or more of
    its new tiles made blanks (lower case), as many as the rack has blanks, whatever the slip
    circled. Whether each is legal is the caller's question (``validate``)."""
    move = verdict.move
    if move is None:
        return
    at = sorted(
        c - move.col if move.direction is Direction.ACROSS else r - move.row
        for r, c, _tile in verdict.placed
    )
    new = set(at)
    base = [ch.upper() if i in new else ch for i, ch in enumerate(move.word)]
    for n in range(rack.count(BLANK) + 1):
        for chosen in itertools.combinations(at, n):
            word = list(base)
            for i in chosen:
                word[i] = word[i].lower()
            yield Move(move.row, move.col, move.direction, "".join(word))
