"""Reads for the player's phone and the v1 API: what the player may see now.

A player sees their own event only; of the round in play, the rack, the clock and their own
slip; of a published round, the top played and their ruling; the standings of published
rounds (``arbiter.selectors.standings``). Nothing of another player's slip before publication.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Max, QuerySet, Subquery

from arbiter.rules import PLACED_CODES
from arbiter.selectors.standings import StandingRow, Standings, standings_event
from arbiter.selectors.sudden_death import game_eliminations
from engine.board import Layout
from engine.formula import SUDDEN_DEATH
from engine.tiles import BLANK, TileSet
from tournament.compiled import Compiled
from tournament.models import AuditEntry, Event, Game, Player, Round, Ruling, Submission
from tournament.models.slip import ruling_label
from tournament.selectors import (
    game_current,
    game_current_queryset,
    round_current,
    round_last_published,
)
from tournament.typography import percent_text
from tournament.vocabulary import ruling_total

STANDINGS_LEADERS = 10


def play_round_by_number(*, player: Player, number: int) -> Round | None:
    """Round ``number`` (not annulled) of the game the player's event is playing
    (``game_current``), in one query: it runs for every slip handed in."""
    return _ROUND_BY_NUMBER.one_or_none(event_id=player.event_id, number=number)


def _round_by_number(event_id: int, number: int) -> QuerySet[Round]:
    # Only the key is read: slip_submit reads the round again, locked, inside its transaction.
    game = game_current_queryset(event_id=event_id).values("pk")[:1]
    return (
        Round.objects.filter(game_id=Subquery(game), number=number)
        .exclude(status=Round.Status.ANNULLED)
        .only("pk", "number")
        .order_by()[:2]
    )


# Compiled once (tournament.compiled): building this query cost more than all the slip's others.
_ROUND_BY_NUMBER = Compiled(Round, _round_by_number, event_id=int, number=int)


def play_state_version(*, player: Player) -> str:
    """A cheap fingerprint of everything the state shows: every change to a round, a ruling,
    the board or the standings is audited, and the player's own slips have growing ids."""
    last_action = (
        AuditEntry.objects.filter(event_id=player.event_id).aggregate(m=Max("id"))["m"] or 0
    )
    last_slip = Submission.objects.filter(player=player).aggregate(m=Max("id"))["m"] or 0
    raw = f"{player.pk}:{player.token}:{last_action}:{last_slip}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def _standings_cached(*, event: Event) -> Standings:
    """The event's standings, computed once per audited change for all the event's phones."""
    last_action = AuditEntry.objects.filter(event_id=event.pk).aggregate(m=Max("id"))["m"] or 0
    key = f"play:standings:{event.pk}:{last_action}"
    standings: Standings | None = cache.get(key)
    if standings is None:
        standings = standings_event(event=event)
        cache.set(key, standings, 300)
    return standings


def _row_json(row: StandingRow, standings: Standings, language: str) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "name": row.name,
        "club": row.club,
        "table": row.table,
        "total": row.total,
        "gap": row.gap,
        "top_pct": row.top_pct,
        "top_pct_text": percent_text(row.top_pct, language),
        "withdrawn": row.withdrawn,
        "players": len(standings.rows),
        "rounds": standings.rounds,
    }


def play_standings(*, player: Player, leaders: int = STANDINGS_LEADERS) -> dict[str, Any]:
    """The first places and the player's own line, from published rounds only."""
    standings = _standings_cached(event=player.event)
    mine = standings.row_of(player.pk)
    language = player.event.language  # the event's, as its phones' pages speak it
    return {
        "rounds": standings.rounds,
        "top_total": standings.top_total,
        "players": len(standings.rows),
        "leaders": [
            _row_json(r, standings, language) | {"me": r.player_id == player.pk}
            for r in standings.rows[:leaders]
        ],
        "me": _row_json(mine, standings, language) | {"me": True} if mine is not None else None,
    }


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


def play_shared(*, event: Event, game: Game | None, now: datetime) -> dict[str, Any]:
    """What every phone of the event shows alike at ``now`` (the server clock): the event, the
    game, its board and the round in play. Rendered once per change for all of them
    (``web.live``), then merged with each player's own part (``play_personal_many``)."""
    data: dict[str, Any] = {
        "event": {
            "slug": event.slug,
            "name": event.name,
            "warning_seconds": event.warning_seconds,
            "time_zone": event.time_zone,
            "rulebook": event.rulebook,
        },
        "game": None,
        "round": None,
        "board": None,
        "premiums": None,
        "values": None,
    }
    if game is None:
        return data
    data["game"] = {
        "number": game.number,
        "status": game.status,
        "end_reason": game.end_reason,
        "formula": game.formula,
        "formula_label": game.formula_shown,
    }
    data["board"] = list(game.board)
    data["premiums"] = list(Layout.load(game.board_layout).rows)
    data["values"] = {**TileSet.load(game.tile_set).values, BLANK: 0}
    current = round_current(game_id=game.pk)
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
            # the slip service's own rule, at the time of the render (the grace included)
            "accepts_slips": current.accepts_slips(at=now, grace=event.grace),
        }
    return data


def _ruling_json(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "code": row["code"],
        "label": ruling_label(row["code"]),  # in the reader's language when written
        "placed": row["code"] in PLACED_CODES,
        "reason": row["reason"],
        "points": row["points"],
        "total": _total(row),
    }


