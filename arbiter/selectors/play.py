"""Reads for the player's phone and the v1 API: what the player may see now.

A player sees their own event only; of the round in play, the rack, the clock and their own
slip; of a published round, the top played and their ruling; the standings of published
rounds (``arbiter.selectors.standings``). Nothing of another player's slip before publication.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Max, Subquery

from arbiter.selectors.standings import StandingRow, Standings, standings_event
from engine.board import Layout
from engine.tiles import BLANK, TileSet
from tournament.models import AuditEntry, Game, Player, Round, Ruling, Submission
from tournament.selectors import game_current, game_current_queryset, unique_or_none

STANDINGS_LEADERS = 10


def play_round_by_number(*, player: Player, number: int) -> Round | None:
    """Round ``number`` (not annulled) of the game the player's event is playing
    (``game_current``), in one query: it runs for every slip handed in."""
    # Only the key is read: slip_submit reads the round again, locked, inside its transaction.
    game = game_current_queryset(event_id=player.event_id).values("pk")[:1]
    return unique_or_none(
        Round.objects.filter(game_id=Subquery(game), number=number)
        .exclude(status=Round.Status.ANNULLED)
        .only("pk", "number")
    )


def play_state_version(*, player: Player) -> str:
    """A cheap fingerprint of everything the state shows: every change to a round, a ruling,
    the board or the standings is audited, and the player's own slips have growing ids."""
    last_action = (
        AuditEntry.objects.filter(event_id=player.event_id).aggregate(m=Max("id"))["m"] or 0
    )
    last_slip = Submission.objects.filter(player=player).aggregate(m=Max("id"))["m"] or 0
    raw = f"{player.pk}:{player.token}:{last_action}:{last_slip}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def _standings_cached(*, player: Player) -> Standings:
    """The event's standings, computed once per audited change for all the event's phones."""
    last_action = (
        AuditEntry.objects.filter(event_id=player.event_id).aggregate(m=Max("id"))["m"] or 0
    )
    key = f"play:standings:{player.event_id}:{last_action}"
    standings: Standings | None = cache.get(key)
    if standings is None:
        standings = standings_event(event=player.event)
        cache.set(key, standings, 300)
    return standings


def _slip_json(slip: Submission | None) -> dict[str, Any] | None:
    if slip is None:
        return None
    return {
        "id": slip.pk,
        "round": slip.round.number,
        "word": slip.word,
        "ref": slip.ref,
        "score": slip.announced_score,
        "received_at": slip.received_at,
    }


def _row_json(row: StandingRow, standings: Standings) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "name": row.name,
        "club": row.club,
        "table": row.table,
        "total": row.total,
        "gap": row.gap,
        "top_pct": row.top_pct,
        "withdrawn": row.withdrawn,
        "players": len(standings.rows),
        "rounds": standings.rounds,
    }


def play_standings(*, player: Player, leaders: int = STANDINGS_LEADERS) -> dict[str, Any]:
    """The first places and the player's own line, from published rounds only."""
    standings = _standings_cached(player=player)
    mine = standings.row_of(player.pk)
    return {
        "rounds": standings.rounds,
        "top_total": standings.top_total,
        "players": len(standings.rows),
        "leaders": [
            _row_json(r, standings) | {"me": r.player_id == player.pk}
            for r in standings.rows[:leaders]
        ],
        "me": _row_json(mine, standings) | {"me": True} if mine is not None else None,
    }


def _result_json(player: Player, game: Game) -> dict[str, Any] | None:
    """The player's ruling in the game's last published round, with the top played."""
    last = (
        Round.objects.filter(game=game, status=Round.Status.PUBLISHED).order_by("-number").first()
    )
    if last is None:
        return None
    ruling = unique_or_none(
        Ruling.objects.filter(round=last, player=player).select_related("submission")
    )
    return {
        "round": last.number,
        "top": {"ref": last.played_ref, "word": last.played_word, "score": last.played_score}
        if last.played_word
        else None,
        "ruling": None
        if ruling is None
        else {
            "code": ruling.code,
            "label": ruling.get_code_display(),
            "reason": ruling.reason,
            "points": ruling.points,
            "penalty": ruling.penalty + ruling.warning_penalty,
            "solo": ruling.solo,
            "total": ruling.total,
            "move_score": ruling.move_score,
            "found_top": ruling.found_top,
            "slip": None
            if ruling.submission is None
            else {
                "word": ruling.submission.word,
                "ref": ruling.submission.ref,
                "score": ruling.submission.announced_score,
            },
        },
    }


@dataclass(frozen=True)
class PlayState:
    version: str
    data: dict[str, Any]


