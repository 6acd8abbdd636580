"""Fixtures of the exports' tests."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.models import Game


@pytest.fixture
def tied_game() -> Game:
    """Seed 7, round 1: rack ELORTTW, top H4 WROTE 24. Ann and Bob play the top, Cleo less."""
    room = EventFactory(solo_min_players=3)
    players = [
        PlayerFactory(event=room, name=name, table=i + 1)
        for i, name in enumerate(["Ann", "Bob", "Cleo"])
    ]
    game = GameFactory(event=room, number=1, seed=7)
    r = open_round(game)
    at = T0 + dt.timedelta(seconds=30)
    slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24, at=at)
    slip_submit(player=players[1], round=r, word="WROTE", ref="H4", score=24, at=at)
    slip_submit(player=players[2], round=r, word="TROW", ref="H5", score=None, at=at)
    finish_round(r, T0)
    return game
