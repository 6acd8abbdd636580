"""docs/rules.md, the federation's sanction catalogue, cases 13 to 15: junction letters
("raccord") instead of a grid reference [Dragon, FQCSF], two instead of three [FQCSF],
altered [ArbiTop 2010]; and the helpers of ``arbiter.junctions`` that find them.
"""

from __future__ import annotations

import pytest

from arbiter.junctions import altered, is_junction, junction_runs
from arbiter.rules import Article, Code, Slip
from engine.board import Board
from engine.move import Move
from engine.validate import validate
from tests.arbiter.rules.helpers import (
    NAMES,
    horn_game,
    judge,
    net,
    paper,
    phone,
    rule,
    rulings,
    runs,
    score,
)
from tests.arbiter.rules.helpers import board_from_moves as board_of

pytestmark = pytest.mark.django_db


# -- through the judge (pure: no database) ---------------------------------------------------------


# 13: junction letters ("raccord") instead of a grid reference. Source: scrabbledudragon.fr,
# "Remplir son bulletin" (mode raccord); FQCSF abridged rules.
def test_13_three_junction_letters_reference_the_move_as_a_grid_reference_would(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "HOR", 9))
    assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (Code.VALID, 9, 0, False)
    assert ruled.article == Article.JUNCTION == "13"
    assert "junction letters HOR: FARM at 8F" in ruled.reason
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "hor", 12))  # typed in lower case; score wrong
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 9, True)


def test_13_junction_letters_that_designate_no_placement_are_a_wrong_reference(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "XYZ", 9))  # case 4: the score is right
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.REFERENCE_PENALTY, 9, 5)
    assert ruled.article == Article.REFERENCE
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "XYZ", 8))  # and the score wrong: 0
    assert (ruled.code, ruled.points, ruled.net) == (Code.BAD_REFERENCE, 0, 0)


# 14: two junction letters instead of three: a warning. Source: FQCSF abridged rules
# ("avertissement et pénalité").
def test_14_two_junction_letters_where_three_can_be_written_earn_a_warning(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "OR", 9))
    assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
        Code.VALID_WARNING,
        9,
        0,
        True,
    )
    assert ruled.article == Article.JUNCTION_SHORT == "14"


def test_14_two_letters_are_enough_when_the_word_joined_has_only_two() -> None:
    board = Board()
    board.play(Move.parse("H8 OX"))
    # AXE down column 9 through the X of OX: the only run touched is OX itself
    ruled = rule(board, "AEIRSTU", Slip("AXE", "OX", None))
    assert ruled.article == Article.JUNCTION and ruled.code is Code.VALID_WARNING  # the score
    assert "two where three" not in ruled.reason


# 15: junction letters altered (one letter changed): a warning. Source: ArbiTop, "Exemples
# d'application du nouveau règlement FISF" (September 2010), "raccord altéré".
def test_15_junction_letters_with_one_letter_changed_earn_a_warning(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "HPR", 9))
    assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
        Code.VALID_WARNING,
        9,
        0,
        True,
    )
    assert ruled.article == Article.JUNCTION_ALTERED == "15"
    assert "altered" in ruled.reason


# The helpers, on the cases they decide.
def test_junction_letters_are_two_to_four_letters() -> None:
    assert [is_junction(r) for r in ("HOR", "OR", "HORN", "H", "HORNS", "H8", "8H", "")] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
        False,
    ]


def test_the_runs_a_crossing_move_joins_are_those_of_the_word_it_crosses(horn) -> None:
    farm = validate(horn, Move.parse("8F FARM"))
    assert junction_runs(horn, farm) == {"HOR", "HORN", "OR", "ORN", "RN"}  # each holds the R
    assert altered("HPR", junction_runs(horn, farm))
    assert not altered("XYZ", junction_runs(horn, farm))
    assert not altered("HOR", {"HORN"})


@pytest.mark.parametrize(
    ("board_move", "move", "expected"),
    [
        # a word across above HORN: its Y sits on the H
        ("H6 HORN", "G5 XY", ["HO", "HOR", "HORN"]),
        # below HORN, on its R and N
        ("H6 HORN", "I8 XY", ["HOR", "HORN", "OR", "ORN", "RN"]),
        # above HORN, on its N only (the Y overhangs)
        ("H6 HORN", "G9 XY", ["HORN", "ORN", "RN"]),
        # a word down left of HORN down, beside its H; right of it, beside its N
        ("6H HORN", "5G XY", ["HO", "HOR", "HORN"]),
        ("6H HORN", "7K XY", ["HORN", "ORN", "RN"]),
        # the board's edges: row A, row O, column 1, column 15
        ("A1 HORN", "B3 XY", ["HOR", "HORN", "OR", "ORN", "RN"]),
        ("O12 HORN", "N14 XY", ["HOR", "HORN", "OR", "ORN", "RN"]),
        ("N1 HORN", "O2 XY", ["HO", "HOR", "HORN", "OR", "ORN", "RN"]),
        ("1A HORN", "2B XY", ["HO", "HOR", "HORN", "OR", "ORN", "RN"]),
        ("I1 HORN", "15G XY", []),  # nothing beside it (the H of row I is no neighbour)
        ("H6 HORN", "H6 HORNSE", ["HO", "HOR", "HORN", "OR", "ORN", "RN"]),  # extended
        ("H6 HORN", "H4 XYHORN", ["HO", "HOR", "HORN", "OR", "ORN", "RN"]),
    ],
)
def test_the_runs_of_a_placement_are_those_it_joins_on_every_side(
    board_move: str, move: str, expected: list[str]
) -> None:
    assert runs(board_move, move) == expected


