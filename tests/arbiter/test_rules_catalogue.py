"""The federation's sanction catalogue (docs/rules.md, "Rulings in detail", cases 13 to 20),
pure: no database. Each test names the case it rules and the source rules.md cites for it.

The board is the rulebook's: HORN at H6. Rack AFMEIOT (FARM 8F through the R of HORN is worth
9; OMEN 9E ending on its N, 7) or SAETIOP (SHORN at H5 extends HORN, 8).
"""

from __future__ import annotations

import pytest

from arbiter.junctions import altered, extends, final_letter_moves, is_junction, junction_runs
from arbiter.rules import Article, Code, Policy, Slip
from engine.board import Board
from engine.move import Move
from engine.notation import Direction
from engine.validate import validate
from tests.arbiter.test_rules import judge


@pytest.fixture
def horn() -> Board:
    board = Board()
    board.play(Move.parse("H6 HORN"))
    return board


def rule(board: Board, rack: str, slip: Slip, **policy: int | bool):
    return judge(board, rack, policy=Policy(**policy)).rule(slip)  # type: ignore[arg-type]


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


# 16: a word already on the board extended: no reference needed. Source: scrabbledudragon.fr,
# "Les points d'arbitrage à connaître" (PRO before MENERAI).


@pytest.mark.parametrize("ref", ["", "A1", "H6", "H-8", "6H"])
def test_16_a_word_that_extends_one_on_the_board_needs_no_reference(horn, ref: str) -> None:
    ruled = rule(horn, "SAETIOP", Slip("SHORN", ref, 8))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.VALID, 8, 0)
    assert ruled.article == Article.EXTENSION == "16"
    ruled = rule(horn, "SAETIOP", Slip("SHORN", ref, 9))  # the score's warning still stands
    assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 8, True)


def test_16_the_extension_is_credited_even_without_the_2016_rule(horn) -> None:
    ruled = rule(horn, "SAETIOP", Slip("SHORN", "A1", 8), reference_rule_2016=False)
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.VALID, 8, 0)


# 17: the final letter already on the board left out or changed. Source: FISF, "Modification
# du règlement au 1er janvier 2016: exemples", article 5.3.1, second case; ArbiTop 2010.


def test_17_the_final_letter_left_out_or_changed_costs_five_from_round_2(horn) -> None:
    for written in ("OME", "OMEA"):
        ruled = rule(horn, "AFMEIOT", Slip(written, "9E", 7))
        assert (ruled.code, ruled.points, ruled.penalty, ruled.net) == (
            Code.FINAL_LETTER_PENALTY,
            7,
            5,
            2,
        )
        assert ruled.article == Article.FINAL_LETTER == "17 · FISF 5.3.1"
        assert "OMEN" in ruled.reason
    assert rule(horn, "AFMEIOT", Slip("OME", "9E", 8)).net == 0  # the score must be the word's


def test_17_without_the_2016_rule_only_the_letter_left_out_is_saved(horn) -> None:
    left_out = rule(horn, "AFMEIOT", Slip("OME", "9E", 7), reference_rule_2016=False)
    changed = rule(horn, "AFMEIOT", Slip("OMEA", "9E", 7), reference_rule_2016=False)
    assert (left_out.code, left_out.net) == (Code.FINAL_LETTER_PENALTY, 2)
    assert (changed.points, changed.net) == (0, 0)


def test_17_not_in_round_1() -> None:
    j = judge(Board(), "AFMEIOT", round_number=1)
    move = Move.parse("H8 FAME")
    assert list(final_letter_moves(Board(), move)) == []
    assert j.rule(Slip("FAM", "H8", 20)).code is not Code.FINAL_LETTER_PENALTY


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


def test_an_extension_holds_two_or_more_board_tiles_in_a_row(horn) -> None:
    assert extends(horn, validate(horn, Move.parse("H5 SHORN")))
    assert extends(horn, validate(horn, Move.parse("H6 HORNS")))
    assert not extends(horn, validate(horn, Move.parse("8F FARM")))


def runs(board_move: str, move: str) -> list[str]:
    board = Board()
    board.play(Move.parse(board_move))
    return sorted(junction_runs(board, validate(board, Move.parse(move))))


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


def test_an_extension_needs_two_board_tiles_in_a_row() -> None:
    board = Board()
    board.play(Move.parse("H8 OX"))
    assert extends(board, validate(board, Move.parse("H8 OXEN")))  # two held: OX
    board = Board()
    board.play(Move.parse("H8 AB"))
    board.play(Move.parse("H11 CD"))
    assert not extends(board, validate(board, Move.parse("H8 ABXCD")))  # held, but apart
    board = Board()
    board.play(Move.parse("H6 HORN"))
    assert not extends(board, validate(board, Move.parse("8F FARM")))  # one held


