"""``unique_or_none``: the one row a unique filter selects, sorted by nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import MultipleObjectsReturned
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EventFactory, PlayerFactory
from tournament.models import Player
from tournament.selectors import unique_or_none

pytestmark = pytest.mark.django_db


def test_it_gives_the_row_or_none_and_refuses_a_filter_that_is_not_unique() -> None:
    event = EventFactory()
    ann = PlayerFactory(event=event, name="Ann", table=1)
    PlayerFactory(event=event, name="Ann", table=2)
    assert unique_or_none(Player.objects.filter(event=event, table=1)) == ann
    assert unique_or_none(Player.objects.filter(event=event, table=3)) is None
    with pytest.raises(MultipleObjectsReturned, match="Player: the filter is not unique"):
        unique_or_none(Player.objects.filter(event=event, name="Ann"))


def test_it_sorts_nothing_where_first_follows_the_default_orderings() -> None:
    """A slip's default ordering goes through its round, game, event and player: ``.first()``
    joins four tables to sort one row."""
    ann = PlayerFactory(table=1)
    with CaptureQueriesContext(connection) as first:
        Player.objects.filter(pk=ann.pk).select_related("event").first()
    with CaptureQueriesContext(connection) as unique:
        unique_or_none(Player.objects.filter(pk=ann.pk).select_related("event"))
    assert "ORDER BY" in first.captured_queries[0]["sql"]
    assert "ORDER BY" not in unique.captured_queries[0]["sql"]


def test_the_current_game_is_the_running_one_else_the_next_to_play_else_the_last_finished():
    """Phones and the event's screen follow ``game_current``: before anything starts, game 1
    (not the latest game set up); then the running one; between games, the next to play."""
    from tests.factories import GameFactory
    from tournament.models import Game
    from tournament.selectors import game_current

    event = EventFactory()
    assert game_current(event_id=event.pk) is None
    one, two, three = (GameFactory(event=event, number=n) for n in (1, 2, 3))
    assert game_current(event_id=event.pk) == one
    Game.objects.filter(pk=one.pk).update(status=Game.Status.RUNNING)
    assert game_current(event_id=event.pk) == one
    Game.objects.filter(pk=one.pk).update(status=Game.Status.FINISHED)
    assert game_current(event_id=event.pk) == two
    Game.objects.filter(pk=three.pk).update(status=Game.Status.RUNNING)
    assert game_current(event_id=event.pk) == three  # a director may play them out of order
    Game.objects.filter(pk__in=[two.pk, three.pk]).update(status=Game.Status.FINISHED)
    assert game_current(event_id=event.pk) == three
