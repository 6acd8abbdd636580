"""A move as written on a slip: a grid reference and the word in full."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.errors import NotationError
from engine.notation import SIZE, Direction, OffBoardError, format_ref, parse_ref, parse_word


@dataclass(frozen=True, order=True)
class Move:
    """``Move.parse("H8 WORD")``. Coordinates count from 0; ``word`` keeps lower case for blanks."""

    row: int
    col: int
    direction: Direction
    word: str

    @classmethod
    def parse(cls, text: str) -> Move:
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(
                f"move {text!r} must be a grid reference and a word, like 'H8 WORD'"
            )
        return cls.from_ref(parts[0], parts[1])

    @classmethod
    def from_ref(cls, ref: str, word: str) -> Move:
        row, col, direction = parse_ref(ref)
        return cls(row, col, direction, parse_word(word))

    @property
    def ref(self) -> str:
        return format_ref(self.row, self.col, self.direction)

    @property
    def fits(self) -> bool:
        """Whether the whole word lies on the board."""
        end = (self.col if self.direction is Direction.ACROSS else self.row) + len(self.word)
        return end <= SIZE

    def squares(self) -> Iterator[tuple[int, int, str]]:
        """(row, col, letter) for every letter of the word; raises if the word leaves the board."""
        if not self.fits:
            across = self.direction is Direction.ACROSS
            axis = "column" if across else "row"
            start = (self.col + 1) if across else "ABCDEFGHIJKLMNO"[self.row]
            raise OffBoardError(
                f"move {self}: {self.word!r} from {self.ref} runs off the board "
                f"({len(self.word)} letters from {axis} {start})",
                code="move_off_board",
                params={"move": str(self), "word": self.word, "ref": self.ref},
            )
        dr, dc = (0, 1) if self.direction is Direction.ACROSS else (1, 0)
        for i, letter in enumerate(self.word):
            yield self.row + dr * i, self.col + dc * i, letter

    def __str__(self) -> str:
        return f"{self.ref} {self.word}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"
