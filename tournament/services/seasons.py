"""A club's season (rules.md, "Season ranking"): its director names it, chooses its nights among
the events they direct and how it ranks (every night's percentage of the top summed, or each
player's best N)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from tournament.errors import ApplicationError
from tournament.models import Event, EventRole, Season


def events_directed(user: User) -> list[Event]:
    """The events ``user`` may put in a season: those they direct (every one, a superuser)."""
    if user.is_superuser:
        return list(Event.objects.order_by("-starts_on", "name"))
    return list(
        Event.objects.filter(roles__user=user, roles__role=EventRole.Role.DIRECTOR).order_by(
            "-starts_on", "name"
        )
    )


def _checked(user: User, event_ids: Iterable[int], method: str, best_n: int | None) -> list[int]:
    if method not in Season.Method.values:
        raise ApplicationError(
            gettext("Unknown ranking method %(method)s.") % {"method": method},
            code="season_method",
        )
    if method == Season.Method.BEST and (best_n is None or best_n < 1):
        raise ApplicationError(
            gettext("Say how many nights count for each player (1 or more)."),
            code="season_best_n",
        )
    allowed = {e.pk for e in events_directed(user)}
    ids = sorted(set(event_ids))
    refused = [i for i in ids if i not in allowed]
    if refused:
        raise ApplicationError(
            gettext("A season takes only events you direct."), code="season_event"
        )
    return ids


def season_create(
    *, name: str, owner: User, event_ids: Iterable[int], method: str, best_n: int | None
) -> Season:
    name = name.strip()
    if not name:
        raise ApplicationError(gettext("Give the season a name."), code="season_name")
    ids = _checked(owner, event_ids, method, best_n)
    base = (slugify(name) or "season")[:70]
    slug, n = base, 1
    while Season.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    with transaction.atomic():
        season = Season.objects.create(
            name=name[:200],
            slug=slug,
            owner=owner,
            method=method,
            best_n=best_n if method == Season.Method.BEST else None,
        )
        season.events.set(ids)
    return season


def season_update(
    *, season: Season, actor: User, event_ids: Iterable[int], method: str, best_n: int | None
) -> Season:
    ids = _checked(actor, event_ids, method, best_n)
    with transaction.atomic():
        season.method = method
        season.best_n = best_n if method == Season.Method.BEST else None
        season.save(update_fields=["method", "best_n"])
        season.events.set(ids)
    return season
