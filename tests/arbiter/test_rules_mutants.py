"""The rulings of docs/rules.md, case by case, on positions chosen so that a wrong ruling shows
(pure: no database). Written against the survivors of `make mutation`: the lexicon after round
1, the 2016 search at every edge of the board and only with the rack's tiles, the blank that
scores least, the order of the zero reasons, the tiles a ruling keeps, what a game derives.
"""

from __future__ import annotations

import pytest

from arbiter.rules import (
    Code,
    Policy,
    RoundJudge,
    Slip,
    blank_markings,
    round_average,
    score_counts,
    solo_winner,
    warning_penalties,
)
from engine.board import Board
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate
from engine.notation import SIZE, Direction
from engine.tiles import TileSet
from engine.validate import Fault, validate
from tests.arbiter.test_rules import judge as rules_judge

EN = TileSet.load("en")
ENABLE = Lexicon.load()
RACK = "AFMEIOT"  # the rulebook's second rack


def board_of(*plays: str) -> Board:
    """A board with these words on it, each written as ``WORD@REF``."""
    board = Board()
    for play in plays:
        word, ref = play.split("@")
        board.play(Move.from_ref(ref, word))
    return board


def judge(
    board: Board,
    rack: str = RACK,
    round_number: int = 2,
    policy: Policy | None = None,
    lexicon: Lexicon = ENABLE,
) -> RoundJudge:
    return rules_judge(board, rack, round_number, policy, lexicon)


def worth(board: Board, ref: str, word: str, rack: str = RACK) -> int:
    """What the engine scores the placement (the expected numbers come from it, not from here)."""
    verdict = validate(board, Move.from_ref(ref, word), rack=rack, lexicon=ENABLE, tiles=EN)
    assert verdict.valid, verdict.problems
    return verdict.score


def every(word: str) -> list[Move]:
    """The word at every square of the board, both ways, where it stays on the board."""
    return [
        Move(row, col, d, word)
        for d in Direction
        for row in range(SIZE)
        for col in range(SIZE)
        if Move(row, col, d, word).fits
    ]


def squares(ruled) -> set[tuple[int, int]]:
    return {(r, c) for r, c, _ in ruled.placed}


@pytest.fixture(scope="module")
def horn() -> Board:
    return board_of("HORN@H6")


@pytest.fixture(scope="module")
def round_2(horn: Board) -> RoundJudge:
    return judge(horn)


# -- a slip that stands where it says ------------------------------------------------------------


