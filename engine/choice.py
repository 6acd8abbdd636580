"""The choice among equal tops: which of the moves of the highest score goes on the board.

rules.md, "Duplicate play": blanks kept, the balanced leave, fewer tiles, alphabetical, nearest
A1. ``choice_key`` is that order as one total key; ``choose_top`` applies it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine import movegen
from engine.board import Board
from engine.errors import EngineError, RackError
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.movegen import ScoredMove
from engine.tiles import BLANK, TileSet, subtract

ChoiceKey = tuple[int, int, int, int, str, str, int, int, int, int]


def choice_key(move: ScoredMove, rack: str, tiles: TileSet) -> ChoiceKey:
    """The order among moves of equal score (smallest first), as a tuple:

    1. more blanks kept on the rack;
    2. the more balanced leave: fewer duplicate letters (for each letter of the leave, its
       count minus one, summed; blanks not counted);
    3. the more balanced leave: smaller |vowels - consonants| of the leave (tiles of kind
       ``EITHER``, the blank and the French Y, not counted);
    4. fewer tiles placed;
    5. the word alphabetically by its letters (``word.upper()``), then real tiles before blanks;
    6. the position nearest A1: row + column, then row, then column, then across before down.

    The keys are total: two different moves never compare equal.
    """
    leave = subtract(rack, move.used)
    if leave is None:
        raise RackError(f"move {move.move} uses {move.used}, not all on the rack {rack}")
    letters = Counter(t for t in leave if t != BLANK)
    duplicates = sum(n - 1 for n in letters.values())
    v, c, _ = tiles.vowel_consonant(leave)
    m = move.move
    return (
        -leave.count(BLANK),
        duplicates,
        abs(v - c),
        len(move.used),
        m.word.upper(),
        m.word,  # upper case (real tile) sorts before lower case (blank)
        m.row + m.col,
        m.row,
        m.col,
        int(m.direction),
    )


def choose_top(
    moves: Sequence[ScoredMove],
    rack: str,
    tiles: TileSet,
    *,
    lost: Callable[[ScoredMove], bool] | None = None,
) -> ScoredMove:
    """The top to place on the board: among the moves of the highest score, the first by
    ``choice_key`` (blanks kept, balanced leave, fewer tiles, alphabetical, nearest A1). In a
    joker game ``lost`` says which moves would leave the joker on the board: after the blanks
    kept, a move whose joker comes back goes first (FISF 3.8.1)."""
    if not moves:
        raise EngineError(f"no move to choose from for the rack {rack}")
    best = max(m.score for m in moves)

    def key(m: ScoredMove) -> tuple[int, int, ChoiceKey]:
        k = choice_key(m, rack, tiles)
        return (k[0], int(lost(m)) if lost is not None else 0, k)

    return min((m for m in moves if m.score == best), key=key)


def all_tops(
    board: Board, rack: str, lexicon: Lexicon, tiles: TileSet, formula: Formula | None = None
) -> list[ScoredMove]:
    """Every move of the highest score (asks ``movegen.top`` for more until the cut is below it)."""
    n = 16
    while True:
        moves = movegen.top(board, rack, lexicon, n=n, tiles=tiles, formula=formula)
        if len(moves) < n or moves[-1].score < moves[0].score:
            return [m for m in moves if m.score == moves[0].score] if moves else []
        n *= 4


__all__ = ["ChoiceKey", "all_tops", "choice_key", "choose_top"]
