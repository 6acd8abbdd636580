"""The rules of arbitration, one ruling per slip (pure: no database)."""

from __future__ import annotations

import pytest

from arbiter.rules import (
    Code,
    Policy,
    RoundJudge,
    Slip,
    score_counts,
    solo_winner,
    warning_penalties,
)
from engine.board import Board
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate
from engine.tiles import TileSet

EN = TileSet.load("en")
ENABLE = Lexicon.load()


def judge(
    board: Board,
    rack: str,
    round_number: int = 2,
    policy: Policy | None = None,
    lexicon: Lexicon = ENABLE,
) -> RoundJudge:
    moves = generate(board, rack, lexicon, EN)
    return RoundJudge(
        board=board,
        rack=rack,
        lexicon=lexicon,
        tiles=EN,
        round_number=round_number,
        top_score=moves[0].score if moves else 0,
        score_counts=score_counts(m.score for m in moves),
        policy=policy or Policy(),
    )


@pytest.fixture
def horn() -> Board:
    board = Board()
    board.play(Move.parse("H6 HORN"))
    return board


def test_a_valid_slip_with_the_right_score_gets_the_score(horn: Board) -> None:
    ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.warning, ruled.penalty) == (Code.VALID, 9, False, 0)
    assert ruled.rank is not None and ruled.rank > 1 and not ruled.found_top


def test_a_wrong_or_missing_announced_score_gets_the_real_score_and_a_warning(horn: Board) -> None:
    for announced in (12, None):
        ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "8F", announced))
        assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 9, True)
        assert "worth 9" in ruled.reason


def test_the_top_ranks_first_and_is_marked_found() -> None:
    board = Board()
    board.play(Move.parse("H4 NASTIER"))
    j = judge(board, "EHOSTUV")
    best = generate(board, "EHOSTUV", ENABLE, EN)[0]
    ruled = j.rule(Slip(best.word, best.ref, best.score))
    assert ruled.code is Code.VALID and ruled.rank == 1 and ruled.found_top


def test_an_invalid_word_scores_zero_but_keeps_what_it_would_have_made() -> None:
    ruled = judge(Board(), "AINRTZ?", round_number=1).rule(Slip("TRAINZ", "H4", 32))
    assert (ruled.code, ruled.points) == (Code.INVALID_WORD, 0)
    assert ruled.move_score is not None and "TRAINZ" in ruled.reason


def test_tiles_not_from_the_rack_score_zero(horn: Board) -> None:
    ruled = judge(horn, "AFXYZQJ").rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points) == (Code.NOT_ON_RACK, 0) and "M" in ruled.reason


def test_an_unmarked_blank_is_scored_where_it_must_be_with_a_warning(horn: Board) -> None:
    ruled = judge(horn, "AF?XYZQ").rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 6, True)
    assert "FARm" in ruled.reason
    ruled = judge(horn, "AF?XYZQ").rule(Slip("FARm", "8F", 6))
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID, 6, False)


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


def test_since_2016_a_wrong_reference_with_the_right_word_and_score_costs_a_penalty(
    horn: Board,
) -> None:
    ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "9F", 9))  # FARM goes at 8F
    assert (ruled.code, ruled.points, ruled.penalty, ruled.net) == (Code.REFERENCE_PENALTY, 9, 5, 4)
    assert "2016" in ruled.reason


def test_a_missing_reference_is_the_same_fault(horn: Board) -> None:
    ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "", 9))
    assert (ruled.code, ruled.net) == (Code.REFERENCE_PENALTY, 4)


def test_with_the_score_also_wrong_a_wrong_reference_stays_zero(horn: Board) -> None:
    ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "9F", 10))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.BAD_REFERENCE, 0, 0)


def test_the_reference_rule_needs_the_same_direction(horn: Board) -> None:
    ruled = judge(horn, "AFMXYZQ").rule(Slip("FARM", "F8", 9))  # across: FARM fits only down here
    assert ruled.code is Code.BAD_REFERENCE


def test_in_round_one_there_is_no_reference_penalty_to_give() -> None:
    board = Board()
    board.play(Move.parse("H6 HORN"))
    ruled = judge(board, "AFMXYZQ", round_number=1).rule(Slip("FARM", "9F", 9))
    assert ruled.code is Code.BAD_REFERENCE


def test_without_the_2016_rule_a_wrong_reference_is_zero(horn: Board) -> None:
    ruled = judge(horn, "AFMXYZQ", policy=Policy(reference_rule_2016=False)).rule(
        Slip("FARM", "9F", 9)
    )
    assert (ruled.code, ruled.net) == (Code.BAD_REFERENCE, 0)


def test_the_first_move_is_credited_at_its_best_position_whatever_its_reference() -> None:
    j = judge(Board(), "AEINRST", round_number=1)
    for ref in ("", "H8", "8H", "junk"):
        ruled = j.rule(Slip("NASTIER", ref, 66))
        assert (ruled.code, ruled.points) == (Code.VALID, 66), ref
        assert "best position" in ruled.reason


def test_a_malformed_late_or_missing_slip_scores_zero() -> None:
    j = judge(Board(), "AEINRST", round_number=1)
    assert j.rule(Slip("", "H8", 0)).code is Code.MALFORMED
    assert j.rule(Slip("TRAIN!", "H8", 12)).code is Code.MALFORMED
    assert j.rule(Slip("TRAIN", "H4", 12, late=True)).code is Code.LATE
    assert j.rule(None).code is Code.MISSING
    assert all(j.rule(s).points == 0 for s in (None, Slip("", "", None)))


def test_warnings_cost_points_from_the_fourth_of_a_game() -> None:
    policy = Policy()
    assert warning_penalties([True] * 5, policy) == [0, 0, 0, 5, 5]
    assert warning_penalties([True, False, True, True, False, True], policy) == [0, 0, 0, 0, 0, 5]
    assert warning_penalties([True] * 3, Policy(warnings_free=1, warning_penalty=2)) == [0, 2, 2]


def test_a_solo_needs_one_finder_and_enough_players() -> None:
    policy = Policy()
    assert solo_winner([42], 16, policy) == 42
    assert solo_winner([42], 15, policy) is None
    assert solo_winner([42, 43], 100, policy) is None
    assert solo_winner([], 100, policy) is None


def test_ranks_count_the_placements_scoring_more() -> None:
    j = RoundJudge(
        board=Board(),
        rack="A",
        lexicon=ENABLE,
        tiles=EN,
        round_number=1,
        top_score=30,
        score_counts={30: 2, 20: 5, 10: 1},
    )
    assert (j.rank(30), j.rank(20), j.rank(10), j.rank(5)) == (1, 3, 8, 9)
