"""Board layouts as data, and the board.

Layouts live in ``engine/data/layouts/<name>.txt``. A board is 15x15 squares, each empty (``''``)
or holding a tile: an upper-case letter, or a lower-case letter for a blank standing for it.

Down moves are handled by transposing in one place: ``Board.lines(direction)`` gives the 15
lines of the board read in that direction (rows across, columns down), with their premiums, so
scoring and move generation are written once, for a line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.errors import NotationError, PlacementError
from engine.move import Move
from engine.notation import SIZE, Direction, parse_ref

LAYOUTS = ("standard", "tl-centre")
_PREMIUM = {".": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}


@dataclass(frozen=True)
class Layout:
    name: str
    letter_mult: tuple[int, ...]  # 225 squares, row by row
    word_mult: tuple[int, ...]
    start: tuple[int, int]
    rows: tuple[str, ...] = ()  # the layout file's 15 rows: T/D word, t/d letter, . plain

    @classmethod
    def load(cls, name: str = "standard") -> Layout:
        return _load_layout(name)

    def premium(self, row: int, col: int) -> tuple[int, int]:
        i = row * SIZE + col
        return self.letter_mult[i], self.word_mult[i]

    def premium_code(self, row: int, col: int) -> str:
        """The square as the layout file spells it: ``T`` ``D`` word, ``t`` ``d`` letter, ``.``."""
        return self.rows[row][col]


@cache
def _load_layout(name: str) -> Layout:
    if name not in LAYOUTS:
        raise NotationError(f"unknown board layout {name!r}: choose one of {', '.join(LAYOUTS)}")
    text = resources.files("engine").joinpath("data", "layouts", f"{name}.txt").read_text("utf-8")
    rows: list[str] = []
    start = (7, 7)
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("start "):
            row, col, _ = parse_ref(line.split()[1])
            start = (row, col)
        else:
            rows.append(line.strip())
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise NotationError(f"layout {name!r} must have 15 rows of 15 squares")
    letter = tuple(_PREMIUM[ch][0] for r in rows for ch in r)
    word = tuple(_PREMIUM[ch][1] for r in rows for ch in r)
    return Layout(name=name, letter_mult=letter, word_mult=word, start=start, rows=tuple(rows))


def _transpose(grid: list[list[int]]) -> list[list[int]]:
    return [list(col) for col in zip(*grid, strict=True)]


class Board:
    """A mutable 15x15 board. ``Board.from_lines([...])`` reads the CLI's board format."""

    __slots__ = ("layout", "_cells")

    def __init__(self, layout: Layout | None = None) -> None:
        self.layout = layout or Layout.load("standard")
        self._cells = [""] * (SIZE * SIZE)

    @classmethod
    def from_lines(cls, lines: list[str], layout: Layout | None = None) -> Board:
        """15 strings of 15 characters: ``.`` empty, ``A``-``Z`` a tile, ``a``-``z`` a blank."""
        rows = [line.rstrip("\r\n") for line in lines]
        while rows and not rows[-1].strip():
            rows.pop()
        if len(rows) != SIZE:
            raise NotationError(f"board has {len(rows)} lines: it needs 15 lines of 15 characters")
        board = cls(layout)
        for r, line in enumerate(rows):
            if len(line) != SIZE:
                raise NotationError(
                    f"board line {r + 1} ({'ABCDEFGHIJKLMNO'[r]}) has {len(line)} characters: "
                    "it needs 15"
                )
            for c, ch in enumerate(line):
                if ch == ".":
                    continue
                if not ("A" <= ch <= "Z" or "a" <= ch <= "z"):
                    raise NotationError(
                        f"board line {r + 1}, column {c + 1}: {ch!r} is not '.', a letter, "
                        "or a lower-case blank"
                    )
                board._cells[r * SIZE + c] = ch
        return board

    @classmethod
    def from_text(cls, text: str, layout: Layout | None = None) -> Board:
        return cls.from_lines(text.splitlines(), layout)

    def to_lines(self) -> list[str]:
        return [
            "".join(ch or "." for ch in self._cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)
        ]

    def __getitem__(self, square: tuple[int, int]) -> str:
        row, col = square
        return self._cells[row * SIZE + col]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board) and self._cells == other._cells and self.layout == other.layout
        )

    # Mutable and compared by value, so unhashable; typeshed types object.__hash__ as a method,
    # which None does not match (the usual idiom, as in the standard library).
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Board.from_lines({self.to_lines()!r})"

    @property
    def is_empty(self) -> bool:
        return not any(self._cells)

    @property
    def tiles(self) -> int:
        return sum(1 for ch in self._cells if ch)

    def copy(self) -> Board:
        board = Board(self.layout)
        board._cells = self._cells.copy()
        return board

    def placed_by(self, move: Move) -> list[tuple[int, int, str]]:
        """The squares the move would fill (empty squares of its word), without checking
        anything."""
        return [(r, c, ch) for r, c, ch in move.squares() if not self._cells[r * SIZE + c]]

    def play(self, move: Move) -> list[tuple[int, int, str]]:
        """Put the move's new tiles on the board and return them. Legality is the caller's job:
        see ``engine.validate``; this only refuses to overwrite a different tile."""
        placed = []
        for r, c, ch in move.squares():
            here = self._cells[r * SIZE + c]
            if here and here.upper() != ch.upper():
                raise PlacementError(
                    f"move {move}: square {'ABCDEFGHIJKLMNO'[r]}{c + 1} holds {here}, not {ch}"
                )
            if not here:
                placed.append((r, c, ch))
        for r, c, ch in placed:
            self._cells[r * SIZE + c] = ch
        return placed

    def replace_blank(self, row: int, col: int) -> str:
        """Put the real tile in place of the blank on (row, col) (the joker formula: the
        joker is replaced by the letter it stands for); return that letter."""
        here = self._cells[row * SIZE + col]
        if not here.islower():
            raise PlacementError(
                f"square {'ABCDEFGHIJKLMNO'[row]}{col + 1} holds {here or 'nothing'}, not a blank"
            )
        self._cells[row * SIZE + col] = here.upper()
        return here.upper()

    def lines(
        self, direction: Direction
    ) -> tuple[list[list[str]], list[list[int]], list[list[int]]]:
        """The board read in ``direction``: (tiles, letter multipliers, word multipliers), each
        15 lines of 15 squares. For DOWN, line i is column i and position j is row j."""
        tiles = [self._cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
        lm = [list(self.layout.letter_mult[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
        wm = [list(self.layout.word_mult[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
        if direction is Direction.DOWN:
            tiles = [list(col) for col in zip(*tiles, strict=True)]
            lm, wm = _transpose(lm), _transpose(wm)
        return tiles, lm, wm


def oriented(move: Move) -> tuple[int, int]:
    """(line, position) of a move's first square in the lines of its own direction."""
    if move.direction is Direction.ACROSS:
        return move.row, move.col
    return move.col, move.row
