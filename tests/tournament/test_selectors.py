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
