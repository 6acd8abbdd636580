"""Two arbiters warn the same player at once, on PostgreSQL with two real connections (rules.md
case 21): the service locks the game's row, so the second warning's penalties are derived with
the first's in them. Without the lock each transaction would count only its own warning (the
other not yet committed) and the warning beyond the free ones would cost nothing."""

from __future__ import annotations

import threading
import time

import pytest

from arbiter.services import discipline as discipline_service
from tests.arbiter.rules.helpers import horn_game, rulings, score
from tests.arbiter.test_close_race_on_postgres import in_thread
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournament.models import Discipline

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_warnings_given_at_once_are_both_counted_in_the_penalties(monkeypatch) -> None:
    event = EventFactory(solo_min_players=99, warnings_free=1)
    players = [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate("AB")]
    _, r = horn_game(players)
    r = score(r)
    arbiters = [UserFactory(username="arnold"), UserFactory(username="berta")]
    derive = discipline_service.rulings_derive
    stalled, first = threading.Event(), threading.Event()

    def slow(**kwargs: object) -> int:  # the first warning, derived but not yet committed
        changed = derive(**kwargs)  # type: ignore[arg-type]
        if not first.is_set():
            first.set()
            stalled.set()
            time.sleep(1.0)
        return changed

    monkeypatch.setattr(discipline_service, "rulings_derive", slow)
    results: dict[str, object] = {}

    def warn(i: int) -> object:
        return discipline_service.discipline_warn(
            round=r, player=players[0], reason=f"warned by {arbiters[i]}", actor=arbiters[i]
        )

    one = in_thread(lambda: warn(0), results, "one")
    assert stalled.wait(10)
    two = in_thread(lambda: warn(1), results, "two")
    one.join(20)
    two.join(20)
    assert not any(isinstance(v, Exception) for v in results.values()), results
    assert Discipline.objects.filter(player=players[0]).count() == 2
    ann = rulings(r)["A"]
    assert (ann.discipline_warnings, ann.warning_penalty) == (2, 5)  # one free, one at 5
