"""Duplicate draws: the bag, the vowel/consonant minimum, random and typed racks.

The rule (rules.md, "The draw"): the rack is completed to seven tiles from the bag, the leftover
of the last round staying on it. Rounds 1-15 need at least two vowels and two consonants, from
round 16 at least one of each; a tile of kind ``EITHER`` (the blank, the French Y) counts as
whichever is needed. A rack that fails goes back into the bag whole, leftover included, and seven
tiles are drawn afresh, as often as needed. When fewer than seven tiles remain the rack is all of
them. When no rack drawn from what is left can meet the minimum, there is no draw: the game ends.

>>> import random
>>> tiles = TileSet.load("en")
>>> bag = Bag.full(tiles)
>>> draw = draw_rack(bag, "", 1, random.Random(7), tiles)
>>> len(draw.rack), len(bag)
(7, 93)
>>> print(rack_shortfall(tiles, "AEIOUEA", 3))  # doctest: +NORMALIZE_WHITESPACE
rack AAEEIOU has 0 consonants: round 3 needs at least 2 vowels and 2 consonants
(a blank counts as either)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.errors import EngineError, NotationError, RackError, RackRejected
from engine.tiles import ALPHABET, BLANK, Kind, TileSet, sort_tiles, subtract

RACK_SIZE = 7
LAST_EARLY_ROUND = 15  # rounds 1-15 need 2 vowels and 2 consonants, later rounds 1 and 1
EARLY_MINIMUM = (2, 2)
LATE_MINIMUM = (1, 1)
MAX_DRAWS = 100_000  # a feasible pool succeeds with probability >= ~1/250 per try


def minimum(round_number: int) -> tuple[int, int]:
    """(vowels, consonants) a rack of this round must hold at least."""
    if round_number < 1:
        raise EngineError(f"round {round_number}: rounds are numbered from 1")
    return EARLY_MINIMUM if round_number <= LAST_EARLY_ROUND else LATE_MINIMUM


def _deficit(tiles: TileSet, rack: str, round_number: int) -> int:
    """How many tiles the rack lacks to meet the minimum, after its EITHER tiles are used."""
    need_v, need_c = minimum(round_number)
    v, c, e = tiles.vowel_consonant(rack)
    return max(0, need_v - v) + max(0, need_c - c) - e


def meets_minimum(tiles: TileSet, rack: str, round_number: int) -> bool:
    return _deficit(tiles, rack, round_number) <= 0


def _either_names(tiles: TileSet) -> str:
    names = [
        "a blank" if t == BLANK else t for t, kind in tiles.kinds.items() if kind is Kind.EITHER
    ]
    names.sort(key=lambda name: name != "a blank")
    return " or ".join(names) if names else "nothing"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rack_shortfall(tiles: TileSet, rack: str, round_number: int) -> str | None:
    """None when ``rack`` meets the minimum of ``round_number``, else a sentence saying why not."""
    if meets_minimum(tiles, rack, round_number):
        return None
    need_v, need_c = minimum(round_number)
    v, c, e = tiles.vowel_consonant(rack)
    short = []
    if v < need_v:
        short.append(_plural(v, "vowel"))
    if c < need_c:
        short.append(_plural(c, "consonant"))
    if e:
        short.append(f"{e} that count{'s' if e == 1 else ''} as either")
    return (
        f"rack {sort_tiles(rack) or '(empty)'} has {' and '.join(short)}: "
        f"round {round_number} needs at least "
        f"{_plural(need_v, 'vowel')} and {_plural(need_c, 'consonant')} "
        f"({_either_names(tiles)} counts as either)"
    )


def pool_can_meet_minimum(
    tiles: TileSet, pool: str, round_number: int, size: int = RACK_SIZE
) -> bool:
    """Whether any rack drawn from ``pool`` (the bag and the leftover together) can meet the
    minimum. With fewer than ``size`` tiles (the formula's rack) the only rack is the whole
    pool."""
    if len(pool) < size:
        return meets_minimum(tiles, pool, round_number)
    need_v, need_c = minimum(round_number)
    return _deficit(tiles, pool, round_number) <= 0 and len(pool) >= need_v + need_c


def _check_tiles(text: str, what: str) -> str:
    for i, tile in enumerate(text):
        if tile not in ALPHABET and tile != BLANK:
            raise RackError(
                f"{what} {text!r}: {tile!r} at position {i + 1} is not a tile (A-Z or ?)"
            )
    return sort_tiles(text)


def _missing(have: str, take: str) -> str:
    return sort_tiles("".join(t * n for t, n in (Counter(take) - Counter(have)).items()))


class Bag:
    """A multiset of tiles kept in canonical order (letters alphabetically, ``?`` last).

    ``draw`` takes one tile at a time at ``rng.randrange(len(bag))`` of that order, so a draw is
    reproducible for a seed and a bag content.
    """

    __slots__ = ("_tiles",)

    def __init__(self, contents: str = "") -> None:
        self._tiles = list(_check_tiles(contents, "bag"))

    @classmethod
    def full(cls, tiles: TileSet) -> Bag:
        return cls("".join(tiles.bag()))

    @property
    def contents(self) -> str:
        return "".join(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and self._tiles == other._tiles

    # Mutable and compared by value, so unhashable; typeshed types object.__hash__ as a method,
    # which None does not match (the usual idiom, as in the standard library).
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Bag({self.contents!r})"

    def copy(self) -> Bag:
        return Bag(self.contents)

    def take(self, tiles: str) -> None:
        """Remove ``tiles`` (a multiset) from the bag; refuse, changing nothing, unless all are
        in it."""
        left = subtract(self.contents, tiles)
        if left is None:
            missing = _missing(self.contents, tiles)
            raise RackError(
                f"the bag does not hold {', '.join(missing)} (taking {sort_tiles(tiles)})"
            )
        self._tiles = list(left)

    def put(self, tiles: str) -> None:
        """Put ``tiles`` back into the bag."""
        self._tiles = list(sort_tiles(self.contents + _check_tiles(tiles, "tiles")))

    def draw(self, n: int, rng: random.Random) -> str:
        """Draw ``n`` tiles at random, one at a time; returned in canonical order."""
        if not 0 <= n <= len(self._tiles):
            raise RackError(f"cannot draw {n} tiles from a bag of {len(self._tiles)}")
        drawn = [self._tiles.pop(rng.randrange(len(self._tiles))) for _ in range(n)]
        return sort_tiles("".join(drawn))


@dataclass(frozen=True)
class Draw:
    """The outcome of a draw: the rack, the leftover kept in it ("" after a rejection: the whole
    rack went back), and every rack rejected on the way, in order. In a game whose jokers are
    set aside (the joker formula, the détonante), ``jokers`` is how many are left aside after
    the draw and ``joker_added`` whether the rack took one of them."""

    rack: str
    leftover: str
    rejected: tuple[str, ...] = ()
    jokers: int = 0
    joker_added: bool = False


def draw_rack(
    bag: Bag,
    leftover: str,
    round_number: int,
    rng: random.Random,
    tiles: TileSet,
    *,
    size: int = RACK_SIZE,
    jokers: int | None = None,
) -> Draw | None:
    """Complete ``leftover`` to ``size`` tiles (seven, or the formula's rack; or all there
    is) from ``bag``, redrawing the whole rack as often as the minimum requires. None, the bag
    untouched, when no rack from the leftover and the bag can meet the minimum (the game is
    over).

    ``jokers`` (the joker formula and the détonante, FISF 3.8.1) is how many jokers are set
    aside out of the bag: a rack without a joker takes one of them first, then letters from
    the bag; a rack refused goes back to the bag and its joker aside, and the next rack takes
    it again."""
    leftover = _check_tiles(leftover, "leftover")
    if len(leftover) > size:
        raise RackError(f"leftover {leftover} has {len(leftover)} tiles: a rack holds {size}")
    aside = jokers or 0
    if not pool_can_meet_minimum(
        tiles, leftover + bag.contents + BLANK * aside, round_number, size
    ):
        return None
    rejected: list[str] = []
    kept = leftover
    for _ in range(MAX_DRAWS):
        added = jokers is not None and aside > 0 and BLANK not in kept
        if added:
            aside -= 1
        start = kept + (BLANK if added else "")
        rack = sort_tiles(start + bag.draw(min(size - len(start), len(bag)), rng))
        if meets_minimum(tiles, rack, round_number):
            return Draw(
                rack=rack,
                leftover=kept,
                rejected=tuple(rejected),
                jokers=aside,
                joker_added=added,
            )
        rejected.append(rack)
        if jokers is None:
            bag.put(rack)
        else:
            bag.put(rack.replace(BLANK, ""))
            aside += rack.count(BLANK)
        kept = ""
    raise EngineError(
        f"round {round_number}: no rack met the minimum in {MAX_DRAWS} draws from {bag.contents}"
    )


def check_typed_rack(
    tiles: TileSet,
    typed: str,
    *,
    leftover: str,
    bag: Bag,
    round_number: int,
    fresh: bool = False,
    size: int = RACK_SIZE,
) -> str:
    """Check a rack an arbiter typed in from a physical bag; return it in canonical order.

    It must read as tiles of the set, hold the ``leftover`` (unless ``fresh``: after a rejection
    the leftover went back into the bag, and the caller has put it there), take the rest from
    ``bag``, have ``size`` tiles (seven, or the formula's rack) or all that remain, and meet
    the minimum of the round. Every refusal
    is a ``RackError``; failing the minimum is a ``RackRejected``. The bag is not changed.
    """
    try:
        rack = tiles.parse_rack(typed)
    except NotationError as exc:
        raise RackError(str(exc), code=exc.code, params=exc.params) from None
    kept = "" if fresh else sort_tiles(leftover)
    expected = min(size, len(kept) + len(bag))
    if len(rack) != expected:
        need = f"{size}" if expected == size else f"all {expected} that remain"
        raise RackError(
            f"rack {rack or '(empty)'} has {_plural(len(rack), 'tile')}: "
            f"round {round_number} needs {need}",
            code="rack_count" if expected == size else "rack_count_left",
            params={
                "rack": rack or "-",
                "count": len(rack),
                "round": round_number,
                "need": expected,
            },
        )
    rest = subtract(rack, kept)
    if rest is None:
        raise RackError(
            f"rack {rack} does not hold the leftover {kept}: "
            f"{', '.join(_missing(rack, kept))} missing",
            code="rack_leftover",
            params={"rack": rack, "leftover": kept, "missing": ", ".join(_missing(rack, kept))},
        )
    if subtract(bag.contents, rest) is None:
        wanted, have = Counter(rest), Counter(bag.contents)
        short = [
            f"{t} ({wanted[t]} needed from the bag, {have[t]} in it)"
            for t in sort_tiles("".join(set(_missing(bag.contents, rest))))
        ]
        raise RackError(
            f"rack {rack}: not in the bag: {', '.join(short)}"
            + (f"; the leftover is {kept}" if kept else ""),
            code="rack_not_in_bag",
            params={"rack": rack, "tiles": ", ".join(_missing(bag.contents, rest))},
        )
    reason = rack_shortfall(tiles, rack, round_number)
    if reason is not None:
        need_v, need_c = minimum(round_number)
        v, c, e = tiles.vowel_consonant(rack)
        raise RackRejected(
            reason,
            code="rack_minimum",
            params={
                "rack": rack,
                "vowels": v,
                "consonants": c,
                "either": e,
                "round": round_number,
                "need_vowels": need_v,
                "need_consonants": need_c,
            },
        )
    return rack


__all__ = [
    "RACK_SIZE",
    "Bag",
    "Draw",
    "check_typed_rack",
    "draw_rack",
    "meets_minimum",
    "minimum",
    "pool_can_meet_minimum",
    "rack_shortfall",
]
