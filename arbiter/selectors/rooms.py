"""Simultaneous events (reads): the rooms and how far each has played, and the results file a
room hands to the central installation (docs/interchange.md, "Room results")."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count
from django.utils import timezone

from arbiter.services.room_files import ROOM_RESULTS_FORMAT, ROOM_RESULTS_VERSION
from arbiter.services.rooms import RULING_FIELDS
from tournament.models import Event, RoomKey, RoomReceipt, Round, Ruling
from tournament.selectors import event_round_in_play


@dataclass(frozen=True)
class RoomLink:
    """A remote room's link as the host sees it."""

    key_hint: str  # "" without an active key
    last_seen_at: datetime | None
    last_results_at: datetime | None
    offline: bool  # an active key not heard from for ``OFFLINE_SECONDS``
    received: int  # rounds whose results came in


OFFLINE_SECONDS = 30


def room_links(host: Event) -> dict[int, RoomLink]:
    """{room id: its link} for the host's remote rooms."""
    now = timezone.now()
    rooms = list(host.rooms.filter(remote=True).values_list("pk", flat=True))
    keys: dict[int, RoomKey] = {}
    for k in RoomKey.objects.filter(room_id__in=rooms, revoked_at__isnull=True):
        keys.setdefault(k.room_id, k)
    received: dict[int, int] = {}
    for room_id in RoomReceipt.objects.filter(room_id__in=rooms).values_list("room_id", flat=True):
        received[room_id] = received.get(room_id, 0) + 1
    links = {}
    for room_id in rooms:
        found = keys.get(room_id)
        if found is None and room_id not in received:
            continue  # a room that sends its file, or whose key was revoked before any result
        seen = found.last_seen_at if found else None
        links[room_id] = RoomLink(
            key_hint=found.hint if found else "",
            last_seen_at=seen,
            last_results_at=found.last_results_at if found else None,
            offline=found is not None
            and (seen is None or (now - seen).total_seconds() > OFFLINE_SECONDS),
            received=received.get(room_id, 0),
        )
    return links


@dataclass(frozen=True)
class RoomProgress:
    event: Event
    is_host: bool
    players: int
    published: int  # rounds published (all games)
    last: tuple[int, int] | None  # (game, round) of the last published round
    in_play: tuple[int, int] | None  # (game, round) of the round in play, if any
    link: RoomLink | None = None  # a remote room's live link (a multiplex), if it has a key
    late: bool = False  # fewer rounds published than the host


def rooms_progress(host: Event) -> list[RoomProgress]:
    """The host and each of its rooms, with its players and how far it has played."""
    events = [host, *host.rooms.order_by("pk")]
    players = dict(
        Event.objects.filter(pk__in=[e.pk for e in events])
        .annotate(n=Count("players"))
        .values_list("pk", "n")
    )
    links = room_links(host)
    rows = []
    for event in events:
        rounds = Round.objects.filter(game__event=event)
        published = rounds.filter(status=Round.Status.PUBLISHED)
        last = published.order_by("-game__number", "-number").values_list("game__number", "number")[
            :1
        ]
        playing = event_round_in_play(event_id=event.pk)
        rows.append(
            RoomProgress(
                event=event,
                is_host=event.pk == host.pk,
                players=players.get(event.pk, 0),
                published=published.count(),
                last=next(iter(last), None),
                in_play=None if playing is None else (playing.game.number, playing.number),
                link=links.get(event.pk),
            )
        )
    hosted = rows[0].published
    return [
        r if r.is_host or r.published >= hosted else dataclasses.replace(r, late=True) for r in rows
    ]


def room_results(event: Event) -> dict[str, Any]:
    """The room's results file: its published rounds and every player's rulings in them (with
    the slip each ruled), for the central installation's ``room_results_import``."""
    published = Round.objects.filter(game__event=event, status=Round.Status.PUBLISHED)
    games = []
    for game in event.games.order_by("number"):
        rounds = [r for r in published if r.game_id == game.pk]
        rounds.sort(key=lambda r: r.number)
        games.append(
            {
                "number": game.number,
                "rounds": [
                    {
                        "number": r.number,
                        "rack": r.rack,
                        "ref": r.played_ref,
                        "word": r.played_word,
                        "score": r.played_score or 0,
                    }
                    for r in rounds
                ],
            }
        )
    rulings: dict[int, list[dict[str, Any]]] = {}
    rows = (
        Ruling.objects.filter(round__in=published)
        .order_by("round__game__number", "round__number", "player_id")
        .values_list(
            "player_id",
            "round__game__number",
            "round__number",
            "code",
            "submission__word",
            "submission__ref",
            "submission__announced_score",
            *RULING_FIELDS,
        )
    )
    for player, game, number, code, word, ref, announced, *fields in rows:
        rulings.setdefault(player, []).append(
            {
                "game": game,
                "round": number,
                "code": code,
                "word": word or "",
                "ref": ref or "",
                "announced": announced,
                **dict(zip(RULING_FIELDS, fields, strict=True)),
            }
        )
    return {
        "format": ROOM_RESULTS_FORMAT,
        "version": ROOM_RESULTS_VERSION,
        "room": {
            "name": event.name,
            "venue": event.venue,
            "starts_on": event.starts_on.isoformat(),
            "exported_at": timezone.now().isoformat(timespec="seconds"),
            "rulebook": event.rulebook,
        },
        "games": games,
        "players": [
            {
                "name": p.name,
                "club": p.club,
                "licence": p.licence,
                "category": p.category,
                "series": p.series,
                "age_category": p.age_category,
                "table": p.table,
                "rulings": rulings.get(p.pk, []),
            }
            for p in event.players.order_by("pk")
        ],
    }
