"""Move generation agrees with the validator, with a brute-force enumerator, and with itself."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, Layout
from engine.formula import Formula
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove, generate, order_key, top
from engine.native import BUILT, ENGINES
from engine.notation import SIZE, Direction
from engine.tiles import BLANK, TileSet, subtract
from engine.validate import validate

EN = TileSet.load("en")

SMALL_WORDS = [
    "AT",
    "TA",
    "TO",
    "OT",
    "AN",
    "NA",
    "NO",
    "ON",
    "SO",
    "OS",
    "AS",
    "IS",
    "IT",
    "TI",
    "ANT",
    "TAN",
    "NAT",
    "OAT",
    "TAO",
    "SAT",
    "TAS",
    "ITS",
    "SIT",
    "TIS",
    "NOT",
    "TON",
    "SON",
    "NOS",
    "ION",
    "TINS",
    "SNIT",
    "ANTS",
    "TANS",
    "OATS",
    "STOA",
    "TAOS",
    "NOTA",
    "SAINT",
    "STAIN",
    "SATIN",
    "TONS",
    "SNOT",
    "IONS",
    "ANTI",
    "ANTIS",
    "NAOS",
    "ST",
]
SMALL_LETTERS = "AINOST"


@cache
def small() -> Lexicon:
    return Lexicon.from_words(SMALL_WORDS, name="small")


@cache
def autoplayed(seed: int) -> list[tuple[Board, str]]:
    """(board before the round, rack) for every round of a seeded ENABLE game."""
    game = autoplay(seed=seed, tiles=EN, lexicon=Lexicon.load())
    board = Board()
    out = []
    for record in game.rounds:
        out.append((board.copy(), record.rack))
        board.play(record.move)
    return out


def placement(board: Board, move: Move) -> frozenset[tuple[int, int, str]]:
    return frozenset(board.placed_by(move))


def brute_force(
    board: Board, rack: str, lexicon: Lexicon, formula: Formula | None = None
) -> set[frozenset[tuple[int, int, str]]]:
    """Every word of the lexicon at every square in both directions, every way of writing its
    new letters with the rack's tiles or blanks; kept when the validator accepts it (under the
    ``formula``: 7 sur 8 places at most seven tiles)."""
    found = set()
    directions = (Direction.ACROSS,) if board.is_empty else (Direction.ACROSS, Direction.DOWN)
    for word in lexicon.iter_words():
        for direction, row, col in itertools.product(directions, range(SIZE), range(SIZE)):
            move = Move(row, col, direction, word)
            if not move.fits:
                continue
            squares = list(move.squares())
            fresh = [i for i, (r, c, ch) in enumerate(squares) if not board[r, c]]
            if (
                not fresh
                or len(fresh) > len(rack)
                or any(board[r, c] and board[r, c].upper() != ch for r, c, ch in squares)
            ):
                continue
            for blanks in itertools.product((False, True), repeat=len(fresh)):
                if sum(blanks) > rack.count(BLANK):
                    continue
                letters = list(word)
                for i, as_blank in zip(fresh, blanks, strict=True):
                    if as_blank:
                        letters[i] = letters[i].lower()
                written = Move(row, col, direction, "".join(letters))
                verdict = validate(
                    board, written, rack=rack, lexicon=lexicon, tiles=EN, formula=formula
                )
                if verdict.valid:
                    found.add(placement(board, written))
    return found


@st.composite
def small_positions(draw: st.DrawFn, rack_size: int = 7) -> tuple[Board, str]:
    """A board built by a few generated moves on the small lexicon, and a rack for it of at
    most ``rack_size`` tiles."""
    board = Board(Layout.load(draw(st.sampled_from(["standard", "tl-centre"]))))
    for _ in range(draw(st.integers(0, 4))):
        rack = "".join(draw(st.lists(st.sampled_from(SMALL_LETTERS), min_size=7, max_size=7)))
        moves = generate(board, rack, small(), EN)
        if not moves:
            break
        board.play(moves[draw(st.integers(0, len(moves) - 1))].move)
    letters = draw(st.lists(st.sampled_from(SMALL_LETTERS), min_size=1, max_size=rack_size))
    blanks = draw(st.integers(0, min(2, rack_size - len(letters))))
    return board, "".join(sorted(letters)) + BLANK * blanks


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_generator_finds_exactly_the_brute_force_moves_on_a_small_lexicon(
    position: tuple[Board, str],
) -> None:
    """Each engine built (pure, native) against one brute-force enumeration per position."""
    board, rack = position
    expected = brute_force(board, rack, small())
    for engine in [e for e in ENGINES if e == "pure" or BUILT]:
        generated = generate(board, rack, small(), EN, engine=engine)
        placements = [placement(board, m.move) for m in generated]
        assert len(placements) == len(set(placements)), f"{engine}: a placement generated twice"
        assert set(placements) == expected, engine


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(rack_size=9), st.sampled_from(["7sur8", "7et8", "789", "joker+789"]))
def test_with_racks_of_8_and_9_the_generator_finds_exactly_the_brute_force_moves_and_scores(
    position: tuple[Board, str], name: str
) -> None:
    """The original formulas' racks (FISF 3.8.2): each engine finds the placements the
    validator accepts under the formula (at most 7 tiles in 7 sur 8), with its scores (50, 75
    and 100 points for 7, 8 and 9 tiles placed)."""
    board, rack = position
    formula = Formula.parse(name)
    expected = brute_force(board, rack, small(), formula)
    for engine in [e for e in ENGINES if e == "pure" or BUILT]:
        generated = generate(board, rack, small(), EN, engine=engine, formula=formula)
        assert {placement(board, m.move) for m in generated} == expected, engine
        assert len(generated) == len(expected), f"{engine}: a placement generated twice"
        for m in generated:
            verdict = validate(board, m.move, rack=rack, lexicon=small(), tiles=EN, formula=formula)
            assert verdict.score == m.score, (engine, m)
            assert len(m.used) <= formula.max_played


def test_the_bonus_follows_the_formula(enable: Lexicon) -> None:
    """ADEINRST on the empty board: STRAINED (8 tiles, 60 points of letters on H1) gets 75 of
    bonus in 7 et 8 and 7-8-9 and is no move in 7 sur 8 or standard (at most 7 placed); the
    seven-tile moves get 50 in all four."""
    rack = "ADEINRST"
    moves = {
        name: {(m.ref, m.word): m.score for m in generate(Board(), rack, enable, EN, formula=f)}
        for name in ("standard", "7sur8", "7et8", "789")
        for f in [Formula.parse(name)]
    }
    assert moves["7et8"][("H1", "STRAINED")] == moves["789"][("H1", "STRAINED")] == 60 + 75
    assert ("H1", "STRAINED") not in moves["7sur8"] and ("H1", "STRAINED") not in moves["standard"]
    assert moves["7sur8"] == moves["standard"]
    assert moves["standard"][("H2", "DETRAIN")] == 18 + 50
    sevens = {k: v for k, v in moves["7et8"].items() if len(k[1]) == 7}
    assert sevens == {k: v for k, v in moves["standard"].items() if len(k[1]) == 7}


@pytest.mark.usefixtures("movegen_engine")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 3), round_index=st.integers(0, 30), data=st.data())
def test_every_generated_move_validates_and_scores_the_same_through_the_validator(
    seed: int, round_index: int, data: st.DataObject
) -> None:
    positions = autoplayed(seed)
    board, rack = positions[round_index % len(positions)]
    if data.draw(st.booleans(), label="blank in the rack"):
        rack = rack[:-1] + BLANK
    moves = generate(board, rack, Lexicon.load(), EN)
    sample = (
        moves
        if len(moves) <= 400
        else data.draw(st.lists(st.sampled_from(moves), min_size=50, max_size=200), label="sample")
    )
    for m in sample:
        verdict = validate(board, m.move, rack=rack, lexicon=Lexicon.load(), tiles=EN)
        assert verdict.valid, (m, verdict.problems)
        assert verdict.score == m.score, m
        assert subtract(rack, m.used) is not None


@pytest.mark.usefixtures("movegen_engine")
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(1, 3), round_index=st.integers(0, 30), n=st.sampled_from([1, 3, 10, 50]))
def test_top_n_is_the_head_of_the_full_list(seed: int, round_index: int, n: int) -> None:
    positions = autoplayed(seed)
    board, rack = positions[round_index % len(positions)]
    everything = generate(board, rack, Lexicon.load(), EN)
    assert top(board, rack, Lexicon.load(), n, EN) == everything[:n]


@pytest.mark.usefixtures("movegen_engine")
def test_moves_come_in_the_documented_total_order(enable: Lexicon) -> None:
    board, rack = autoplayed(1)[6]
    moves = generate(board, rack, enable, EN)
    keys = [order_key(m.score, m.move) for m in moves]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys), "the order must be total: no two moves share a key"


@pytest.mark.usefixtures("movegen_engine")
def test_the_first_move_is_made_across_through_the_centre(enable: Lexicon) -> None:
    moves = generate(Board(), "AEINRST", enable, EN)
    assert moves and all(m.move.direction is Direction.ACROSS and m.move.row == 7 for m in moves)
    assert all(m.move.col <= 7 < m.move.col + len(m.word) for m in moves)
    assert (
        moves[0].score == 66 and moves[0].tiles == 7
    )  # 8 x 2 + 50 with a letter on a DL: NASTIER family


@pytest.mark.usefixtures("movegen_engine")
def test_a_blank_is_tried_as_every_letter_and_scores_nothing(enable: Lexicon) -> None:
    moves = generate(Board(), "Q?", enable, EN)
    assert {m.word for m in moves} >= {"Qi"} or all("Q" in m.word for m in moves)
    two = generate(Board(), "??", enable, EN)
    assert two and all(m.score == 0 for m in two)
    assert len({m.word.upper() for m in two}) == 96  # every two-letter word of ENABLE


@pytest.mark.usefixtures("movegen_engine")
def test_a_lone_tile_that_makes_words_both_ways_is_listed_once_as_the_word_across(
    enable: Lexicon,
) -> None:
    rows = ["." * 15] * 15
    rows[5] = "........I......"  # F9
    rows[6] = "........T......"  # G9
    rows[7] = ".....CAT......."  # H6-H8
    board = Board.from_lines(rows)
    moves = generate(board, "S", enable, EN)
    at_h9 = [m for m in moves if board.placed_by(m.move) == [(7, 8, "S")]]
    assert [str(m) for m in at_h9] == ["H6 CATS 9"]  # CATS 3+1+1+1, ITS 1+1+1; H9 is a plain square
    assert validate(board, Move.parse("9F ITS"), rack="S", lexicon=enable).score == at_h9[0].score


@pytest.mark.usefixtures("movegen_engine")
def test_no_move_is_found_when_the_rack_cannot_play(enable: Lexicon) -> None:
    assert generate(Board(), "QQ", enable, EN) == []
    assert top(Board(), "QQ", enable, 5, EN) == []


def test_scored_moves_print_as_a_slip() -> None:
    m = ScoredMove(Move.parse("8H WORD"), 24, "DORW")
    assert str(m) == "8H WORD 24" and m.ref == "8H" and m.tiles == 4


@pytest.mark.usefixtures("movegen_engine")
@pytest.mark.parametrize("layout", ["standard", "tl-centre"])
def test_the_first_move_scores_by_the_layout(enable: Lexicon, layout: str) -> None:
    best = top(Board(Layout.load(layout)), "AEINRST", enable, 1, EN)[0]
    verdict = validate(
        Board(Layout.load(layout)), best.move, rack="AEINRST", lexicon=enable, tiles=EN
    )
    assert verdict.valid and verdict.score == best.score
