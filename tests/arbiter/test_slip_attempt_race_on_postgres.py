"""Two requests of the same slip attempt at once (a phone's retry while its first request is
still held, or the web's own retry after a lost answer), on PostgreSQL with two real
connections: one slip is stored and both are answered with its receipt (the player's row lock
serialises them; the unique constraint on the attempt backs it)."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, connection, transaction

from arbiter.services import slips as slip_service
from tests.arbiter.conftest import T0, open_round
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.models import Submission

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ATTEMPT = "race-attempt-0001"


def test_two_identical_attempts_at_once_store_one_slip_and_get_one_receipt() -> None:
    event = EventFactory(solo_min_players=99)
    ann = PlayerFactory(event=event, name="Ann", table=1)
    round_ = open_round(GameFactory(event=event, number=1, seed=7))
    at = T0 + dt.timedelta(seconds=20)
    start = threading.Barrier(2)
    results: list[object] = []

    def hand_in() -> None:
        try:
            start.wait(5)
            handed = slip_service.slip_hand_in(
                player=ann, round=round_, word="WROTE", ref="H4", score=24, at=at, attempt=ATTEMPT
            )
            results.append(handed.receipt())
        except Exception as exc:  # the test reads it
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=hand_in) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert len(results) == 2 and all(isinstance(r, dict) for r in results), results
    assert results[0] == results[1]
    assert Submission.objects.filter(player=ann, attempt=ATTEMPT).count() == 1


def test_the_database_refuses_a_second_slip_under_one_attempt() -> None:
    event = EventFactory(solo_min_players=99)
    ann = PlayerFactory(event=event, name="Ann", table=1)
    round_ = open_round(GameFactory(event=event, number=1, seed=7))
    slip_service.slip_hand_in(
        player=ann, round=round_, word="WROTE", ref="H4", score=24, at=T0, attempt=ATTEMPT
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.create(
            round=round_, player=ann, word="WROTE", ref="H4", is_current=False, attempt=ATTEMPT
        )
