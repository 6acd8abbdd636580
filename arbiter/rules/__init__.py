"""The rules of arbitration as pure functions, one module per part of the regulation:

- ``rulebook``: the rulebooks (``fisf-2023``, the regulation in force, and ``before-2023``), the
  policy's numbers, the articles a ruling cites;
- ``judge``: a round's judge, which sends each slip to its event's rulebook;
- ``fisf2023``: a slip ruled by the FISF 2023 text, article by article (5.3 to 5.8);
- ``before2023``: what events played before it were ruled by (rules.md's cases 1 to 20);
- ``base`` and ``readings``: what both share (a slip, its ruling, a word's legal readings);
- ``game``: what a game's rulings derive (the solo, 3.5; the warnings' penalty and the
  average, 5.9; the tie-break).

No database here: the services in ``arbiter.services`` read the rows, call these, and write
the rulings; the ruling CLI (``python -m arbiter batch``) calls the same functions.
"""

from arbiter.rules.base import Ruled, Slip, Where
from arbiter.rules.game import (
    round_average,
    score_counts,
    solo_winner,
    tie_break_key,
    warning_penalties,
)
from arbiter.rules.judge import RoundJudge
from arbiter.rules.readings import FITTING_FAULTS, Placements, Reading, Search, blank_markings
from arbiter.rules.rulebook import PLACED_CODES, Article, Code, Fisf2023, Policy, Rulebook

__all__ = [
    "FITTING_FAULTS",
    "PLACED_CODES",
    "Article",
    "Code",
    "Fisf2023",
    "Placements",
    "Policy",
    "Reading",
    "RoundJudge",
    "Ruled",
    "Rulebook",
    "Search",
    "Slip",
    "Where",
    "blank_markings",
    "round_average",
    "score_counts",
    "solo_winner",
    "tie_break_key",
    "warning_penalties",
]