def test_altered_junction_letters_differ_in_exactly_one_letter() -> None:
    assert altered("HPR", {"HOR"}) and altered("XOR", {"HOR"}) and altered("HOX", {"HOR"})
    assert not altered("HPQ", {"HOR"})  # two letters changed
    assert not altered("HOR", {"HOR"})  # none changed: that is the junction itself
    assert not altered("HO", {"HOR"})  # another length


def test_the_runs_stop_at_the_board_s_first_row_and_column() -> None:
    # HORN down from A1 with a tile at O1: going up from the H finds the board's edge
    board = board_of("1A HORN", "O1 AB")
    assert sorted(junction_runs(board, validate(board, Move.parse("2B XY")))) == [
        "HO",
        "HOR",
        "HORN",
        "OR",
        "ORN",
        "RN",
    ]
    # HORN across from H1 with a tile at G15: going left from the H finds the board's edge
    board = board_of("H1 HORN", "15F AB")
    assert sorted(junction_runs(board, validate(board, Move.parse("I2 XY")))) == [
        "HO",
        "HOR",
        "HORN",
        "OR",
        "ORN",
        "RN",
    ]


def test_13_19_junction_letters_on_several_placements_take_the_one_the_score_names(horn) -> None:
    # HOR: MOTIF at I3 (31, under HORN), 5F (18, down through its O) and 7G (14, through its R)
    for score, ref in ((31, "I3"), (18, "5F"), (14, "7G")):  # noqa: F402
        ruled = rule(horn, "AFMEIOT", Slip("MOTIF", "HOR", score))
        assert (ruled.code, ruled.points, ruled.article) == (Code.VALID, score, "13")
        assert f"MOTIF at {ref}" in ruled.reason
    # no score names one and they are worth different scores: ambiguous, a wrong reference
    ruled = rule(horn, "AFMEIOT", Slip("MOTIF", "HOR", 20))
    assert (ruled.code, ruled.points, ruled.article) == (Code.BAD_REFERENCE, 0, Article.REFERENCE)
    assert "fit 3 placements of MOTIF" in ruled.reason


def test_14_two_letters_on_a_word_of_three_are_a_warning() -> None:
    board = board_of("H7 ARE")  # GUIDABLE down 7D through the A: runs AR and ARE
    ruled = judge(board, "BDEGILU").rule(Slip("GUIDABLE", "AR", 67))
    assert (ruled.code, ruled.points, ruled.warning, ruled.article) == (
        Code.VALID_WARNING,
        67,
        True,
        Article.JUNCTION_SHORT,
    )


def test_13_letters_that_designate_nothing_say_so(horn) -> None:
    ruled = rule(horn, "AFMEIOT", Slip("FARM", "XYZ", 9))
    assert ruled.reason.startswith("the junction letters XYZ are not on the board next to FARM")


# -- through the services (the rulebook game: round 1 played, round 2 open) ------------------------


def test_13_14_15_junction_letters_from_a_phone_and_from_paper(paper_room) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "HOR", 9)  # 13: the three letters of HORN it joins
    paper(paper_room[1], r, "FARM", "hor", 9)  # 13: typed as naturally as a reference
    paper(paper_room[2], r, "FARM", "OR", 9)  # 14: two letters: a warning
    phone(paper_room[3], r, "FARM", "HPR", 9)  # 15: altered: a warning
    paper(paper_room[4], r, "FARM", "XYZ", 9)  # 13 then 4: designates nothing: 9 - 5
    got = rulings(score(r))
    assert [(got[n].code, net(got[n]), got[n].warning, got[n].article) for n in NAMES] == [
        ("valid", 9, False, "13"),
        ("valid", 9, False, "13"),
        ("valid_warning", 9, True, "14"),
        ("valid_warning", 9, True, "15"),
        ("reference_penalty", 4, False, "4 · FISF 5.3.1"),
    ]
    assert got["Ann"].submission.ref == "HOR" and got["Bob"].submission.ref == "HOR"
