"""docs/rules.md, case 4, the 2016 reference rule (from round 2): a legal word with a wrong or
missing reference earns its score less the penalty; its search on every edge, with the rack's
tiles and the lexicon; and the catalogue cases ruled through it, 18 (a reference shifted by
one square), 19 (ambiguity, FISF 2016 5.3.2) and 20 (never below zero).
"""

from __future__ import annotations

import pytest

from arbiter.rules import Article, Code, Policy, RoundJudge, Rulebook, Slip
from arbiter.services import corrections
from engine.board import Board
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate
from engine.validate import validate
from tests.arbiter.rules.helpers import (
    EN,
    ENABLE,
    NAMES,
    RACK,
    board_of,
    horn_game,
    judge,
    net,
    paper,
    phone,
    rule,
    rulings,
    score,
    worth,
)

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


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
    ruled = judge(
        horn, "AFMXYZQ", policy=Policy(rulebook=Rulebook.BEFORE_2023, reference_rule_2016=False)
    ).rule(Slip("FARM", "9F", 9))
    assert (ruled.code, ruled.net) == (Code.BAD_REFERENCE, 0)


@pytest.mark.parametrize(
    ("plays", "word", "where"),
    [
        (("HORN@15E",), "FAR", "G13"),  # across, ending on the right edge
        (("HORN@O5",), "FAR", "7M"),  # down, ending on the bottom edge
        (("HORN@H12",), "FAN", "15F"),  # down, in the last column
        (("HORN@12L",), "FAN", "O10"),  # across, in the last row
        (("HORN@5B",), "FAINT", "A1"),  # across, in the first row
        (("HORN@E2",), "FAINT", "1A"),  # down, in the first column
    ],
)
def test_the_2016_search_finds_a_placement_on_every_edge_of_the_board(
    plays: tuple[str, ...], word: str, where: str
) -> None:
    board = board_of(*plays)
    score = worth(board, where, word, "AFNEIOT")
    j = judge(board, "AFNEIOT")
    for ref in ("", "H8" if where[0].isalpha() else "8H"):
        ruled = j.rule(Slip(word, ref, score))
        assert (ruled.code, ruled.points, ruled.net) == (Code.REFERENCE_PENALTY, score, score - 5)
        assert f"at {where} is worth" in ruled.reason
        expected = validate(board, Move.from_ref(where, word), tiles=EN).placed
        assert set(ruled.placed) == set(expected)


def test_the_2016_search_needs_the_tiles_on_the_rack(horn: Board) -> None:
    j = judge(horn, "AFXYZQJ")  # FARM 8F needs an M
    ruled = j.rule(Slip("FARM", "9F", 9))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.NOT_ON_RACK, 0, 0)


def test_the_2016_search_needs_the_words_in_the_lexicon_after_round_one(horn: Board) -> None:
    narrow = Lexicon.from_words(["HORN", "FARMS", "FA", "AM"], name="narrow")  # not FARM
    j = judge(horn, lexicon=narrow)
    ruled = j.rule(Slip("FARM", "9F", 9))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.INVALID_WORD, 0, 0)
    assert j.rule(Slip("FARM", "8F", 9)).code is Code.INVALID_WORD


def test_an_unreadable_reference_counts_as_missing_and_an_off_board_one_keeps_its_direction(
    round_2: RoundJudge,
) -> None:
    unreadable = round_2.rule(Slip("FARM", "8?", 9))
    assert (unreadable.code, unreadable.net) == (Code.REFERENCE_PENALTY, 4)
    assert unreadable.reason.startswith("the reference 8? cannot be read;")
    missing = round_2.rule(Slip("FARM", "", 9))
    assert missing.reason.startswith("the slip gives no reference;")
    down_off = round_2.rule(Slip("FARM", "16H", 9))  # down, off the board: FARM goes down
    assert (down_off.code, down_off.net) == (Code.REFERENCE_PENALTY, 4)
    assert down_off.reason.startswith("reference '16H': column 16 is off the board")
    across_off = round_2.rule(Slip("FARM", "P8", 9))  # across: FARM is legal only down
    assert (across_off.code, across_off.net) == (Code.BAD_REFERENCE, 0)


