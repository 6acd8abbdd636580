"""Which text an event is ruled by, the numbers it rules with, and the articles a ruling cites.

Two rulebooks (docs/rules.md):

- ``fisf-2023``: the federation's "Règlement du Scrabble® duplicate francophone de compétition,
  en vigueur au 1er janvier 2023" (FISF), the default of every new event. Its rulings cite the
  text's article, ``FISF 2023 · 5.3.3``.
- ``before-2023``: the rules events were ruled by before it (our reading of the 2016
  amendments and the federations' guides, rules.md cases 1 to 22), kept so that no result of an
  event already played ever changes. Its rulings cite the case of rules.md they always cited.

No Django here: the pure judge and the ruling CLI import it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tournament.vocabulary import POLICY_DEFAULTS, RulingCode

Code = RulingCode  # the ruling codes, as the rulings name them

# The codes of a slip whose move is on the board (it has a score, a rank, may find the top).
PLACED_CODES = frozenset(
    {Code.VALID, Code.VALID_WARNING, Code.REFERENCE_PENALTY, Code.FINAL_LETTER_PENALTY}
)


class Rulebook(enum.StrEnum):
    """The text an event is ruled by, chosen when it is created (``Event.rulebook``)."""

    FISF_2023 = "fisf-2023"
    BEFORE_2023 = "before-2023"


# Time per round at or under which a game is a blitz (FISF 2023, 1.3: "une minute (appelé
# « blitz »)"): its warnings cost from the sixth (5.9).
BLITZ_SECONDS = 60
# FISF 2023, 5.9: "Au quatrième (sixième en blitz ou partie originale)": two more free.
BLITZ_EXTRA_FREE_WARNINGS = 2


@dataclass(frozen=True)
class Policy:
    """The numbers the rulings follow; an event's own (``arbiter.state.policy_for``), by default
    the policy's defaults (``POLICY_DEFAULTS``) under the regulation in force."""

    rulebook: Rulebook = Rulebook.FISF_2023
    warnings_free: int = POLICY_DEFAULTS.warnings_free
    warning_penalty: int = POLICY_DEFAULTS.warning_penalty
    reference_rule_2016: bool = POLICY_DEFAULTS.reference_rule_2016  # before-2023 only
    reference_penalty: int = POLICY_DEFAULTS.reference_penalty
    solo_bonus: int = POLICY_DEFAULTS.solo_bonus
    solo_min_players: int = POLICY_DEFAULTS.solo_min_players
    # The game is played in blitz (1' a round, FISF 2023 1.3) or in an original formula (3.8):
    # under fisf-2023 its warnings cost from the sixth (5.9).
    blitz_or_original: bool = False

    @property
    def fisf_2023(self) -> bool:
        return self.rulebook is Rulebook.FISF_2023

    @property
    def free_warnings(self) -> int:
        """How many warnings of a game cost nothing: FISF 2023, 5.9 ("au quatrième (sixième en
        blitz ou partie originale), il se voit retirer cinq points"); before 2023, the event's
        number whatever the game."""
        if self.fisf_2023 and self.blitz_or_original:
            return self.warnings_free + BLITZ_EXTRA_FREE_WARNINGS
        return self.warnings_free


class Article:
    """What a ruling cites. Under fisf-2023 the article of the text (``FISF 2023 · 5.3.1``);
    under before-2023 the case of rules.md it always cited (``4 · FISF 5.3.1``), so that the
    rulings of an event played before read as they did."""

    # before-2023: rules.md's cases, with the federation's article where its texts number it.
    VALID = "1"
    SCORE = "2"
    BLANKS = "3"
    REFERENCE = "4 · FISF 5.3.1"
    FIRST_MOVE = "5"
    ZERO = "6"
    MULTIPLE = "7"
    AMENDED = "11"
    JUNCTION = "13"
    JUNCTION_SHORT = "14"
    JUNCTION_ALTERED = "15"
    EXTENSION = "16"
    FINAL_LETTER = "17 · FISF 5.3.1"
    SHIFT = "18 · FISF 5.3.1"
    AMBIGUOUS = "19 · FISF 5.3.2"


def fisf(article: str) -> str:
    """An article of the regulation in force, as a ruling cites it: ``FISF 2023 · 5.3.3``."""
    return f"FISF 2023 · {article}"


class Fisf2023:
    """The articles of the regulation in force that rulings cite (``fisf``)."""

    DRAW = fisf("3.2")  # validity of the draws
    SOLO = fisf("3.5")
    ACCEPTABLE_EXACT = fisf("5.3.1")  # correct localisation, exact (or existing) score
    ACCEPTABLE_SCORE = fisf("5.3.2")  # correct localisation, score absent or wrong
    INVERSION = fisf("5.3")  # an inverted reference tolerated; an extension's reference ignored
    PENALTY = fisf("5.3.3")  # score existing, localisation absent, wrong or incompatible
    NO_NEGATIVE = fisf("5.6")  # the penalty on a solution worth 4 points or less: a zero
    NO_SOLUTION = fisf("5.4.1.a")  # no acceptable solution
    GRID_ERROR = fisf("5.4.1.c")
    LETTER_ERROR = fisf("5.4.1.d")
    FIRST_MOVE = fisf("5.4.2.a")
    SEVERAL = fisf("5.4.2.b")  # several acceptable solutions, several places
    WARNING = fisf("5.5")
    NULLITY = fisf("5.7")  # no slip, several slips, late, blank or unreadable
    AVERAGE = fisf("5.9")
    LATE_ARRIVAL = fisf("6.2")
    AMENDED = "11"  # an amendment (rules.md, rule 11): the director's, whatever the rulebook
