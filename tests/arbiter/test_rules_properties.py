"""Properties of the rulings on real positions (games autoplayed from a seed): the 2016
reference rule for any legal move written with a wrong or no reference, and the first move
credited at its best position whatever its reference."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arbiter.rules import Code, RoundJudge, Slip, score_counts
from engine.board import Board
from engine.game import DuplicateGame, autoplay
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove, generate
from engine.notation import SIZE, Direction, format_ref
from engine.tiles import TileSet

EN = TileSet.load("en")
ENABLE = Lexicon.load()
SEEDS = range(1, 9)


@cache
def game_of(seed: int) -> DuplicateGame:
    return autoplay(seed=seed, tiles=EN, lexicon=ENABLE)


@cache
def position(seed: int, number: int) -> tuple[Board, str, tuple[ScoredMove, ...]]:
    """The board before round ``number`` of the seed's game, its rack, every legal move."""
    rounds = game_of(seed).rounds
    board = Board()
    for r in rounds[: number - 1]:
        board.play(Move.from_ref(r.ref, r.word))
    rack = rounds[number - 1].rack
    return board, rack, tuple(generate(board, rack, ENABLE, EN))


def judge(board: Board, rack: str, number: int, moves: tuple[ScoredMove, ...]) -> RoundJudge:
    return RoundJudge(
        board=board,
        rack=rack,
        lexicon=ENABLE,
        tiles=EN,
        round_number=number,
        top_score=moves[0].score if moves else 0,
        score_counts=score_counts(m.score for m in moves),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.sampled_from(SEEDS),
    number=st.integers(min_value=2, max_value=12),
    pick=st.integers(min_value=0, max_value=10_000),
    line=st.integers(min_value=0, max_value=SIZE - 1),
    start=st.integers(min_value=0, max_value=SIZE - 1),
    drop_ref=st.booleans(),
)
def test_a_legal_move_with_a_wrong_or_no_reference_earns_its_score_less_five_from_round_2(
    seed: int, number: int, pick: int, line: int, start: int, drop_ref: bool
) -> None:
    assume(number <= len(game_of(seed).rounds))
    board, rack, moves = position(seed, number)
    assume(moves)
    move = moves[pick % len(moves)]
    j = judge(board, rack, number, moves)
    if drop_ref:
        ref = ""
    else:
        direction = move.move.direction
        row, col = (line, start) if direction is Direction.ACROSS else (start, line)
        wrong = Move(row, col, direction, move.word)
        assume(j.reading(wrong) is None)  # the word is not legal there: the reference is wrong
        ref = format_ref(row, col, direction)
    ruled = j.rule(Slip(move.word, ref, move.score))
    assert ruled.code is Code.REFERENCE_PENALTY, ruled.reason
    assert (ruled.points, ruled.penalty, ruled.net) == (move.score, 5, move.score - 5)
    assert ruled.found_top == (move.score == moves[0].score)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.sampled_from(SEEDS),
    pick=st.integers(min_value=0, max_value=10_000),
    ref=st.sampled_from(["", "H8", "8H", "A1", "O15", "junk", "H1"]),
)
def test_the_first_move_earns_its_best_position_score_whatever_its_reference(
    seed: int, pick: int, ref: str
) -> None:
    board, rack, moves = position(seed, 1)
    across = [m for m in moves if m.move.direction is Direction.ACROSS]
    move = across[pick % len(across)]
    best = max(m.score for m in across if m.word == move.word)
    ruled = judge(board, rack, 1, moves).rule(Slip(move.word, ref, best))
    assert (ruled.code, ruled.points, ruled.penalty) == (Code.VALID, best, 0), ruled.reason
