"""Simultaneous events (reads): the rooms and how far each has played, and the results file a
room hands to the central installation (docs/interchange.md, "Room results")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.utils import timezone

from arbiter.services.room_files import ROOM_RESULTS_FORMAT, ROOM_RESULTS_VERSION
from arbiter.services.rooms import RULING_FIELDS
from tournament.models import Event, Round, Ruling
from tournament.selectors import event_round_in_play


@dataclass(frozen=True)
class RoomProgress:
    event: Event
    is_host: bool
    players: int
    published: int  # rounds published (all games)
    last: tuple[int, int] | None  # (game, round) of the last published round
    in_play: tuple[int, int] | None  # (game, round) of the round in play, if any


def rooms_progress(host: Event) -> list[RoomProgress]:
    """The host and each of its rooms, with its players and how far it has played."""
    events = [host, *host.rooms.order_by("pk")]
    players = dict(
        Event.objects.filter(pk__in=[e.pk for e in events])
        .annotate(n=Count("players"))
        .values_list("pk", "n")
    )
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
            )
        )
    return rows


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
