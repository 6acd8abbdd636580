"""Reads for training (``arbiter.services.training``): the round as the room saw it, the room's
results for it, and an attempt's summary against the room's standings.

The room's numbers are read from its rulings (published rounds only) and kept in the cache:
a finished game's rulings change only by an amendment, which writes the audit log, so they are
keyed by the game's last audit entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Max

from arbiter.rules import Policy, warning_penalties
from arbiter.selectors.standings import standings_game
from arbiter.state import board_before, policy_for
from engine.move import Move
from tournament.models import AuditEntry, Game, Round, Ruling, TrainingAttempt, TrainingSlip
from tournament.vocabulary import ruling_total

ROOM_SECONDS = 3600


@dataclass(frozen=True)
class RoomRound:
    """The room's results for one round."""

    number: int
    players: int  # rulings of the round (every registered player, "missing" included)
    found_top: int
    average: float  # the players' net for the round (points - reference penalty)
    nets: tuple[int, ...]  # every player's net, best first


@dataclass(frozen=True)
class TrainingRound:
    round: Round
    board: list[str]  # the board the round was played on
    top_board: list[str]  # ... with the top played
    top_squares: frozenset[tuple[int, int]]


@dataclass
class TrainingSummary:
    attempt: TrainingAttempt
    rows: list[dict[str, Any]] = field(default_factory=list)
    rounds: int = 0
    total: int = 0
    warning_penalty: int = 0
    top_total: int = 0
    top_pct: float = 0.0
    tops: int = 0
    topping_seconds: int = 0
    room_rank: int | None = None  # where the total would rank in the room's standings
    room_players: int = 0
    room_best: int | None = None
    room_median: int | None = None


def training_round(round: Round) -> TrainingRound:
    board = board_before(round)
    before = board.to_lines()
    placed: list[tuple[int, int, str]] = []
    if round.played_word:
        placed = board.play(Move.from_ref(round.played_ref, round.played_word))
    return TrainingRound(
        round=round,
        board=before,
        top_board=board.to_lines(),
        top_squares=frozenset((r, c) for r, c, _ in placed),
    )


def _game_version(game: Game) -> int:
    last = AuditEntry.objects.filter(game=game).aggregate(last=Max("pk"))["last"]
    return int(last or 0)


def room_rounds(game: Game) -> dict[int, RoomRound]:
    """{round number: the room's results}, for every published round of ``game``."""
    key = f"training:room:{game.pk}:{_game_version(game)}"
    found = cache.get(key)
    if found is not None:
        return dict(found)
    nets: dict[int, list[int]] = {}
    tops: dict[int, int] = {}
    rows = Ruling.objects.filter(
        round__game=game, round__status=Round.Status.PUBLISHED
    ).values_list("round__number", "points", "penalty", "found_top")
    for number, points, penalty, found_top in rows:
        nets.setdefault(number, []).append(points - penalty)
        tops[number] = tops.get(number, 0) + int(found_top)
    result = {
        n: RoomRound(
            number=n,
            players=len(values),
            found_top=tops.get(n, 0),
            average=round(sum(values) / len(values), 1) if values else 0.0,
            nets=tuple(sorted(values, reverse=True)),
        )
        for n, values in nets.items()
    }
    cache.set(key, result, ROOM_SECONDS)
    return result


def room_rank(nets: tuple[int, ...], net: int) -> int:
    """Where ``net`` would rank among the room's ``nets`` (equal scores share a rank)."""
    return 1 + sum(1 for n in nets if n > net)


def counted_slips(attempt: TrainingAttempt) -> list[TrainingSlip]:
    return list(attempt.slips.filter(counts=True).order_by("round_number"))


def training_summary(attempt: TrainingAttempt, policy: Policy | None = None) -> TrainingSummary:
    """An attempt's rounds so far and its totals, beside the room's."""
    game = attempt.game
    policy = policy or policy_for(game.event, game)
    slips = counted_slips(attempt)
    published = {
        r.number: r
        for r in Round.objects.filter(game=game, status=Round.Status.PUBLISHED).order_by("number")
    }
    room = room_rounds(game)
    warned = warning_penalties([s.warning for s in slips], policy)
    summary = TrainingSummary(attempt=attempt, rounds=len(published))
    for slip, warning_cost in zip(slips, warned, strict=True):
        r = published.get(slip.round_number)
        net = ruling_total(
            points=slip.points, solo=0, penalty=slip.penalty, warning_penalty=warning_cost
        )
        top = (r.played_score or 0) if r is not None else 0
        room_round = room.get(slip.round_number)
        summary.rows.append(
            {
                "number": slip.round_number,
                "slip": slip,
                "net": net,
                "warning_penalty": warning_cost,
                "top": r,
                "top_score": top,
                "room": room_round,
                "room_rank": None
                if room_round is None
                else room_rank(room_round.nets, slip.points - slip.penalty),
            }
        )
        summary.total += net
        summary.warning_penalty += warning_cost
        summary.top_total += top
        summary.tops += int(slip.found_top)
        summary.topping_seconds += slip.topping_seconds or 0
    summary.top_pct = (
        round(100 * summary.total / summary.top_total, 2) if summary.top_total else 0.0
    )
    if attempt.is_finished and attempt.mode == TrainingAttempt.Mode.REPLAY:
        standings = standings_game(game=game)
        totals = sorted((row.total for row in standings.rows), reverse=True)
        summary.room_players = len(totals)
        summary.room_rank = 1 + sum(1 for t in totals if t > summary.total)
        summary.room_best = totals[0] if totals else None
        summary.room_median = totals[len(totals) // 2] if totals else None
    return summary
