"""Fixtures for the arbitration: an event with players, a seeded game, and a clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import time_machine

from arbiter.services import clock, publishing, racks, scoring
from tests.factories import EventFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Event, Game, Player, Round

T0 = dt.datetime(2026, 5, 1, 20, 0, 0, tzinfo=dt.UTC)


@pytest.fixture
def frozen_clock() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def arbiter_user(db):
    return UserFactory(username="arbiter")


@pytest.fixture
def room(db) -> Event:
    """An event with the default policy, except a solo from 3 players (so tests stay small)."""
    return EventFactory(solo_min_players=3)


@pytest.fixture
def players(room: Event) -> list[Player]:
    return [
        PlayerFactory(event=room, name=name, table=i + 1, category=cat)
        for i, (name, cat) in enumerate([("Ann", "S1"), ("Bob", "S1"), ("Cleo", "S2")])
    ]


@pytest.fixture
def game(room: Event, players: list[Player]) -> Game:
    return GameFactory(event=room, number=1, seed=7)


def open_round(game: Game, actor=None, now: dt.datetime = T0) -> Round:
    drawn = racks.round_draw(game=game, actor=actor)
    assert drawn is not None
    return clock.round_open(round=drawn, actor=actor, now=now)


def finish_round(round: Round, now: dt.datetime) -> Round:
    """Close at the deadline plus grace, score and publish: what the tasks and the director do."""
    grace = dt.timedelta(seconds=round.game.event.grace_seconds)
    assert round.deadline is not None
    closing = round.deadline + grace
    assert clock.round_close(round_id=round.pk, now=closing)
    scored = scoring.round_score(round_id=round.pk, now=closing)
    assert scored is not None
    return publishing.round_publish(round=scored, actor=None, now=closing)