def test_the_2016_rule_needs_an_announced_score(round_2: RoundJudge) -> None:
    ruled = round_2.rule(Slip("FARM", "9F", None))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.BAD_REFERENCE, 0, 0)


def test_the_2016_penalty_is_the_events_and_the_top_is_found_through_it(horn: Board) -> None:
    best = generate(horn, RACK, ENABLE, EN)[0]
    j = judge(horn, policy=Policy(rulebook=Rulebook.BEFORE_2023, reference_penalty=3))
    ruled = j.rule(Slip(best.word, "", best.score))
    assert (ruled.code, ruled.penalty, ruled.net) == (
        Code.REFERENCE_PENALTY,
        3,
        best.score - 3,
    )
    assert (ruled.rank, ruled.found_top, ruled.move_score) == (1, True, best.score)
    assert "less a 3-point penalty (2016 rule)" in ruled.reason
    farm = j.rule(Slip("FARM", "", 9))
    assert (farm.rank, farm.found_top) == (j.rank(9), False)


def test_in_round_one_a_wrong_reference_is_ruled_without_the_2016_rule() -> None:
    board = board_of("HORN@H6")
    j = judge(board, round_number=1)
    ruled = j.rule(Slip("FARM", "9F", 9))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.BAD_REFERENCE, 0, 0)


# 18: a reference shifted by one square along the word. Source: ArbiTop 2010 ("décalage d'une
# case"); FQCSF abridged rules ("référence décalée"); ruled by the 2016 rule (case 4).
def test_18_a_reference_shifted_by_one_square_costs_five_and_cites_the_shift(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "8G", 9))
    assert (ruled.code, ruled.net, ruled.article) == (Code.REFERENCE_PENALTY, 4, Article.SHIFT)
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "10E", 9))  # another column: the general case
    assert ruled.article == Article.REFERENCE


def test_18_a_swapped_reference_is_a_change_of_direction_and_earns_nothing(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "F8", 9))  # F8 across for 8F down
    assert (ruled.points, ruled.net) == (0, 0)


# 19: ambiguity. Source: FISF 2016, article 5.3.2 (named by 5.3.1).
def test_19_a_score_that_fits_several_placements_still_costs_five_and_cites_5_3_2(horn) -> None:
    # FAME is worth 26 at G5 (above HORN) and at I5 (below it): the score does not say which
    ruled = rule(horn, "AFMEIOT", Slip("FAME", "", 26))
    assert (ruled.code, ruled.net, ruled.article) == (
        Code.REFERENCE_PENALTY,
        21,
        Article.AMBIGUOUS,
    )
    assert "FAME at G5" in ruled.reason  # the first in board order is shown


def test_19_junction_letters_that_fit_placements_worth_different_scores_need_the_score(
    horn,
) -> None:
    # HOR: FAME across above (G5) or below (I5) HORN touch it, both worth 26; FARM through its R
    # is worth 9. Junction letters ORN designate FAME at G5 and I5 alike: 26 either way.
    ruled = rule(horn, "AFMEIOT", Slip("FAME", "ORN", 26))
    assert (ruled.code, ruled.points, ruled.article) == (Code.VALID, 26, Article.JUNCTION)


# 20: never below zero. Decision (the texts sanction a slip with at worst a zero, "nullité").
def test_20_a_penalty_never_takes_a_slip_below_zero(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "8G", 9), reference_penalty=20)
    assert (ruled.points, ruled.penalty, ruled.net) == (9, 9, 0)
    ruled = rule(horn, "AFMEIOT", Slip("OME", "9E", 7), reference_penalty=20)
    assert (ruled.points, ruled.penalty, ruled.net) == (7, 7, 0)


