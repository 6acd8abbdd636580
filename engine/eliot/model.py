"""Eliot's save game as values: what ``engine.eliot.reader`` reads and ``engine.eliot.writer``
writes (docs/interchange.md, section 1).

``EliotGame`` holds a duplicate or arbitration game: the players, and per turn the rack, each
player's move, the warnings, penalties and solos, and the move put on the board (the top).
Words are Eliot's: in full, a blank played from the rack in lower case and every tile already
on the board in upper case, blank or not (Eliot's ``Round::addRightFromBoard``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from engine.errors import NotationError
from engine.formula import Formula, FormulaError

MODES = ("training", "freegame", "duplicate", "arbitration", "topping")
PLAYED_MODES = ("duplicate", "arbitration")  # the modes of a duplicate game, read and written
MOVE_TYPES = ("valid", "invalid", "change", "pass", "none")
EVENT_KINDS = ("Warning", "Penalty", "Solo")
# Eliot's variants (game/game_params.h, written by game/xml_writer.cpp) and our formulas.
VARIANTS = ("bingo", "explosive", "7among8")
_VARIANT_PARTS = {"bingo": "joker", "explosive": "detonante", "7among8": "7sur8"}
# Eliot's own settings (game/settings.cpp): what its totals count warnings with.
ELIOT_WARNINGS_LIMIT = 3
ELIOT_PENALTY_VALUE = 5
_RACK = re.compile(r"(-?)([A-Z?]*)(?:\+([A-Z?]+))?")


@dataclass(frozen=True)
class Rack:
    """A rack as Eliot writes it (1.4): the tiles kept from the last rack, the tiles drawn,
    and whether the leftover was put back (``-``, seven tiles drawn afresh)."""

    kept: str
    drawn: str
    reset: bool = False

    @classmethod
    def parse(cls, text: str) -> Rack:
        m = _RACK.fullmatch(text)
        if m is None or (m.group(3) is not None and not m.group(2)):
            raise NotationError(
                f"rack {text!r} is not a rack: tiles A-Z and blanks (?), with + between the tiles "
                "kept and the tiles drawn (EIS+ANRTU), - first when the leftover was put back"
            )
        reset = bool(m.group(1))
        if m.group(3) is None:
            # One part only: round 1 (drawn), a rack after a reset (drawn) or a leftover alone.
            return cls(kept="", drawn=m.group(2), reset=reset)
        return cls(kept=m.group(2), drawn=m.group(3), reset=reset)

    @property
    def tiles(self) -> str:
        return self.kept + self.drawn

    def __str__(self) -> str:
        body = f"{self.kept}+{self.drawn}" if self.kept and self.drawn else self.kept + self.drawn
        return f"-{body}" if self.reset else body


@dataclass(frozen=True)
class EliotMove:
    """A ``PlayerMove``, ``MasterMove`` or ``GameMove`` (1.3). ``word`` in full as Eliot writes
    it; ``coord`` duplicate style (``H4`` across, ``9H`` down); ``letters`` for a change."""

    type: str
    points: int = 0
    word: str = ""
    coord: str = ""
    letters: str = ""

    @classmethod
    def none(cls) -> EliotMove:
        return cls("none")

    @classmethod
    def valid(cls, word: str, coord: str, points: int) -> EliotMove:
        return cls("valid", points, word, coord)

    @classmethod
    def invalid(cls, word: str, coord: str) -> EliotMove:
        return cls("invalid", 0, word, coord)

    def attributes(self) -> list[tuple[str, str]]:
        pairs = [("points", str(self.points)), ("type", self.type)]
        if self.type in ("valid", "invalid"):
            pairs += [("word", self.word), ("coord", self.coord)]
        elif self.type == "change":
            pairs.append(("letters", self.letters))
        return pairs


@dataclass(frozen=True)
class EliotPlayer:
    """A player; ``name`` is empty when Eliot wrote none (its text interface names nobody)."""

    name: str
    table: int
    type: str = "human"
    level: int | None = None  # computers only: strength 0..100


@dataclass(frozen=True)
class EliotEvent:
    """A ``Warning`` (no points), ``Penalty`` (points <= 0) or ``Solo`` (points >= 0)."""

    kind: str
    player: int
    points: int = 0


@dataclass(frozen=True)
class EliotTurn:
    """One round: the leftover the players hold when it starts (``kept``, round 2 on), the rack,
    one move per player (by player id), the events in the order given, the valid tops chosen
    (``MasterMove``) and the move put on the board (``top``; None in the open last turn)."""

    rack: Rack | None
    moves: tuple[EliotMove, ...]
    events: tuple[EliotEvent, ...] = ()
    top: EliotMove | None = None
    masters: tuple[EliotMove, ...] = ()
    kept: str | None = None  # None: round 1 (no leftover written)
    rejected: tuple[str, ...] = ()  # racks refused before this one (a comment: Eliot has none)
    line: int | None = field(default=None, compare=False)  # where it was read


@dataclass(frozen=True)
class Dictionary:
    """The ``Dictionary`` element. ``words`` None: no ``WordNb`` (Eliot then checks only the
    letters, so one file loads with every build of the same word list)."""

    name: str
    type: str
    letters: str  # space-separated as displayed: "A B ... Z ?"
    words: int | None = None


@dataclass(frozen=True)
class PlayerStats:
    raw: int
    warnings: int
    penalties: int  # <= 0: the penalties given and the warnings' beyond the free ones
    solos: int
    total: int
    diff: int
    percent: str
    rank: int


def formula_of(variants: tuple[str, ...]) -> Formula:
    """The formula of a game Eliot plays with these variants: ``bingo`` is the joker game,
    ``explosive`` the détonante, ``7among8`` 7 sur 8 (``bingo`` and ``7among8`` together:
    ``joker+7sur8``). A ``FormulaError`` for a combination the regulation does not allow
    (Eliot's ``explosive`` with ``7among8``)."""
    parts = [_VARIANT_PARTS[v] for v in VARIANTS if v in variants]
    return Formula.parse("+".join(parts))


def variants_of(formula: Formula) -> tuple[str, ...]:
    """Eliot's variants for a formula, in the order Eliot writes them; a ``FormulaError``
    (``formula_not_in_eliot``) for 7 et 8 and 7-8-9, which Eliot does not play."""
    variants = tuple(v for v in VARIANTS if _VARIANT_PARTS[v] in formula.name.split("+"))
    if formula_of(variants) != formula:
        raise FormulaError(
            f"formula {formula.name}: Eliot plays the joker game, the détonante and 7 sur 8, "
            "not this one",
            code="formula_not_in_eliot",
            params={"formula": formula.name},
        )
    return variants


@dataclass(frozen=True)
class EliotGame:
    dictionary: Dictionary
    mode: str
    players: tuple[EliotPlayer, ...]
    turns: tuple[EliotTurn, ...]
    variants: tuple[str, ...] = ()  # Eliot's <Variant> elements, in its order (VARIANTS)

    @property
    def formula(self) -> Formula:
        return formula_of(self.variants)

    @property
    def played(self) -> tuple[EliotTurn, ...]:
        """The turns whose move is on the board."""
        return tuple(t for t in self.turns if t.top is not None)

    @property
    def top_total(self) -> int:
        return sum(t.top.points for t in self.turns if t.top is not None)

    def stats(
        self,
        *,
        warnings_free: int = ELIOT_WARNINGS_LIMIT,
        warning_penalty: int = ELIOT_PENALTY_VALUE,
    ) -> list[PlayerStats]:
        """Each player's figures as Eliot computes them (1.5): total = moves + solos +
        penalties, a warning beyond ``warnings_free`` costing ``warning_penalty``."""
        top = self.top_total
        totals = []
        for pid in range(len(self.players)):
            raw = sum(t.moves[pid].points for t in self.turns if pid < len(t.moves))
            events = [e for t in self.turns for e in t.events if e.player == pid]
            warnings = sum(1 for e in events if e.kind == "Warning")
            penalties = sum(e.points for e in events if e.kind == "Penalty")
            penalties -= max(0, warnings - warnings_free) * warning_penalty
            solos = sum(e.points for e in events if e.kind == "Solo")
            totals.append((raw, warnings, penalties, solos, raw + solos + penalties))
        result = []
        for raw, warnings, penalties, solos, total in totals:
            rank = 1 + sum(1 for other in totals if other[4] > total)
            percent = f"{_round_half_away(100 * total / top)}%" if top else "0%"
            result.append(
                PlayerStats(raw, warnings, penalties, solos, total, total - top, percent, rank)
            )
        return result


def _round_half_away(x: float) -> int:
    """C++'s round (Eliot's): halves away from zero (Python's ``round`` goes to even)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


__all__ = [
    "VARIANTS",
    "formula_of",
    "variants_of",
    "ELIOT_PENALTY_VALUE",
    "ELIOT_WARNINGS_LIMIT",
    "EVENT_KINDS",
    "MODES",
    "MOVE_TYPES",
    "PLAYED_MODES",
    "Dictionary",
    "EliotEvent",
    "EliotGame",
    "EliotMove",
    "EliotPlayer",
    "EliotTurn",
    "PlayerStats",
    "Rack",
]
