"""Validation: one test per reason a move is refused (``Fault``)."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.errors import PlacementError
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.move import Move
from engine.notation import Direction
from engine.validate import Fault, move_from_tiles, validate, validate_text


@pytest.fixture
def train(board: Board) -> Board:
    """TRAIN at H4: T H4, R H5, A H6, I H7, N H8."""
    board.play(Move.parse("H4 TRAIN"))
    return board


def test_a_legal_move_has_no_problem(train: Board, tiny: Lexicon) -> None:
    verdict = validate(train, Move.parse("4H TA"), rack="ABCDEFG", lexicon=tiny)
    assert verdict.valid and verdict.placeable
    assert verdict.faults() == []
    assert verdict.tiles_used == "A"


def test_every_fault_is_tested_here() -> None:
    tested = {
        Fault.BAD_NOTATION,
        Fault.OFF_BOARD,
        Fault.CLASH,
        Fault.NOT_ON_RACK,
        Fault.TOO_MANY_TILES,
        Fault.NO_TILE,
        Fault.GAP,
        Fault.NOT_CONNECTED,
        Fault.MISSES_CENTRE,
        Fault.NOT_IN_LEXICON,
    }
    assert tested == set(Fault)


@pytest.mark.parametrize("text", ["HH TRAIN", "H8", "H8 TR4IN", "H8 T", "TRAIN H8"])
def test_bad_notation_is_a_problem_not_an_exception(board: Board, text: str) -> None:
    verdict = validate_text(board, text)
    assert verdict.faults() == [Fault.BAD_NOTATION]
    assert not verdict.placeable and verdict.score == 0
    assert verdict.problems[0].code == "bad_notation"


def test_a_reference_off_the_board(board: Board) -> None:
    verdict = validate_text(board, "P8 TRAIN")
    assert verdict.faults() == [Fault.OFF_BOARD]
    assert "row P is off the board" in verdict.problems[0].message


def test_a_word_running_off_the_board(board: Board) -> None:
    verdict = validate(board, Move.parse("H12 TRAIN"))
    assert verdict.faults() == [Fault.OFF_BOARD]
    assert "runs off the board" in verdict.problems[0].message
    assert validate(board, Move.parse("12L TRAIN")).faults() == [Fault.OFF_BOARD]


def test_a_clash_names_the_square_and_both_letters(train: Board) -> None:
    verdict = validate(train, Move.parse("6G OIT"))
    assert verdict.faults() == [Fault.CLASH]
    assert verdict.problems[0].message == "move 6G OIT: square H6 holds A, the word has I there"
    assert not verdict.placeable


def test_a_blank_on_the_board_matches_its_letter_either_case(board: Board) -> None:
    board.play(Move.parse("H4 tRAIN"))
    assert validate(board, Move.parse("4H TA")).faults() == []
    assert validate(board, Move.parse("4H tA")).faults() == []


def test_tiles_not_on_the_rack_are_named(board: Board, tiny: Lexicon) -> None:
    verdict = validate(board, Move.parse("H4 TRAINER"), rack="TRAINXY", lexicon=tiny)
    assert verdict.faults() == [Fault.NOT_ON_RACK]
    assert verdict.problems[0].message == "move H4 TRAINER needs E, R not on the rack TRAINXY"
    assert verdict.placeable and verdict.score > 0


def test_a_blank_written_lower_case_uses_the_question_mark_of_the_rack(board: Board) -> None:
    verdict = validate(board, Move.parse("H4 TRAIn"), rack="TRAIBCD")
    assert verdict.faults() == [Fault.NOT_ON_RACK]
    assert "needs a blank not on the rack" in verdict.problems[0].message
    assert validate(board, Move.parse("H4 TRAIn"), rack="TRAI?CD").faults() == []
    # a real N on the rack is not a blank
    assert validate(board, Move.parse("H4 TRAIn"), rack="TRAINCD").faults() == [Fault.NOT_ON_RACK]
    # a blank cannot be written as a real letter either
    assert validate(board, Move.parse("H4 TRAIN"), rack="TRAI?CD").faults() == [Fault.NOT_ON_RACK]


def test_a_move_placing_no_tile(train: Board) -> None:
    verdict = validate(train, Move.parse("H4 TRAIN"))
    assert verdict.faults() == [Fault.NO_TILE]
    assert "places no tile" in verdict.problems[0].message


def test_a_word_not_written_in_full_because_a_tile_is_next_to_it(train: Board) -> None:
    verdict = validate(train, Move.parse("H5 RAINS"))  # T on H4 makes it TRAINS
    assert verdict.faults() == [Fault.GAP]
    assert verdict.problems[0].message == (
        "move H5 RAINS: the word is not written in full: H4 next to it holds T"
    )
    verdict = validate(train, Move.parse("H3 STRAI"))  # N on H8 follows
    assert verdict.faults() == [Fault.GAP]
    assert "H8 next to it holds N" in verdict.problems[0].message


def test_tiles_placed_by_hand_must_be_in_one_line_without_a_gap(train: Board) -> None:
    with pytest.raises(PlacementError, match="not in one line"):
        move_from_tiles(train, [(8, 4, "A"), (9, 5, "B")])
    with pytest.raises(PlacementError, match="leave a gap"):
        move_from_tiles(train, [(10, 3, "A"), (12, 3, "B")])
    with pytest.raises(PlacementError, match="already holds T"):
        move_from_tiles(train, [(7, 3, "A")])
    with pytest.raises(PlacementError, match="forms no word"):
        move_from_tiles(train, [(0, 0, "A")])


def test_tiles_placed_by_hand_give_the_move_written_in_full(train: Board) -> None:
    assert move_from_tiles(train, [(7, 8, "E"), (7, 9, "R")]) == Move.parse("H4 TRAINER")
    assert move_from_tiles(train, [(8, 3, "A")]) == Move(7, 3, Direction.DOWN, "TA")
    assert move_from_tiles(train, [(6, 3, "A"), (8, 3, "T")]) == Move.parse("4G ATT")


def test_a_move_that_touches_nothing(train: Board) -> None:
    verdict = validate(train, Move.parse("A1 CAT"))
    assert verdict.faults() == [Fault.NOT_CONNECTED]
    assert verdict.problems[0].message == "move A1 CAT does not touch any tile on the board"
    assert verdict.score > 0  # the placement still has a score


def test_a_first_move_missing_the_centre(board: Board) -> None:
    verdict = validate(board, Move.parse("A1 CAT"))
    assert verdict.faults() == [Fault.MISSES_CENTRE]
    assert "must cover the centre square H8" in verdict.problems[0].message


def test_words_not_in_the_lexicon_are_named_and_the_move_keeps_its_score(
    train: Board, tiny: Lexicon
) -> None:
    verdict = validate(train, Move.parse("G4 QQ"), lexicon=tiny)  # forms QQ, QT and QR
    assert verdict.faults() == [Fault.NOT_IN_LEXICON]
    assert set(verdict.invalid_words) == {"QQ", "QT", "QR"}
    assert verdict.problems[0].message.startswith("not in the lexicon tiny: ")
    assert verdict.placeable and not verdict.valid
    assert verdict.score == validate(train, Move.parse("G4 QQ")).score > 0


def test_a_word_missing_from_the_lexicon_on_the_first_move(board: Board, tiny: Lexicon) -> None:
    verdict = validate(board, Move.parse("H8 TRANI"), lexicon=tiny)
    assert verdict.invalid_words == ("TRANI",)
    assert verdict.score == (1 + 1 + 1 + 1 + 1 * 2) * 2  # I on the double letter H12


def test_several_problems_are_all_reported(train: Board, tiny: Lexicon) -> None:
    verdict = validate(train, Move.parse("A1 QQ"), rack="ABCDEFG", lexicon=tiny)
    assert verdict.faults() == [Fault.NOT_ON_RACK, Fault.NOT_CONNECTED, Fault.NOT_IN_LEXICON]


def test_more_tiles_than_the_formula_places_is_a_fault_and_keeps_the_score(
    board: Board, tiny: Lexicon
) -> None:
    """7 sur 8 (FISF 3.8.2): eight tiles on the rack, seven placed at most; 7 et 8 pays 75."""
    move = Move.parse("H1 STRAINER")
    verdict = validate(board, move, rack="AEINRRST", lexicon=tiny, formula=Formula.parse("7sur8"))
    assert verdict.faults() == [Fault.TOO_MANY_TILES]
    assert verdict.problems[0].message == (
        "move H1 STRAINER places 8 tiles: the formula 7sur8 places at most 7"
    )
    assert verdict.placeable and verdict.score == validate(board, move, lexicon=tiny).score
    eight = validate(board, move, rack="AEINRRST", lexicon=tiny, formula=Formula.parse("7et8"))
    assert eight.valid and eight.score == sum(w.score for w in eight.words) + 75
    # Elsewhere more tiles than the rack holds is the rack's fault, as in standard duplicate.
    assert validate(board, move, lexicon=tiny).faults() == []
    assert validate(board, move, rack="AEINRST", lexicon=tiny).faults() == [Fault.NOT_ON_RACK]
