"""Reads for the console and the projection screen: the round in play, who has handed in a
slip (never what), the rulings and tops once scored, every legal move ranked."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef

from arbiter.selectors.standings import Standings, standings_game
from arbiter.state import board_before, lexicon_for
from engine.movegen import ScoredMove, generate
from engine.tiles import TileSet, rack_notation
from tournament.models import AuditEntry, Game, Player, Round, Ruling, Submission


def round_current(game: Game) -> Round | None:
    """The round in play, else the last published one."""
    return (
        game.rounds.filter(status__in=Round.IN_PLAY).first()
        or game.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    )


@dataclass(frozen=True)
class ConsoleState:
    game: Game
    round: Round | None
    remaining: float | None  # seconds left on the clock (server time), None when not open
    slips: int
    players: int
    rack_shown: str  # the leftover marked: "LT+EMOO?"
    missing: list[Player]
    rulings: list[Ruling]
    disagreements: list[dict[str, Any]]
    standings: Standings
    audit: list[AuditEntry]


def console_state(*, game: Game, now: datetime) -> ConsoleState:
    current = round_current(game)
    # A withdrawn player hands in no slip: the console does not wait for them.
    players = Player.objects.filter(event_id=game.event_id, withdrawn_at__isnull=True).order_by(
        "table", "name"
    )
    slips = 0
    missing: list[Player] = []
    rulings: list[Ruling] = []
    disagreements: list[dict[str, Any]] = []
    remaining = None
    if current is not None:
        has_slip = Submission.objects.filter(round=current, player=OuterRef("pk"), is_current=True)
        annotated = players.annotate(has_slip=Exists(has_slip))
        missing = [p for p in annotated if not p.has_slip]
        slips = len(players) - len(missing)
        left = current.remaining(at=now)
        remaining = None if left is None else left.total_seconds()
        if current.status in (Round.Status.SCORED, Round.Status.PUBLISHED):
            rulings = list(
                Ruling.objects.filter(round=current)
                .select_related("player", "submission")
                .order_by("-points", "player__table", "player__name")
            )
        disagreements = [
            e.data
            for e in AuditEntry.objects.filter(
                round=current, action="arbiter.slip.checked", data__agree=False
            )
        ]
    audit = list(AuditEntry.objects.filter(game=game).order_by("-at", "-pk")[:40])
    return ConsoleState(
        game,
        current,
        remaining,
        slips,
        len(players),
        "" if current is None else rack_notation(current.rack, current.leftover),
        missing,
        rulings,
        disagreements,
        standings_game(game=game),
        audit,
    )


def round_moves_ranked(*, round: Round) -> list[tuple[int, ScoredMove]]:
    """Every legal move for the round's rack on the board it was played on, best first (the
    engine's order), with its rank: 1 = top, equal scores share a rank."""
    game = round.game
    moves = generate(
        board_before(round), round.rack, lexicon_for(game.lexicon), TileSet.load(game.tile_set)
    )
    ranked, rank = [], 0
    for i, m in enumerate(moves):
        if i == 0 or m.score != moves[i - 1].score:
            rank = i + 1
        ranked.append((rank, m))
    return ranked
