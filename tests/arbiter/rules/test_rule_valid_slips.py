"""docs/rules.md, "Rulings in detail", cases 1 and 2: a valid slip earns its score and ranks
among the moves; a wrong or missing announced score earns the real score and a warning.
"""

from __future__ import annotations

import pytest

from arbiter.rules import Code, RoundJudge, Slip
from engine.board import Board
from tests.arbiter.rules.helpers import horn_game, judge, phone, rulings, score

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_a_valid_slip_with_the_right_score_gets_the_score(horn: Board) -> None:
    ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.warning, ruled.penalty) == (Code.VALID, 9, False, 0)
    assert ruled.rank is not None and ruled.rank > 1 and not ruled.found_top


def test_a_wrong_or_missing_announced_score_gets_the_real_score_and_a_warning(horn: Board) -> None:
    for announced in (12, None):
        ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "8F", announced))
        assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 9, True)
        assert "worth 9" in ruled.reason


def test_a_valid_slip_earns_its_score_ranks_among_the_moves_and_keeps_its_tiles(
    round_2: RoundJudge,
) -> None:
    ruled = round_2.rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.move_score, ruled.penalty) == (Code.VALID, 9, 9, 0)
    assert (ruled.warning, ruled.found_top, ruled.net) == (False, False, 9)
    assert ruled.rank == round_2.rank(9) and ruled.rank > 1
    assert ruled.placed == ((5, 7, "F"), (6, 7, "A"), (8, 7, "M"))  # F8, G8, I8: R is on H8
    assert ruled.reason == "valid: 9"


def test_the_reference_is_read_whatever_its_case_and_spaces(round_2: RoundJudge) -> None:
    assert round_2.rule(Slip("FARM", " 8f ", 9)).code is Code.VALID
    assert round_2.rule(Slip("farm", "8F", 0)).code is not Code.VALID  # four blanks: none here


def test_a_wrong_or_missing_score_says_what_was_announced_and_what_the_move_is_worth(
    round_2: RoundJudge,
) -> None:
    wrong = round_2.rule(Slip("FARM", "8F", 12))
    none = round_2.rule(Slip("FARM", "8F", None))
    zero = round_2.rule(Slip("FARM", "8F", 0))
    for ruled in (wrong, none, zero):
        assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 9, True)
        assert ruled.reason.endswith("the move is worth 9: 9 and a warning")
    assert wrong.reason.startswith("announced 12,")
    assert zero.reason.startswith("announced 0,")
    assert none.reason.startswith("no score announced,")


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_1_a_valid_slip_gets_its_score_and_2_a_wrong_or_missing_score_a_warning(paper_room) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 12)
    phone(paper_room[2], r, "FARM", "8F", None)
    got = rulings(score(r))
    assert (got["Ann"].code, got["Ann"].points, got["Ann"].warning) == ("valid", 9, False)
    for name in ("Bob", "Cleo"):
        assert (got[name].code, got[name].points, got[name].warning) == ("valid_warning", 9, True)
