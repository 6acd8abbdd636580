"""A compiled query (``tournament.compiled``) reads what its queryset reads, for any arguments,
with the SQL compiled once; a queryset whose SQL depends on the values is refused."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from tests.factories import EventFactory, GameFactory, PlayerFactory, RoundFactory
from tournament.compiled import Compiled
from tournament.models import Player, Round

pytestmark = pytest.mark.django_db


def _by_token(token: str):
    return Player.objects.select_related("event").filter(token=token).order_by()[:2]


def _fields(obj: object, names: list[str]) -> list[object]:
    return [getattr(obj, name) for name in names]


def test_it_reads_the_players_and_their_event_the_queryset_reads_for_any_token() -> None:
    compiled = Compiled(Player, _by_token, token=str)
    ann, bob = PlayerFactory(name="Ann"), PlayerFactory(name="Bob")
    for player in (ann, bob):
        [found] = compiled.all(token=player.token)
        [expected] = _by_token(player.token)
        names = [f.attname for f in Player._meta.concrete_fields]
        assert _fields(found, names) == _fields(expected, names)
        with CaptureQueriesContext(connection) as queries:
            assert found.event.name == expected.event.name  # already read: no query
        assert len(queries) == 0
    assert compiled.all(token="nobody") == []
    assert compiled.one_or_none(token="nobody") is None


def test_its_sql_is_compiled_once_and_run_with_each_calls_values() -> None:
    compiled = Compiled(Player, _by_token, token=str)
    ann, bob = PlayerFactory(), PlayerFactory()
    with CaptureQueriesContext(connection) as queries:
        compiled.all(token=ann.token)
        compiled.all(token=bob.token)
    first, second = (q["sql"] for q in queries.captured_queries)
    assert ann.token in first and bob.token in second
    assert first.replace(ann.token, "?") == second.replace(bob.token, "?")


def test_only_leaves_the_other_fields_deferred_and_integers_fill_their_places() -> None:
    event = EventFactory()
    game = GameFactory(event=event, number=2, seed=7)
    round_ = RoundFactory(game=game, number=3)

    def rounds(game_id: int, number: int):
        return Round.objects.filter(game_id=game_id, number=number).only("pk", "number")[:2]

    compiled = Compiled(Round, rounds, game_id=int, number=int)
    [found] = compiled.all(game_id=game.pk, number=3)
    assert (found.pk, found.number) == (round_.pk, 3)
    assert found.get_deferred_fields() == rounds(game.pk, 3)[0].get_deferred_fields()
    assert compiled.all(game_id=game.pk, number=4) == []
    with pytest.raises(Round.DoesNotExist):
        compiled.get(game_id=game.pk, number=4)


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction, as Django says
def test_a_locking_read_runs_only_in_a_transaction() -> None:
    ann = PlayerFactory()
    compiled = Compiled(
        Player, lambda pk: Player.objects.select_for_update().filter(pk=pk).order_by()[:2], pk=int
    )
    with transaction.atomic():
        assert compiled.get(pk=ann.pk) == ann
    with pytest.raises(TransactionManagementError):
        compiled.get(pk=ann.pk)


def test_a_queryset_whose_sql_changes_the_value_is_refused() -> None:
    """``icontains`` sends ``%value%``: the value is not a parameter of its own."""
    compiled = Compiled(
        Player, lambda name: Player.objects.filter(name__icontains=name)[:2], name=str
    )
    with pytest.raises(ValueError, match="not one parameter of its own"):
        compiled.all(name="Ann")
