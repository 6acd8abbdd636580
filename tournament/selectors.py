"""Reads: the queries pages and the API render, with their joins and counts done here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Prefetch, QuerySet

from tournament.models import Event, Game, Player


def _events_visible(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Event]:
    """Superusers see every event; other accounts the events where they hold a role."""
    if not user.is_authenticated:
        return Event.objects.none()
    events = Event.objects.all()
    if not getattr(user, "is_superuser", False):
        events = events.filter(roles__user=user)
    return events.annotate(
        players_count=Count("players", distinct=True),
        games_count=Count("games", distinct=True),
    )


def event_list_visible(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Event]:
    """The events ``user`` may see, newest first, with ``players_count``, ``games_count``
    and their games."""
    return (
        _events_visible(user=user)
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .order_by("-starts_on", "name")
    )


def event_get_visible(*, user: AbstractBaseUser | AnonymousUser, slug: str) -> Event | None:
    """One event by slug if ``user`` may see it, with its players (by table) and games
    (with ``rounds_count``)."""
    return (
        _events_visible(user=user)
        .filter(slug=slug)
        .prefetch_related(
            Prefetch(
                "players",
                queryset=Player.objects.order_by(F("table").asc(nulls_last=True), "name"),
            ),
            Prefetch(
                "games",
                queryset=Game.objects.annotate(rounds_count=Count("rounds")).order_by("number"),
            ),
        )
        .first()
    )
