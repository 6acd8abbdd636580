"""A game as written down: each round played (``RoundRecord``) and the JSON documents of
``python -m engine game --json`` (``GameDocument``), which are also pre-drawn games for rooms."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from engine.board import Board, Layout
from engine.errors import NotationError, RackError
from engine.move import Move
from engine.tiles import BLANK, subtract


class RoundDocument(TypedDict):
    number: int
    rack: str
    leftover: str
    rejected: list[str]
    ref: str
    word: str
    score: int
    joker_replaced: NotRequired[bool]  # a joker game's round whose top uses the joker


class GameDocument(TypedDict):
    tiles: str
    seed: int | None
    rounds: list[RoundDocument]
    total: int
    end: str
    formula: NotRequired[str]  # absent: standard duplicate


GameRecord = GameDocument  # the name used in the CLI contract

SEED_LIMIT = 2**32  # a game's seed is 0 to 2**32 - 1: it goes into JSON that JavaScript reads


def whole_number(value: object, where: str, *, minimum: int | None = None) -> int:
    """``value`` when it is a whole number (a JSON integer: not ``24.9``, ``24.0``, ``1e999``,
    ``true`` or ``"24"``), at least ``minimum``; ``NotationError`` naming ``where`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        shown = getattr(value, "written", None) or repr(value)
        raise NotationError(f"{where} must be a whole number, not {shown}")
    if minimum is not None and value < minimum:
        raise NotationError(f"{where} must be at least {minimum}, not {value}")
    return value


@dataclass(frozen=True)
class RoundRecord:
    """A round played: its rack, the leftover that rack kept from the round before ("" after a
    rejection), the racks rejected before it, and the move placed with its score. In a joker
    game (FISF 3.8.1), a round whose top uses the joker says whether the joker was replaced on
    the board by the real letter from the bag (``joker_replaced`` True: the joker comes back to
    the next rack) or stays there (False); None for every other round."""

    number: int
    rack: str
    leftover: str
    rejected: tuple[str, ...]
    ref: str
    word: str
    score: int
    joker_replaced: bool | None = None

    @property
    def move(self) -> Move:
        return Move.from_ref(self.ref, self.word)

    def to_document(self) -> RoundDocument:
        doc: RoundDocument = {
            "number": self.number,
            "rack": self.rack,
            "leftover": self.leftover,
            "rejected": list(self.rejected),
            "ref": self.ref,
            "word": self.word,
            "score": self.score,
        }
        if self.joker_replaced is not None:
            doc["joker_replaced"] = self.joker_replaced
        return doc

    @classmethod
    def from_document(cls, doc: RoundDocument) -> RoundRecord:
        try:
            number = whole_number(doc["number"], "a round's number", minimum=1)
            return cls(
                number=number,
                rack=str(doc["rack"]),
                leftover=str(doc.get("leftover", "")),
                rejected=tuple(str(r) for r in doc.get("rejected", [])),
                ref=str(doc["ref"]),
                word=str(doc["word"]),
                score=whole_number(doc["score"], f"round {number}: the score", minimum=0),
                joker_replaced=_optional_bool(doc.get("joker_replaced")),
            )
        except NotationError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(
                f"round document {doc!r}: {exc!s} is missing or not of the right type"
            ) from None


def _optional_bool(value: object) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise TypeError(f"joker_replaced {value!r} is not true or false")


@dataclass(frozen=True)
class Placement:
    """A round's move as it went on the board: the word with the tiles already there as ``.``
    (GCG's way, ``.tAINS``) and the tiles of the rack left after it (the next leftover)."""

    record: RoundRecord
    dotted: str
    leave: str


def placements(rounds: Sequence[RoundRecord], layout: Layout | None = None) -> list[Placement]:
    """Put each round's move on a board in turn (no lexicon: the moves were checked when
    played) and say what each one placed and left. Raises ``RackError`` for a move whose new
    tiles are not on its rack."""
    board = Board(layout or Layout.load("standard"))
    result = []
    for record in rounds:
        move = record.move
        placed = board.placed_by(move)
        squares = {(r, c) for r, c, _ in placed}
        dotted = "".join(ch if (r, c) in squares else "." for r, c, ch in move.squares())
        used = "".join(BLANK if ch.islower() else ch for _, _, ch in placed)
        leave = subtract(record.rack, used)
        if leave is None:
            raise RackError(
                f"round {record.number}: {move} places {used}, not all on {record.rack}"
            )
        board.play(move)
        result.append(Placement(record, dotted, leave))
    return result


__all__ = [
    "GameDocument",
    "GameRecord",
    "Placement",
    "RoundDocument",
    "RoundRecord",
    "placements",
]
