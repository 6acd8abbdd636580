"""Tile sets as data: letters, counts, values and which letters are vowels.

The sets live in ``engine/data/tiles/<code>.txt``; ``TileSet.load("en")`` reads one. A rack or a
bag is written as a string of upper-case letters with ``?`` for a blank.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from engine.errors import NotationError

BLANK = "?"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
TILE_SETS = ("en", "fr")


class Kind(enum.Enum):
    VOWEL = "vowel"
    CONSONANT = "consonant"
    EITHER = "either"  # counts as whichever the draw rule needs (blank, French Y)


@dataclass(frozen=True)
class TileSet:
    code: str
    counts: dict[str, int] = field(hash=False, compare=False)
    values: dict[str, int] = field(hash=False, compare=False)
    kinds: dict[str, Kind] = field(hash=False, compare=False)

    @classmethod
    def load(cls, code: str) -> TileSet:
        return _load(code)

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    @property
    def letters(self) -> str:
        """The lettered tiles, without the blank."""
        return "".join(t for t in self.counts if t != BLANK)

    def value(self, tile: str) -> int:
        """Face value of a tile; a lower-case letter is a blank standing for it and scores 0."""
        return 0 if tile == BLANK or tile.islower() else self.values[tile]

    def bag(self) -> list[str]:
        """Every tile of a full bag, in letter order with the blanks last."""
        return [t for t in self.counts for _ in range(self.counts[t])]

    def parse_rack(self, text: str, *, what: str = "rack") -> str:
        """Read a rack (or any multiset of tiles): letters of this set and ``?``, any case."""
        rack = text.strip().upper()
        for i, tile in enumerate(rack):
            if tile not in self.counts:
                raise NotationError(
                    f"{what} {text!r}: {tile!r} at position {i + 1} "
                    f"is not a tile of the {self.code} set",
                    code="rack_not_tile",
                    params={"rack": text, "tile": tile, "position": i + 1},
                )
        return sort_tiles(rack)

    def vowel_consonant(self, tiles: str) -> tuple[int, int, int]:
        """How many tiles are vowels, consonants, and either."""
        v = c = e = 0
        for tile in tiles:
            kind = self.kinds[tile]
            if kind is Kind.VOWEL:
                v += 1
            elif kind is Kind.CONSONANT:
                c += 1
            else:
                e += 1
        return v, c, e


def sort_tiles(tiles: str) -> str:
    """Canonical order of a rack: letters alphabetically, blanks last."""
    return "".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


def subtract(have: str, take: str) -> str | None:
    """``have`` minus the multiset ``take``, or None if ``take`` is not all in ``have``."""
    left = Counter(have)
    left.subtract(take)
    if any(n < 0 for n in left.values()):
        return None
    return sort_tiles("".join(t * n for t, n in left.items()))


def rack_notation(rack: str, leftover: str) -> str:
    """A rack as arbiters call it: the tiles kept from the last rack, ``+``, the tiles drawn
    (in the rack's order), e.g. ``ELT+MOO?``; a rack with no leftover is written as it is."""
    if not leftover:
        return rack
    kept = Counter(leftover)
    drawn = []
    for tile in rack:
        if kept[tile]:
            kept[tile] -= 1
        else:
            drawn.append(tile)
    return f"{leftover}+{''.join(drawn)}"


@cache
def _load(code: str) -> TileSet:
    if code not in TILE_SETS:
        raise NotationError(f"unknown tile set {code!r}: choose one of {', '.join(TILE_SETS)}")
    text = resources.files("engine").joinpath("data", "tiles", f"{code}.txt").read_text("utf-8")
    counts: dict[str, int] = {}
    values: dict[str, int] = {}
    kinds: dict[str, Kind] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        letter, count, value, kind = line.split()
        counts[letter] = int(count)
        values[letter] = int(value)
        kinds[letter] = Kind(kind)
    return TileSet(code=code, counts=counts, values=values, kinds=kinds)