def test_a_valid_slip_earns_its_score_ranks_among_the_moves_and_keeps_its_tiles(
    round_2: RoundJudge,
) -> None:
    ruled = round_2.rule(Slip("FARM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.move_score, ruled.penalty) == (Code.VALID, 9, 9, 0)
    assert (ruled.warning, ruled.found_top, ruled.net) == (False, False, 9)
    assert ruled.rank == round_2.rank(9) and ruled.rank > 1
    assert ruled.placed == ((5, 7, "F"), (6, 7, "A"), (8, 7, "M"))  # F8, G8, I8: R is on H8
    assert ruled.reason == "valid: 9"


def test_the_reference_is_read_whatever_its_case_and_spaces(round_2: RoundJudge) -> None:
    assert round_2.rule(Slip("FARM", " 8f ", 9)).code is Code.VALID
    assert round_2.rule(Slip("farm", "8F", 0)).code is not Code.VALID  # four blanks: none here


def test_a_wrong_or_missing_score_says_what_was_announced_and_what_the_move_is_worth(
    round_2: RoundJudge,
) -> None:
    wrong = round_2.rule(Slip("FARM", "8F", 12))
    none = round_2.rule(Slip("FARM", "8F", None))
    zero = round_2.rule(Slip("FARM", "8F", 0))
    for ruled in (wrong, none, zero):
        assert (ruled.code, ruled.points, ruled.warning) == (Code.VALID_WARNING, 9, True)
        assert ruled.reason.endswith("the move is worth 9: 9 and a warning")
    assert wrong.reason.startswith("announced 12,")
    assert zero.reason.startswith("announced 0,")
    assert none.reason.startswith("no score announced,")


def test_the_top_is_found_and_ranks_first(round_2: RoundJudge, horn: Board) -> None:
    best = generate(horn, RACK, ENABLE, EN)[0]
    ruled = round_2.rule(Slip(best.word, best.ref, best.score))
    assert (ruled.code, ruled.rank, ruled.found_top) == (Code.VALID, 1, True)


def test_a_word_that_cannot_be_read_is_malformed_and_says_so(round_2: RoundJudge) -> None:
    ruled = round_2.rule(Slip("FA RM", "8F", 9))
    assert (ruled.code, ruled.points, ruled.rank) == (Code.MALFORMED, 0, None)
    assert ruled.reason.startswith("the word cannot be read (word 'FA RM' must be letters only")


def test_a_slip_handed_in_several_times_is_multiple_even_when_also_late(
    round_2: RoundJudge,
) -> None:
    both = round_2.rule(Slip("FARM", "8F", 9, late=True, multiple=True))
    late = round_2.rule(Slip("FARM", "8F", 9, late=True))
    for ruled, code in ((both, Code.MULTIPLE), (late, Code.LATE)):
        assert (ruled.code, ruled.points, ruled.move_score, ruled.rank) == (code, 0, None, None)
        assert not ruled.found_top and ruled.placed == ()


# -- blanks (rule 3) -------------------------------------------------------------------------


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


def test_the_first_move_with_its_blank_not_marked_is_credited_as_the_marked_word() -> None:
    j = judge(Board(), "AEINRT?", round_number=1)
    marked = j.rule(Slip("NAsTIER", "", 0))
    unmarked = j.rule(Slip("NASTIER", "", marked.points))
    assert marked.code is Code.VALID_WARNING and marked.points > 50
    assert (unmarked.code, unmarked.points, unmarked.warning) == (
        Code.VALID_WARNING,
        marked.points,
        True,
    )
    assert "NAsTIER" in unmarked.reason


# -- the first move (rule 5) -----------------------------------------------------------------


def test_the_first_move_is_credited_across_through_the_centre_at_its_best_position() -> None:
    j = judge(Board(), "ELORTTW", round_number=1)
    best = max(
        (m for m in generate(Board(), "ELORTTW", ENABLE, EN) if m.word == "WROTE"),
        key=lambda m: m.score,
    )
    ruled = j.rule(Slip("WROTE", "8H", best.score))  # a down reference changes nothing
    assert (ruled.code, ruled.points, ruled.penalty, ruled.warning) == (
        Code.VALID,
        best.score,
        0,
        False,
    )
    assert {r for r, _ in squares(ruled)} == {7} and (7, 7) in squares(ruled)
    assert ruled.reason == f"first move credited at its best position {best.ref}: {best.score}"


def test_a_first_move_whose_best_position_starts_or_ends_on_the_centre_is_credited_there() -> None:
    for word, rack, where in (("BLITZ", "BLITZAE", "H8"), ("JAKES", "JAKEOUS", "H4")):
        moves = [m for m in generate(Board(), rack, ENABLE, EN) if m.word == word]
        best = max(m.score for m in moves)
        assert [m.ref for m in moves if m.score == best] == [where]  # its one best position
        ruled = judge(Board(), rack, round_number=1).rule(Slip(word, "", best))
        assert (ruled.code, ruled.points) == (Code.VALID, best), word
        assert f"best position {where}" in ruled.reason


def test_a_first_move_not_in_the_lexicon_or_not_on_the_rack_scores_zero_and_keeps_its_worth() -> (
    None
):
    j = judge(Board(), "AINRTZ?", round_number=1)
    invalid = j.rule(Slip("TRAINZ", "H4", 32))
    assert (invalid.code, invalid.points) == (Code.INVALID_WORD, 0)
    assert invalid.move_score == max(
        validate(Board(), Move.from_ref(f"H{c}", "TRAINZ"), rack="AINRTZ?", tiles=EN).score
        for c in range(3, 9)
    )
    assert len(invalid.placed) == 6 and {r for r, _ in squares(invalid)} == {7}
    missing = j.rule(Slip("QUIT", "H8", 13))
    assert (missing.code, missing.points) == (Code.NOT_ON_RACK, 0)
    assert missing.move_score is not None and len(missing.placed) == 4


# -- the 2016 reference rule (rule 4) --------------------------------------------------------


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
    j = judge(horn, policy=Policy(reference_penalty=3))
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


# -- zero: which reason (Decisions) ----------------------------------------------------------


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


def test_in_round_one_a_wrong_reference_is_ruled_without_the_2016_rule() -> None:
    board = board_of("HORN@H6")
    j = judge(board, round_number=1)
    ruled = j.rule(Slip("FARM", "9F", 9))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.BAD_REFERENCE, 0, 0)


# -- what a game's rulings derive ------------------------------------------------------------


def test_ranks_share_equal_scores_and_count_every_placement_above() -> None:
    counts = score_counts([30, 20, 30, 10, 20, 20, 20, 20])
    assert counts == {30: 2, 20: 5, 10: 1}
    j = judge(Board(), "A", round_number=1)
    j.score_counts = counts
    assert [j.rank(s) for s in (31, 30, 25, 20, 10, 0)] == [1, 1, 3, 3, 8, 9]
    assert score_counts([]) == {}


def test_warnings_cost_from_the_one_beyond_the_free_ones_in_the_order_they_came() -> None:
    policy = Policy(warnings_free=2, warning_penalty=7)
    assert warning_penalties([False, True, False, True, True, False, True], policy) == [
        0,
        0,
        0,
        0,
        7,
        0,
        7,
    ]
    assert warning_penalties([], policy) == []
    assert warning_penalties([True, True], Policy(warnings_free=0)) == [5, 5]


def test_a_solo_is_the_one_finder_once_enough_players_play() -> None:
    policy = Policy(solo_min_players=3)
    assert solo_winner(iter([7]), 3, policy) == 7
    assert solo_winner([7], 2, policy) is None
    assert solo_winner([7, 8], 3, policy) is None


def test_the_rounds_average_is_the_mean_rounded_down() -> None:
    assert round_average([9, 10]) == 9
    assert round_average(iter([9, 0, 0])) == 3
    assert round_average([-3, 0]) == -2
    assert round_average([]) == 0
    assert isinstance(round_average([9, 10]), int)
