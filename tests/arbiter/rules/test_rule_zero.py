"""docs/rules.md, case 6 and "Zero, which reason": a word not in the lexicon, tiles not on
the rack, no fit, a word that cannot be read; and case 10, two zeros in a row: the round's
average.
"""

from __future__ import annotations

import pytest

from arbiter.rules import Code, RoundJudge, Slip, round_average
from arbiter.services import corrections
from engine.board import Board
from engine.move import Move
from engine.validate import Fault, validate
from tests.arbiter.rules.helpers import (
    BEFORE_2023,
    EN,
    ENABLE,
    every,
    horn_game,
    judge,
    paper,
    phone,
    rulings,
    score,
    squares,
    worth,
)
from tournament.models import Ruling

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_an_invalid_word_scores_zero_but_keeps_what_it_would_have_made() -> None:
    ruled = judge(Board(), "AINRTZ?", round_number=1).rule(Slip("TRAINZ", "H4", 32))
    assert (ruled.code, ruled.points) == (Code.INVALID_WORD, 0)
    assert ruled.move_score is not None and "TRAINZ" in ruled.reason


def test_tiles_not_from_the_rack_score_zero(horn: Board) -> None:
    ruled = judge(horn, "AFXYZQJ").rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points) == (Code.NOT_ON_RACK, 0) and "M" in ruled.reason


def test_a_word_whose_tiles_are_on_the_rack_at_no_placement_scores_zero(horn: Board) -> None:
    ruled = judge(horn, "ZZZZZZZ").rule(Slip("JAZZ", "8F", 9))
    assert (ruled.code, ruled.points) == (Code.NOT_ON_RACK, 0)
    assert "at any placement" in ruled.reason


def test_a_word_not_in_the_lexicon_that_stands_nowhere_is_an_invalid_word(horn: Board) -> None:
    ruled = judge(horn, "ZZZZZZZ").rule(Slip("ZZZZZZZZZZZZZZZ", "A1", 9))
    assert (ruled.code, ruled.points) == (Code.INVALID_WORD, 0)


def test_a_word_that_fits_nowhere_scores_zero() -> None:
    full = Board.from_lines([".QQQQQQQQQQQQQQ"] + ["Q" * 15] * 14)  # one empty square, A1
    ruled = judge(full, "AAAAAAA").rule(Slip("AA", "A1", 2))
    assert (ruled.code, ruled.points) == (Code.DOES_NOT_FIT, 0)


