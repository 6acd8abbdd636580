"""Reads for the console and the projection screen: the round in play, who has handed in a
slip (never what), the rulings and tops once scored, every legal move ranked."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef

from arbiter.selectors.standings import Standings, standings_game
from arbiter.selectors.sudden_death import game_eliminations
from arbiter.state import board_before, formula_of, lexicon_for
from engine.movegen import ScoredMove, generate
from engine.tiles import TileSet, rack_notation
from tournament.models import AuditEntry, Discipline, Game, Player, Round, Ruling, Submission
from tournament.selectors import round_current, unique_or_none


@dataclass(frozen=True)
class Mismatch:
    """A second entry of a paper slip that disagrees with the first, not yet resolved."""

    check: int  # the id of its ``arbiter.slip.checked`` audit entry
    player: int
    table: int | None
    name: str
    first: dict[str, Any] | None  # word, ref, score; None when there was no first entry
    second: dict[str, Any]
    checked_by: str


def double_entry_mismatches(*, round: Round) -> list[Mismatch]:
    """The round's open mismatches, by table: for each player, the latest second entry when it
    disagreed with the first and no one has resolved it since."""
    entries = AuditEntry.objects.filter(
        round=round, action__in=("arbiter.slip.checked", "arbiter.slip.check_resolved")
    ).order_by("at", "pk")
    latest: dict[int, AuditEntry] = {}
    resolved: set[int] = set()
    for e in entries:
        if e.action == "arbiter.slip.checked":
            latest[int(e.data["player"])] = e
        else:
            resolved.add(int(e.data["check"]))
    open_ = [
        Mismatch(
            e.pk,
            player,
            e.data.get("table"),
            str(e.data.get("name", "")),
            e.data.get("first"),
            dict(e.data["second"]),
            e.actor_name,
        )
        for player, e in latest.items()
        if not e.data.get("agree") and e.pk not in resolved
    ]
    return sorted(open_, key=lambda m: (m.table is None, m.table or 0, m.name))


@dataclass(frozen=True)
class TableSlips:
    """What the slip entry shows beside the form once a table number is typed."""

    table: int
    name: str
    slips: list[Submission]  # the player's slips of the round, newest first


def table_slips(*, round: Round, table: int) -> TableSlips | None:
    """The player at ``table`` in the round's event and their slips of the round (phone,
    API, typed), newest first; None when no one sits there."""
    player = unique_or_none(Player.objects.filter(event_id=round.game.event_id, table=table))
    if player is None:
        return None
    slips = list(
        Submission.objects.filter(round=round, player=player)
        .select_related("entered_by")
        .order_by("-received_at", "-pk")
    )
    return TableSlips(table, player.name, slips)


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
    mismatches: list[Mismatch]
    standings: Standings
    audit: list[AuditEntry]


def console_state(*, game: Game, now: datetime) -> ConsoleState:
    current = round_current(game_id=game.pk)
    # A withdrawn player hands in no slip: the console does not wait for them.
    players = Player.objects.filter(event_id=game.event_id, withdrawn_at__isnull=True).order_by(
        "table", "name"
    )
    slips = 0
    missing: list[Player] = []
    rulings: list[Ruling] = []
    mismatches: list[Mismatch] = []
    remaining = None
    if current is not None:
        # Nor for a player out of a mort subite game (3.8.3): their slips are refused.
        out = game_eliminations(game=game, published_only=False, before=current.number)
        players = players.exclude(pk__in=list(out))
        has_slip = Submission.objects.filter(round=current, player=OuterRef("pk"), is_current=True)
        annotated = players.annotate(has_slip=Exists(has_slip))
        missing = [p for p in annotated if not p.has_slip]
        slips = len(players) - len(missing)
        left = current.remaining(at=now)
        remaining = None if left is None else left.total_seconds()
        if current.status in (Round.Status.SCORED, Round.Status.PUBLISHED):
            rulings = round_rulings(round=current)
        mismatches = double_entry_mismatches(round=current)
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
        mismatches,
        standings_game(game=game),
        audit,
    )


def round_rulings(*, round: Round) -> list[Ruling]:
    """The round's rulings, best first, with the player and the slip ruled."""
    return list(
        Ruling.objects.filter(round=round)
        .select_related("player", "submission")
        .order_by("-points", "player__table", "player__name")
    )


def round_disciplines(*, round: Round) -> list[Discipline]:
    """The disciplinary warnings given in a round (rules.md case 21), by table then time."""
    return list(
        Discipline.objects.filter(round=round)
        .select_related("player", "given_by")
        .order_by("player__table", "given_at", "pk")
    )


def round_moves_ranked(*, round: Round) -> list[tuple[int, ScoredMove]]:
    """Every legal move for the round's rack on the board it was played on, best first (the
    engine's order), with its rank: 1 = top, equal scores share a rank."""
    game = round.game
    moves = generate(
        board_before(round),
        round.rack,
        lexicon_for(game.lexicon),
        TileSet.load(game.tile_set),
        formula=formula_of(game),
    )
    ranked, rank = [], 0
    for i, m in enumerate(moves):
        if i == 0 or m.score != moves[i - 1].score:
            rank = i + 1
        ranked.append((rank, m))
    return ranked


@dataclass(frozen=True)
class RoundRecord:
    """A round as the director API reads it: every ruling (by table, with the player and the
    slip ruled), the disciplinary warnings given in it, the open double-entry mismatches."""

    round: Round
    rulings: list[Ruling]
    disciplines: list[Discipline]
    mismatches: list[Mismatch]


def round_record(*, game: Game, number: int) -> RoundRecord | None:
    """Round ``number`` of ``game`` (the one not annulled), or None when there is none."""
    round = game.rounds.exclude(status=Round.Status.ANNULLED).filter(number=number).first()
    if round is None:
        return None
    rulings = list(
        Ruling.objects.filter(round=round)
        .select_related("player", "submission")
        .order_by("player__table", "player__name", "pk")
    )
    disciplines = list(
        Discipline.objects.filter(round=round)
        .select_related("player")
        .order_by("player__table", "given_at", "pk")
    )
    return RoundRecord(round, rulings, disciplines, double_entry_mismatches(round=round))


def game_audit(*, game: Game) -> list[AuditEntry]:
    """The game's whole audit log, newest first, with each entry's round."""
    return list(AuditEntry.objects.filter(game=game).select_related("round").order_by("-at", "-pk"))
