"""Grid references, words and GCG coordinates."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError, NotationError, PlacementError
from engine.move import Move
from engine.notation import (
    SIZE,
    Direction,
    OffBoardError,
    format_ref,
    from_gcg,
    parse_ref,
    parse_word,
    to_gcg,
)

squares = st.tuples(
    st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.sampled_from(list(Direction))
)
refs = squares.map(lambda s: format_ref(*s))


@given(squares)
def test_every_square_and_direction_survives_format_then_parse(
    square: tuple[int, int, Direction],
) -> None:
    assert parse_ref(format_ref(*square)) == square


@given(refs)
def test_every_reference_survives_parse_then_format(ref: str) -> None:
    assert format_ref(*parse_ref(ref)) == ref


def test_row_letter_first_is_across_and_column_number_first_is_down() -> None:
    assert parse_ref("H8") == (7, 7, Direction.ACROSS)
    assert parse_ref("8H") == (7, 7, Direction.DOWN)
    assert parse_ref("A15") == (0, 14, Direction.ACROSS)
    assert parse_ref("15A") == (0, 14, Direction.DOWN)
    assert format_ref(14, 0, Direction.ACROSS) == "O1"
    assert format_ref(14, 0, Direction.DOWN) == "1O"


def test_lower_case_and_surrounding_spaces_are_accepted() -> None:
    assert parse_ref("h8") == parse_ref("H8")
    assert parse_ref(" 8h ") == (7, 7, Direction.DOWN)


@pytest.mark.parametrize("text", ["HH", "8", "88", "", "H 8", "H8A", "8H8", "H-8", "H8.5"])
def test_what_is_not_a_reference_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="is not a grid reference"):
        parse_ref(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("P8", "row P is off the board"),
        ("8P", "row P is off the board"),
        ("H16", "column 16 is off the board"),
        ("16H", "column 16 is off the board"),
        ("H0", "column 0 is off the board"),
    ],
)
def test_a_reference_off_the_board_says_which_coordinate(text: str, why: str) -> None:
    with pytest.raises(OffBoardError, match=why):
        parse_ref(text)


def test_off_the_board_is_a_placement_error_and_every_error_is_a_value_error() -> None:
    assert issubclass(OffBoardError, PlacementError)
    assert issubclass(NotationError, EngineError)
    assert issubclass(EngineError, ValueError)


def test_a_word_keeps_lower_case_for_blanks() -> None:
    assert parse_word("TRAiN") == "TRAiN"
    assert parse_word(" train ") == "train"


def test_a_word_of_one_letter_is_too_short() -> None:
    with pytest.raises(NotationError, match="too short"):
        parse_word("A")


@pytest.mark.parametrize("text", ["TR4IN", "TRA-IN", "TRA IN", "TRAÎN", "", "TRAIN?"])
def test_a_word_is_letters_only(text: str) -> None:
    with pytest.raises(NotationError, match="letters only"):
        parse_word(text)


def test_a_word_longer_than_the_board_is_refused() -> None:
    with pytest.raises(OffBoardError, match="16 letters"):
        parse_word("ABCDEFGHIJKLMNOP")


def test_a_move_reads_a_reference_and_a_word() -> None:
    move = Move.parse("8h Farm")
    assert (move.row, move.col, move.direction, move.word) == (7, 7, Direction.DOWN, "Farm")
    assert move.ref == "8H"
    assert str(move) == "8H Farm"
    assert repr(move) == "Move.parse('8H Farm')"
    with pytest.raises(NotationError, match="must be a grid reference and a word"):
        Move.parse("H8")


def test_a_move_that_runs_off_the_board_says_so() -> None:
    move = Move.parse("H12 TRAIN")
    assert not move.fits
    with pytest.raises(OffBoardError, match="runs off the board"):
        list(move.squares())


@given(
    squares,
    st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min_size=2, max_size=15
    ),
)
def test_every_move_survives_str_then_parse(square: tuple[int, int, Direction], word: str) -> None:
    move = Move(square[0], square[1], square[2], word)
    assert Move.parse(str(move)) == move


@pytest.mark.parametrize(
    ("ref", "gcg"),
    [("H8", "8H"), ("8H", "H8"), ("B3", "2C"), ("3B", "C2"), ("A1", "1A"), ("15O", "O15")],
)
def test_gcg_coordinates_are_the_other_way_round(ref: str, gcg: str) -> None:
    assert to_gcg(ref) == gcg
    assert from_gcg(gcg) == ref


@given(refs)
def test_every_reference_survives_a_trip_through_gcg(ref: str) -> None:
    assert from_gcg(to_gcg(ref)) == ref


def test_gcg_coordinates_off_the_board_or_malformed_are_refused() -> None:
    with pytest.raises(OffBoardError):
        from_gcg("16A")
    with pytest.raises(NotationError, match="is not of the form"):
        from_gcg("HH")