def test_altered_junction_letters_differ_in_exactly_one_letter() -> None:
    assert altered("HPR", {"HOR"}) and altered("XOR", {"HOR"}) and altered("HOX", {"HOR"})
    assert not altered("HPQ", {"HOR"})  # two letters changed
    assert not altered("HOR", {"HOR"})  # none changed: that is the junction itself
    assert not altered("HO", {"HOR"})  # another length


def test_the_final_letter_moves_only_when_that_letter_is_on_the_board(horn) -> None:
    down = Move.parse("9E OME")  # OMEN's N is at H9
    assert [(m.word, how) for m, how in final_letter_moves(horn, down)] == [("OMEN", "left out")]
    changed = Move.parse("9E OMEA")
    assert [(m.word, how) for m, how in final_letter_moves(horn, changed)] == [("OMEN", "changed")]
    assert list(final_letter_moves(horn, Move.parse("9E OMEN"))) == []  # written in full
    assert list(final_letter_moves(horn, Move.parse("H3 FO"))) == []  # nothing follows
    # the letter after is not the last: HORN goes on after its H
    assert list(final_letter_moves(horn, Move.parse("H4 AT"))) == []
    edge = Board()
    edge.play(Move.parse("15G ON"))  # O at G15, N at H15: the board's last column
    assert list(final_letter_moves(edge, Move.parse("H13 TE"))) == [
        (Move.parse("H13 TEN"), "left out")  # the whole word ends at the board's edge
    ]
    assert list(final_letter_moves(edge, Move.parse("H13 TEN"))) == []  # written in full


def board_of(*moves: str) -> Board:
    board = Board()
    for move in moves:
        board.play(Move.parse(move))
    return board


def test_a_word_extended_down_is_an_extension() -> None:
    board = board_of("6H HORN")
    assert extends(board, validate(board, Move.parse("6H HORNS")))


@pytest.mark.parametrize(
    ("board_moves", "move", "expected"),
    [
        # the letter left out in row A (across), in column 1 (down), in row O (down)
        (("15A ON",), Move(0, 12, Direction.ACROSS, "TE"), [("TEO", "left out")]),
        (("H1 ON",), Move(5, 0, Direction.DOWN, "TE"), [("TEO", "left out")]),
        (("O1 ON",), Move(12, 0, Direction.DOWN, "TE"), [("TEO", "left out")]),
        # the letter changed in row A, in column 1
        (("15A ON",), Move(0, 12, Direction.ACROSS, "TEX"), [("TEO", "changed")]),
        (("H1 ON",), Move(5, 0, Direction.DOWN, "TEX"), [("TEO", "changed")]),
        # nothing past the board's last column, whatever the next row holds
        (("I1 AB",), Move(7, 13, Direction.ACROSS, "TE"), []),
        (("I1 AB",), Move(7, 13, Direction.ACROSS, "TEX"), []),
        # the last column holds the letter; the next row's first square is not after it
        (("15G ON", "I1 AB"), Move(7, 12, Direction.ACROSS, "TE"), [("TEN", "left out")]),
        # down onto HORN's H, which its O follows: the H is not the final letter
        (("6H HORN",), Move(5, 5, Direction.DOWN, "XY"), []),
    ],
)
def test_the_final_letter_at_the_board_s_edges(
    board_moves: tuple[str, ...], move: Move, expected: list[tuple[str, str]]
) -> None:
    board = board_of(*board_moves)
    assert [(m.word, how) for m, how in final_letter_moves(board, move)] == expected


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
    for score, ref in ((31, "I3"), (18, "5F"), (14, "7G")):
        ruled = rule(horn, "AFMEIOT", Slip("MOTIF", "HOR", score))
        assert (ruled.code, ruled.points, ruled.article) == (Code.VALID, score, "13")
        assert f"MOTIF at {ref}" in ruled.reason
    # no score names one and they are worth different scores: ambiguous, a wrong reference
    ruled = rule(horn, "AFMEIOT", Slip("MOTIF", "HOR", 20))
    assert (ruled.code, ruled.points, ruled.article) == (Code.BAD_REFERENCE, 0, Article.REFERENCE)
    assert "fit 3 placements of MOTIF" in ruled.reason


def test_17_the_final_letter_with_a_blank_not_marked_earns_the_blank_s_warning_too(horn) -> None:
    # AF?EIMT: no O, the blank must be OMEN's O (6 points)
    for written in ("OME", "OMe"):
        ruled = rule(horn, "AF?EIMT", Slip(written, "9E", 6))
        assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
            Code.FINAL_LETTER_PENALTY,
            6,
            5,
            True,
        )
        assert "oMEN" in ruled.reason


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


def test_two_warnings_in_one_round_beyond_the_free_ones_cost_twice() -> None:
    from arbiter.rules import warning_penalties

    assert warning_penalties([0, 2, 1], Policy(warnings_free=0)) == [0, 10, 5]
    assert warning_penalties([2, 2], Policy(warnings_free=3)) == [0, 5]
