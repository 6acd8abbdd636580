"""Fixtures for the player API: a room with players, a seeded game, a frozen clock, clients."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import time_machine
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.arbiter.conftest import T0
from tests.factories import (
    EventFactory,
    EventRoleFactory,
    GameFactory,
    PlayerFactory,
    UserFactory,
)
from tournament.models import Event, EventRole, Game, Player


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Rate-limit buckets and cached standings do not leak from one test to the next."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def frozen_clock() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def room(db) -> Event:
    return EventFactory(name="Spring open", slug="spring-open", solo_min_players=3)


@pytest.fixture
def players(room: Event) -> list[Player]:
    return [
        PlayerFactory(event=room, name=name, table=i + 1)
        for i, name in enumerate(["Ann", "Bob", "Cleo"])
    ]


@pytest.fixture
def ann(players: list[Player]) -> Player:
    """The player whose phone we hold."""
    return players[0]


@pytest.fixture
def game(room: Event, players: list[Player]) -> Game:
    return GameFactory(event=room, number=1, seed=7)


@pytest.fixture
def stranger(db) -> Player:
    """A player of another event, with a running game of its own."""
    other = EventFactory(name="Autumn cup", slug="autumn-cup")
    GameFactory(event=other, number=1, seed=7)
    return PlayerFactory(event=other, name="Sam", table=1)


@pytest.fixture
def phone():
    """``phone(player)``: an API client sending the player's token as a Bearer header."""

    def make(player: Player | None = None, token: str | None = None) -> APIClient:
        client = APIClient()
        token = token or (player.token if player is not None else None)
        if token:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    return make


def seconds(n: float) -> dt.timedelta:
    return dt.timedelta(seconds=n)


@pytest.fixture
def club_night(db) -> tuple[Event, object, object]:
    """The director API's evening: "Club night" (no grace), its director dora and arbiter
    arnold, Ann at table 1."""
    event = EventFactory(name="Club night", slug="club-night", grace_seconds=0)
    director, arbiter = UserFactory(username="dora"), UserFactory(username="arnold")
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    EventRoleFactory(event=event, user=arbiter, role=EventRole.Role.ARBITER)
    PlayerFactory(event=event, name="Ann", table=1)
    return event, director, arbiter