def test_a_word_that_cannot_be_read_is_malformed_and_says_so(round_2: RoundJudge) -> None:
    ruled = round_2.rule(Slip("FA RM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.rank) == (Code.MALFORMED, 0, None)
    assert ruled.reason.startswith("the word cannot be read (word 'FA RM' must be letters only")


def test_a_word_that_fits_at_its_square_is_ruled_for_what_is_wrong_there(
    round_2: RoundJudge, horn: Board
) -> None:
    invalid = round_2.rule(Slip("FARMZ", "8F", 30))  # the word itself; Z not on the rack either
    assert (invalid.code, invalid.points) == (Code.INVALID_WORD, 0)
    assert invalid.move_score is not None and len(invalid.placed) == 4
    rackless = round_2.rule(Slip("WARM", "8F", 30))  # no W on the rack
    assert (rackless.code, rackless.points) == (Code.NOT_ON_RACK, 0)
    assert "needs W" in rackless.reason and "at any placement" not in rackless.reason
    assert rackless.move_score == validate(horn, Move.from_ref("8F", "WARM"), tiles=EN).score
    assert squares(rackless) == {(5, 7), (6, 7), (8, 7)}
    crossing = round_2.rule(Slip("AFT", "G5", 30))  # AFT is a word; FH, down, is not
    assert (crossing.code, crossing.points) == (Code.INVALID_WORD, 0)
    assert "FH" in crossing.reason and crossing.move_score == 18


def test_tiles_not_on_the_rack_come_before_a_bad_cross_word_but_after_the_word_itself(
    horn: Board,
) -> None:
    j = judge(horn, "FTXYZQJ")  # AFT at G5 needs an A; it also makes FH
    ruled = j.rule(Slip("AFT", "G5", 30))
    assert (ruled.code, ruled.move_score) == (Code.NOT_ON_RACK, 18)
    assert "needs A" in ruled.reason


def test_a_word_that_cannot_stand_at_its_square_but_is_legal_elsewhere_is_a_wrong_reference(
    round_2: RoundJudge,
) -> None:
    ruled = round_2.rule(Slip("FARM", "8G", 10))  # score wrong too: no 2016 rule
    assert "H8 holds R" in ruled.reason  # why FARM cannot stand at 8G
    assert (ruled.code, ruled.points, ruled.move_score, ruled.placed) == (
        Code.BAD_REFERENCE,
        0,
        None,
        (),
    )


def test_a_word_legal_nowhere_is_ruled_for_why_it_is_legal_nowhere(horn: Board) -> None:
    j = judge(horn, "AFXYZQJ")
    rackless = j.rule(Slip("FARM", "8G", 9))  # does not fit at 8G; needs an M everywhere
    assert (rackless.code, rackless.points) == (Code.NOT_ON_RACK, 0)
    assert rackless.reason.endswith(" at any placement: 0")
    fitting = [  # every placement where the word fits and touches the board: the best is kept
        v
        for v in (
            validate(horn, m, rack="AFXYZQJ", lexicon=ENABLE, tiles=EN) for m in every("FARM")
        )
        if set(v.faults()) <= {Fault.NOT_ON_RACK, Fault.NOT_IN_LEXICON}
    ]
    best = max(fitting, key=lambda v: v.score)
    assert (rackless.move_score, set(rackless.placed)) == (best.score, set(best.placed))
    word = j.rule(Slip("FARMZ", "8G", 9))
    assert (word.code, word.points) == (Code.INVALID_WORD, 0)
    assert word.reason == "not in the lexicon enable: FARMZ: 0"
    full = Board.from_lines([".QQQQQQQQQQQQQQ"] + ["Q" * 15] * 14)
    nowhere = judge(full, "AAAAAAA").rule(Slip("AA", "", 2))
    assert (nowhere.code, nowhere.points, nowhere.placed) == (Code.DOES_NOT_FIT, 0, ())
    assert nowhere.reason == "AA fits nowhere on the board (the slip gives no reference): 0"


def test_a_word_not_written_in_full_is_not_legal_at_its_square(horn: Board) -> None:
    j = judge(horn, "SXYZQJK")
    ruled = j.rule(Slip("ORNS", "H7", 7))  # HORNS: the H of H6 is part of the word
    assert ruled.code is not Code.VALID and ruled.points == 0
    full = j.rule(Slip("HORNS", "H6", worth(horn, "H6", "HORNS", "SXYZQJK")))
    assert full.code is Code.VALID


def test_the_rounds_average_is_the_mean_rounded_down() -> None:
    assert round_average(BEFORE_2023, [9, 10]) == 9
    assert round_average(BEFORE_2023, iter([9, 0, 0])) == 3
    assert round_average(BEFORE_2023, [-3, 0]) == -2
    assert round_average(BEFORE_2023, []) == 0
    assert isinstance(round_average(BEFORE_2023, [9, 10]), int)


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_6_zero_for_a_word_not_in_the_lexicon_tiles_not_on_the_rack_no_fit_late_no_slip(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARMZ", "8F", 9)
    paper(
        paper_room[1], r, "FIRM", "8F", 9
    )  # no second I on the rack? AFMEIOT has one I: R is on board
    paper(paper_room[2], r, "QUIZ", "8F", 30)
    paper(paper_room[3], r, "FARM", "8F", 9, late=True)
    got = rulings(score(r))
    assert got["Ann"].code == "invalid_word" and got["Ann"].points == 0
    assert got["Cleo"].code in {"not_on_rack", "does_not_fit"} and got["Cleo"].points == 0
    assert (got["Dan"].code, got["Dan"].points) == ("late", 0)
    assert (got["Eve"].code, got["Eve"].points, got["Eve"].submission) == ("missing", 0, None)


def test_10_a_second_zero_may_become_the_rounds_average_which_follows_amendments(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 12)
    paper(paper_room[2], r, "FARMZ", "8F", 9)
    r = score(r)
    cleo = Ruling.objects.get(round=r, player=paper_room[2])
    corrections.ruling_amend(ruling=cleo, averaged=True, reason="second zero", actor=director)
    cleo.refresh_from_db()
    assert (cleo.averaged, cleo.points) == (True, 9)  # (9 + 9) / 2; Dan and Eve handed in none
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    corrections.ruling_amend(ruling=bob, points=0, code="late", reason="late", actor=director)
    cleo.refresh_from_db()
    assert cleo.points == 4  # (9 + 0) / 2, rounded down
