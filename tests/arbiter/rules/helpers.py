"""What the rule tests (``tests/arbiter/rules/test_rule_*.py``) share: the rulebook's board
(HORN at H6) and its second rack, a judge for a position (pure: no database), and the rulebook
game through the services (round 1 played, round 2 open; slips from phones and paper). The
fixtures are offered to the rule tests by ``conftest.py`` beside this module."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.junctions import junction_runs
from arbiter.rules import Policy, RoundJudge, Rulebook, Slip, score_counts
from arbiter.services import clock, publishing, racks, scoring
from arbiter.services.slips import slip_submit
from engine.board import Board
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate
from engine.notation import SIZE, Direction
from engine.tiles import TileSet
from engine.validate import validate
from tests.arbiter.conftest import T0
from tests.factories import EventFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Game, Player, Round, Ruling, Submission

EN = TileSet.load("en")
ENABLE = Lexicon.load()
RACK = "AFMEIOT"  # the rulebook's second rack

# -- a position, judged (pure) -------------------------------------------------------------------


def board_of(*plays: str) -> Board:
    """A board with these words on it, each written as ``WORD@REF``."""
    board = Board()
    for play in plays:
        word, ref = play.split("@")
        board.play(Move.from_ref(ref, word))
    return board


# The rule tests of rules.md's cases 1 to 22 hold the rulebook events were ruled by before the
# regulation in force ("before-2023": an event played before keeps its standings to the point);
# the articles of the FISF 2023 text are tested in test_fisf_2023_*.py, with FISF_2023.
BEFORE_2023 = Policy(rulebook=Rulebook.BEFORE_2023)
FISF_2023 = Policy(rulebook=Rulebook.FISF_2023)


def judge(
    board: Board,
    rack: str = RACK,
    round_number: int = 2,
    policy: Policy | None = None,
    lexicon: Lexicon = ENABLE,
) -> RoundJudge:
    moves = generate(board, rack, lexicon, EN)
    return RoundJudge(
        board=board,
        rack=rack,
        lexicon=lexicon,
        tiles=EN,
        round_number=round_number,
        top_score=moves[0].score if moves else 0,
        score_counts=score_counts(m.score for m in moves),
        policy=policy or BEFORE_2023,
    )


def rule(board: Board, rack: str, slip: Slip, **policy: int | bool):
    rulebook = policy.pop("rulebook", Rulebook.BEFORE_2023)
    return judge(board, rack, policy=Policy(rulebook=rulebook, **policy)).rule(slip)  # type: ignore[arg-type]


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


@pytest.fixture
def horn() -> Board:
    return board_of("HORN@H6")


@pytest.fixture
def round_2(horn: Board) -> RoundJudge:
    return judge(horn)


# -- the rulebook game, through the services -----------------------------------------------------

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]
CLOSING = dt.timedelta(seconds=190)  # the 3-minute round plus the 10 s grace
ROUND_2 = T0 + dt.timedelta(minutes=10)


@pytest.fixture
def paper_room() -> list[Player]:
    event = EventFactory(solo_min_players=3, rulebook=Rulebook.BEFORE_2023)
    return [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate(NAMES)]


@pytest.fixture
def paper_room_2023() -> list[Player]:
    """The same room, its event ruled by the regulation in force."""
    event = EventFactory(solo_min_players=3, rulebook=Rulebook.FISF_2023)
    return [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate(NAMES)]


@pytest.fixture
def director():
    return UserFactory(username="director")


def horn_game(players: list[Player], second_rack: str = "AFMEIOT") -> tuple[Game, Round]:
    """Round 1 played (HORN at H6, everyone missing), round 2 open with ``second_rack``."""
    game = GameFactory(event=players[0].event, source=Game.Source.MANUAL, seed=None)
    first = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    first = clock.round_open(round=first, actor=None, now=T0)
    assert clock.round_close(round_id=first.pk, now=T0 + CLOSING)
    scored = scoring.round_score(round_id=first.pk, now=T0 + CLOSING)
    assert scored is not None
    publishing.round_top_choose(round=scored, ref="H6", word="HORN", actor=None)
    publishing.round_publish(round=scored, actor=None, now=T0 + CLOSING)
    second = racks.round_rack_enter(game=game, rack=second_rack, actor=None)
    return game, clock.round_open(round=second, actor=None, now=ROUND_2)


def phone(player: Player, round: Round, word: str, ref: str, score: int | None) -> Submission:
    return slip_submit(
        player=player, round=round, word=word, ref=ref, score=score, at=ROUND_2 + seconds(30)
    )


def paper(player: Player, round: Round, word: str, ref: str, score: int | None, **kw) -> None:
    arbiter = UserFactory()
    slip_submit(
        player=player,
        round=round,
        word=word,
        ref=ref,
        score=score,
        source=Submission.Source.ARBITER,
        entered_by=arbiter,
        **kw,
    )


def seconds(n: int) -> dt.timedelta:
    return dt.timedelta(seconds=n)


def score(round: Round) -> Round:
    assert clock.round_close(round_id=round.pk, now=ROUND_2 + CLOSING)
    scored = scoring.round_score(round_id=round.pk, now=ROUND_2 + CLOSING)
    assert scored is not None
    return scored


def rulings(round: Round) -> dict[str, Ruling]:
    return {r.player.name: r for r in Ruling.objects.filter(round=round).select_related("player")}


def net(r: Ruling) -> int:
    return r.points - r.penalty


# -- where a slip's word lies without a grid reference (arbiter.junctions) -----------------------


def board_from_moves(*moves: str) -> Board:
    """A board with these moves on it, each written as ``REF WORD`` (``6H HORN``)."""
    board = Board()
    for move in moves:
        board.play(Move.parse(move))
    return board


def runs(board_move: str, move: str) -> list[str]:
    board = Board()
    board.play(Move.parse(board_move))
    return sorted(junction_runs(board, validate(board, Move.parse(move))))
