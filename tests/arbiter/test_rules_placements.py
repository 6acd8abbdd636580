"""The judge's index of the legal moves (``arbiter.rules.Placements``) on the cases a random
position rarely shows: a tile placed alone that forms words both ways, at each edge of the
board; which search a judge runs with either engine; the index given; a slip ruled twice."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from arbiter.rules import Code, Placements, RoundJudge, Search, Slip, score_counts
from engine import movegen, native
from engine.board import Board
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate
from engine.tiles import TileSet
from engine.validate import validate

EN = TileSet.load("en")
ENABLE = Lexicon.load()
RACK = "EEEEEET"  # a T and nothing that makes a word with the board's tiles but E


def board_with(tiles: dict[str, str]) -> Board:
    """A board with these tiles ({"A1": "A", ...}), each put down alone."""
    board = Board()
    for square, tile in tiles.items():
        board._cells[(ord(square[0]) - 65) * 15 + int(square[1:]) - 1] = tile
    return board


def judge(board: Board, search: Search = "auto", rack: str = RACK) -> RoundJudge:
    moves = generate(board, rack, ENABLE, EN)
    return RoundJudge(
        board=board,
        rack=rack,
        lexicon=ENABLE,
        tiles=EN,
        round_number=2,
        top_score=moves[0].score if moves else 0,
        score_counts=score_counts(m.score for m in moves),
        search=search,
    )


def worth(board: Board, ref: str, word: str) -> int:
    verdict = validate(board, Move.from_ref(ref, word), rack=RACK, lexicon=ENABLE, tiles=EN)
    assert verdict.valid, verdict.problems
    return verdict.score


@pytest.fixture
def engine_named(request: pytest.FixtureRequest) -> Iterator[str]:
    name: str = request.param
    if name == "native" and not native.BUILT:
        pytest.skip("the native engine is not built (no C compiler at install)")
    movegen.use_engine(name)
    yield name
    movegen.use_engine(None)


@pytest.mark.parametrize(
    ("tiles", "tile_at", "word", "down_ref", "wrong_ref"),
    [
        # T at B1 makes TO across (B1-B2) and AT down from A1, the top edge; O1 holds a tile, so
        # a walk up past row A (the cells wrap round to row O) would read it.
        ({"A1": "A", "B2": "O", "O1": "X"}, (1, 0), "AT", "1A", "15A"),
        # T at O15 makes AT across (O14-O15) and AT down from N15, down to the bottom edge.
        ({"N15": "A", "O14": "A"}, (14, 14), "AT", "15N", "15A"),
        # T at H8 makes AT across and TO down (H8-I8), the word down starting at the tile.
        ({"H7": "A", "I8": "O"}, (7, 7), "TO", "8H", "1A"),
    ],
)
def test_a_tile_placed_alone_also_reads_as_its_word_down(
    tiles: dict[str, str], tile_at: tuple[int, int], word: str, down_ref: str, wrong_ref: str
) -> None:
    board = board_with(tiles)
    row, col = tile_at
    score = worth(board, down_ref, word)
    for search in ("moves", "squares"):
        ruled = judge(board, search).rule(Slip(word, wrong_ref, score))
        assert ruled.code is Code.REFERENCE_PENALTY, (search, ruled.reason)
        assert ruled.placed == ((row, col, "T"),), search
        assert f"at {down_ref} is worth" in ruled.reason, search


def test_a_tile_placed_alone_is_in_the_index_both_ways() -> None:
    board = board_with({"A1": "A", "B2": "O", "O1": "X"})
    placements = Placements(board, generate(board, RACK, ENABLE, EN))
    assert placements.of("at", None) == [Move.parse("A1 at"), Move.parse("1A at")]
    assert placements.of("TO", None) == [Move.parse("B1 TO"), Move.parse("2A TO")]
    assert placements.of("AT", Move.parse("1A AT").direction) == [Move.parse("1A AT")]
    assert placements.of("TA", None) == []


@pytest.mark.parametrize(
    ("engine_named", "search", "indexed"),
    [
        ("native", "auto", True),
        ("pure", "auto", False),
        ("pure", "moves", True),
        ("native", "squares", False),
    ],
    indirect=["engine_named"],
)
def test_the_judge_reads_the_legal_moves_with_the_native_engine_or_when_told(
    engine_named: str, search: Search, indexed: bool
) -> None:
    board = board_with({"A1": "A", "B2": "O", "O1": "X"})
    j = judge(board, search)
    assert j.placements is None  # made on first need
    assert j.rule(Slip("TO", "B1", worth(board, "B1", "TO"))).code is Code.VALID  # no search
    assert j.placements is None
    ruled = j.rule(Slip("AT", "15A", worth(board, "1A", "AT")))
    assert ruled.code is Code.REFERENCE_PENALTY, ruled.reason
    assert (j.placements is not None) is indexed


def test_the_judge_reads_the_index_it_is_given() -> None:
    board = board_with({"A1": "A", "B2": "O", "O1": "X"})
    slip = Slip("AT", "15A", worth(board, "1A", "AT"))
    given = dataclasses.replace(judge(board, "moves"), placements=Placements(board, []))
    assert given.rule(slip).code is Code.NOT_ON_RACK  # no legal move in the index
    assert judge(board, "moves").rule(slip).code is Code.REFERENCE_PENALTY


def test_a_slip_handed_in_twice_is_ruled_once() -> None:
    board = board_with({"A1": "A", "B2": "O", "O1": "X"})
    j = judge(board)
    slip = Slip("AT", "15A", worth(board, "1A", "AT"))
    first = j.rule(slip)
    assert j.rule(Slip("AT", "15A", worth(board, "1A", "AT"))) is first
    assert j.rule(None) is j.rule(None)
    assert j.rule(Slip("AT", "15A", 1)) is not first
