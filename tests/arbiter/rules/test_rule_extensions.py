"""docs/rules.md, the federation's sanction catalogue, cases 16 and 17: a word already on the
board extended needs no reference [Dragon]; the final letter, already on the board, left out
or changed [FISF 2016 5.3.1, ArbiTop 2010].
"""

from __future__ import annotations

import pytest

from arbiter.junctions import extends, final_letter_moves
from arbiter.rules import Article, Code, Slip
from engine.board import Board
from engine.move import Move
from engine.notation import Direction
from engine.validate import validate
from tests.arbiter.rules.helpers import board_from_moves as board_of
from tests.arbiter.rules.helpers import judge, rule


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


def test_an_extension_holds_two_or_more_board_tiles_in_a_row(horn) -> None:
    assert extends(horn, validate(horn, Move.parse("H5 SHORN")))
    assert extends(horn, validate(horn, Move.parse("H6 HORNS")))
    assert not extends(horn, validate(horn, Move.parse("8F FARM")))


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
