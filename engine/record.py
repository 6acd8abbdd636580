"""A game as written down: each round played (``RoundRecord``) and the JSON documents of
``python -m engine game --json`` (``GameDocument``), which are also pre-drawn games for rooms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from engine.errors import NotationError
from engine.move import Move


class RoundDocument(TypedDict):
    number: int
    rack: str
    leftover: str
    rejected: list[str]
    ref: str
    word: str
    score: int


class GameDocument(TypedDict):
    tiles: str
    seed: int | None
    rounds: list[RoundDocument]
    total: int
    end: str


GameRecord = GameDocument  # the name used in the CLI contract


@dataclass(frozen=True)
class RoundRecord:
    """A round played: its rack, the leftover that rack kept from the round before ("" after a
    rejection), the racks rejected before it, and the move placed with its score."""

    number: int
    rack: str
    leftover: str
    rejected: tuple[str, ...]
    ref: str
    word: str
    score: int

    @property
    def move(self) -> Move:
        return Move.from_ref(self.ref, self.word)

    def to_document(self) -> RoundDocument:
        return {
            "number": self.number,
            "rack": self.rack,
            "leftover": self.leftover,
            "rejected": list(self.rejected),
            "ref": self.ref,
            "word": self.word,
            "score": self.score,
        }

    @classmethod
    def from_document(cls, doc: RoundDocument) -> RoundRecord:
        try:
            return cls(
                number=int(doc["number"]),
                rack=str(doc["rack"]),
                leftover=str(doc.get("leftover", "")),
                rejected=tuple(str(r) for r in doc.get("rejected", [])),
                ref=str(doc["ref"]),
                word=str(doc["word"]),
                score=int(doc["score"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(
                f"round document {doc!r}: {exc!s} is missing or not of the right type"
            ) from None


__all__ = ["GameDocument", "GameRecord", "RoundDocument", "RoundRecord"]
