"""Reads: the queries pages and the API render, with their joins and counts done here."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import MultipleObjectsReturned
from django.db.models import Case, Count, F, Model, Prefetch, QuerySet, Value, When

from tournament.compiled import Compiled
from tournament.models import Event, Game, Player, Round
from tournament.models.event import EventStatus

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")

M = TypeVar("M", bound=Model)


def unique_or_none(queryset: QuerySet[M]) -> M | None:
    """The one row a filter on a unique key selects, or None. Unlike ``.first()`` it sorts
    nothing: the models' default orderings follow their foreign keys (a slip's goes through
    its round, game, event and player), and sorting one row by them costs joins and, above
    all, the time Django takes to write them, on every slip handed in."""
    rows = list(queryset.order_by()[:2])
    if len(rows) > 1:
        raise MultipleObjectsReturned(f"{queryset.model.__name__}: the filter is not unique")
    return rows[0] if rows else None


def _events_visible(*, user: User | AnonymousUser) -> QuerySet[Event]:
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


def event_list_visible(*, user: User | AnonymousUser) -> QuerySet[Event]:
    """The events ``user`` may see, newest first, with ``players_count``, ``games_count``,
    their games and, for a room of a simultaneous event, its host."""
    return (
        _events_visible(user=user)
        .select_related("host")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .order_by("-starts_on", "name")
    )


def event_get_visible(*, user: User | AnonymousUser, slug: str) -> Event | None:
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


def game_current_queryset(*, event_id: int) -> QuerySet[Game]:
    """The event's games, the one it is playing first: the running one (the latest, if several
    run), else the next to play (the first still being set up: before anything starts, game 1,
    not the latest created), else the latest finished. The one definition of "the current
    game"."""
    status_first = Case(
        When(status=Game.Status.RUNNING, then=Value(0)),
        When(status=Game.Status.SETUP, then=Value(1)),
        default=Value(2),
    )
    # the running and finished games latest first, the ones being set up first first
    number = Case(When(status=Game.Status.SETUP, then=F("number")), default=-F("number"))
    return Game.objects.filter(event_id=event_id).order_by(status_first, number)


def event_round_in_play(*, event_id: int) -> Round | None:
    """A round of the event still in play (drawn, open, closed or scored; its game with it),
    the first by game and number; None when every round is published or annulled."""
    return (
        Round.objects.filter(game__event_id=event_id, status__in=Round.IN_PLAY)
        .select_related("game")
        .order_by("game__number", "number")
        .first()
    )


def round_in_play(*, game_id: int) -> Round | None:
    """The game's round in play (drawn, open, closed or scored), None between rounds: there is
    at most one (the database's ``round_one_in_play_per_game``)."""
    return unique_or_none(Round.objects.filter(game_id=game_id, status__in=Round.IN_PLAY))


def round_last_published(*, game_id: int) -> Round | None:
    """The game's last published round (the top the room saw last); None before the first."""
    return (
        Round.objects.filter(game_id=game_id, status=Round.Status.PUBLISHED)
        .order_by("-number")
        .first()
    )


def round_current(*, game_id: int) -> Round | None:
    """The round the game is at: the one in play, else the last published one; None before
    the first rack. The one definition of "the current round": the console, the screen, the
    phones and the public page follow it. One query."""
    in_play_first = Case(When(status__in=Round.IN_PLAY, then=Value(0)), default=Value(1))
    return (
        Round.objects.filter(game_id=game_id, status__in=(*Round.IN_PLAY, Round.Status.PUBLISHED))
        .order_by(in_play_first, "-number")
        .first()
    )


def game_current(*, event_id: int) -> Game | None:
    """The game an event is playing (``game_current_queryset``); None before its first game.
    The phones, the screen and the slip look-up all follow it."""
    return game_current_queryset(event_id=event_id).first()


def player_by_token(*, token: str) -> Player | None:
    """The player a secret token belongs to (revoked or not), with its event; None if unknown."""
    if not token or len(token) > 64 or not _TOKEN.fullmatch(token):
        return None  # not a token (tokens are URL-safe base64): no query, whatever it holds
    return _PLAYER_BY_TOKEN.one_or_none(token=token)


# Every request of a phone reads it (compiled once: tournament.compiled).
_PLAYER_BY_TOKEN = Compiled(
    Player,
    lambda token: Player.objects.select_related("event").filter(token=token).order_by()[:2],
    token=str,
)


def event_by_ref(ref: str) -> Event | None:
    """An event by its id or its slug (what the management commands take); None if neither."""
    numeric = ref.isascii() and ref.isdigit() and len(ref) < 19
    event = Event.objects.filter(pk=int(ref)).first() if numeric else None
    return event or Event.objects.filter(slug=ref).first()


def event_status_of(*, games: Iterable[Game]) -> EventStatus:
    """An event's status, derived from its games: running while a game runs or between its
    games, finished once every game is, planned before its first rack (or with no game)."""
    statuses = {game.status for game in games}
    if not statuses or statuses == {Game.Status.SETUP}:
        return EventStatus.PLANNED
    if statuses == {Game.Status.FINISHED}:
        return EventStatus.FINISHED
    return EventStatus.RUNNING


def event_status(*, event: Event) -> EventStatus:
    """The event's status (``event_status_of`` its games); the prefetched games when the event
    came with them (``event_list_visible``, ``event_get_visible``), else one query."""
    return event_status_of(games=event.games.all())


def event_games(*, event_id: int) -> QuerySet[Game]:
    """An event's games, by number (the console's list of projection screens)."""
    return Game.objects.filter(event_id=event_id).order_by("number")


def host_of(event: Event) -> Event:
    """The simultaneous event ``event`` belongs to: its host, or the event itself."""
    return event.host if event.host is not None else event
