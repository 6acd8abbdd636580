"""Simultaneous events (writes): a host event draws every game in advance; its rooms play the
same games, each with its own clock, staff, screen and players (rules.md, "Simultaneous
events").

A room is an Event whose ``host`` is the simultaneous event. It takes the host's rules
(``SHARED_RULES``: what makes the rooms' scores comparable) and a copy of every game the host
has, in the same order; a game added to the host later is added to every room. A room keeps
its own operation: its grace, its warning before the end, its publishing delay, its language
and its time zone. A remote room is played on another installation: it runs no clock here, and
its results come in as a file (``arbiter.services.room_results``).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import Event, EventRole, Game
from tournament.selectors import host_of
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.services.events import POLICY_FIELDS, event_create
from tournament.services.games import game_copy


def games_require_predrawn(host: Event) -> None:
    """Every game of a simultaneous event is drawn in advance (the rooms play the same racks
    at their own pace); a game drawn round by round cannot be shared."""
    drawn_live = list(
        host.games.exclude(source=Game.Source.PREDRAWN).values_list("number", flat=True)
    )
    if drawn_live:
        raise ApplicationError(
            gettext(
                "Game %(numbers)s of %(host)s is drawn round by round: the rooms of a "
                "simultaneous event play games drawn in advance. Remove it, or start another "
                "event."
            )
            % {"numbers": ", ".join(map(str, drawn_live)), "host": host.name},
            code="host_game_round_by_round",
        )


@transaction.atomic
def room_create(
    *, host: Event, name: str, actor: User | None, venue: str = "", remote: bool = False
) -> Event:
    """A new room of ``host``: the host's rules and a copy of each of its games. The host's
    directors direct the room too (and may invite its own staff); so does ``actor``."""
    host = Event.objects.select_for_update().get(pk=host.pk)
    if host.host_id is not None:
        raise ApplicationError(
            gettext("%(event)s is itself a room of %(host)s: add the room to %(host)s.")
            % {"event": host.name, "host": host_of(host).name},
            code="room_of_a_room",
        )
    event_require_open(host)
    if not remote:  # a remote room may follow a multiplex, drawn live (docs/design.md)
        games_require_predrawn(host)
    room = event_create(
        name=name,
        starts_on=host.starts_on,
        venue=venue,
        actor=actor,
        **{k: getattr(host, k) for k in POLICY_FIELDS},
    )
    room.host, room.remote = host, remote
    room.save(update_fields=["host", "remote"])
    for role in EventRole.objects.filter(event=host, role=EventRole.Role.DIRECTOR):
        EventRole.objects.get_or_create(
            user_id=role.user_id, event=room, defaults={"role": EventRole.Role.DIRECTOR}
        )
    for game in host.games.order_by("number"):
        game_copy(game=game, room=room)
    data = {"room": room.slug, "name": room.name, "remote": remote}
    audit_record(event=host, action="tournament.room.created", actor=actor, data=data)
    return room
