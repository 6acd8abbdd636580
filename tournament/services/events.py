from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify

from config.errors import ApplicationError
from tournament.models import Event, EventRole
from tournament.models.choices import BoardLayout, TileSet
from tournament.services.audit import audit_record


def _slug_free(base: str) -> str:
    base = (slugify(base) or "event")[:70]
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def event_create(
    *,
    name: str,
    starts_on: dt.date,
    actor: AbstractBaseUser | None,
    venue: str = "",
    slug: str | None = None,
    round_seconds: int = 180,
    tile_set: str = TileSet.EN,
    lexicon: str = "enable",
    board_layout: str = BoardLayout.STANDARD,
) -> Event:
    """Create an event with the default rules policy; its creator becomes its director."""
    name = name.strip()
    if not name:
        raise ApplicationError("An event needs a name.")
    if lexicon not in settings.LEXICONS:
        known = ", ".join(sorted(settings.LEXICONS))
        raise ApplicationError(f"Unknown lexicon {lexicon!r}: known lexicons are {known}.")
    if slug is not None and Event.objects.filter(slug=slug).exists():
        raise ApplicationError(f"The address {slug!r} is taken by another event.")
    event = Event(
        name=name,
        slug=slug or _slug_free(name),
        starts_on=starts_on,
        venue=venue.strip(),
        round_seconds=round_seconds,
        tile_set=tile_set,
        lexicon=lexicon,
        board_layout=board_layout,
    )
    event.full_clean()
    event.save()
    if actor is not None:
        EventRole.objects.create(user=actor, event=event, role=EventRole.Role.DIRECTOR)
    audit_record(
        event=event,
        action="tournament.event.created",
        actor=actor,
        data={"name": event.name, "slug": event.slug, "starts_on": starts_on.isoformat()},
    )
    return event
