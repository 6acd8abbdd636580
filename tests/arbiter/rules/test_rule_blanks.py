"""docs/rules.md, case 3: a blank not marked, or marked on the wrong letter, is scored where it
must be (where it scores least) with a warning; with the 2016 rule ("Blanks and the 2016 rule
together").
"""

from __future__ import annotations

import pytest

from arbiter.rules import Code, Slip, blank_markings
from engine.board import Board
from engine.move import Move
from engine.validate import validate
from tests.arbiter.rules.helpers import (
    ENABLE,
    board_of,
    horn_game,
    judge,
    paper,
    rulings,
    score,
    worth,
)

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


def test_an_unmarked_blank_is_scored_where_it_must_be_with_a_warning(horn: Board) -> None:
    ruled = judge(horn, "AF?XYZQ").rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 6, True)
    assert "FARm" in ruled.reason
    ruled = judge(horn, "AF?XYZQ").rule(Slip("FARm", "8F", 6))
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID, 6, False)


def test_an_unmarked_blank_is_scored_where_it_scores_least_and_a_marked_one_as_written() -> None:
    board, rack = board_of("HORN@H6"), "AEIT?SL"  # SALTIES at G1 needs the blank as one S
    j = judge(board, rack)
    least, most = worth(board, "G1", "SALTIEs", rack), worth(board, "G1", "sALTIES", rack)
    assert least < most  # the first S is on a letter premium
    unmarked = j.rule(Slip("SALTIES", "G1", least))
    assert (unmarked.code, unmarked.points, unmarked.warning) == (Code.VALID_WARNING, least, True)
    assert "scored as SALTIEs" in unmarked.reason
    marked = j.rule(Slip("sALTIES", "G1", most))
    assert (marked.code, marked.points, marked.warning) == (Code.VALID, most, False)
    wrongly = j.rule(Slip("SAlTIES", "G1", least))  # the blank on an L the rack has
    assert (wrongly.code, wrongly.points, wrongly.warning) == (Code.VALID_WARNING, least, True)


def test_two_letters_missing_from_the_rack_take_its_two_blanks() -> None:
    board = board_of("HORN@H6")
    ruled = judge(board, "F??XYZQ").rule(Slip("FARM", "8F", 1))
    expected = worth(board, "8F", "FaRm", "F??XYZQ")
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, expected, True)
    assert "FaRm" in ruled.reason
    assert ruled.placed == ((5, 7, "F"), (6, 7, "a"), (8, 7, "m"))


def test_blank_markings_offer_every_way_to_put_the_blanks_where_the_rack_lacks_letters() -> None:
    board = board_of("HORN@H6")
    verdict = validate(board, Move.from_ref("G1", "SALTIES"), rack="AEIT?SL", lexicon=ENABLE)
    assert sorted(m.word for m in blank_markings(verdict, "AEIT?SL")) == ["SALTIEs", "sALTIES"]
    assert all(m.ref == "G1" for m in blank_markings(verdict, "AEIT?SL"))
    down = validate(board, Move.from_ref("8F", "FARM"), rack="AF?", lexicon=ENABLE)
    assert [(m.ref, m.word) for m in blank_markings(down, "AF?")] == [("8F", "FARm")]
    assert list(blank_markings(down, "AFXYZQJ")) == []  # no blank to make up for the M
    assert list(blank_markings(down, "FFM??")) == [Move.from_ref("8F", "FaRM")]


def test_the_2016_rule_with_blanks_not_marked_gives_the_penalty_and_a_warning(
    horn: Board,
) -> None:
    j = judge(horn, "AF?EIOT")
    ruled = j.rule(Slip("FARM", "9F", 6))  # FARm at 8F is worth 6
    assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
        Code.REFERENCE_PENALTY,
        6,
        5,
        True,
    )
    assert "(FARm): a warning" in ruled.reason
    plain = judge(horn).rule(Slip("FARM", "9F", 9))
    assert (plain.code, plain.warning) == (Code.REFERENCE_PENALTY, False)
    assert "blank" not in plain.reason


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_3_a_blank_not_marked_or_marked_on_the_wrong_letter_is_scored_where_it_must_be(
    paper_room,
) -> None:
    _, r = horn_game(paper_room, second_rack="AF?EIOT")  # no M: the blank must be the M
    paper(paper_room[0], r, "FARm", "8F", 6)  # marked right
    paper(paper_room[1], r, "FARM", "8F", 6)  # not marked
    paper(paper_room[2], r, "fARM", "8F", 6)  # marked on the wrong letter
    paper(paper_room[3], r, "FARM", "8F", 9)  # not marked, score also wrong: still one warning
    got = rulings(score(r))
    assert (got["Ann"].code, got["Ann"].points, got["Ann"].warning) == ("valid", 6, False)
    for name in ("Bob", "Cleo", "Dan"):
        assert (got[name].code, got[name].points, got[name].warning) == ("valid_warning", 6, True)
        assert "FARm" in got[name].reason
