"""Closing an event (its director, docs/design.md's "Roles"): a closed event takes no new
round, no slip and no amendment of a ruling; it can be reopened. The event's stored status is
the switch (``Event.is_closed``: finished); what the pages show otherwise follows its games."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import Event
from tournament.selectors import event_round_in_play
from tournament.services.audit import audit_record


@transaction.atomic
def event_close(*, event: Event, actor: User | None) -> Event:
    """Close the event once no round is in play (drawn, open, closed or scored): publish or
    annul it first, so that no slip is left unruled."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.is_closed:
        raise ApplicationError(
            gettext("%(name)s is already closed.") % {"name": event.name},
            code="event_closed",
        )
    in_play = event_round_in_play(event_id=event.pk)
    if in_play is not None:
        raise ApplicationError(
            gettext(
                "Round %(number)s of game %(game)s is %(status)s: publish or annul it before "
                "closing the event."
            )
            % {
                "number": in_play.number,
                "game": in_play.game.number,
                "status": str(in_play.get_status_display()).lower(),
            },
            code="round_in_play",
        )
    before = event.status
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    audit_record(event=event, action="tournament.event.closed", actor=actor, data={"was": before})
    return event


@transaction.atomic
def event_reopen(*, event: Event, actor: User | None) -> Event:
    """Reopen a closed event: rounds, slips and amendments are taken again."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.is_closed:
        raise ApplicationError(
            gettext("%(name)s is not closed.") % {"name": event.name},
            code="event_not_closed",
        )
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    audit_record(event=event, action="tournament.event.reopened", actor=actor)
    return event


def event_require_open(event: Event, *, refused: type[ApplicationError] = ApplicationError) -> None:
    """Refuse a change to a closed event (a new round, a slip, an amendment), saying why: the
    one closed-event refusal (code ``event_closed``), raised as ``refused`` (a slip's refusal
    is a ``SlipRefused``)."""
    if event.is_closed:
        raise refused(
            gettext(
                "%(name)s is closed: no new round, no slip and no amendment until its director "
                "reopens it."
            )
            % {"name": event.name},
            code="event_closed",
        )


def event_closed_said(event: Event) -> str:
    """What the console and the API say once the event is closed (the one sentence)."""
    return gettext(
        "%(name)s is closed: no new round, no slip, no amendment until it is reopened."
    ) % {"name": event.name}


def event_reopened_said(event: Event) -> str:
    """What the console and the API say once the event is reopened."""
    return gettext("%(name)s is open again.") % {"name": event.name}