def play_state(
    *, player: Player, now: datetime, version: str | None = None, game: Game | None = None
) -> PlayState:
    """What the player's phone shows now (``now`` is the server clock). ``version`` and
    ``game``: the caller's ``play_state_version`` and ``game_current``, when it has them."""
    event = player.event
    version = version or play_state_version(player=player)
    game = game or game_current(event_id=player.event_id)
    data: dict[str, Any] = {
        "version": version,
        "server_time": now,
        "event": {"slug": event.slug, "name": event.name},
        "player": {"name": player.name, "table": player.table},
        "game": None,
        "round": None,
        "board": None,
        "premiums": None,
        "values": None,
        "slip": None,
        "result": None,
        "standings": None,
    }
    if game is None:
        return PlayState(version=version, data=data)
    data["game"] = {"number": game.number, "status": game.status, "end_reason": game.end_reason}
    data["board"] = list(game.board)
    data["premiums"] = list(Layout.load(game.board_layout).rows)
    data["values"] = {**TileSet.load(game.tile_set).values, BLANK: 0}
    current = (
        Round.objects.filter(game=game)
        .exclude(status=Round.Status.ANNULLED)
        .order_by("-number")
        .first()
    )
    if current is not None:
        shows_rack = current.status != Round.Status.DRAWN
        remaining = current.remaining(at=now)
        data["round"] = {
            "number": current.number,
            "status": current.status,
            "rack": current.rack if shows_rack else None,
            "opened_at": current.opened_at,
            "deadline": current.deadline if current.status == Round.Status.OPEN else None,
            "paused": current.is_paused,
            "remaining_seconds": remaining.total_seconds() if remaining is not None else None,
            "accepts_slips": current.is_open(at=now) and not current.is_paused,
        }
        slip = unique_or_none(
            Submission.objects.filter(round=current, player=player, is_current=True).select_related(
                "round"
            )
        )
        data["slip"] = _slip_json(slip)
    data["result"] = _result_json(player, game)
    mine = play_standings(player=player, leaders=0)["me"]
    data["standings"] = mine
    return PlayState(version=version, data=data)


def slip_receipt(*, slip: Submission) -> dict[str, Any]:
    """What the server recorded, and whether it replaced an earlier slip of the round."""
    replaced = Submission.objects.filter(
        round_id=slip.round_id, player_id=slip.player_id, pk__lt=slip.pk
    ).exists()
    return {**(_slip_json(slip) or {}), "replaced_previous": replaced}


def _slip_ruling_json(ruling: Ruling) -> dict[str, Any]:
    return {
        "code": ruling.code,
        "label": ruling.get_code_display(),
        "reason": ruling.reason,
        "points": ruling.points,
        "total": ruling.total,
    }


def play_slips(*, player: Player, game: Game | None = None) -> list[dict[str, Any]]:
    """The player's own slips in the game being played (``game``, when the caller has read
    it), newest first: what they show an arbiter in a dispute. Each with the time the server
    received it (or the arbiter typed it), whether it is the one that counts (``current``),
    and, once its round is published, the ruling it got; a slip a later one replaced has no
    ruling of its own."""
    game = game or game_current(event_id=player.event_id)
    if game is None:
        return []
    slips = (
        Submission.objects.filter(player=player, round__game=game)
        .select_related("round")
        .order_by("-round__number", "-received_at", "-pk")
    )
    rulings = {
        ruling.submission_id: ruling
        for ruling in Ruling.objects.filter(
            player=player,
            round__game=game,
            round__status=Round.Status.PUBLISHED,
            submission__isnull=False,
        ).order_by()
    }
    return [
        {
            "id": slip.pk,
            "round": slip.round.number,
            "round_status": slip.round.status,
            "word": slip.word,
            "ref": slip.ref,
            "score": slip.announced_score,
            "received_at": slip.received_at,
            "source": slip.source,
            "current": slip.is_current,
            "late": slip.late,
            "ruling": _slip_ruling_json(rulings[slip.pk]) if slip.pk in rulings else None,
        }
        for slip in slips
    ]


def play_state_for_phone(*, player: Player, now: datetime, version: str | None = None) -> PlayState:
    """``play_state`` with what the phone page needs besides: the event's warning time and
    time zone (the countdown's colour, the times shown) and the player's slips
    (``play_slips``). The version is ``play_state``'s (the caller's, when it has read it):
    every slip and every published ruling changes it."""
    game = game_current(event_id=player.event_id)
    state = play_state(player=player, now=now, version=version, game=game)
    event = player.event
    data = state.data | {
        "event": state.data["event"]
        | {"warning_seconds": event.warning_seconds, "time_zone": event.time_zone},
        "slips": play_slips(player=player, game=game),
    }
    return PlayState(version=state.version, data=data)
