"""Validation and scoring of a proposed move against a board, a rack and a lexicon.

``validate(board, move, rack=..., lexicon=...)`` returns a ``Verdict``: whether the move is legal,
its score, every word it forms with that word's score, and one ``Problem`` per failure, each with
a code from ``Fault`` and a message naming the squares and tiles. Words missing from the lexicon
are a problem like the others but the move keeps its score, so an arbiter can see what an
invalid slip would have made. This module walks the board square by square and shares no code
with the move generator: the tests check that the two always agree.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.board import Board
from engine.errors import EngineError, NotationError, PlacementError
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.move import Move
from engine.notation import SIZE, Direction, OffBoardError, square_name
from engine.tiles import BLANK, TileSet, sort_tiles

BINGO_TILES = 7  # standard duplicate: 50 points for seven tiles (other formulas: engine.formula)
BINGO_BONUS = 50
_STANDARD = Formula()


class Fault(enum.Enum):
    BAD_NOTATION = "bad_notation"
    OFF_BOARD = "off_board"
    CLASH = "clash"
    NOT_ON_RACK = "not_on_rack"
    TOO_MANY_TILES = "too_many_tiles"  # more tiles than the formula lets a move place (7 sur 8)
    NO_TILE = "no_tile"
    GAP = "gap"
    NOT_CONNECTED = "not_connected"
    MISSES_CENTRE = "misses_centre"
    NOT_IN_LEXICON = "not_in_lexicon"


# Faults that make the placement itself impossible (no score can be given).
PLACEMENT_FAULTS = frozenset(
    {Fault.BAD_NOTATION, Fault.OFF_BOARD, Fault.CLASH, Fault.NO_TILE, Fault.GAP}
)


@dataclass(frozen=True)
class Problem:
    """One failure: its ``fault``, the engine's own words (``message``, as the CLI prints it),
    and ``params``, the values another layer needs to say it in its own words (the fault is
    the code: ``arbiter.reasons`` renders it)."""

    fault: Fault
    message: str
    params: tuple[tuple[str, str | int], ...] = ()

    @property
    def code(self) -> str:
        return self.fault.value

    @property
    def args(self) -> dict[str, str | int]:
        return dict(self.params)


@dataclass(frozen=True)
class WordScore:
    word: str
    score: int


@dataclass(frozen=True)
class Verdict:
    move: Move | None
    score: int = 0  # the placement's score, also when a word is not in the lexicon
    words: tuple[WordScore, ...] = ()
    placed: tuple[tuple[int, int, str], ...] = ()
    problems: tuple[Problem, ...] = field(default=())
    invalid_words: tuple[str, ...] = ()  # formed words missing from the lexicon

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def placeable(self) -> bool:
        """The tiles can be put on the board (a score exists), whatever the words."""
        return self.move is not None and not any(p.fault in PLACEMENT_FAULTS for p in self.problems)

    @property
    def tiles_used(self) -> str:
        """The rack tiles the move uses (``?`` for a blank), sorted as racks are."""
        return sort_tiles("".join(BLANK if ch.islower() else ch for _, _, ch in self.placed))

    def faults(self) -> list[Fault]:
        return [p.fault for p in self.problems]


def _run(
    board: Board, row: int, col: int, dr: int, dc: int, extra: dict[tuple[int, int], str]
) -> tuple[int, int, int]:
    """Extent of the line of tiles through (row, col) along (dr, dc): start row, start col,
    length."""
    r, c = row - dr, col - dc
    while 0 <= r < SIZE and 0 <= c < SIZE and (board[r, c] or (r, c) in extra):
        r, c = r - dr, c - dc
    r, c = r + dr, c + dc
    n = 0
    er, ec = r, c
    while 0 <= er < SIZE and 0 <= ec < SIZE and (board[er, ec] or (er, ec) in extra):
        n += 1
        er, ec = er + dr, ec + dc
    return r, c, n


def _score_word(
    board: Board,
    tiles: TileSet,
    r: int,
    c: int,
    dr: int,
    dc: int,
    n: int,
    new: dict[tuple[int, int], str],
) -> WordScore:
    total, mult, letters = 0, 1, []
    layout = board.layout
    for i in range(n):
        sq = (r + dr * i, c + dc * i)
        ch = new.get(sq)
        if ch is not None:
            index = sq[0] * SIZE + sq[1]
            total += tiles.value(ch) * layout.letter_mult[index]
            mult *= layout.word_mult[index]
        else:
            ch = board[sq]
            total += tiles.value(ch)
        letters.append(ch)
    return WordScore("".join(letters), total * mult)


def validate(
    board: Board,
    move: Move,
    *,
    rack: str | None = None,
    lexicon: Lexicon | None = None,
    tiles: TileSet | None = None,
    formula: Formula | None = None,
) -> Verdict:
    """Check ``move`` on ``board``: placement, rack (when given), connection, centre, words
    (when a lexicon is given), the most tiles the ``formula`` lets a move place (standard by
    default: seven). Scores with ``tiles`` (English by default) and the formula's bonus."""
    tiles = tiles or TileSet.load("en")
    formula = formula or _STANDARD
    problems: list[Problem] = []
    if not move.fits:
        try:
            list(move.squares())
        except OffBoardError as exc:
            return Verdict(move, problems=(_off_board(exc),))
    for ch in move.word:  # the word fits: its letters are the squares' letters
        if ch.upper() not in tiles.values:
            return Verdict(
                move,
                problems=(
                    Problem(
                        Fault.BAD_NOTATION,
                        f"move {move}: {ch!r} is not a letter of the {tiles.code} set",
                        (("move", str(move)), ("letter", ch), ("tiles", tiles.code)),
                    ),
                ),
            )

    new: dict[tuple[int, int], str] = {}
    dr, dc = (0, 1) if move.direction is Direction.ACROSS else (1, 0)
    for i, ch in enumerate(move.word):
        r, c = move.row + dr * i, move.col + dc * i
        here = board[r, c]
        if here:
            if here.upper() != ch.upper():
                problems.append(
                    Problem(
                        Fault.CLASH,
                        f"move {move}: square {square_name(r, c)} holds {here}, "
                        f"the word has {ch} there",
                        (
                            ("move", str(move)),
                            ("square", square_name(r, c)),
                            ("here", here),
                            ("letter", ch),
                        ),
                    )
                )
        else:
            new[(r, c)] = ch
    if problems:
        return Verdict(move, problems=tuple(problems))
    if not new:
        return Verdict(
            move,
            problems=(
                Problem(
                    Fault.NO_TILE,
                    f"move {move} places no tile: every letter is already on the board",
                    (("move", str(move)),),
                ),
            ),
        )

    before = (move.row - dr, move.col - dc)
    after = (move.row + dr * len(move.word), move.col + dc * len(move.word))
    for sq in (before, after):
        if 0 <= sq[0] < SIZE and 0 <= sq[1] < SIZE and board[sq]:
            return Verdict(
                move,
                problems=(
                    Problem(
                        Fault.GAP,
                        f"move {move}: the word is not written in full: "
                        f"{square_name(*sq)} next to it holds {board[sq]}",
                        (("move", str(move)), ("square", square_name(*sq)), ("here", board[sq])),
                    ),
                ),
            )

    main = _score_word(board, tiles, move.row, move.col, dr, dc, len(move.word), new)
    words = [main]
    touches = len(new) < len(move.word)
    for (r, c), _ in new.items():
        sr, sc, n = _run(board, r, c, dc, dr, new)
        if n >= 2:
            touches = True
            words.append(_score_word(board, tiles, sr, sc, dc, dr, n, new))
    score = sum(w.score for w in words) + formula.bonus(len(new))
    if formula.max_played < formula.rack_size and len(new) > formula.max_played:
        # 7 sur 8: a tile of the rack must stay on it (elsewhere more tiles than the rack
        # holds is the rack's fault, NOT_ON_RACK)
        problems.append(
            Problem(
                Fault.TOO_MANY_TILES,
                f"move {move} places {len(new)} tiles: the formula {formula.name} "
                f"places at most {formula.max_played}",
                (
                    ("move", str(move)),
                    ("tiles", len(new)),
                    ("formula", formula.name),
                    ("most", formula.max_played),
                ),
            )
        )

    if rack is not None:
        need: dict[str, int] = {}
        for ch in new.values():
            tile = BLANK if ch.islower() else ch
            need[tile] = need.get(tile, 0) + 1
        missing = {t: k - rack.count(t) for t, k in need.items() if k > rack.count(t)}
        if missing:
            miss = sort_tiles("".join(t * n for t, n in missing.items()))
            shown = ", ".join("a blank" if t == BLANK else t for t in miss)
            letters = "".join(t for t in miss if t != BLANK)
            problems.append(
                Problem(
                    Fault.NOT_ON_RACK,
                    f"move {move} needs {shown} not on the rack {rack}",
                    (
                        ("move", str(move)),
                        ("letters", letters),
                        ("blanks", len(miss) - len(letters)),
                        ("rack", rack),
                    ),
                )
            )

    if board.is_empty:
        if board.layout.start not in new:
            problems.append(
                Problem(
                    Fault.MISSES_CENTRE,
                    f"move {move}: the first move must cover the centre square "
                    f"{square_name(*board.layout.start)}",
                    (("move", str(move)), ("square", square_name(*board.layout.start))),
                )
            )
    elif not touches:
        problems.append(
            Problem(
                Fault.NOT_CONNECTED,
                f"move {move} does not touch any tile on the board",
                (("move", str(move)),),
            )
        )

    bad: list[str] = []
    if lexicon is not None:
        bad = [w.word.upper() for w in words if w.word.upper() not in lexicon]
        if bad:
            problems.append(
                Problem(
                    Fault.NOT_IN_LEXICON,
                    f"not in the lexicon {lexicon.name}: {', '.join(bad)}",
                    (("lexicon", lexicon.name), ("words", ", ".join(bad))),
                )
            )

    return Verdict(
        move,
        score=score,
        words=tuple(words),
        placed=tuple((r, c, ch) for (r, c), ch in new.items()),
        problems=tuple(problems),
        invalid_words=tuple(bad),
    )


