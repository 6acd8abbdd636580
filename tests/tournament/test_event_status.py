"""An event's status comes from its games (``tournament.selectors.event_status_of``): the
stored column stayed "planned" through a whole night."""

from __future__ import annotations

import pytest

from tournament.models import Game
from tournament.models.event import EventStatus
from tournament.selectors import event_status_of

SETUP, RUNNING, FINISHED = Game.Status.SETUP, Game.Status.RUNNING, Game.Status.FINISHED


@pytest.mark.parametrize(
    ("games", "status"),
    [
        ([], EventStatus.PLANNED),
        ([SETUP], EventStatus.PLANNED),
        ([SETUP, SETUP], EventStatus.PLANNED),
        ([RUNNING, SETUP], EventStatus.RUNNING),
        ([FINISHED, SETUP], EventStatus.RUNNING),  # between its games
        ([FINISHED, RUNNING], EventStatus.RUNNING),
        ([FINISHED], EventStatus.FINISHED),
        ([FINISHED, FINISHED], EventStatus.FINISHED),
    ],
)
def test_an_events_status_follows_its_games(games: list[str], status: EventStatus) -> None:
    assert event_status_of(games=[Game(status=s) for s in games]) == status
