"""Fixtures of the faces' tests."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.services import clock, racks
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tests.web.night import PLAYERS, publish_round


@pytest.fixture
def night(db):
    """A club night of 40 players: game 1 has two rounds published (WROTE, then TREMOLOS
    through its R: 12 tiles on the board) and a third open; game 2 waits."""
    return club_night()


def club_night(language: str = "en"):
    """The ``night`` fixture's event, in ``language`` from the start (its rulings too)."""
    event = EventFactory(
        name="Club night", slug="club-night", solo_min_players=99, language=language
    )
    players = [
        PlayerFactory(event=event, name=f"Player {n:02d} Longname", table=n)
        for n in range(1, PLAYERS + 1)
    ]
    game = GameFactory(event=event, number=1, seed=7)
    GameFactory(event=event, number=2, seed=8)
    publish_round(game, {p: ("WROTE", "H4", 24) for p in players[::2]})
    publish_round(game, {p: ("TREMOLOs", "5G", 68) for p in players[::3]})
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    clock.round_open(round=drawn, actor=None, now=timezone.now())
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role="director")
    return event, game, players, director
