"""Simultaneous events (reads): the rooms and how far each has played, and the results file a
room hands to the central installation (docs/interchange.md, "Room results")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.utils import timezone

from arbiter.services.rooms import ROOM_RESULTS_FORMAT, ROOM_RESULTS_VERSION
from tournament.models import Event, Round, Ruling


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
        playing = rounds.filter(status__in=Round.IN_PLAY).values_list("game__number", "number")
        rows.append(
            RoomProgress(
                event=event,
                is_host=event.pk == host.pk,
                players=players.get(event.pk, 0),
                published=published.count(),
                last=next(iter(last), None),
                in_play=next(iter(playing[:1]), None),
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
    for r in (
        Ruling.objects.filter(round__in=published)
        .select_related("submission", "round__game")
        .order_by("round__game__number", "round__number", "player_id")
    ):
        slip = r.submission
        rulings.setdefault(r.player_id, []).append(
            {
                "game": r.round.game.number,
                "round": r.round.number,
                "code": r.code,
                "word": slip.word if slip else "",
                "ref": slip.ref if slip else "",
                "announced": slip.announced_score if slip else None,
                "move_score": r.move_score,
                "points": r.points,
                "warning": r.warning,
                "penalty": r.penalty,
                "warning_penalty": r.warning_penalty,
                "solo": r.solo,
                "found_top": r.found_top,
                "rank": r.rank,
                "averaged": r.averaged,
                "reason": r.reason,
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
