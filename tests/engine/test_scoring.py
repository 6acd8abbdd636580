"""Scoring: every rulebook example of rules.md, through ``validate``, on the standard board."""

from __future__ import annotations

import pytest

from engine.board import Board, Layout
from engine.lexicon import Lexicon
from engine.move import Move
from engine.tiles import TileSet
from engine.validate import Verdict, WordScore, validate


def play(
    board: Board, text: str, lexicon: Lexicon | None = None, tiles: TileSet | None = None
) -> Verdict:
    """Validate ``text`` on ``board``, insist it is legal, place it, and return the verdict."""
    verdict = validate(board, Move.parse(text), lexicon=lexicon, tiles=tiles)
    assert verdict.valid, verdict.problems
    board.play(Move.parse(text))
    return verdict


def board_with(*tiles_at: tuple[str, str]) -> Board:
    """A standard board holding the given letters at the named squares (row letter first)."""
    lines = [["."] * 15 for _ in range(15)]
    for square, letter in tiles_at:
        row, col = ord(square[0]) - ord("A"), int(square[1:]) - 1
        lines[row][col] = letter
    return Board.from_lines(["".join(line) for line in lines])


# -- the rulebook examples ---------------------------------------------------------------------


def test_train_at_h4_scores_12_with_t_on_a_double_letter_and_n_on_the_centre(
    board: Board, tiny: Lexicon
) -> None:
    assert play(board, "H4 TRAIN", tiny).score == 12


def test_trainer_at_h2_extended_to_strainers_at_h1_scores_27(board: Board, tiny: Lexicon) -> None:
    play(board, "H2 TRAINER", tiny)
    verdict = play(board, "H1 STRAINERS", tiny)
    assert verdict.score == 27
    assert verdict.words == (WordScore("STRAINERS", 27),)
    assert len(verdict.placed) == 2


def test_throb_down_from_the_t_of_trainer_scores_12(board: Board, tiny: Lexicon) -> None:
    play(board, "H2 TRAINER", tiny)
    verdict = play(board, "2H THROB", tiny)
    assert verdict.score == 12  # T 1 + H 4 + R 1x3 + O 1 + B 3
    assert verdict.words == (WordScore("THROB", 12),)


def test_hob_over_trainer_forms_hi_on_be_and_scores_25(board: Board, tiny: Lexicon) -> None:
    play(board, "H2 TRAINER", tiny)
    verdict = play(board, "G5 HOB", tiny)
    assert verdict.score == 25
    assert set(verdict.words) == {
        WordScore("HOB", 11),
        WordScore("HI", 5),
        WordScore("ON", 2),
        WordScore("BE", 7),
    }


def test_throbs_at_1c_makes_strainer_and_scores_69(board: Board, tiny: Lexicon) -> None:
    play(board, "H2 TRAINER", tiny)
    verdict = play(board, "1C THROBS", tiny)
    assert verdict.score == 69
    assert set(verdict.words) == {WordScore("THROBS", 45), WordScore("STRAINER", 24)}


def test_conquest_across_two_triple_words_scores_261(tiny: Lexicon) -> None:
    board = board_with(("A3", "N"), ("A7", "S"))
    verdict = validate(board, Move.parse("A1 CONQUEST"), lexicon=tiny)
    assert verdict.valid
    assert verdict.score == 261  # (3 + 1 + 1 + 10x2 + 1 + 1 + 1 + 1) x 9, six tiles: no bonus
    assert len(verdict.placed) == 6


def test_horn_then_farm_through_its_r_then_paste_hooking_farms(board: Board, tiny: Lexicon) -> None:
    assert play(board, "H6 HORN", tiny).score == 14
    assert play(board, "8F FARM", tiny).score == 9
    verdict = play(board, "J6 PASTE", tiny)
    assert verdict.score == 25
    assert set(verdict.words) == {WordScore("PASTE", 15), WordScore("FARMS", 10)}


# -- the rules behind them ----------------------------------------------------------------------


def test_a_blank_on_a_double_word_still_doubles_the_word_and_scores_nothing(board: Board) -> None:
    verdict = validate(board, Move.parse("H4 TRAIn"))
    assert verdict.score == (2 + 1 + 1 + 1 + 0) * 2
    assert verdict.tiles_used == "AIRT?"


def test_a_blank_on_a_double_letter_scores_nothing(board: Board) -> None:
    assert validate(board, Move.parse("H4 tRAIN")).score == (0 + 1 + 1 + 1 + 1) * 2


def test_the_fifty_point_bonus_comes_after_the_multipliers(board: Board) -> None:
    verdict = validate(board, Move.parse("H2 TRAINER"))
    assert len(verdict.placed) == 7
    assert verdict.score == (1 + 1 + 2 + 1 + 1 + 1 + 1) * 2 + 50  # not (8 + 50) x 2


def test_two_double_word_squares_multiply_by_four() -> None:
    board = board_with(("E8", "I"))
    verdict = validate(board, Move.parse("E5 TRAINER"))  # E5 and E11 are double words
    assert verdict.score == 7 * 4


def test_two_triple_word_squares_multiply_by_nine_and_seven_tiles_add_fifty_after() -> None:
    board = board_with(("A3", "N"))
    verdict = validate(board, Move.parse("A1 CONQUEST"))  # A1 and A8: two triple words
    assert len(verdict.placed) == 7
    assert verdict.score == (3 + 1 + 1 + 10 * 2 + 1 + 1 + 1 + 1) * 9 + 50


def test_letter_premiums_count_only_under_new_tiles(board: Board, tiny: Lexicon) -> None:
    play(board, "H4 TRAIN", tiny)  # T sits on the double letter H4
    verdict = validate(board, Move.parse("4H TA"))
    assert verdict.score == 1 + 1  # T already there: no double letter, I5 plain


def test_train_on_the_triple_letter_centre_layout_scores_8() -> None:
    board = Board(Layout.load("tl-centre"))
    verdict = validate(board, Move.parse("H4 TRAIN"))
    assert verdict.valid
    assert verdict.score == 2 + 1 + 1 + 1 + 3  # N on a triple letter, no double word


def test_french_values() -> None:
    fr = TileSet.load("fr")
    assert (fr.values["K"], fr.values["W"], fr.values["X"], fr.values["Y"], fr.values["Z"]) == (
        10,
        10,
        10,
        10,
        10,
    )
    assert (fr.values["M"], fr.values["Q"], fr.values["?"]) == (2, 8, 0)
    assert fr.size == 102
    board = Board()
    assert validate(board, Move.parse("H8 KIWI"), tiles=fr).score == (10 + 1 + 10 + 1) * 2
    assert validate(board, Move.parse("H8 KIWI")).score == (5 + 1 + 4 + 1) * 2


@pytest.mark.parametrize(
    ("code", "size", "blanks"),
    [("en", 100, 2), ("fr", 102, 2)],
)
def test_the_tile_sets_have_their_sizes(code: str, size: int, blanks: int) -> None:
    tiles = TileSet.load(code)
    assert tiles.size == size
    assert tiles.counts["?"] == blanks
    assert tiles.value("?") == 0 and tiles.value("q") == 0