def _params(exc: EngineError) -> tuple[tuple[str, str | int], ...]:
    """An engine error's code and values, as a problem's params (``error`` is the code)."""
    return (("error", exc.code), *exc.params.items())


def _off_board(exc: OffBoardError) -> Problem:
    return Problem(Fault.OFF_BOARD, str(exc), _params(exc))


def validate_text(
    board: Board,
    text: str,
    *,
    rack: str | None = None,
    lexicon: Lexicon | None = None,
    tiles: TileSet | None = None,
    formula: Formula | None = None,
) -> Verdict:
    """``validate`` for a move written as ``'H8 WORD'``: bad notation is a problem, not an error."""
    try:
        move = Move.parse(text)
    except OffBoardError as exc:
        return Verdict(None, problems=(_off_board(exc),))
    except NotationError as exc:
        return Verdict(None, problems=(Problem(Fault.BAD_NOTATION, str(exc), _params(exc)),))
    return validate(board, move, rack=rack, lexicon=lexicon, tiles=tiles, formula=formula)


def move_from_tiles(board: Board, placed: list[tuple[int, int, str]]) -> Move:
    """The move (reference and whole word) made by putting these tiles on the board.
    Raises ``PlacementError`` when they are not in one line or leave a gap."""
    if not placed:
        raise PlacementError("no tile placed")
    squares = {(r, c): ch for r, c, ch in placed}
    if len(squares) != len(placed):
        raise PlacementError("two tiles on the same square")
    for (r, c), ch in squares.items():
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise OffBoardError(f"tile {ch} at ({r}, {c}) is off the board")
        if board[r, c]:
            raise PlacementError(f"square {square_name(r, c)} already holds {board[r, c]}")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise PlacementError(
            "the tiles are not in one line: "
            + " ".join(square_name(r, c) for r, c in sorted(squares))
        )
    if len(rows) == 1 and len(cols) == 1:
        ((r, c),) = squares
        across = _run(board, r, c, 0, 1, squares)[2]
        direction = (
            Direction.ACROSS
            if across >= 2 or _run(board, r, c, 1, 0, squares)[2] < 2
            else Direction.DOWN
        )
    else:
        direction = Direction.ACROSS if len(rows) == 1 else Direction.DOWN
    dr, dc = (0, 1) if direction is Direction.ACROSS else (1, 0)
    r0, c0 = min(squares)
    sr, sc, n = _run(board, r0, c0, dr, dc, squares)
    covered = {(sr + dr * i, sc + dc * i) for i in range(n)}
    if not set(squares) <= covered:
        raise PlacementError(
            "the tiles leave a gap: " + " ".join(square_name(r, c) for r, c in sorted(squares))
        )
    word = "".join(squares.get(sq) or board[sq] for sq in sorted(covered))
    if len(word) < 2:
        raise PlacementError(f"tile {word} at {square_name(r0, c0)} forms no word of two letters")
    return Move(sr, sc, direction, word)


__all__ = [
    "Fault",
    "Problem",
    "Verdict",
    "WordScore",
    "validate",
    "validate_text",
    "move_from_tiles",
    "EngineError",
]