def _total(row: dict[str, Any]) -> int:
    return ruling_total(
        points=row["points"],
        solo=row["solo"],
        penalty=row["penalty"],
        warning_penalty=row["warning_penalty"],
    )


def play_personal_many(
    *, event: Event, game: Game | None, player_ids: Collection[int] | None = None
) -> dict[int, dict[str, Any]]:
    """Each player's own part of the phone's state (every player of the event, or those of
    ``player_ids``), in a few queries whatever their number: their name and table, their
    current slip for the round in play, their result in the last published round, their line
    of the standings and their slips (``play_slips``). A publication reaches every phone of a
    room at once: this is read once for them all, not once per phone."""
    players = Player.objects.filter(event_id=event.pk)
    if player_ids is not None:
        players = players.filter(pk__in=list(player_ids))
    mine: dict[int, dict[str, Any]] = {
        pk: {
            "player": {"name": name, "table": table},
            "slip": None,
            "result": None,
            "standings": None,
            "slips": [],
        }
        for pk, name, table in players.values_list("pk", "name", "table").order_by()
    }
    if game is None or not mine:
        return mine
    ids = None if player_ids is None else list(mine)

    def only(queryset: Any) -> Any:
        return queryset if ids is None else queryset.filter(player_id__in=ids)

    current = round_current(game_id=game.pk)
    last = round_last_published(game_id=game.pk)
    rulings = {
        row["submission_id"]: row
        for row in only(
            Ruling.objects.filter(
                round__game=game, round__status=Round.Status.PUBLISHED, submission__isnull=False
            )
        )
        .values("submission_id", "code", "reason", "points", "solo", "penalty", "warning_penalty")
        .order_by()
    }
    slips = (
        only(Submission.objects.filter(round__game=game))
        .values(
            "pk",
            "player_id",
            "round_id",
            "round__number",
            "round__status",
            "word",
            "ref",
            "announced_score",
            "received_at",
            "source",
            "is_current",
            "late",
        )
        .order_by("-round__number", "-received_at", "-pk")
    )
    for row in slips:
        listed = mine.get(row["player_id"])
        if listed is None:
            continue
        listed["slips"].append(
            {
                "id": row["pk"],
                "round": row["round__number"],
                "round_status": row["round__status"],
                "word": row["word"],
                "ref": row["ref"],
                "score": row["announced_score"],
                "received_at": row["received_at"],
                "source": row["source"],
                "current": row["is_current"],
                "late": row["late"],
                "ruling": _ruling_json(rulings[row["pk"]]) if row["pk"] in rulings else None,
            }
        )
        if current is not None and row["round_id"] == current.pk and row["is_current"]:
            listed["slip"] = {
                "id": row["pk"],
                "round": row["round__number"],
                "word": row["word"],
                "ref": row["ref"],
                "score": row["announced_score"],
                "received_at": row["received_at"],
            }
    if last is not None:
        top = (
            {"ref": last.played_ref, "word": last.played_word, "score": last.played_score}
            if last.played_word
            else None
        )
        results = only(Ruling.objects.filter(round=last)).values(
            "player_id",
            "code",
            "reason",
            "points",
            "penalty",
            "warning_penalty",
            "solo",
            "move_score",
            "found_top",
            "submission_id",
            "submission__word",
            "submission__ref",
            "submission__announced_score",
        )
        for pk in mine:
            mine[pk]["result"] = {"round": last.number, "top": top, "ruling": None}
        for row in results.order_by():
            if row["player_id"] not in mine:
                continue
            mine[row["player_id"]]["result"]["ruling"] = {
                "code": row["code"],
                "label": ruling_label(row["code"]),  # in the reader's language when written
                "placed": row["code"] in PLACED_CODES,
                "reason": row["reason"],
                "points": row["points"],
                "penalty": row["penalty"] + row["warning_penalty"],
                "solo": row["solo"],
                "total": _total(row),
                "move_score": row["move_score"],
                "found_top": row["found_top"],
                "slip": None
                if row["submission_id"] is None
                else {
                    "word": row["submission__word"],
                    "ref": row["submission__ref"],
                    "score": row["submission__announced_score"],
                },
            }
    standings = _standings_cached(event=event)
    rows = {row.player_id: row for row in standings.rows}  # row_of is a scan: once per player
    for pk, listed in mine.items():
        row = rows.get(pk)
        listed["standings"] = (
            _row_json(row, standings, event.language) | {"me": True} if row else None
        )
    if game.formula == SUDDEN_DEATH:  # mort subite (3.8.3): who is still in, from published
        out = game_eliminations(game=game)
        still_in = Player.objects.filter(event_id=event.pk).count() - len(out)
        for pk, listed in mine.items():
            listed["sudden_death"] = {"eliminated_at": out.get(pk), "still_in": still_in}
    return mine


@dataclass(frozen=True)
class PlayState:
    version: str
    data: dict[str, Any]


def play_state_for_phone(*, player: Player, now: datetime, version: str) -> PlayState:
    """Everything the player's phone shows now (``now`` is the server clock): the shared part
    (``play_shared``) and the player's own (``play_personal_many``); ``version`` is the caller's
    (read before this, so that a change meanwhile reads as a newer version)."""
    event = player.event
    game = game_current(event_id=player.event_id)
    personal = play_personal_many(event=event, game=game, player_ids=[player.pk])[player.pk]
    data = (
        {"version": version, "server_time": now}
        | play_shared(event=event, game=game, now=now)
        | personal
    )
    return PlayState(version=version, data=data)