@pytest.mark.parametrize(
    ("ref", "article"),
    [
        ("G4", Article.SHIFT),  # one column right of G3
        ("G2", Article.SHIFT),  # one column left
        ("G5", Article.REFERENCE),  # two columns: the general case
        ("F3", Article.REFERENCE),  # the row above: not a shift along the word
    ],
)
def test_18_a_word_across_shifted_by_one_column(horn, ref: str, article: str) -> None:
    ruled = rule(horn, "BDEGILU", Slip("DEBUG", ref, 23))  # DEBUG at G3, 23, above HORN
    assert (ruled.code, ruled.net, ruled.article) == (Code.REFERENCE_PENALTY, 18, article)


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_4_the_2016_rule_on_the_rulebook_board(paper_room) -> None:
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8F", 9)  # right: 9
    paper(paper_room[1], r, "FARM", "8G", 9)  # does not fit there: 9 - 5
    paper(paper_room[2], r, "FARM", "10E", 9)  # fits, but bad cross-word and R not on the rack: 4
    paper(paper_room[3], r, "FARM", "", 9)  # no reference: either direction, 4
    paper(paper_room[4], r, "FARM", "10E", 8)  # score also wrong: 0
    got = rulings(score(r))
    assert [net(got[n]) for n in NAMES] == [9, 4, 4, 4, 0]
    assert [got[n].code for n in NAMES[1:4]] == ["reference_penalty"] * 3
    assert got["Eve"].code == "not_on_rack"


def test_4_the_direction_is_what_the_reference_says_and_an_unreadable_one_is_missing(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "F8", 9)  # across: FARM is legal only down here
    paper(paper_room[1], r, "FARM", "8?", 9)  # unreadable: counts as missing
    paper(paper_room[2], r, "FARM", "P8", 9)  # across (row letter first), but off the board
    got = rulings(score(r))
    assert (got["Ann"].code, net(got["Ann"])) == ("bad_reference", 0)
    assert (got["Bob"].code, net(got["Bob"])) == ("reference_penalty", 4)
    assert (got["Cleo"].code, net(got["Cleo"])) == ("bad_reference", 0)


def test_4_without_the_2016_rule_a_wrong_reference_is_zero(paper_room) -> None:
    paper_room[0].event.__class__.objects.filter(pk=paper_room[0].event_id).update(
        reference_rule_2016=False
    )
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8G", 9)
    assert (rulings(score(r))["Ann"].code, net(rulings(r)["Ann"])) == ("bad_reference", 0)


def test_16_17_18_19_20_extension_final_letter_shift_ambiguity_and_no_negative(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room, second_rack="AFMEIO?")
    paper(paper_room[0], r, "HORNs", "A1", 7)  # 16: extends HORN: the reference is not needed
    phone(paper_room[1], r, "OME", "9E", 7)  # 17: OMEN's N left out: 7 - 5
    paper(paper_room[2], r, "FARM", "8G", 9)  # 18: shifted by one square: 9 - 5
    paper(paper_room[3], r, "FAME", "", 26)  # 19: 26 at G5 and at I5: 26 - 5
    r = score(r)
    got = rulings(r)
    assert [(got[n].code, net(got[n]), got[n].article) for n in NAMES[:4]] == [
        ("valid", 7, "16"),
        ("final_letter_penalty", 2, "17 · FISF 5.3.1"),
        ("reference_penalty", 4, "18 · FISF 5.3.1"),
        ("reference_penalty", 21, "19 · FISF 5.3.2"),
    ]
    # 11: an amendment cites rule 11, and the slip's article is kept in the reason's "was"
    amended = corrections.ruling_amend(
        ruling=got["Ann"], warning=True, reason="disciplinary: talking", actor=director
    )
    assert (amended.article, amended.warning, amended.amended) == ("11", True, True)


def test_20_the_event_penalty_never_takes_a_slip_below_zero(paper_room) -> None:
    Event = paper_room[0].event.__class__
    Event.objects.filter(pk=paper_room[0].event_id).update(reference_penalty=20)
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8G", 9)
    got = rulings(score(r))["Ann"]
    assert (got.points, got.penalty, got.total) == (9, 9, 0)
