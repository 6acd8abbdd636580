"""The formulas of a game: standard duplicate and the original formulas of the FISF regulation
(2023, 3.8), as one value object.

=============  =====  ==========  ======================  =====  =========
name           rack   played at   bonus for 7 / 8 / 9     joker  détonante
               size   most        tiles played
=============  =====  ==========  ======================  =====  =========
``standard``   7      7           50                      no     no
``joker``      7      7           50                      yes    no
``7sur8``      8      7           50                      no     no
``7et8``       8      8           50 / 75                 no     no
``789``        9      9           50 / 75 / 100           no     no
``detonante``  7      7           50                      no     yes
``mortsubite`` 7      7           50                      no     no
=============  =====  ==========  ======================  =====  =========

``mortsubite`` (3.8.3, « compétition mort subite ») plays standard duplicate's racks and
bonus; what it changes is the competition (who is eliminated, each round's time), which is the
tournament's (``arbiter.rules.sudden_death``): the engine only carries its name.

3.8.2 allows each of ``7sur8``, ``7et8`` and ``789`` with the joker formula (3.8.1): written
``joker+7et8`` (the parts in any order). The text allows no other combination: two rack sizes,
the joker with the détonante (Eliot refuses it too: "Incompatible variants") or the détonante
with another formula (the text does not define the détonante) are refused, with a code.

>>> Formula.parse("7et8+joker")
Formula.parse('joker+7et8')
>>> Formula.parse("789").bonus(9)
100
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError

STANDARD = "standard"
JOKER = "joker"
DETONANTE = "detonante"
SUDDEN_DEATH = "mortsubite"  # 3.8.3: standard racks, the players eliminated round by round
# The formulas of 3.8.2: rack size, tiles played at most, bonus per tiles played.
SIZES: dict[str, tuple[int, int, tuple[tuple[int, int], ...]]] = {
    "7sur8": (8, 7, ((7, 50),)),
    "7et8": (8, 8, ((7, 50), (8, 75))),
    "789": (9, 9, ((7, 50), (8, 75), (9, 100))),
}
NAMES = (STANDARD, JOKER, *SIZES, DETONANTE, SUDDEN_DEATH)
MAX_RACK = 9  # the largest rack of any formula (789)
# Every formula a game may be played in, by its canonical name.
FORMULAS = (
    STANDARD,
    JOKER,
    *SIZES,
    DETONANTE,
    *(f"{JOKER}+{size}" for size in SIZES),
    SUDDEN_DEATH,
)


class FormulaError(EngineError):
    """A formula name that is not one, or a combination the regulation does not allow."""


@dataclass(frozen=True)
class Formula:
    """A game's formula: ``name`` (canonical: ``joker`` first, then the rack size's formula),
    ``rack_size`` (tiles on a full rack), ``max_played`` (tiles a move may place), ``bonuses``
    ((tiles placed, bonus points), ascending), ``joker`` (3.8.1: both blanks out of the bag
    first, one on every rack, replaced on the board by the real letter while the bag holds it)
    and ``detonante`` (the rack's joker becomes the letter the top uses for it);
    ``sudden_death`` (3.8.3): standard duplicate's play, the tournament eliminates."""

    name: str = STANDARD
    rack_size: int = 7
    max_played: int = 7
    bonuses: tuple[tuple[int, int], ...] = ((7, 50),)
    joker: bool = False
    detonante: bool = False
    sudden_death: bool = False

    def __repr__(self) -> str:
        return f"Formula.parse({self.name!r})"

    @classmethod
    def standard(cls) -> Formula:
        return cls()

    @classmethod
    def parse(cls, text: str | None) -> Formula:
        """A formula from its name (``joker``, ``7sur8``, ``7et8``, ``789``, ``detonante``,
        ``standard``) or a combination joined by ``+`` (``joker+7et8``); None or "" is
        standard. Case and spaces do not matter."""
        raw = (text or "").strip().lower()
        if not raw or raw == STANDARD:
            return cls()
        parts = [p.strip() for p in raw.split("+")]
        for part in parts:
            if part not in NAMES or part == STANDARD:
                raise FormulaError(
                    f"formula {text!r}: {part!r} is not a formula "
                    f"(choose {', '.join(NAMES)}, or joker+7sur8, joker+7et8, joker+789)",
                    code="formula_unknown",
                    params={"formula": str(text), "part": part},
                )
        if len(set(parts)) != len(parts):
            raise FormulaError(
                f"formula {text!r} names a formula twice",
                code="formula_combination",
                params={"formula": str(text)},
            )
        sizes = [p for p in parts if p in SIZES]
        joker = JOKER in parts
        detonante = DETONANTE in parts
        sudden_death = SUDDEN_DEATH in parts
        if len(sizes) > 1 or ((detonante or sudden_death) and len(parts) > 1):
            raise FormulaError(
                f"formula {text!r}: the regulation (3.8.2) combines only the joker with one of "
                "7sur8, 7et8 or 789",
                code="formula_combination",
                params={"formula": str(text)},
            )
        rack_size, max_played, bonuses = SIZES[sizes[0]] if sizes else (7, 7, ((7, 50),))
        name = "+".join(
            ([JOKER] if joker else [])
            + sizes
            + ([DETONANTE] if detonante else [])
            + ([SUDDEN_DEATH] if sudden_death else [])
        )
        return cls(
            name=name,
            rack_size=rack_size,
            max_played=max_played,
            bonuses=bonuses,
            joker=joker,
            detonante=detonante,
            sudden_death=sudden_death,
        )

    @property
    def is_standard(self) -> bool:
        return self.name == STANDARD

    @property
    def has_joker_rack(self) -> bool:
        """Whether a joker is put on every rack (the joker formula and the détonante)."""
        return self.joker or self.detonante

    @property
    def play(self) -> Formula:
        """The formula of the racks and the moves alone: standard duplicate for mort subite,
        whose rules are the competition's (elimination, time), itself otherwise."""
        return Formula() if self.sudden_death else self

    def bonus(self, tiles_played: int) -> int:
        """The bonus for a move placing ``tiles_played`` tiles."""
        return dict(self.bonuses).get(tiles_played, 0)

    def bonus_table(self) -> bytes:
        """The bonus for 0 to 15 tiles played, one byte each (the native core reads it)."""
        return bytes(self.bonus(k) for k in range(16))


def parse_formula(text: str | None) -> Formula:
    return Formula.parse(text)


__all__ = [
    "FORMULAS",
    "MAX_RACK",
    "NAMES",
    "SUDDEN_DEATH",
    "Formula",
    "FormulaError",
    "parse_formula",
]
